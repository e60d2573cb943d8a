//! Loss ops decomposed into `hl` indexing, arithmetic and reductions:
//! `NegativeLogLikelihoodLoss` and `SoftmaxCrossEntropyLoss` (`hl.log_softmax` along the
//! classes, then the same loss).

use kiln_dialects::hl;
use kiln_dialects::hl::attrs::CmpPredicate;

use super::arith::{bin, cmp_c, reduce, require_float, select, un};
use super::elementwise::cast_to;
use super::{attr_opt_int, attr_str, norm_axis};
use crate::graph::{Importer, Val};

/// The loss of log-probabilities `x` `[N, C, d...]` at the classes `target` `[N, d...]`:
/// `-x[n, target[n, d], d] * weight[target[n, d]]`, 0 where the target is `ignore_index`;
/// reduced by `reduction`: `none`, `sum`, or `mean` (the sum divided by the sum of the weights
/// of the elements not ignored, their count without `weight`).
fn nll(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    target: &Val,
    weight: Option<&Val>,
    ignore: Option<i64>,
    reduction: &str,
) -> Result<Val, String> {
    require_float(imp, x, "NegativeLogLikelihoodLoss")?;
    let (xs, ts) = (imp.shape(x)?, imp.shape(target)?);
    if xs.len() < 2 || ts.len() + 1 != xs.len() || ts[0] != xs[0] || ts[1..] != xs[2..] {
        return Err(format!("the target {ts:?} does not match the input {xs:?} (N, C, d... and N, d...)"));
    }
    let keep = match ignore {
        Some(i) => Some(cmp_c(imp, target, i as f64, CmpPredicate::Ne)?),
        None => None,
    };
    let t = match &keep {
        Some(k) => {
            let zero = imp.scalar_like(target, 0.0)?;
            select(imp, k, target, &zero)?
        }
        None => target.clone(),
    };
    let mut picked_shape = ts.clone();
    picked_shape.insert(1, 1);
    let ti = imp.reshape(&t, &picked_shape)?;
    let axis = imp.int_attr(1);
    let picked = imp.op(&hl::GATHER_ELEMENTS, &[x, &ti], &[("axis", axis)], None)?;
    let picked = imp.reshape(&picked, &ts)?;
    let mut loss = un(imp, &hl::NEG, &picked)?;
    let mut w = match weight {
        Some(weight) => {
            let axis = imp.int_attr(0);
            let w = imp.op(&hl::GATHER, &[weight, &t], &[("axis", axis)], None)?;
            loss = bin(imp, &hl::MUL, &loss, &w)?;
            Some(w)
        }
        None => None,
    };
    if let Some(k) = &keep {
        let zero = imp.scalar_like(&loss, 0.0)?;
        loss = select(imp, k, &loss, &zero)?;
        w = Some(match w {
            Some(w) => select(imp, k, &w, &zero)?,
            None => cast_to(imp, k, imp.elem(&loss))?,
        });
    }
    let all: Vec<i64> = (0..ts.len() as i64).collect();
    match reduction {
        "none" => Ok(loss),
        "sum" => reduce(imp, &hl::REDUCE_SUM, &loss, &all, false),
        "mean" => match w {
            Some(w) => {
                let s = reduce(imp, &hl::REDUCE_SUM, &loss, &all, false)?;
                let total = reduce(imp, &hl::REDUCE_SUM, &w, &all, false)?;
                bin(imp, &hl::DIV, &s, &total)
            }
            None => reduce(imp, &hl::REDUCE_MEAN, &loss, &all, false),
        },
        other => Err(format!("unknown `reduction` '{other}'")),
    }
}

/// `NegativeLogLikelihoodLoss(input, target, weight?, ignore_index?, reduction)` and
/// `SoftmaxCrossEntropyLoss(scores, labels, weights?, ...)` with its optional `log_prob`
/// output (`hl.log_softmax` along dim 1).
pub(super) fn loss(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let target = imp.input(node, 1)?;
    let weight = imp.opt_input(node, 2)?;
    let ignore = attr_opt_int(node, "ignore_index")?;
    let reduction = attr_str(node, "reduction", "mean")?;
    if node.op_type == "NegativeLogLikelihoodLoss" {
        return Ok(vec![nll(imp, &x, &target, weight.as_ref(), ignore, &reduction)?]);
    }
    let axis = norm_axis(1, imp.rank(&x))? as i64;
    let attr = imp.int_attr(axis);
    let log_prob = imp.op(&hl::LOG_SOFTMAX, &[&x], &[("axis", attr)], None)?;
    let loss = nll(imp, &log_prob, &target, weight.as_ref(), ignore, &reduction)?;
    Ok(vec![loss, log_prob])
}
