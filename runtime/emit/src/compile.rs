//! Compiling a module to bytecode: the `hl` clean-up, `kiln-fuse`, `kiln-codegen` and the
//! emitter, as `kiln-translate --emit-bytecode` does.

use kiln_bytecode::module::Module;
use kiln_bytecode::shape::ClassModule;
use kiln_compiler::pass::{parse_pipeline, Instrumentation};
use kiln_compiler::{Context, Diagnostic, Ir, OpId};
use kiln_dialects::{func, fused, hl};
use kiln_targets::Target;

/// The clean-up that comes first: composites decomposed, canonicalized, shared, dead code gone.
pub const CLEANUP: &str = "hl-decompose, hl-canonicalize, cse, dce";

/// Whether the module still needs `kiln-codegen`: it has `hl` or `fused` ops, or a function
/// that takes or returns tensors (a program whose ops all folded away still computes on
/// tensors; `npuvec` written by hand takes buffers).
pub fn needs_codegen(ir: &Ir<'_>, top: OpId) -> bool {
    ir.walk(top, kiln_compiler::ir::WalkOrder::PreOrder).any(|o| {
        let def = ir.op(o).def;
        hl::HL.owns(def)
            || fused::FUSED.owns(def)
            || (ir.is(o, &func::FUNC_OP)
                && ir.attr(o, "function_type").and_then(|t| t.as_type()).is_some_and(|t| {
                    matches!(t.kind(), kiln_compiler::TypeKind::Function { inputs, results }
                        if inputs.iter().chain(results.iter()).any(|t| matches!(t.kind(), kiln_compiler::TypeKind::RankedTensor { .. })))
                }))
    })
}

/// The pipeline that takes `hl` to planned `npuvec` for `target`, with `kiln-fuse` at
/// `opt_level` (1 or 2; 0 runs no `kiln-fuse`: every op is its own kernel).
pub fn pipeline(target: &str, opt_level: u8) -> String {
    let fusion = match opt_level {
        0 => String::new(),
        n => format!("kiln-fuse{{opt-level={n} target={target}}}, "),
    };
    format!("builtin.module({CLEANUP}, {fusion}kiln-codegen{{target={target}}})")
}

/// Runs `pipeline` (textual, anchored on `builtin.module`) on module `top`.
pub fn run_pipeline<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    top: OpId,
    pipeline: &str,
) -> Result<(), Vec<Diagnostic<'c>>> {
    let mut pm = parse_pipeline(pipeline, &kiln_passes::registry())
        .map_err(|e| vec![Diagnostic::error(ir.op(top).loc, e)])?;
    let mut diags = Vec::new();
    let mut instr = Instrumentation::default();
    instr.verify_each = true;
    let failed = pm.run(ctx, ir, top, &mut instr, &mut diags).is_err();
    diags.retain(|d| d.severity == kiln_compiler::Severity::Error);
    if failed || !diags.is_empty() {
        return Err(diags);
    }
    Ok(())
}

/// Whether a value in module `top` has a `?` dim (the module then compiles to a shape class).
pub fn has_dynamic_dims(ir: &Ir<'_>, top: OpId) -> bool {
    ir.walk(top, kiln_compiler::ir::WalkOrder::PreOrder).any(|o| {
        let args =
            ir.regions(o).iter().flat_map(|&r| ir.region_blocks(r)).flat_map(|b| ir.block_args(b).to_vec());
        ir.results(o)
            .iter()
            .copied()
            .chain(args)
            .any(|v| ir.value_type(v).shape().is_some_and(|s| s.contains(&kiln_compiler::DYNAMIC)))
    })
}

/// Runs [`CLEANUP`] on module `top`.
pub fn cleanup<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, top: OpId) -> Result<(), Vec<Diagnostic<'c>>> {
    run_pipeline(ctx, ir, top, &format!("builtin.module({CLEANUP})"))
}

/// Compiles module `top` (in place) for `target` at fusion level `opt_level` (see
/// [`pipeline`]) and emits its bytecode.
pub fn compile<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    top: OpId,
    target: &Target,
    target_spec: &str,
    opt_level: u8,
) -> Result<Module, Vec<Diagnostic<'c>>> {
    let program = compile_class(ctx, ir, top, target, target_spec, opt_level)?;
    crate::into_static(ir, top, program).map_err(|d| vec![d])
}

/// [`compile`] for a program of a shape class ([`crate::emit_class`]; a static program is
/// the trivial class).
pub fn compile_class<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    top: OpId,
    target: &Target,
    target_spec: &str,
    opt_level: u8,
) -> Result<ClassModule, Vec<Diagnostic<'c>>> {
    if needs_codegen(ir, top) {
        run_pipeline(ctx, ir, top, &pipeline(target_spec, opt_level))?;
    }
    crate::emit_class(ir, top, target).map_err(|d| vec![d])
}
