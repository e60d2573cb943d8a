//! Reading a shape class back from `npuvec` IR in the form
//! [`disassemble_class`](crate::disassemble_class) writes: a kernel's launch parameters and
//! extents ([`kernel`]), the host program's symbols and size expressions ([`host`]).

pub mod host;
pub mod kernel;

use kiln_compiler::{Ir, OpId};
use kiln_dialects::func;

/// Whether module `top` is IR of a shape class: a kernel with `npuvec.param_ranges` or a host
/// function with `npuvec.symbols`. Such IR has `?` GM memrefs that the `npuvec` and `memref`
/// verifiers refuse (they take static GM buffers and sized allocations); the tools skip the
/// verifier for it, and [`emit_class`](crate::emit_class) and the bytecode validator check it.
pub fn is_class_form(ir: &Ir<'_>, top: OpId) -> bool {
    let funcs = ir.regions(top).iter().flat_map(|&r| ir.region_blocks(r)).flat_map(|b| ir.block_ops(b));
    funcs.collect::<Vec<_>>().into_iter().any(|f| {
        ir.is(f, &func::FUNC_OP)
            && (ir.attr(f, kernel::PARAMS_ATTR).is_some() || ir.attr(f, host::SYMBOLS_ATTR).is_some())
    })
}
