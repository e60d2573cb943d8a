//! Ops that pick or write by index or order along an axis: `GatherElements`, `GatherND`,
//! `ScatterElements` (and its former name `Scatter`), `ScatterND` (new `hl` ops of the same names), `CumSum` / `CumProd`
//! (`hl.cumsum` / `hl.cumprod`), `TopK` (`hl.topk`), and `OneHot` / `Hardmax`, decomposed into
//! `hl.iota`, `hl.cmp` and `hl.select`.

use kiln_dialects::hl;
use kiln_dialects::hl::attrs::CmpPredicate;

use super::arith::{bin_c, cmp, cmp_c, select};
use super::{attr_int, attr_str, norm_axis};
use crate::graph::{Importer, Val};

/// The `reduction` attribute as `hl` spells it (`"none"`, `"add"`, `"mul"`, `"max"`, `"min"`).
fn reduction_attrs<'c>(
    imp: &Importer<'_, '_, 'c, '_>,
    node: &onnx_protobuf::NodeProto,
) -> Result<Vec<(&'static str, kiln_compiler::Attribute<'c>)>, String> {
    let r = attr_str(node, "reduction", "none")?;
    if !["none", "add", "mul", "max", "min"].contains(&r.as_str()) {
        return Err(format!("unknown `reduction` '{r}'"));
    }
    Ok(if r == "none" { vec![] } else { vec![("reduction", imp.ctx().str_attr(r.as_bytes()))] })
}

/// `GatherElements`, `GatherND`, `ScatterElements`, `ScatterND`: the `hl` op of the same name.
pub(super) fn indexing(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (data, idx) = (imp.input(node, 0)?, imp.input(node, 1)?);
    let rank = imp.rank(&data);
    let axis_value = norm_axis(attr_int(node, "axis", 0)?, rank)? as i64;
    let axis = imp.int_attr(axis_value);
    let y = match node.op_type.as_str() {
        "GatherElements" => imp.op(&hl::GATHER_ELEMENTS, &[&data, &idx], &[("axis", axis)], None)?,
        "GatherND" => {
            let b = attr_int(node, "batch_dims", 0)?;
            let attrs = if b == 0 { vec![] } else { vec![("batch_dims", imp.int_attr(b))] };
            imp.op(&hl::GATHER_ND, &[&data, &idx], &attrs, None)?
        }
        "ScatterElements" | "Scatter" => {
            let u = imp.input(node, 2)?;
            let mut attrs = reduction_attrs(imp, node)?;
            attrs.push(("axis", axis));
            imp.op(&hl::SCATTER_ELEMENTS, &[&data, &idx, &u], &attrs, None)?
        }
        "ScatterND" => {
            let u = imp.input(node, 2)?;
            let attrs = reduction_attrs(imp, node)?;
            imp.op(&hl::SCATTER_ND, &[&data, &idx, &u], &attrs, None)?
        }
        _ => return Err("not an indexing op".into()),
    };
    Ok(vec![y])
}

/// `CumSum` / `CumProd(x, axis const, exclusive, reverse)`.
pub(super) fn cumulative(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let a = imp.const_ints(&imp.input(node, 1)?, "input `axis`")?;
    let axis = norm_axis(*a.first().ok_or("input `axis` is empty")?, imp.rank(&x))?;
    let mut attrs = vec![("axis", imp.int_attr(axis as i64))];
    for flag in ["exclusive", "reverse"] {
        if attr_int(node, flag, 0)? != 0 {
            attrs.push((flag, imp.bool_attr(true)));
        }
    }
    let def = if node.op_type == "CumSum" { &hl::CUMSUM } else { &hl::CUMPROD };
    Ok(vec![imp.op(def, &[&x], &attrs, None)?])
}

/// `TopK(x, k const, axis, largest, sorted)`: `hl.topk` (always sorted, which `sorted = 0`
/// allows).
pub(super) fn topk(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let k = imp.const_ints(&imp.input(node, 1)?, "input `K`")?;
    let k = *k.first().ok_or("input `K` is empty")?;
    let axis = norm_axis(attr_int(node, "axis", -1)?, imp.rank(&x))?;
    let mut attrs = vec![("k", imp.int_attr(k)), ("axis", imp.int_attr(axis as i64))];
    if attr_int(node, "largest", 1)? == 0 {
        attrs.push(("largest", imp.bool_attr(false)));
    }
    imp.op_results(&hl::TOPK, &[&x], &attrs, None)
}

/// True where an element's index along `axis` (in a tensor of `shape`) equals `idx` (broadcast
/// along `axis`): `hl.cmp eq` of `idx` against an `hl.iota`.
fn one_hot_mask(
    imp: &mut Importer<'_, '_, '_, '_>,
    idx: &Val,
    shape: &[i64],
    axis: usize,
) -> Result<Val, String> {
    let ty = imp.ctx().tensor_type(shape, imp.elem(idx));
    let dim = imp.int_attr(axis as i64);
    let iota = imp.op(&hl::IOTA, &[], &[("dimension", dim)], Some(ty))?;
    cmp(imp, idx, &iota, CmpPredicate::Eq)
}

/// `OneHot(indices, depth const, values, axis)`: `values[1]` where the new `axis` index equals
/// the index (negative indices count from `depth`), `values[0]` elsewhere.
pub(super) fn one_hot(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let mut idx = imp.input(node, 0)?;
    let depth = imp.const_f64s(&imp.input(node, 1)?, "input `depth`")?;
    let depth = *depth.first().ok_or("input `depth` is empty")? as i64;
    let values = imp.input(node, 2)?;
    let dims = imp.shape(&idx)?;
    let axis = norm_axis(attr_int(node, "axis", -1)?, dims.len() + 1)?;
    let i64t = imp.ctx().int_type(64);
    idx = super::elementwise::cast_to(imp, &idx, i64t)?;
    let neg = cmp_c(imp, &idx, 0.0, CmpPredicate::Lt)?;
    let wrapped = bin_c(imp, &hl::ADD, &idx, depth as f64)?;
    idx = select(imp, &neg, &wrapped, &idx)?;
    let mut shape = dims.clone();
    shape.insert(axis, 1);
    idx = imp.reshape(&idx, &shape)?;
    shape[axis] = depth;
    let mask = one_hot_mask(imp, &idx, &shape, axis)?;
    let pick = |imp: &mut Importer<'_, '_, '_, '_>, i: i64| -> Result<Val, String> {
        let v = super::layout::slice_dims(imp, &values, &[i], &[i + 1], &[1])?;
        imp.reshape(&v, &[])
    };
    let (off, on) = (pick(imp, 0)?, pick(imp, 1)?);
    Ok(vec![select(imp, &mask, &on, &off)?])
}

/// `Hardmax(axis)`: 1 at the first largest element along `axis`, 0 elsewhere.
pub(super) fn hardmax(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let dims = imp.shape(&x)?;
    let axis = norm_axis(attr_int(node, "axis", -1)?, dims.len())?;
    let attrs = [("axis", imp.int_attr(axis as i64)), ("keep_dims", imp.bool_attr(true))];
    let arg = imp.op(&hl::ARGMAX, &[&x], &attrs, None)?;
    let mask = one_hot_mask(imp, &arg, &dims, axis)?;
    let (one, zero) = (imp.scalar_like(&x, 1.0)?, imp.scalar_like(&x, 0.0)?);
    Ok(vec![select(imp, &mask, &one, &zero)?])
}
