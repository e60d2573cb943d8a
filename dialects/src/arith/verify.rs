//! Verifiers of the `arith` ops, for what their declarations cannot say. Messages are MLIR's.

use kiln_compiler::types::{Signedness, TypeKind};
use kiln_compiler::{Context, Diagnostic, Ir, OpId, Type};

use super::attrs::CMPI_PREDICATES;
use super::syntax::attr_type;

/// `arith.constant`: the value's type is the result type; integer results are signless.
pub(crate) fn verify_constant<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let err = |message: &str| Err(Diagnostic::op_error(ir, op, message));
    let result = ir.value_type(ir.results(op)[0]);
    let value = ir.attr(op, "value").and_then(attr_type);
    if value != Some(result) {
        return err("failed to verify that all of {value, result} have same type");
    }
    if matches!(result.kind(), TypeKind::Integer { signedness, .. } if *signedness != Signedness::Signless) {
        return err("integer return type must be signless");
    }
    Ok(())
}

/// `arith.cmpi`: operand and result types, and the predicate is one of the ten (MLIR rejects others when it reads the
/// properties, hence a message without the op prefix).
pub(crate) fn verify_cmpi<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    verify_cmpi_types(ir, op)?;
    let Some(predicate) = ir.attr(op, "predicate") else { return Ok(()) };
    if predicate.as_int().is_some_and(|p| (0..CMPI_PREDICATES.len() as i128).contains(&p)) {
        return Ok(());
    }
    let message = format!(
        "invalid properties {{predicate = {predicate}}} for op arith.cmpi: Invalid attribute `predicate` in \
         property conversion: {predicate}"
    );
    Err(Diagnostic::error(ir.op(op).loc, message))
}

/// Whether `ty` is `index` or a shape of `index`.
fn is_index_like(ty: Type<'_>) -> bool {
    matches!(ty.element_type().unwrap_or(ty).kind(), TypeKind::Index)
}

/// `arith.index_cast`: exactly one side is `index`-like, and both have the same shape.
pub(crate) fn verify_index_cast<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let from = ir.value_type(ir.operands(op)[0]);
    let to = ir.value_type(ir.results(op)[0]);
    let scalar = |t: Type<'_>| t.element_type().is_none();
    let same_shape = (scalar(from) && scalar(to)) || (from.shape().is_some() && from.shape() == to.shape());
    if same_shape && is_index_like(from) != is_index_like(to) {
        return Ok(());
    }
    Err(Diagnostic::op_error(
        ir,
        op,
        format!("operand type '{from}' and result type '{to}' are cast incompatible"),
    ))
}

/// `arith.cmpi`'s operands have one type, and its result is `i1` of their shape (checked with
/// the predicate, by [`verify_cmpi`]).
fn verify_cmpi_types<'c>(ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let (lhs, rhs) = (ir.value_type(ir.operands(op)[0]), ir.value_type(ir.operands(op)[1]));
    if lhs != rhs {
        return Err(Diagnostic::op_error(ir, op, "requires all operands to have the same type"));
    }
    let result = ir.value_type(ir.results(op)[0]);
    if lhs.shape() != result.shape() || lhs.element_type().is_some() != result.element_type().is_some() {
        return Err(Diagnostic::op_error(
            ir,
            op,
            "failed to verify that result type has i1 element type and same shape as operands",
        ));
    }
    Ok(())
}

/// `arith.select`: both values and the result have one type.
pub(crate) fn verify_select<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let operands = ir.operands(op);
    let (t, f) = (ir.value_type(operands[1]), ir.value_type(operands[2]));
    if t != f || ir.value_type(ir.results(op)[0]) != t {
        return Err(Diagnostic::op_error(
            ir,
            op,
            "failed to verify that all of {true_value, false_value, result} have same type",
        ));
    }
    Ok(())
}
