//! `kiln-mlir`: upstream MLIR (LLVM 22) in-process, through melior.
//!
//! Two entry points, both on text so that the rest of Kiln never sees MLIR's C API:
//! - [`to_generic`] parses any MLIR module (custom or generic form) with MLIR's own parser and
//!   every upstream dialect registered, runs MLIR's verifier, and prints the module in the
//!   generic op form, which Kiln's parser reads (`tosa.*` ops then arrive as unregistered ops).
//! - [`to_custom`] does the same for text Kiln printed and prints MLIR's custom form: it is how
//!   `--export-tosa` proves that MLIR's verifier accepts what Kiln wrote.
//!
//! The source is parsed under its file name, so MLIR's locations (kept in the printed text)
//! point into the user's file. Errors are MLIR's diagnostics, one `file:line:col: error:
//! message` line each (notes after), as `mlir-opt` reports them.
#![deny(missing_docs)]

use std::cell::RefCell;
use std::rc::Rc;

use melior::diagnostic::{Diagnostic, DiagnosticSeverity};
use melior::dialect::DialectRegistry;
use melior::ir::operation::{OperationLike, OperationPrintingFlags};
use melior::ir::Operation;
use melior::utility::register_all_dialects;
use melior::{Context, StringRef};
use mlir_sys::mlirOperationCreateParse;

/// Parses and verifies `source` (file `name`) with MLIR and prints it in the generic op form
/// with its locations.
pub fn to_generic(source: &str, name: &str) -> Result<String, String> {
    let flags = OperationPrintingFlags::new().print_generic_operation_form().enable_debug_info(true, false);
    print(source, name, flags.use_local_scope())
}

/// Parses and verifies `source` (file `name`) with MLIR and prints it in MLIR's custom form.
pub fn to_custom(source: &str, name: &str) -> Result<String, String> {
    print(source, name, OperationPrintingFlags::new())
}

fn print(source: &str, name: &str, flags: OperationPrintingFlags) -> Result<String, String> {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    let diagnostics = Rc::new(RefCell::new(String::new()));
    let sink = Rc::clone(&diagnostics);
    let handler = context.attach_diagnostic_handler(move |d| {
        render(&d, name, &mut sink.borrow_mut());
        true
    });
    let result = parse_verify_print(&context, source, name, flags);
    context.detach_diagnostic_handler(handler);
    let messages = diagnostics.take();
    result.ok_or_else(|| {
        if messages.is_empty() {
            format!("{name}: error: MLIR could not parse the module\n")
        } else {
            messages
        }
    })
}

fn parse_verify_print(
    context: &Context,
    source: &str,
    name: &str,
    flags: OperationPrintingFlags,
) -> Option<String> {
    let (source, name) = (StringRef::new(source), StringRef::new(name));
    // SAFETY: the context is live and both strings outlive the call; MLIR copies what it keeps.
    let raw = unsafe { mlirOperationCreateParse(context.to_raw(), source.to_raw(), name.to_raw()) };
    if raw.ptr.is_null() {
        return None;
    }
    // SAFETY: a non-null operation just created by the parser, owned by nobody else.
    let op = unsafe { Operation::from_raw(raw) };
    if !op.verify() {
        return None;
    }
    op.to_string_with_flags(flags).ok()
}

/// Appends `d` (and its notes) to `out` as `name:line:col: severity: message` lines.
fn render(d: &Diagnostic<'_>, name: &str, out: &mut String) {
    let severity = match d.severity() {
        DiagnosticSeverity::Error => "error",
        DiagnosticSeverity::Warning => "warning",
        DiagnosticSeverity::Note => "note",
        DiagnosticSeverity::Remark => "remark",
    };
    out.push_str(&format!("{}: {severity}: {d}\n", location(&d.location().to_string(), name)));
    for i in 0..d.note_count() {
        if let Ok(note) = d.note(i) {
            render(&note, name, out);
        }
    }
}

/// MLIR's `loc("f.mlir":3:7)` as `f.mlir:3:7`; a location without a file position is `name`.
fn location(loc: &str, name: &str) -> String {
    let inner = loc.strip_prefix("loc(").and_then(|l| l.strip_suffix(')')).unwrap_or(loc);
    match inner.strip_prefix('"').and_then(|l| l.split_once('"')) {
        Some((file, line_col)) if line_col.starts_with(':') => format!("{file}{line_col}"),
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_tosa_prints_generic() {
        let src = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  \
                   %0 = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n";
        let generic = to_generic(src, "t.mlir").unwrap();
        assert!(generic.contains("\"tosa.tanh\"(%arg0)"), "{generic}");
        assert!(to_custom(&generic, "g.mlir").unwrap().contains("tosa.tanh %arg0"));
    }

    #[test]
    fn verifier_errors_are_located() {
        let src = "func.func @f(%a: tensor<4xf32>) -> tensor<3xf32> {\n  \
                   %0 = tosa.tanh %a : (tensor<4xf32>) -> tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n";
        let err = to_generic(src, "t.mlir").unwrap_err();
        assert!(err.starts_with("t.mlir:2:8: error: "), "{err}");
    }
}
