//! `npuvec` IR <-> kernel bytecode: [`emit()`] turns a planned module (after
//! `kiln-codegen{target=...}`) into a [`kiln_bytecode::module::Module`], and [`disassemble()`]
//! turns a module back into `npuvec` IR that emits the identical module again.
//!
//! The contract is `docs/backend.md`: one `npuvec` op is one instruction, kernels are the
//! `func.func`s with `npuvec.core`, the host program is the public function without it.
//! `npuvec` ops are read by name and attribute, so the emitter works whether the `npuvec`
//! dialect is registered or its ops are unregistered.
//!
//! Three discardable attributes make the round trip exact: `npuvec.reg = N` on the op that
//! defines a scalar (for `scf.for`: its induction variable) pins it to register `rN`,
//! `npuvec.base = N` on a load or store adds `N` to a dynamic view offset, and
//! `npuvec.pitch = N` on an `npuvec.buffer` gives a pitch other than the aligned row. The
//! disassembler writes them; IR from the compiler has none, and the emitter allocates
//! registers itself.
#![deny(missing_docs)]

pub mod compile;
mod disasm;
mod host;
mod kernel;
mod read;
mod regalloc;

use kiln_bytecode::module::Module;
use kiln_compiler::{Diagnostic, Ir, OpId};
use kiln_dialects::func;
use kiln_targets::Target;

pub use disasm::{disassemble, disassemble_class, DisasmError};
pub use kernel::{pitch, BASE_ATTR, PITCH_ATTR, REG_ATTR};

/// Emits the planned `npuvec` module `module_op` as bytecode for `target`.
///
/// Every op that has no instruction, an unplanned buffer,
/// a missing kernel attribute or a kernel that needs more than
/// [`NUM_REGS`](kiln_bytecode::isa::NUM_REGS) registers at once is a located error.
pub fn emit<'c>(ir: &Ir<'c>, module_op: OpId, target: &Target) -> Result<Module, Diagnostic<'c>> {
    if let Some(t) = ir.attr(module_op, "npuvec.target") {
        if t.as_str() != Some(target.name.as_bytes()) {
            return Err(Diagnostic::error(
                ir.op(module_op).loc,
                format!("module was compiled for target {t}, not for '{}'", target.name),
            ));
        }
    }
    let funcs: Vec<OpId> = ir
        .regions(module_op)
        .iter()
        .flat_map(|&r| ir.region_blocks(r).flat_map(|b| ir.block_ops(b)).collect::<Vec<_>>())
        .filter(|&op| ir.is(op, &func::FUNC_OP))
        .collect();
    let is_kernel = |f: OpId| ir.attr(f, "npuvec.core").is_some();
    let mut kernels = Vec::new();
    for &f in funcs.iter().filter(|&&f| is_kernel(f)) {
        kernels.push(kernel::emit_kernel(ir, f, target)?);
    }
    let private = |f: OpId| ir.attr(f, "sym_visibility").and_then(|a| a.as_str()) == Some(b"private");
    let Some(&entry) = funcs.iter().find(|&&f| !is_kernel(f) && !private(f)) else {
        return Err(Diagnostic::error(
            ir.op(module_op).loc,
            "module has no host function (a public `func.func` without `npuvec.core`)",
        ));
    };
    let names: Vec<String> = kernels.iter().map(|k| k.name.clone()).collect();
    let (host, constants) = host::emit_host(ir, entry, &names, target)?;
    Ok(Module { target: target.name.clone(), kernels, host, constants })
}
