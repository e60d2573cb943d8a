//! The one place kiln-opt meets the textual format: parsing a buffer into a module and
//! printing modules and ops with the chosen style.

use kiln_compiler::syntax::{self, PrintOptions};
use kiln_compiler::{Context, Diagnostic, Ir, Module, OpId};

/// How IR is printed.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// `--mlir-print-op-generic`.
    pub generic: bool,
    /// `--mlir-print-debuginfo`.
    pub debug_info: bool,
    /// `--mlir-print-local-scope`.
    pub local_scope: bool,
    /// `--mlir-elide-elementsattrs-if-larger`.
    pub elide_elements_above: Option<usize>,
}

impl Style {
    fn options(self) -> PrintOptions {
        PrintOptions {
            generic: self.generic,
            debug_info: self.debug_info,
            local_scope: self.local_scope,
            elide_elements_above: self.elide_elements_above,
        }
    }
}

/// Parses `bytes` (named `file_name` in locations). Invalid UTF-8 is a located error.
pub fn parse<'c>(
    ctx: &Context<'c>,
    bytes: &[u8],
    file_name: &str,
) -> Result<Module<'c>, Vec<Diagnostic<'c>>> {
    syntax::parse_bytes(ctx, bytes, file_name)
}

/// Prints a whole module (aliases and resources included).
pub fn print_module<'c>(ctx: &Context<'c>, module: &Module<'c>, style: Style) -> String {
    syntax::print_module(ctx, module, &style.options())
}

/// Prints one op and what it contains.
pub fn print_op<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId, style: Style) -> String {
    syntax::print_op(ctx, ir, op, &style.options())
}
