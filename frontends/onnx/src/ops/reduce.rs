//! Reductions: `ReduceSum` / `ReduceMean` / `ReduceMax` / `ReduceMin` / `ReduceProd` as one
//! `hl.reduce_*`; `ReduceL1`, `ReduceL2`, `ReduceLogSum`, `ReduceLogSumExp`, `ReduceSumSquare`
//! decomposed around `hl.reduce_sum` / `hl.reduce_max`; `ArgMax` / `ArgMin`. Axes come as an
//! attribute (before opset 18; 13 for `ReduceSum`) or as input #1 (a constant after folding);
//! `keepdims`, `noop_with_empty_axes`.

use kiln_dialects::hl;
use kiln_dialects::hl::interp::{DType, Tensor};

use super::arith::{bin, reduce as reduce_op, un};
use super::elementwise::cast_to;
use super::{attr_int, axes_of, norm_axis};
use crate::graph::{Importer, Val};

/// The normalized, sorted axes a reduction node reduces (`None`: `noop_with_empty_axes` with
/// no axes, so nothing is reduced) and its `keepdims`.
fn reduced_axes(
    imp: &Importer<'_, '_, '_, '_>,
    index: usize,
    x: &Val,
) -> Result<(Option<Vec<i64>>, bool), String> {
    let node = &imp.nodes[index];
    let rank = imp.rank(x);
    let keep = attr_int(node, "keepdims", 1)? != 0;
    let axes = axes_of(imp, node, 1, "axes")?.unwrap_or_default();
    if axes.is_empty() && attr_int(node, "noop_with_empty_axes", 0)? != 0 {
        return Ok((None, keep));
    }
    let mut axes: Vec<i64> = if axes.is_empty() {
        (0..rank as i64).collect()
    } else {
        axes.iter().map(|&a| norm_axis(a, rank).map(|a| a as i64)).collect::<Result<_, _>>()?
    };
    axes.sort_unstable();
    axes.dedup();
    Ok((Some(axes), keep))
}

/// One `hl.reduce_*` over the normalized axes (all axes when none are given), or a
/// decomposition around `hl.reduce_sum`.
pub(super) fn reduce(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let op = node.op_type.as_str();
    let x = imp.input(node, 0)?;
    let (axes, keep) = reduced_axes(imp, index, &x)?;
    let Some(axes) = axes else {
        // Nothing reduced: the elementwise part of the reduction alone.
        let y = match op {
            "ReduceL1" | "ReduceL2" => un(imp, &hl::ABS, &x)?,
            "ReduceSumSquare" => bin(imp, &hl::MUL, &x, &x)?,
            "ReduceLogSum" => un(imp, &hl::LOG, &x)?,
            _ => x,
        };
        return Ok(vec![y]);
    };
    let dims = imp.dims(&x);
    if axes.iter().any(|&a| dims[a as usize] == 0) {
        return Ok(vec![empty_reduction(imp, op, &x, &axes, keep)?]);
    }
    if imp.dtype(&x)? == DType::I1 && matches!(op, "ReduceMax" | "ReduceMin") {
        // Booleans as i8 (false < true): the maximum is `any`, the minimum `all`.
        let i8 = imp.ctx().int_type(8);
        let wide = cast_to(imp, &x, i8)?;
        let def = if op == "ReduceMax" { &hl::REDUCE_MAX } else { &hl::REDUCE_MIN };
        let r = reduce_op(imp, def, &wide, &axes, keep)?;
        return Ok(vec![cast_to(imp, &r, imp.elem(&x))?]);
    }
    let def = match op {
        "ReduceSum" => &hl::REDUCE_SUM,
        "ReduceMean" => &hl::REDUCE_MEAN,
        "ReduceMax" => &hl::REDUCE_MAX,
        "ReduceMin" => &hl::REDUCE_MIN,
        "ReduceProd" => &hl::REDUCE_PROD,
        "ReduceL1" => {
            let a = un(imp, &hl::ABS, &x)?;
            return Ok(vec![reduce_op(imp, &hl::REDUCE_SUM, &a, &axes, keep)?]);
        }
        "ReduceL2" | "ReduceSumSquare" => {
            let sq = bin(imp, &hl::MUL, &x, &x)?;
            let s = reduce_op(imp, &hl::REDUCE_SUM, &sq, &axes, keep)?;
            return Ok(vec![if op == "ReduceL2" { un(imp, &hl::SQRT, &s)? } else { s }]);
        }
        "ReduceLogSum" => {
            let s = reduce_op(imp, &hl::REDUCE_SUM, &x, &axes, keep)?;
            return Ok(vec![un(imp, &hl::LOG, &s)?]);
        }
        "ReduceLogSumExp" => {
            // log(sum(exp(x - m))) + m with m the maximum, so exp cannot overflow.
            let m = reduce_op(imp, &hl::REDUCE_MAX, &x, &axes, true)?;
            let d = bin(imp, &hl::SUB, &x, &m)?;
            let e = un(imp, &hl::EXP, &d)?;
            let s = reduce_op(imp, &hl::REDUCE_SUM, &e, &axes, true)?;
            let l = un(imp, &hl::LOG, &s)?;
            let y = bin(imp, &hl::ADD, &l, &m)?;
            let shape: Vec<i64> = imp
                .shape(&x)?
                .iter()
                .enumerate()
                .filter_map(|(i, &d)| match axes.contains(&(i as i64)) {
                    true if keep => Some(1),
                    true => None,
                    false => Some(d),
                })
                .collect();
            return Ok(vec![imp.reshape(&y, &shape)?]);
        }
        _ => return Err("not a reduction".into()),
    };
    Ok(vec![reduce_op(imp, def, &x, &axes, keep)?])
}

