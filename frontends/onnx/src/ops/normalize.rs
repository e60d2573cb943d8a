//! Normalizations decomposed into `hl` reductions and arithmetic: `LayerNormalization` with its
//! `Mean` and `InvStdDev` outputs, `RMSNormalization`, `InstanceNormalization`,
//! `GroupNormalization`, `LpNormalization`, `MeanVarianceNormalization`, `LRN`. Statistics are
//! computed in f32 for f16 / bf16 inputs (ONNX's default `stash_type`) and the result rounded
//! back once.

use kiln_dialects::hl;

use super::arith::{bin, bin_c, cmp_c, reduce, require_float, select, un};
use super::elementwise::cast_to;
use super::layout::slice_dims;
use super::linalg::per_channel;
use super::{attr_float, attr_int, attr_ints, norm_axis};
use crate::graph::{Importer, Val};
use kiln_dialects::hl::attrs::CmpPredicate;

/// `x` in f32 when it is f16 / bf16 (the stash type), and its own element type.
fn stash<'c>(imp: &mut Importer<'_, '_, 'c, '_>, x: &Val) -> Result<(Val, kiln_compiler::Type<'c>), String> {
    let elem = imp.elem(x);
    let f32 = imp.ctx().float_type(kiln_compiler::FloatKind::F32);
    Ok((cast_to(imp, x, f32)?, elem))
}

/// The mean of `x` over `axes` and `1 / sqrt(variance + eps)`, both with the axes kept, and
/// `x - mean`.
fn moments(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, axes: &[i64], eps: f64) -> Result<[Val; 3], String> {
    let mean = reduce(imp, &hl::REDUCE_MEAN, x, axes, true)?;
    let d = bin(imp, &hl::SUB, x, &mean)?;
    let sq = bin(imp, &hl::MUL, &d, &d)?;
    let var = reduce(imp, &hl::REDUCE_MEAN, &sq, axes, true)?;
    let ve = bin_c(imp, &hl::ADD, &var, eps)?;
    let inv = un(imp, &hl::RSQRT, &ve)?;
    Ok([mean, inv, d])
}

/// `LayerNormalization(x, scale, bias?, axis, epsilon)` with its `Mean` and `InvStdDev`
/// outputs (the statistics over dims `axis..`, those dims kept as 1).
pub(super) fn layer_norm_stats(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x0 = imp.input(node, 0)?;
    require_float(imp, &x0, "LayerNormalization")?;
    let rank = imp.rank(&x0);
    let axis = norm_axis(attr_int(node, "axis", -1)?, rank)?;
    let axes: Vec<i64> = (axis as i64..rank as i64).collect();
    let (x, elem) = stash(imp, &x0)?;
    let [mean, inv, d] = moments(imp, &x, &axes, attr_float(node, "epsilon", 1e-5)?)?;
    let mut y = bin(imp, &hl::MUL, &d, &inv)?;
    y = cast_to(imp, &y, elem)?;
    let scale = imp.input(node, 1)?;
    y = bin(imp, &hl::MUL, &y, &scale)?;
    if let Some(b) = imp.opt_input(node, 2)? {
        y = bin(imp, &hl::ADD, &y, &b)?;
    }
    Ok(vec![y, mean, inv])
}

/// `RMSNormalization(x, scale, axis, epsilon)`: `x / sqrt(mean(x^2) + epsilon) * scale` over
/// dims `axis..`.
pub(super) fn rms_norm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x0 = imp.input(node, 0)?;
    require_float(imp, &x0, "RMSNormalization")?;
    let rank = imp.rank(&x0);
    let axis = norm_axis(attr_int(node, "axis", -1)?, rank)?;
    let axes: Vec<i64> = (axis as i64..rank as i64).collect();
    let (x, elem) = stash(imp, &x0)?;
    let sq = bin(imp, &hl::MUL, &x, &x)?;
    let ms = reduce(imp, &hl::REDUCE_MEAN, &sq, &axes, true)?;
    let me = bin_c(imp, &hl::ADD, &ms, attr_float(node, "epsilon", 1e-5)?)?;
    let inv = un(imp, &hl::RSQRT, &me)?;
    let y = bin(imp, &hl::MUL, &x, &inv)?;
    let y = cast_to(imp, &y, elem)?;
    let scale = imp.input(node, 1)?;
    Ok(vec![bin(imp, &hl::MUL, &y, &scale)?])
}

/// `InstanceNormalization(x, scale, bias, epsilon)` (per sample and channel, over the spatial
/// dims) and `GroupNormalization(x, scale, bias, num_groups, epsilon)` (per sample and group
/// of channels; scale and bias per channel from version 21, per group in version 18).
pub(super) fn instance_group_norm(
    imp: &mut Importer<'_, '_, '_, '_>,
    index: usize,
) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x0 = imp.input(node, 0)?;
    require_float(imp, &x0, &node.op_type)?;
    let dims = imp.shape(&x0)?;
    if dims.len() < 2 {
        return Err("the input must have rank 2 or more (N, C, ...)".into());
    }
    let (n, c) = (dims[0], dims[1]);
    let groups = if node.op_type == "GroupNormalization" { attr_int(node, "num_groups", 0)? } else { c };
    if groups <= 0 || c % groups != 0 {
        return Err(format!("{c} channels cannot form {groups} groups"));
    }
    let eps = attr_float(node, "epsilon", 1e-5)?;
    let (x, elem) = stash(imp, &x0)?;
    let xg = imp.reshape(&x, &[n, groups, dims[1..].iter().product::<i64>() / groups])?;
    let [_, inv, d] = moments(imp, &xg, &[2], eps)?;
    let yg = bin(imp, &hl::MUL, &d, &inv)?;
    let yg = cast_to(imp, &yg, elem)?;
    let (scale, bias) = (imp.input(node, 1)?, imp.input(node, 2)?);
    let per_group = node.op_type == "GroupNormalization" && imp.version(node) < 21;
    if per_group {
        let (s, b) = (imp.reshape(&scale, &[groups, 1])?, imp.reshape(&bias, &[groups, 1])?);
        let y = bin(imp, &hl::MUL, &yg, &s)?;
        let y = bin(imp, &hl::ADD, &y, &b)?;
        return Ok(vec![imp.reshape(&y, &dims)?]);
    }
    let y = imp.reshape(&yg, &dims)?;
    let (s, b) = (per_channel(imp, &scale, dims.len())?, per_channel(imp, &bias, dims.len())?);
    let y = bin(imp, &hl::MUL, &y, &s)?;
    Ok(vec![bin(imp, &hl::ADD, &y, &b)?])
}

