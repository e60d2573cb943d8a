//! Contractions and normalizations: `MatMul` (numpy batch broadcasting, 1-D operands),
//! `Gemm`, `BatchNormalization`, `LayerNormalization` (any axis), `Softmax` / `LogSoftmax`.

use kiln_dialects::hl;
use kiln_dialects::hl::interp::Tensor;

use super::arith::{bin, bin_c, reduce, un};
use super::{attr_float, attr_int, norm_axis};
use crate::graph::{Importer, Val};

/// `MatMul(a, b)`: `hl.matmul` for rank 2, `hl.batch_matmul` when either operand has batch
/// dims (it broadcasts them, `[B, S, K] x [K, N]` included); a 1-D operand becomes a matrix
/// whose unit dim the result drops, as numpy's `matmul`.
pub(super) fn matmul(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (mut a, mut b) = (imp.input(node, 0)?, imp.input(node, 1)?);
    let (sa, sb) = (imp.dims(&a), imp.dims(&b));
    if sa.is_empty() || sb.is_empty() {
        return Err("`MatMul` operands must have rank >= 1".into());
    }
    if sa.len() == 1 {
        a = imp.reshape(&a, &[1, sa[0]])?;
    }
    if sb.len() == 1 {
        b = imp.reshape(&b, &[sb[0], 1])?;
    }
    let (ra, rb) = (imp.rank(&a), imp.rank(&b));
    let def = if ra == 2 && rb == 2 { &hl::MATMUL } else { &hl::BATCH_MATMUL };
    let y = imp.op(def, &[&a, &b], &[], None)?;
    let dims = imp.dims(&y);
    let n = dims.len();
    // The unit dims of 1-D operands go; the others keep their places (and `?` sizes).
    let kept: Vec<usize> =
        (0..n).filter(|&i| !((sb.len() == 1 && i == n - 1) || (sa.len() == 1 && i == n - 2))).collect();
    let shape: Vec<i64> = kept.iter().map(|&i| dims[i]).collect();
    let sources: Vec<i64> = kept.iter().map(|&i| i as i64).collect();
    Ok(vec![imp.reshape_tied(&y, &shape, &sources)?])
}

/// `Gemm(a, b, c?, alpha, beta, transA, transB)`: `alpha * a' b' + beta * c`.
pub(super) fn gemm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (a, b) = (imp.input(node, 0)?, imp.input(node, 1)?);
    let c = imp.opt_input(node, 2)?;
    let (alpha, beta) = (attr_float(node, "alpha", 1.0)?, attr_float(node, "beta", 1.0)?);
    let mut attrs = Vec::new();
    if attr_int(node, "transA", 0)? != 0 {
        attrs.push(("transpose_a", imp.bool_attr(true)));
    }
    if attr_int(node, "transB", 0)? != 0 {
        attrs.push(("transpose_b", imp.bool_attr(true)));
    }
    let mut y = imp.op(&hl::MATMUL, &[&a, &b], &attrs, None)?;
    if alpha != 1.0 {
        let s = imp.scalar_like(&y, alpha)?;
        y = imp.op(&hl::MUL, &[&y, &s], &[], None)?;
    }
    if let Some(mut c) = c {
        if beta != 1.0 {
            let s = imp.scalar_like(&c, beta)?;
            c = imp.op(&hl::MUL, &[&c, &s], &[], None)?;
        }
        y = imp.op(&hl::ADD, &[&y, &c], &[], None)?;
    }
    Ok(vec![y])
}

/// `v` (of `c` elements) as `[c, 1, ...]` against a rank-`rank` NC... input.
pub(super) fn per_channel(imp: &mut Importer<'_, '_, '_, '_>, v: &Val, rank: usize) -> Result<Val, String> {
    let c = imp.shape(v)?.iter().product::<i64>();
    let mut shape = vec![1; rank.saturating_sub(1).max(1)];
    shape[0] = c;
    imp.reshape(v, &shape)
}

/// `BatchNormalization(x, scale, b, mean, var)` at inference: `hl.batch_norm` with per-channel
/// operands.
pub(super) fn batch_norm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let rank = imp.rank(&x);
    if attr_int(node, "training_mode", 0)? != 0 {
        return batch_norm_training(imp, index, &x);
    }
    let mut p = Vec::with_capacity(4);
    for i in 1..5 {
        let v = imp.input(node, i)?;
        p.push(per_channel(imp, &v, rank)?);
    }
    let eps = imp.f32_attr(attr_float(node, "epsilon", 1e-5)?);
    let (gamma, beta, mean, var) = (&p[0], &p[1], &p[2], &p[3]);
    Ok(vec![imp.op(&hl::BATCH_NORM, &[&x, mean, var, gamma, beta], &[("epsilon", eps)], None)?])
}

