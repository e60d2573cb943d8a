//! Compiling a segment: its nodes become an `hl` function built with the IR builder (no text,
//! no parser), then `hl` clean-up and `kiln-fuse` (stage 1), `kiln-codegen` (stage 2) and the
//! emitter give a bytecode module, or, for a shape class key (`?` dims, [`crate::class`]), a
//! class module (the same stages, then `kiln_emit::emit_class`). With `--dump_as_text` the `hl`, fused and `npuvec` IR of each
//! compiled segment is written to the dump dir.

use std::path::Path;

use kiln_compiler::pass::{parse_pipeline, Instrumentation, PassManager};
use kiln_compiler::syntax::{print_op, PrintOptions};
use kiln_compiler::{Context, Diagnostic, Ir, NamedAttr, OpId, OperationState, OwnedContext, ValueId};
use kiln_dialects::builtin::MODULE;
use kiln_dialects::func::{FUNC_OP, RETURN_OP};
use kiln_targets::Target;

use crate::cache::SegmentKey;
use crate::error::{EagerError, ErrorKind, Result};
use crate::flags::FusionKey;
use crate::node::Operand;

/// An emitter: the bytecode of a module compiled through both stages.
pub(crate) type Emit<T> = for<'c> fn(&Ir<'c>, OpId, &Target) -> std::result::Result<T, Diagnostic<'c>>;

/// The pass managers of one set of fusion flags.
pub(crate) struct Compiler {
    fusion: FusionKey,
    stage1: PassManager,
    stage2: PassManager,
}

fn compile_error(message: String) -> EagerError {
    EagerError::new(ErrorKind::Compile, message)
}

impl Compiler {
    /// The pipelines for `fusion` on target `target`.
    pub(crate) fn new(fusion: &FusionKey, target: &str) -> Result<Compiler> {
        let registry = kiln_passes::registry();
        let stage1 = format!("builtin.module({}, {})", kiln_emit::compile::CLEANUP, fusion.fuse_pass(target));
        let stage2 = format!("builtin.module(kiln-codegen{{target={target}}})");
        Ok(Compiler {
            fusion: fusion.clone(),
            stage1: parse_pipeline(&stage1, &registry).map_err(compile_error)?,
            stage2: parse_pipeline(&stage2, &registry).map_err(compile_error)?,
        })
    }

    /// The flags these pipelines were built for.
    pub(crate) fn fusion(&self) -> &FusionKey {
        &self.fusion
    }

    /// Compiles the segment `key` for `target` and emits it with `emit` (`kiln_emit::emit`
    /// for its exact shapes, `kiln_emit::emit_class` for a shape class key, which fails
    /// when the class is not one the pipeline compiles); `dump`: the directory and file stem
    /// its IR is written to.
    pub(crate) fn compile<T>(
        &mut self,
        owner: &mut OwnedContext,
        key: &SegmentKey,
        target: &Target,
        dump: Option<(&Path, &str)>,
        emit: Emit<T>,
    ) -> Result<T> {
        let (stage1, stage2) = (&mut self.stage1, &mut self.stage2);
        owner.with(|ctx| compile_in(ctx, key, dump, stage1, stage2, |ir, top| emit(ir, top, target)))
    }
}

