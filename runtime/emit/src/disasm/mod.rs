//! The disassembler: a [`Module`] back to `npuvec` IR that [`emit`](crate::emit()) turns into
//! the same module again (so `encode` gives identical bytes).
//!
//! The output is a `builtin.module` with `npuvec.target`, the kernels (private `func.func`s
//! with `npuvec.core`, `npuvec.block_dim`, `npuvec.ub_bytes`) in order, then the host
//! function. What the bytecode does not keep is rebuilt: GM arguments of a kernel take the
//! type of the buffer its first launch binds (else `memref<?xT>` with `T` the type it is
//! accessed with), a temporary is typed as the output it holds or as elements of the type a
//! kernel accesses it with (else bytes), and an output whose buffer has another type is an
//! `npuvec.reshape` of it. Buffer pitches other than the target's are written as
//! `npuvec.pitch`; registers as `npuvec.reg` (see the crate documentation).

mod build;
mod host;
mod kernel;

use std::fmt;

use bumpalo::Bump;
use kiln_bytecode::module::Module;
use kiln_bytecode::shape::{ClassModule, ShapeClass};
use kiln_compiler::syntax::{print_op, PrintOptions};
use kiln_compiler::Context;
use kiln_targets::Target;

/// Why a module has no disassembly that re-emits it: a register read that SSA values cannot
/// name (never written, or written in a loop or branch that has ended), or references out of
/// range in a module that was not validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisasmError(pub String);

impl fmt::Display for DisasmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DisasmError {}

/// The `npuvec` IR text of `module` (generic form), for the target it was validated against.
pub fn disassemble(module: &Module, target: &Target) -> Result<String, DisasmError> {
    print(module, None, target)
}

/// The `npuvec` IR text of a program compiled for a shape class: its module's, with the class
/// written out. A kernel's launch parameters are `index` arguments after its GM ones (the
/// values of registers `r0..` when it starts) and its function carries their ranges
/// (`npuvec.param_ranges = array<i64: min, max, ...>`); a load or store with extents takes
/// the values of their registers as `extents` operands, with their dims as `extent_dims`; GM
/// types have `?` where a dim or size is
/// symbolic, and the host function, its temporaries and launches carry the symbols, size
/// expressions and parameters as text (`npuvec.symbols`, `npuvec.input_symbols`,
/// `npuvec.output_sizes`, `npuvec.size`, `npuvec.params`). [`emit_class`](crate::emit_class)
/// reads the text back into an equal program.
pub fn disassemble_class(program: &ClassModule, target: &Target) -> Result<String, DisasmError> {
    let class = Some(&program.class).filter(|c| !c.is_static());
    print(&program.module, class, target)
}

fn print(module: &Module, class: Option<&ShapeClass>, target: &Target) -> Result<String, DisasmError> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(true);
    let mut ir = kiln_compiler::Ir::new();
    let mut b = build::Builder { ctx: &ctx, ir: &mut ir };
    let top = host::build_module(&mut b, module, class, target)?;
    let opts = PrintOptions { generic: true, ..PrintOptions::default() };
    let mut text = print_op(&ctx, &ir, top, &opts);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}