/// `LpNormalization(axis, p)`: `x / (sum |x|^p)^(1/p)` along `axis` (0 where the norm is 0),
/// `p` 1 or 2.
pub(super) fn lp_norm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let axis = norm_axis(attr_int(node, "axis", -1)?, imp.rank(&x))? as i64;
    let norm = match attr_int(node, "p", 2)? {
        1 => {
            let a = un(imp, &hl::ABS, &x)?;
            reduce(imp, &hl::REDUCE_SUM, &a, &[axis], true)?
        }
        2 => {
            let sq = bin(imp, &hl::MUL, &x, &x)?;
            let s = reduce(imp, &hl::REDUCE_SUM, &sq, &[axis], true)?;
            un(imp, &hl::SQRT, &s)?
        }
        p => return Err(format!("attribute `p` must be 1 or 2, not {p}")),
    };
    // A zero norm gives 0, not 0 / 0.
    let q = bin(imp, &hl::DIV, &x, &norm)?;
    let zero = cmp_c(imp, &norm, 0.0, CmpPredicate::Eq)?;
    let z = imp.scalar_like(&q, 0.0)?;
    Ok(vec![select(imp, &zero, &z, &q)?])
}

/// `MeanVarianceNormalization(axes)`: `(x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9)`, ONNX's
/// function body.
pub(super) fn mvn(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let rank = imp.rank(&x);
    let axes = attr_ints(node, "axes")?.unwrap_or_else(|| vec![0, 2, 3]);
    let mut axes: Vec<i64> =
        axes.iter().map(|&a| norm_axis(a, rank).map(|a| a as i64)).collect::<Result<_, _>>()?;
    axes.sort_unstable();
    let mean = reduce(imp, &hl::REDUCE_MEAN, &x, &axes, true)?;
    let sq = bin(imp, &hl::MUL, &x, &x)?;
    let mean_sq = reduce(imp, &hl::REDUCE_MEAN, &sq, &axes, true)?;
    let m2 = bin(imp, &hl::MUL, &mean, &mean)?;
    let var = bin(imp, &hl::SUB, &mean_sq, &m2)?;
    let std = un(imp, &hl::SQRT, &var)?;
    let den = bin_c(imp, &hl::ADD, &std, 1e-9)?;
    let d = bin(imp, &hl::SUB, &x, &mean)?;
    Ok(vec![bin(imp, &hl::DIV, &d, &den)?])
}

/// `LRN(alpha, beta, bias, size)` across channels: `x / (bias + alpha / size * s)^beta`, `s`
/// the sum of squares over the `size` channels around each (zero-padded), as a sum of slices.
pub(super) fn lrn(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    require_float(imp, &x, "LRN")?;
    let dims = imp.shape(&x)?;
    let size = attr_int(node, "size", 0)?;
    if size < 1 || dims.len() < 2 {
        return Err("attribute `size` must be positive and the input NC...".into());
    }
    let (alpha, beta, bias) =
        (attr_float(node, "alpha", 1e-4)?, attr_float(node, "beta", 0.75)?, attr_float(node, "bias", 1.0)?);
    let sq = bin(imp, &hl::MUL, &x, &x)?;
    let (lo, hi) = ((size - 1) / 2, size - 1 - (size - 1) / 2);
    let (mut low, mut high) = (vec![0; dims.len()], vec![0; dims.len()]);
    (low[1], high[1]) = (lo, hi);
    let zero = imp.number_attr(imp.elem(&x), 0.0);
    let attrs = [("low", imp.ints_attr(&low)), ("high", imp.ints_attr(&high)), ("value", zero)];
    let padded = imp.op(&hl::PAD, &[&sq], &attrs, None)?;
    let mut sum: Option<Val> = None;
    for k in 0..size {
        let mut starts = vec![0; dims.len()];
        starts[1] = k;
        let mut limits = dims.clone();
        limits[1] = k + dims[1];
        let part = slice_dims(imp, &padded, &starts, &limits, &vec![1; dims.len()])?;
        sum = Some(match sum {
            Some(s) => bin(imp, &hl::ADD, &s, &part)?,
            None => part,
        });
    }
    let s = sum.ok_or("`size` must be positive")?;
    let scaled = bin_c(imp, &hl::MUL, &s, alpha / size as f64)?;
    let base = bin_c(imp, &hl::ADD, &scaled, bias)?;
    let den = bin_c(imp, &hl::POW, &base, beta)?;
    Ok(vec![bin(imp, &hl::DIV, &x, &den)?])
}
