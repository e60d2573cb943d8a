//! The attributes of a shape class's IR (`docs/backend.md`, "Dynamic shapes") that the
//! `npuvec` dialect owns, checked by its `verify_op_attr` hook (MLIR's
//! `verifyOperationAttribute`) on whatever op carries them:
//!
//! - `npuvec.param_ranges = array<i64: min, max, ...>` on a kernel (a `func.func` with
//!   `npuvec.core`): a `min <= max` pair per launch parameter, the kernel's trailing `index`
//!   arguments (at most one per register); no other argument follows a parameter;
//! - on the host function (a `func.func` without `npuvec.core`): `npuvec.symbols`, the names
//!   of the symbols (distinct, not empty), `npuvec.input_symbols = array<i64: ...>` (per input
//!   dim, a symbol or -1) and `npuvec.output_sizes` (per output dim, an expression or `""`);
//! - `npuvec.size = "..."` on a `memref.alloc` (a host temporary's byte size);
//! - `npuvec.params = ["...", ...]` on an `npuvec.launch` (its kernel's parameters).
//!
//! How these agree with the types and parse as expressions is the emitter's part
//! (`kiln_emit::emit_class`), which reads them through the functions here.

use kiln_bytecode::isa::NUM_REGS;
use kiln_compiler::{Attribute, Context, Ir, OpId, TypeKind, ValueId};

use super::{fail, VResult};
use crate::func;
use crate::memref;
use crate::npuvec::attrs::i64_array;
use crate::npuvec::{CORE_ATTR, LAUNCH_OP};

/// A kernel's launch parameter ranges.
pub const PARAM_RANGES_ATTR: &str = "npuvec.param_ranges";
/// The host function's symbol names.
pub const SYMBOLS_ATTR: &str = "npuvec.symbols";
/// Per input dim of the host function, its symbol or -1.
pub const INPUT_SYMBOLS_ATTR: &str = "npuvec.input_symbols";
/// Per output dim of the host function, its size expression or `""`.
pub const OUTPUT_SIZES_ATTR: &str = "npuvec.output_sizes";
/// A host temporary's byte size expression.
pub const SIZE_ATTR: &str = "npuvec.size";
/// A launch's parameter expressions.
pub const LAUNCH_PARAMS_ATTR: &str = "npuvec.params";

/// A kernel's arguments: the GM ones, then its launch parameters with their ranges.
pub struct KernelParams<'a> {
    /// The GM arguments (the launch's buffers).
    pub gm: &'a [ValueId],
    /// The launch parameters (registers `r0..` when the kernel starts).
    pub params: &'a [ValueId],
    /// Their ranges, `(min, max)` with `min <= max`.
    pub ranges: Vec<(i64, i64)>,
}

/// The arguments of kernel `func` split into GM ones and launch parameters (its trailing
/// `index` arguments), with the parameters' ranges from `npuvec.param_ranges`.
pub fn kernel_params<'a, 'c>(ir: &'a Ir<'c>, func: OpId) -> VResult<'c, KernelParams<'a>> {
    let Some(entry) = ir.regions(func).first().and_then(|&r| ir.entry_block(r)) else {
        return Ok(KernelParams { gm: &[], params: &[], ranges: Vec::new() });
    };
    let all = ir.block_args(entry);
    let is_index = |v: ValueId| matches!(ir.value_type(v).kind(), TypeKind::Index);
    let gm_len = all.iter().position(|&v| is_index(v)).unwrap_or(all.len());
    let (gm, params) = all.split_at(gm_len);
    if let Some(i) = params.iter().position(|&v| !is_index(v)) {
        let message = format!(
            "argument #{} ('{}') follows a launch parameter: the `index` arguments come after the GM ones",
            gm_len + i,
            ir.value_type(params[i])
        );
        return fail(ir, func, message);
    }
    if params.len() > NUM_REGS {
        return fail(
            ir,
            func,
            format!("has {} launch parameters, more than the {NUM_REGS} registers", params.len()),
        );
    }
    let values = match ir.attr(func, PARAM_RANGES_ATTR) {
        None if params.is_empty() => Vec::new(),
        None => {
            let message = format!(
                "has {} launch parameters (`index` arguments) but no `{PARAM_RANGES_ATTR}` for their ranges",
                params.len()
            );
            return fail(ir, func, message);
        }
        Some(a) => match i64_array(a) {
            Some(values) => values,
            None => {
                return fail(ir, func, format!("expected `{PARAM_RANGES_ATTR}` to be an `array<i64: ...>`"))
            }
        },
    };
    if values.len() != 2 * params.len() {
        let message = format!(
            "has {} launch parameters (`index` arguments) but `{PARAM_RANGES_ATTR}` gives {} values, expected a min and a max for each",
            params.len(),
            values.len()
        );
        return fail(ir, func, message);
    }
    let mut ranges = Vec::with_capacity(params.len());
    for (k, pair) in values.chunks_exact(2).enumerate() {
        let (min, max) = (pair[0], pair[1]);
        if min > max {
            let message = format!(
                "`{PARAM_RANGES_ATTR}`: parameter {k} has the range {min}..={max}, whose min exceeds its max"
            );
            return fail(ir, func, message);
        }
        ranges.push((min, max));
    }
    Ok(KernelParams { gm, params, ranges })
}

