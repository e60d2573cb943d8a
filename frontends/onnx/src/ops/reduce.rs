//! `ReduceSum` / `ReduceMean` / `ReduceMax` / `ReduceMin` / `ReduceProd`: axes as an attribute
//! (before opset 18; 13 for `ReduceSum`) or as input #1, `keepdims`, `noop_with_empty_axes`.

use kiln_dialects::hl;

use super::{attr_int, axes_of, norm_axis};
use crate::graph::{Importer, Val};

/// One `hl.reduce_*` over the normalized axes (all axes when none are given).
pub(super) fn reduce(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let def = match node.op_type.as_str() {
        "ReduceSum" => &hl::REDUCE_SUM,
        "ReduceMean" => &hl::REDUCE_MEAN,
        "ReduceMax" => &hl::REDUCE_MAX,
        "ReduceMin" => &hl::REDUCE_MIN,
        "ReduceProd" => &hl::REDUCE_PROD,
        _ => return Err("not a reduction".into()),
    };
    let x = imp.input(node, 0)?;
    let rank = imp.shape(&x).len();
    let keep = attr_int(node, "keepdims", 1)? != 0;
    let axes = axes_of(imp, node, 1, "axes")?.unwrap_or_default();
    if axes.is_empty() && attr_int(node, "noop_with_empty_axes", 0)? != 0 {
        return Ok(vec![x]);
    }
    let mut axes: Vec<i64> = if axes.is_empty() {
        (0..rank as i64).collect()
    } else {
        axes.iter().map(|&a| norm_axis(a, rank).map(|a| a as i64)).collect::<Result<_, _>>()?
    };
    axes.sort_unstable();
    axes.dedup();
    let mut attrs = vec![("axes", imp.ints_attr(&axes))];
    if keep {
        attrs.push(("keep_dims", imp.bool_attr(true)));
    }
    Ok(vec![imp.op(def, &[&x], &attrs, None)?])
}