/// Builds segment `key` as an `hl` module, runs both stages (writing the dumps) and emits it
/// with `emit`.
fn compile_in<'c, T>(
    ctx: &Context<'c>,
    key: &SegmentKey,
    dump: Option<(&Path, &str)>,
    stage1: &mut PassManager,
    stage2: &mut PassManager,
    emit: impl FnOnce(&Ir<'c>, OpId) -> std::result::Result<T, Diagnostic<'c>>,
) -> Result<T> {
    let mut ir = Ir::with_capacity(key.nodes.len() + 4);
    let top = build(ctx, &mut ir, key);
    let write = |suffix: &str, ir: &Ir<'c>| -> Result<()> {
        let Some((dir, stem)) = dump else { return Ok(()) };
        let text = print_op(ctx, ir, top, &PrintOptions::default());
        std::fs::create_dir_all(dir)
            .and_then(|()| std::fs::write(dir.join(format!("{stem}.{suffix}.mlir")), text))
            .map_err(|e| compile_error(format!("cannot write the IR dump to '{}': {e}", dir.display())))
    };
    write("hl", &ir)?;
    run(ctx, &mut ir, top, stage1)?;
    write("fused", &ir)?;
    run(ctx, &mut ir, top, stage2)?;
    write("npuvec", &ir)?;
    emit(&ir, top).map_err(|d| compile_error(d.summary()))
}

fn run<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, top: OpId, pm: &mut PassManager) -> Result<()> {
    let mut diags: Vec<Diagnostic<'c>> = Vec::new();
    let failed = pm.run(ctx, ir, top, &mut Instrumentation::default(), &mut diags).is_err();
    diags.retain(|d| d.severity == kiln_compiler::Severity::Error);
    if failed || !diags.is_empty() {
        let messages: Vec<String> = diags.iter().map(Diagnostic::summary).collect();
        return Err(compile_error(format!("segment failed to compile: {}", messages.join("; "))));
    }
    Ok(())
}

/// `builtin.module { func.func @segment(inputs) -> (outputs) { nodes; return } }`.
fn build<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, key: &SegmentKey) -> OpId {
    let loc = ctx.unknown_loc();
    let mut module = OperationState::new(MODULE.name, Some(&MODULE), loc);
    module.num_regions = 1;
    let top = ir.create_op(module);
    let body = ir.create_block();
    ir.append_block(ir.regions(top)[0], body);

    let in_types: Vec<_> = key.inputs.iter().map(|t| t.to_type(ctx)).collect();
    let node_types: Vec<_> = key.nodes.iter().map(|n| n.ty.to_type(ctx)).collect();
    let out_types: Vec<_> = key.outputs.iter().map(|&o| node_types[o as usize]).collect();
    let named = |n: &str, value| NamedAttr { name: ctx.intern_str(n), value };
    let mut func = OperationState::new(FUNC_OP.name, Some(&FUNC_OP), loc);
    func.properties = Some(ctx.dict_attr(&[
        named("sym_name", ctx.str_attr(b"segment")),
        named("function_type", ctx.type_attr(ctx.function_type(&in_types, &out_types))),
    ]));
    func.num_regions = 1;
    let func = ir.create_op(func);
    ir.append_op(body, func);
    let block = ir.create_block();
    ir.append_block(ir.regions(func)[0], block);
    let args: Vec<ValueId> = in_types.iter().map(|&t| ir.add_block_arg(block, t, Some(loc))).collect();

    let mut values: Vec<ValueId> = Vec::with_capacity(key.nodes.len());
    for (node, &ty) in key.nodes.iter().zip(&node_types) {
        let mut state = OperationState::new(node.kind.0.name, Some(node.kind.0), loc);
        state.operands = node
            .operands
            .iter()
            .map(|o| match *o {
                Operand::Input(i) => args[i as usize],
                Operand::Node(n) => values[n as usize],
            })
            .collect();
        state.result_types = vec![ty];
        if !node.attrs.is_empty() {
            let entries: Vec<NamedAttr<'c>> =
                node.attrs.iter().map(|(n, v)| named(n, v.to_attr(ctx, ty))).collect();
            state.properties = Some(ctx.dict_attr(&entries));
        }
        let op = ir.create_op(state);
        ir.append_op(block, op);
        values.push(ir.results(op)[0]);
    }
    let mut ret = OperationState::new(RETURN_OP.name, Some(&RETURN_OP), loc);
    ret.operands = key.outputs.iter().map(|&o| values[o as usize]).collect();
    let ret = ir.create_op(ret);
    ir.append_op(block, ret);
    top
}