/// The strings of `op`'s attribute `name` (`["n", "m"]`), if present.
pub fn string_list<'c>(ir: &Ir<'c>, op: OpId, name: &str) -> VResult<'c, Option<Vec<String>>> {
    let Some(attr) = ir.attr(op, name) else { return Ok(None) };
    let items = attr.as_array().and_then(|items| items.iter().map(|&a| text(a)).collect::<Option<Vec<_>>>());
    match items {
        Some(items) => Ok(Some(items)),
        None => fail(ir, op, format!("expected `{name}` to be an array of strings, but got {attr}")),
    }
}

/// The text of a string attribute.
pub fn text(attr: Attribute<'_>) -> Option<String> {
    attr.as_str().map(|s| String::from_utf8_lossy(s).into_owned())
}

/// The symbol names of host function `func` (`npuvec.symbols`): distinct and not empty.
pub fn symbols<'c>(ir: &Ir<'c>, func: OpId) -> VResult<'c, Vec<String>> {
    let symbols = string_list(ir, func, SYMBOLS_ATTR)?.unwrap_or_default();
    for (k, s) in symbols.iter().enumerate() {
        if s.is_empty() || symbols[..k].contains(s) {
            return fail(ir, func, format!("`{SYMBOLS_ATTR}`: symbol {k} ('{s}') is empty or named twice"));
        }
    }
    Ok(symbols)
}

/// Checks `op` is a `func.func` that is (`kernel`) or is not a kernel, for attribute `name`.
fn on_function<'c>(ir: &Ir<'c>, op: OpId, name: &str, kernel: bool) -> VResult<'c> {
    let is_func = ir.is(op, &func::FUNC_OP);
    if is_func && ir.attr(op, CORE_ATTR).is_some() == kernel {
        return Ok(());
    }
    let what = if kernel {
        "a kernel (a `func.func` with `npuvec.core`)"
    } else {
        "the host function (a `func.func` without `npuvec.core`)"
    };
    fail(ir, op, format!("has `{name}`, an attribute of {what}"))
}

/// The dialect's `verify_op_attr` hook: the class attributes above on their ops; other
/// `npuvec.*` attributes are not checked here.
pub(crate) fn verify_op_attr<'c>(
    _: &Context<'c>,
    ir: &Ir<'c>,
    op: OpId,
    name: &str,
    attr: Attribute<'c>,
) -> VResult<'c> {
    match name {
        PARAM_RANGES_ATTR => {
            on_function(ir, op, name, true)?;
            kernel_params(ir, op).map(drop)
        }
        SYMBOLS_ATTR => {
            on_function(ir, op, name, false)?;
            symbols(ir, op).map(drop)
        }
        INPUT_SYMBOLS_ATTR => {
            on_function(ir, op, name, false)?;
            match i64_array(attr) {
                Some(values) if values.iter().all(|&s| s >= -1) => Ok(()),
                _ => fail(
                    ir,
                    op,
                    format!("expected `{name}` to be an `array<i64: ...>` of symbols or -1, but got {attr}"),
                ),
            }
        }
        OUTPUT_SIZES_ATTR => {
            on_function(ir, op, name, false)?;
            string_list(ir, op, name).map(drop)
        }
        SIZE_ATTR if !ir.is(op, &memref::ALLOC_OP) => {
            fail(ir, op, format!("has `{name}`, an attribute of a `memref.alloc` (a host temporary)"))
        }
        SIZE_ATTR if text(attr).is_none() => {
            fail(ir, op, format!("expected `{name}` to be a string, but got {attr}"))
        }
        LAUNCH_PARAMS_ATTR if !ir.is(op, &LAUNCH_OP) => {
            fail(ir, op, format!("has `{name}`, an attribute of an `npuvec.launch`"))
        }
        LAUNCH_PARAMS_ATTR => string_list(ir, op, name).map(drop),
        _ => Ok(()),
    }
}
