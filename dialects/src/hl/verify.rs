//! The one verifier shared by every `hl` op: operand element types as the op's interface
//! allows, and the declared result type compatible with the inferred one.

use kiln_compiler::{Context, Diagnostic, Ir, OpId, Type};

use super::accessors::tensor_parts;
use super::infer::{compatible, InferInput};
use super::interfaces::{hl_op, DTypes, HlOp};

pub(crate) fn verify_hl<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    check(ctx, ir, op).map_err(|message| Diagnostic::op_error(ir, op, message))
}

/// The first thing wrong with `op`, as a message without the op prefix.
fn check<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), String> {
    let Some(h) = hl_op(ir, op) else { return Ok(()) };
    let operands: Vec<_> = ir.operands(op).iter().map(|&v| ir.value_type(v)).collect();
    let results: Vec<_> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
    let attr = |name: &str| ir.attr(op, name);
    let input = InferInput { operands: &operands, result: results.first().copied(), attr: &attr };
    check_results(ctx, h, &input, &results).map(|_| ())
}

/// Checks an `hl` op's operand and declared result types as the verifier does (element types
/// the op's interface allows, the declared result compatible with the inferred one) and
/// returns the result type: the declared one when given, else the inferred one. The message
/// has no op prefix. The eager session checks each op with this as it is recorded.
pub fn check_types<'c>(ctx: &Context<'c>, h: &HlOp, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let declared: Vec<_> = input.result.into_iter().collect();
    let types = check_results(ctx, h, input, &declared)?;
    types.first().copied().ok_or_else(|| "expected a result".to_string())
}

/// [`check_types`] for every result: `declared` holds the declared result types (empty when
/// none are declared); returns them, or the inferred ones.
fn check_results<'c>(
    ctx: &Context<'c>,
    h: &HlOp,
    input: &InferInput<'_, 'c>,
    declared: &[Type<'c>],
) -> Result<Vec<Type<'c>>, String> {
    for (i, &t) in input.operands.iter().enumerate() {
        let elem = tensor_parts(t).map(|(_, e)| e);
        if !elem.is_some_and(|e| h.dtypes.accepts(e)) {
            return Err(format!(
                "operand #{i} must be ranked tensor of {} values, but got '{t}'",
                h.dtypes.describe()
            ));
        }
    }
    for (i, &r) in declared.iter().enumerate() {
        if !tensor_parts(r).is_some_and(|(_, e)| DTypes::Any.accepts(e)) {
            return Err(format!(
                "result #{i} must be ranked tensor of {} values, but got '{r}'",
                DTypes::Any.describe()
            ));
        }
    }
    let inferred = h.infer.results(ctx, input)?;
    if declared.is_empty() {
        return Ok(inferred);
    }
    if declared.len() != inferred.len() {
        return Err(format!("requires {} results, but has {}", inferred.len(), declared.len()));
    }
    for (i, (&t, &r)) in inferred.iter().zip(declared).enumerate() {
        if !compatible(t, r) {
            return Err(if declared.len() == 1 {
                format!("inferred type '{t}' is incompatible with result type '{r}'")
            } else {
                format!("inferred type '{t}' is incompatible with result #{i} type '{r}'")
            });
        }
    }
    Ok(declared.to_vec())
}
