//! `--import-mlir` and `--export-tosa`: MLIR (through `kiln-mlir`, with the `mlir` feature)
//! parses, verifies and prints; Kiln converts between TOSA and `hl` on the generic form.
//!
//! Import: MLIR parses the file (custom or generic form) and verifies it, prints it generic
//! with its locations; Kiln reads that (TOSA ops unregistered), runs
//! `builtin.module(tosa-to-hl, dce)` and prints `hl`. Export: Kiln runs
//! `builtin.module(hl-decompose, hl-to-tosa, dce)` and prints generic; MLIR parses and
//! verifies that and prints its custom form.

/// The pipeline of `--import-mlir`.
#[cfg(feature = "mlir")]
const IMPORT: &str = "builtin.module(tosa-to-hl, dce)";

/// The pipeline of `--export-tosa`.
#[cfg(feature = "mlir")]
const EXPORT: &str = "builtin.module(hl-decompose, hl-to-tosa, dce)";

/// Translates `text` (file `name`): imports it (upstream MLIR to `hl`), or with `export`
/// exports it (`hl` to TOSA in MLIR's custom form).
#[cfg(feature = "mlir")]
pub fn translate(text: &str, name: &str, export: bool) -> Result<String, String> {
    use bumpalo::Bump;
    use kiln_compiler::syntax::{parse_bytes, print_module, PrintOptions};
    use kiln_compiler::verifier::verify;
    use kiln_compiler::{Context, Diagnostic, SourceMgr};

    let input = if export { text.to_string() } else { kiln_mlir::to_generic(text, name)? };
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(true);
    let mut sm = SourceMgr::new();
    sm.add(name.to_string(), text.to_string());
    let render = |diags: &[Diagnostic<'_>]| diags.iter().map(|d| sm.render(d)).collect::<String>();
    let mut module = parse_bytes(&ctx, input.as_bytes(), name).map_err(|d| render(&d))?;
    verify(&ctx, &module.ir, module.top).map_err(|d| render(&d))?;
    let pipeline = if export { EXPORT } else { IMPORT };
    kiln_emit::compile::run_pipeline(&ctx, &mut module.ir, module.top, pipeline).map_err(|d| render(&d))?;
    let opts =
        PrintOptions { generic: export, debug_info: export, local_scope: false, ..PrintOptions::default() };
    let printed = print_module(&ctx, &module, &opts);
    if export {
        kiln_mlir::to_custom(&printed, name)
    } else {
        Ok(printed)
    }
}

/// Without the `mlir` feature: an error saying how to get it.
#[cfg(not(feature = "mlir"))]
pub fn translate(_text: &str, _name: &str, export: bool) -> Result<String, String> {
    let flag = if export { "--export-tosa" } else { "--import-mlir" };
    Err(super::error(format!(
        "{flag} needs kiln-translate built with the `mlir` feature (LLVM 22's MLIR libraries): \
         cargo build -p kiln-translate --features mlir"
    )))
}
