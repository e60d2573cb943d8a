//! MLIR's textual format: lexing, parsing (ops, regions, blocks, types, attributes,
//! locations, aliases, resources) and printing (generic and custom forms).
//!
//! Entry points: [`parse_source`] / [`parse_bytes`] read a file into a [`Module`];
//! [`print_module`] and [`print_op`] write IR back, generic or custom, as `mlir-opt` does.
//!
//! What depends on what:
//! - [`asm`] (re-exported from [`crate::asm`], below the dialects): the parser and printer
//!   *interfaces* ([`asm::OpAsmParser`], [`asm::OpAsmPrinter`], [`asm::DialectAsmParser`],
//!   [`asm::DialectAsmPrinter`]), the hook record [`asm::CustomSyntax`] and their plain data
//!   (errors, unresolved operands, entry arguments). It depends only on the IR.
//! - [`custom`]: what dialects' custom formats use: `asm`'s traits and the shared formats
//!   (return-like terminators). Dialects depend on `asm` and `custom` only.
//! - the concrete text parser, private: `parser` (ops, regions, values, resources, and the
//!   implementation of `OpAsmParser`), `lexer`, and the parsing half of [`type_attr`] (the
//!   pest grammar, fast paths, the `DialectAsmParser` of dialect attributes). It is reached
//!   only through [`parse_source`] / [`parse_bytes`] and [`type_attr::TypeAttrParser`], so a
//!   binary that builds IR, runs passes and prints (the JIT, the VM) does not call it and the
//!   linker leaves it out; hooks reach it through the traits' vtables only when it runs.
//! - the printer (`printer` and [`type_attr::print_attr`], ..., which implement `OpAsmPrinter`
//!   and `DialectAsmPrinter`) depends on neither parser.
//!
//! The concrete parser is a module, not a crate of its own: the crate split (as Cranelift's
//! reader) is the next step, once nothing outside `syntax` needs `pub(crate)` access to it.

pub mod custom;
mod lexer;
mod parser;
mod printer;
pub mod type_attr;

pub use crate::asm;

use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::module::Module;

pub use parser::{PResult, ParseError};
pub use printer::{print_module, print_op, print_op_for_diagnostic, PrintOptions};

/// Parses MLIR text. Ops outside a single top-level `builtin.module` are wrapped in one (as
/// mlir-opt does). Errors are located diagnostics (`file:line:col`, columns in bytes).
pub fn parse_source<'c>(
    ctx: &Context<'c>,
    src: &str,
    file_name: &str,
) -> Result<Module<'c>, Vec<Diagnostic<'c>>> {
    parser::parse_file(ctx, src, file_name)
}

/// Parses MLIR bytes; invalid UTF-8 outside string literals is reported at its location as
/// MLIR does (inside strings it stands for itself, as an escape would).
pub fn parse_bytes<'c>(
    ctx: &Context<'c>,
    src: &[u8],
    file_name: &str,
) -> Result<Module<'c>, Vec<Diagnostic<'c>>> {
    match std::str::from_utf8(src) {
        Ok(s) => parse_source(ctx, s, file_name),
        Err(_) => {
            let text = parser::escape_invalid_utf8(ctx, src, file_name).map_err(|d| vec![d])?;
            parse_source(ctx, &text, file_name)
        }
    }
}
