//! Shared helpers: parse a test input and emit it for the tiny target.
#![allow(dead_code)]

use bumpalo::Bump;
use kiln_compiler::syntax::parse_source;
use kiln_compiler::{Context, SourceMgr};
use kiln_compiler::{Diagnostic, Ir, OpId};
use kiln_targets::Target;

pub mod head;

/// The tiny target the inputs are planned for.
pub fn tiny() -> Target {
    Target::load("tiny-npu").expect("tiny-npu loads")
}

/// The text of `tests/inputs/<name>`.
pub fn input(name: &str) -> String {
    let path = format!("{}/tests/inputs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Parses `text` and emits it, or returns the rendered error.
pub fn emit_text(text: &str) -> Result<kiln_bytecode::module::Module, String> {
    emit_with(text, true, |ir, top| kiln_emit::emit(ir, top, &tiny()))
}

/// Parses `text` and emits it as a program of a shape class, or returns the rendered error.
pub fn emit_class_text(text: &str) -> Result<kiln_bytecode::shape::ClassModule, String> {
    emit_with(text, true, |ir, top| kiln_emit::emit_class(ir, top, &tiny()))
}

/// [`emit_class_text`] without the verifier (the emitter's own checks only).
pub fn emit_class_text_unverified(text: &str) -> Result<kiln_bytecode::shape::ClassModule, String> {
    emit_with(text, false, |ir, top| kiln_emit::emit_class(ir, top, &tiny()))
}

/// Parses and (when `verify`) verifies `text`, then runs `emit` on it; errors rendered.
fn emit_with<T>(
    text: &str,
    verify: bool,
    emit: impl for<'c> FnOnce(&Ir<'c>, OpId) -> Result<T, Diagnostic<'c>>,
) -> Result<T, String> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(true);
    let mut sm = SourceMgr::new();
    sm.add("input.mlir", text.to_string());
    let render = |d: &kiln_compiler::Diagnostic<'_>| sm.render(d);
    let module =
        parse_source(&ctx, text, "input.mlir").map_err(|ds| ds.iter().map(render).collect::<String>())?;
    if verify {
        kiln_compiler::verifier::verify(&ctx, &module.ir, module.top)
            .map_err(|ds| ds.iter().map(render).collect::<String>())?;
    }
    emit(&module.ir, module.top).map_err(|d| render(&d))
}
