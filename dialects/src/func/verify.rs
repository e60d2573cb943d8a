//! Verifiers of the `func` ops, for what their declarations cannot say. Messages follow MLIR's.

use kiln_compiler::symbol_table::{resolve, symbol_name};
use kiln_compiler::{Context, Diagnostic, Ir, OpId, Type, TypeKind};

/// The `(inputs, results)` of a `func.func`'s `function_type`.
pub fn signature<'c>(ir: &Ir<'c>, func: OpId) -> Option<(&'c [Type<'c>], &'c [Type<'c>])> {
    match ir.attr(func, "function_type")?.as_type()?.kind() {
        TypeKind::Function { inputs, results } => Some((inputs, results)),
        _ => None,
    }
}

fn sym(ir: &Ir<'_>, op: OpId) -> String {
    symbol_name(ir, op).map(|s| String::from_utf8_lossy(s).into_owned()).unwrap_or_default()
}

pub(crate) fn verify_func<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    if let Some(v) = ir.attr(op, "sym_visibility").and_then(|v| v.as_str()) {
        if ![&b"public"[..], b"private", b"nested"].contains(&v) {
            return Err(Diagnostic::op_error(
                ir,
                op,
                format!(
                    "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"{}\"",
                    String::from_utf8_lossy(v)
                ),
            ));
        }
    }
    let Some((inputs, _)) = signature(ir, op) else { return Ok(()) };
    let Some(entry) = ir.regions(op).first().and_then(|&r| ir.entry_block(r)) else {
        let public = ir.attr(op, "sym_visibility").and_then(|v| v.as_str()).is_none_or(|v| v == b"public");
        if public {
            return Err(Diagnostic::op_error(ir, op, "symbol declaration cannot have public visibility"));
        }
        return Ok(());
    };
    let args = ir.block_args(entry);
    if args.len() != inputs.len() {
        return Err(Diagnostic::op_error(
            ir,
            op,
            format!("entry block must have {} arguments to match function signature", inputs.len()),
        ));
    }
    for (i, (&a, &t)) in args.iter().zip(inputs).enumerate() {
        let at = ir.value_type(a);
        if at != t {
            return Err(Diagnostic::op_error(
                ir,
                op,
                format!(
                    "type of entry block argument #{i}('{at}') must match the type of the corresponding \
                     argument in function signature('{t}')"
                ),
            ));
        }
    }
    Ok(())
}

pub(crate) fn verify_return<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let Some(func) = ir.parent_op(op) else { return Ok(()) };
    let Some((_, results)) = signature(ir, func) else { return Ok(()) };
    let operands = ir.operands(op);
    if operands.len() != results.len() {
        return Err(Diagnostic::op_error(
            ir,
            op,
            format!(
                "has {} operands, but enclosing function (@{}) returns {}",
                operands.len(),
                sym(ir, func),
                results.len()
            ),
        ));
    }
    for (i, (&v, &t)) in operands.iter().zip(results).enumerate() {
        let vt = ir.value_type(v);
        if vt != t {
            // MLIR's `ReturnOp::verify` uses `emitError` here, not `emitOpError`: no op prefix.
            return Err(Diagnostic::error(
                ir.op(op).loc,
                format!(
                    "type of return operand {i} ('{vt}') doesn't match function result type ('{t}') in \
                     function @{}",
                    sym(ir, func)
                ),
            ));
        }
    }
    Ok(())
}

/// The operands of a call-like op (`func.call`, `npuvec.launch`) against the callee's
/// argument types, in MLIR's `func.call` wording.
pub(crate) fn verify_call_operands<'c>(
    ir: &Ir<'c>,
    op: OpId,
    inputs: &[Type<'c>],
) -> Result<(), Diagnostic<'c>> {
    let operands = ir.operands(op);
    if operands.len() != inputs.len() {
        return Err(Diagnostic::op_error(ir, op, "incorrect number of operands for callee"));
    }
    for (i, (&v, &t)) in operands.iter().zip(inputs).enumerate() {
        let vt = ir.value_type(v);
        if vt != t {
            return Err(Diagnostic::op_error(ir, op, format!(
                "operand type mismatch: expected operand type '{t}', but provided '{vt}' for operand number {i}"
            )));
        }
    }
    Ok(())
}

pub(crate) fn verify_call<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Result<(), Diagnostic<'c>> {
    let Some(callee) = ir.attr(op, "callee") else { return Ok(()) };
    let name = callee.to_string();
    let target = resolve(ir, op, callee).filter(|&f| ir.op(f).name == "func.func");
    let Some((inputs, results)) = target.and_then(|f| signature(ir, f)) else {
        return Err(Diagnostic::op_error(
            ir,
            op,
            format!("'{}' does not reference a valid function", name.trim_start_matches('@')),
        ));
    };
    verify_call_operands(ir, op, inputs)?;
    let res = ir.results(op);
    if res.len() != results.len() {
        return Err(Diagnostic::op_error(ir, op, "incorrect number of results for callee"));
    }
    for (i, (&v, &t)) in res.iter().zip(results).enumerate() {
        if ir.value_type(v) != t {
            return Err(Diagnostic::op_error(ir, op, format!("result type mismatch at index {i}")));
        }
    }
    Ok(())
}
