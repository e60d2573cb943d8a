//! `npuvec` IR <-> kernel bytecode: [`emit()`] turns a planned module (after
//! `kiln-codegen{target=...}`) into a [`kiln_bytecode::module::Module`], and [`disassemble()`]
//! turns a module back into `npuvec` IR that emits the identical module again. For a program
//! of a shape class (`kiln_bytecode::shape`), [`emit_class()`] and [`disassemble_class()`] are
//! the same pair over the class form (launch parameters, extents, symbolic sizes).
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

mod class;
pub mod compile;
mod disasm;
mod host;
mod kernel;
mod read;
mod regalloc;

use kiln_bytecode::module::Module;
use kiln_bytecode::shape::ClassModule;
use kiln_compiler::{Diagnostic, Ir, OpId};
use kiln_dialects::func;
use kiln_targets::Target;

pub use disasm::{disassemble, disassemble_class, DisasmError};
pub use kernel::{pitch, BASE_ATTR, PITCH_ATTR, REG_ATTR};
pub use kiln_dialects::npuvec::{
    INPUT_SYMBOLS_ATTR, LAUNCH_PARAMS_ATTR, OUTPUT_SIZES_ATTR, PARAM_RANGES_ATTR as PARAMS_ATTR, SIZE_ATTR,
    SYMBOLS_ATTR,
};

/// Emits the planned `npuvec` module `module_op` as bytecode for `target`.
///
/// Every op that has no instruction, an unplanned buffer,
/// a missing kernel attribute or a kernel that needs more than
/// [`NUM_REGS`](kiln_bytecode::isa::NUM_REGS) registers at once is a located error, and so is
/// IR of a shape class (see [`emit_class`]).
pub fn emit<'c>(ir: &Ir<'c>, module_op: OpId, target: &Target) -> Result<Module, Diagnostic<'c>> {
    into_static(ir, module_op, emit_class(ir, module_op, target)?)
}

/// The module of `program` emitted from `module_op`, which must be static.
fn into_static<'c>(ir: &Ir<'c>, module_op: OpId, program: ClassModule) -> Result<Module, Diagnostic<'c>> {
    if !program.class.is_static() {
        return Err(Diagnostic::error(
            ir.op(module_op).loc,
            "module is a shape class (launch parameters, extents or symbolic sizes): emit it with emit_class",
        ));
    }
    Ok(program.module)
}

/// Emits the planned `npuvec` module `module_op` as a program for a shape class (the form
/// [`disassemble_class`] writes, see `docs/backend.md`, "Dynamic shapes"): a kernel's
/// trailing `index` arguments with `npuvec.param_ranges` are its launch parameters (registers
/// `r0..`), the `extents` operands of a load or store its extents, and the host function's
/// `npuvec.symbols`, `npuvec.input_symbols`, `npuvec.output_sizes`, a temporary's
/// `npuvec.size` and a launch's `npuvec.params` the class's symbols and size expressions
/// (`?` in a GM type where a size is symbolic). IR without any of these is the static program
/// [`emit`] gives, as the trivial class. Errors are located, as [`emit`]'s.
pub fn emit_class<'c>(ir: &Ir<'c>, module_op: OpId, target: &Target) -> Result<ClassModule, Diagnostic<'c>> {
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
    let (mut kernels, mut kernel_classes) = (Vec::new(), Vec::new());
    for &f in funcs.iter().filter(|&&f| is_kernel(f)) {
        let (kernel, class) = kernel::emit_kernel(ir, f, target)?;
        kernels.push(kernel);
        kernel_classes.push(class);
    }
    let private = |f: OpId| ir.attr(f, "sym_visibility").and_then(|a| a.as_str()) == Some(b"private");
    let Some(&entry) = funcs.iter().find(|&&f| !is_kernel(f) && !private(f)) else {
        return Err(Diagnostic::error(
            ir.op(module_op).loc,
            "module has no host function (a public `func.func` without `npuvec.core`)",
        ));
    };
    let names: Vec<String> = kernels.iter().map(|k| k.name.clone()).collect();
    let (host, constants, sites) = host::emit_host(ir, entry, &names, target)?;
    let class = class::host::read_class(ir, entry, &host, &sites, kernel_classes)?;
    let module = Module { target: target.name.clone(), kernels, host, constants };
    Ok(ClassModule { module, class })
}
