//! Verifiers of the host ops and of kernels: `npuvec.launch` calls a kernel (a `func.func`
//! with a valid `npuvec.core`, `npuvec.block_dim` and, when present, `npuvec.ub_bytes`, that
//! returns nothing) with operands of its GM argument types (its launch parameters, trailing
//! `index` arguments, come from `npuvec.params`); `npuvec.reshape` aliases a GM buffer
//! under another static shape; `npuvec.constant` is a GM buffer holding its `value`.
//!
//! Our infrastructure has no verifier hook for a dialect's attributes on another dialect's op
//! (MLIR's `verifyOperationAttribute`), so the kernel attributes are checked here, on every
//! kernel that is launched.

use kiln_compiler::symbol_table::resolve;
use kiln_compiler::{AttrKind, Context, Diagnostic, Ir, OpId};

use super::class::kernel_params;
use super::{check_gm, dims, fail, gm_operand, VResult};
use crate::func::verify::{signature, verify_call_operands};
use crate::npuvec::attrs::Core;

/// The names of the kernel attributes on a `func.func`.
pub const CORE_ATTR: &str = "npuvec.core";
/// The number of cores a kernel runs on.
pub const BLOCK_DIM_ATTR: &str = "npuvec.block_dim";
/// The planned peak of live UB bytes.
pub const UB_BYTES_ATTR: &str = "npuvec.ub_bytes";

/// The kernel attributes of `func`: an error message naming the first bad one.
fn kernel_attrs_error(ir: &Ir<'_>, func: OpId) -> Option<String> {
    let core = ir.attr(func, CORE_ATTR);
    if core.and_then(Core::of).is_none() {
        return Some(format!("expected attribute '{CORE_ATTR}' of kind #npuvec.core<aiv|aic|mix>"));
    }
    let int = |name| ir.attr(func, name).map(|a| a.as_int());
    match int(BLOCK_DIM_ATTR) {
        Some(Some(n)) if n >= 1 => {}
        _ => return Some(format!("expected attribute '{BLOCK_DIM_ATTR}' to be an integer of at least 1")),
    }
    match int(UB_BYTES_ATTR) {
        None | Some(Some(0..)) => None,
        _ => Some(format!("expected attribute '{UB_BYTES_ATTR}' to be a non-negative integer")),
    }
}

pub(crate) fn verify_launch<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let Some(callee) = ir.attr(op, "callee") else { return Ok(()) };
    let name = callee.to_string();
    let target = resolve(ir, op, callee).filter(|&f| ir.op(f).name == "func.func");
    let Some((kernel, (inputs, results))) = target.and_then(|f| Some((f, signature(ir, f)?))) else {
        return fail(
            ir,
            op,
            format!("'{}' does not reference a valid function", name.trim_start_matches('@')),
        );
    };
    let note = |message: String| {
        Err(Diagnostic::op_error(ir, op, format!("{name} is not a valid kernel: {message}"))
            .with_note(ir.op(kernel).loc, "kernel defined here"))
    };
    if let Some(message) = kernel_attrs_error(ir, kernel) {
        return note(message);
    }
    if !results.is_empty() {
        return note(format!("expected no results, but it returns {}", results.len()));
    }
    // A shape class's kernel takes its launch parameters (trailing `index` arguments) from
    // `npuvec.params`, not from operands.
    let params = match kernel_params(ir, kernel) {
        Ok(p) => p.params.len(),
        Err(d) => return note(d.message),
    };
    verify_call_operands(ir, op, &inputs[..inputs.len().saturating_sub(params)])
}

pub(crate) fn verify_reshape<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let (src_shape, src_elem) = gm_operand(ir, op, 0)?;
    let (shape, elem) = check_gm(ir, op, "result #0", ir.value_type(ir.results(op)[0]))?;
    if elem != src_elem {
        return fail(
            ir,
            op,
            format!("expected the source's element type '{src_elem}', but the result has '{elem}'"),
        );
    }
    let count = |s: &[i64]| s.iter().try_fold(1i64, |n, &d| n.checked_mul(d));
    if count(shape) != count(src_shape) {
        return fail(
            ir,
            op,
            format!(
                "expected a result with as many elements as the source's {}, but got {}",
                dims(src_shape),
                dims(shape)
            ),
        );
    }
    Ok(())
}

pub(crate) fn verify_constant<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let (shape, elem) = check_gm(ir, op, "result #0", ir.value_type(ir.results(op)[0]))?;
    let value = ir.attr(op, "value").map(|v| *v.kind());
    let Some(AttrKind::DenseElements { ty, .. }) = value else {
        return fail(ir, op, "attribute 'value' failed to satisfy constraint: dense elements attribute");
    };
    if ty.shape() != Some(shape) || ty.element_type() != Some(elem) {
        return fail(
            ir,
            op,
            format!("expected a value of the result's shape and element type, but got '{ty}'"),
        );
    }
    Ok(())
}