/// A reduction over an empty set of elements: the reduction's identity, as ONNX defines it
/// (0 for sums, 1 for products, -inf / +inf (the type's lowest / highest integer) for the
/// maximum / minimum, -inf for the log-sums, NaN for the mean).
fn empty_reduction(
    imp: &mut Importer<'_, '_, '_, '_>,
    op: &str,
    x: &Val,
    axes: &[i64],
    keep: bool,
) -> Result<Val, String> {
    let dtype = imp.dtype(x)?;
    let (lowest, highest) = if dtype.is_float() {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        let bits = match dtype {
            DType::I8 => 8,
            DType::I32 => 32,
            _ => 64,
        };
        (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1) - 1.0)
    };
    let value = match op {
        "ReduceProd" => 1.0,
        "ReduceMax" => lowest,
        "ReduceMin" => highest,
        "ReduceLogSum" | "ReduceLogSumExp" => f64::NEG_INFINITY,
        "ReduceMean" => f64::NAN,
        _ => 0.0,
    };
    let shape: Vec<usize> = imp
        .shape(x)?
        .iter()
        .enumerate()
        .filter_map(|(i, &d)| match axes.contains(&(i as i64)) {
            true if keep => Some(1),
            true => None,
            false => Some(d as usize),
        })
        .collect();
    let n = shape.iter().product();
    let t = Tensor::from_f64s(dtype, shape, &vec![value; n]).map_err(|e| e.message().to_string())?;
    imp.constant(t, "empty_reduction")
}

/// `ArgMax` / `ArgMin(axis, keepdims, select_last_index)`: `hl.argmax` / `hl.argmin`; for the
/// last index, the arg of the input reversed along the axis (an `hl.gather` of reversed
/// indices), `n - 1 - i`.
pub(super) fn arg(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let mut x = imp.input(node, 0)?;
    let axis = norm_axis(attr_int(node, "axis", 0)?, imp.rank(&x))?;
    let keep = attr_int(node, "keepdims", 1)? != 0;
    let last = attr_int(node, "select_last_index", 0)? != 0;
    let n = if last { imp.static_dim(&x, axis)? } else { 0 };
    if last {
        let rev: Vec<i64> = (0..n).rev().collect();
        let idx =
            Tensor::from_i64s(DType::I64, vec![n as usize], &rev).map_err(|e| e.message().to_string())?;
        let idx = imp.constant(idx, "reversed")?;
        let a = imp.int_attr(axis as i64);
        x = imp.op(&hl::GATHER, &[&x, &idx], &[("axis", a)], None)?;
    }
    let def = if node.op_type == "ArgMax" { &hl::ARGMAX } else { &hl::ARGMIN };
    let mut attrs = vec![("axis", imp.int_attr(axis as i64))];
    if keep {
        attrs.push(("keep_dims", imp.bool_attr(true)));
    }
    let mut y = imp.op(def, &[&x], &attrs, None)?;
    if last {
        let top = imp.scalar_like(&y, (n - 1) as f64)?;
        y = bin(imp, &hl::SUB, &top, &y)?;
    }
    Ok(vec![y])
}