/// `BatchNormalization` with `training_mode`: normalized by the batch's statistics over every
/// dim but the channels (the population variance), and the running statistics updated:
/// `running = input * momentum + batch * (1 - momentum)`.
fn batch_norm_training(
    imp: &mut Importer<'_, '_, '_, '_>,
    index: usize,
    x: &Val,
) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let rank = imp.rank(x);
    if rank < 2 {
        return Err("the input must have rank 2 or more (N, C, ...)".into());
    }
    let axes: Vec<i64> = std::iter::once(0).chain(2..rank as i64).collect();
    let mean = reduce(imp, &hl::REDUCE_MEAN, x, &axes, true)?;
    let d = bin(imp, &hl::SUB, x, &mean)?;
    let sq = bin(imp, &hl::MUL, &d, &d)?;
    let var = reduce(imp, &hl::REDUCE_MEAN, &sq, &axes, true)?;
    let ve = bin_c(imp, &hl::ADD, &var, attr_float(node, "epsilon", 1e-5)?)?;
    let sd = un(imp, &hl::SQRT, &ve)?;
    let mut y = bin(imp, &hl::DIV, &d, &sd)?;
    let (scale, b) = (imp.input(node, 1)?, imp.input(node, 2)?);
    let (scale, b) = (per_channel(imp, &scale, rank)?, per_channel(imp, &b, rank)?);
    y = bin(imp, &hl::MUL, &y, &scale)?;
    y = bin(imp, &hl::ADD, &y, &b)?;
    let momentum = attr_float(node, "momentum", 0.9)?;
    let c = imp.shape(x)?[1];
    let mut outputs = vec![y];
    for (i, batch) in [(3, mean), (4, var)] {
        let running = imp.input(node, i)?;
        let batch = imp.reshape(&batch, &[c])?;
        let old = bin_c(imp, &hl::MUL, &running, momentum)?;
        let new = bin_c(imp, &hl::MUL, &batch, 1.0 - momentum)?;
        outputs.push(bin(imp, &hl::ADD, &old, &new)?);
    }
    Ok(outputs)
}

/// `LayerNormalization(x, scale, b?, axis, epsilon)`: `hl.layer_norm` over the last dim; for
/// an earlier `axis` the normalized dims are flattened into one around it.
pub(super) fn layer_norm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    if node.output.iter().skip(1).any(|o| !o.is_empty()) {
        return super::normalize::layer_norm_stats(imp, index);
    }
    let x = imp.input(node, 0)?;
    let scale = imp.input(node, 1)?;
    let dims = imp.dims(&x);
    let axis = norm_axis(attr_int(node, "axis", -1)?, dims.len())?;
    let eps = imp.f32_attr(attr_float(node, "epsilon", 1e-5)?);
    // The normalized dims must be static; the leading ones may be dynamic.
    let normalized = (axis..dims.len()).map(|i| imp.static_dim(&x, i)).collect::<Result<Vec<_>, _>>()?;
    let inner: i64 = normalized.iter().product();
    let bias = match imp.opt_input(node, 2)? {
        Some(b) => b,
        None => {
            let dtype = imp.dtype(&x)?;
            imp.constant(Tensor::zeros(dtype, vec![inner as usize]), "zero_bias")?
        }
    };
    let mut flat = dims[..axis].to_vec();
    flat.push(inner);
    // The leading dims keep their places (and `?` sizes) both ways.
    let leading: Vec<i64> = (0..dims.len() as i64).map(|i| if i < axis as i64 { i } else { -1 }).collect();
    let xf = imp.reshape_tied(&x, &flat, &leading[..=axis])?;
    let (sf, bf) = (imp.reshape(&scale, &[inner])?, imp.reshape(&bias, &[inner])?);
    let y = imp.op(&hl::LAYER_NORM, &[&xf, &sf, &bf], &[("epsilon", eps)], None)?;
    Ok(vec![imp.reshape_tied(&y, &dims, &leading)?])
}

/// `Softmax(axis)` / `LogSoftmax(axis)` (opset 13: one axis, default -1).
pub(super) fn softmax(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let axis = norm_axis(attr_int(node, "axis", -1)?, imp.rank(&x))? as i64;
    let def = if node.op_type == "LogSoftmax" { &hl::LOG_SOFTMAX } else { &hl::SOFTMAX };
    let attr = imp.int_attr(axis);
    Ok(vec![imp.op(def, &[&x], &[("axis", attr)], None)?])
}
