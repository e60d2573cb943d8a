//! `kiln-codegen-bufferize`: tensors at kernel boundaries and in host functions become GM
//! buffers.
//!
//! Rewrites, with the dialect conversion framework and a tensor -> memref type converter
//! (`tensor<4x8xf32>` -> `memref<4x8xf32, #npuvec.space<gm>>`):
//! - a kernel's results become trailing output arguments: `func.return %v` becomes
//!   `bufferization.materialize_in_destination %v, %out` and an empty return; its arguments
//!   become GM memrefs, which its (still tensor) body reads through
//!   `bufferization.to_tensor` (the source materialization);
//! - in a host function: the signature's tensors become GM memrefs; `func.call @kernel`
//!   becomes a `memref.alloc` per result (GM) and `npuvec.launch @kernel(inputs, outputs)`;
//!   `hl.constant` becomes `npuvec.constant`; views (`hl.reshape`, `hl.expand_dims`,
//!   `hl.squeeze`) become `npuvec.reshape` of the buffer; the return returns buffers.
//!
//! A host function with `?` dims gets the attributes of its shape class (symbols, `?` buffer
//! sizes, launch parameters: `codegen/class_host.rs`), or an error when it is not one.
//!
//! Values inside kernels stay tensors: `kiln-codegen-lower` gives them UB buffers tile by tile.
//!
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-outline` ran. Guarantees: no tensor in a
//! host function or a kernel signature; a full conversion of host functions (an op left
//! illegal is a located error).

use kiln_compiler::conversion::{
    apply_partial_conversion, ConversionPattern, ConversionPatternSet, ConversionRewriter, ConversionTarget,
    Root, TypeConverter,
};
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Context, Ir, NamedAttr, OpDef, OpId, OperationState, Type, TypeKind, ValueId};
use kiln_dialects::bufferization::{MATERIALIZE_IN_DESTINATION_OP, TO_TENSOR_OP};
use kiln_dialects::func::conversion::{set_signature, signature, ReturnConversion, SignatureConversion};
use kiln_dialects::func::{CALL_OP, FUNC_OP, RETURN_OP};
use kiln_dialects::hl::{CONSTANT, EXPAND_DIMS, RESHAPE, SQUEEZE};
use kiln_dialects::npuvec;
use kiln_dialects::npuvec::Space;

use crate::codegen::build::{i32_array, memref_type};
use crate::codegen::class_host;
use crate::kiln_codegen_tile::{kernel_kind, kernels};
use kiln_dialects::memref::ALLOC_OP;

kiln_compiler::declare_pass! {
    struct Bufferize;
    name: "kiln-codegen-bufferize",
    summary: "Turn tensors at kernel boundaries and in host functions into GM buffers",
    description: "Kernel results become output arguments, kernel and host signatures take GM memrefs, \
                  calls become memref.alloc + npuvec.launch, host constants and views become \
                  npuvec.constant / npuvec.reshape.",
    anchor: "builtin.module",

    fn run(&mut self, cx, root) {
        for kernel in kernels(cx.ir, root) {
            results_to_outputs(cx.ctx, cx.ir, kernel);
        }
        let types = tensor_to_gm();
        let mut target = ConversionTarget::new();
        for d in ["npuvec", "memref", "bufferization", "builtin", "arith", "scf"] {
            target.add_legal_dialect(d);
        }
        target.add_dynamically_legal_op(&FUNC_OP, |ctx, ir, op| {
            signature(ir, op).is_some_and(|(i, r)| types.are_legal(ctx, i.iter().chain(r).copied()))
        });
        target.add_dynamically_legal_op(&RETURN_OP, |ctx, ir, op| {
            types.are_legal(ctx, ir.operands(op).iter().map(|&v| ir.value_type(v)))
        });
        target.add_illegal_op(&CALL_OP);
        target.add_dynamically_legal_dialect("hl", |_, ir, op| in_kernel(ir, op));
        let mut patterns = ConversionPatternSet::new();
        patterns.add(SignatureConversion);
        patterns.add(ReturnConversion);
        patterns.add(Call);
        patterns.add(HostOp { root: &CONSTANT, to: &npuvec::CONSTANT_OP });
        for view in [&RESHAPE, &EXPAND_DIMS, &SQUEEZE] {
            patterns.add(HostOp { root: view, to: &npuvec::RESHAPE_OP });
        }
        apply_partial_conversion(cx.ctx, cx.ir, root, &target, &patterns, Some(&types)).map_err(|d| {
            cx.diagnostics.push(d);
            PassFailed
        })?;
        let hosts: Vec<OpId> = cx
            .ir
            .walk(root, kiln_compiler::ir::WalkOrder::PreOrder)
            .filter(|&op| cx.ir.is(op, &FUNC_OP) && kernel_kind(cx.ir, op).is_none())
            .collect();
        for host in hosts {
            if let Err((op, message)) = class_host::annotate(cx.ctx, cx.ir, host) {
                cx.diagnostics.push(kiln_compiler::Diagnostic::op_error(cx.ir, op, message));
                return Err(PassFailed);
            }
        }
        Ok(())
    }
}

/// `tensor<...>` -> `memref<..., #npuvec.space<gm>>`; `bufferization.to_tensor` back.
fn tensor_to_gm<'a, 'c>() -> TypeConverter<'a, 'c> {
    let mut types = TypeConverter::new();
    types.add_conversion(|_, t| Some(t));
    types.add_conversion(|ctx: &Context<'c>, t: Type<'c>| match *t.kind() {
        TypeKind::RankedTensor { shape, elem, .. } => Some(memref_type(ctx, shape, elem, Space::Gm)),
        _ => None,
    });
    types.add_source_materialization(|_, input, _, to, loc| {
        let mut state = OperationState::new(TO_TENSOR_OP.name, Some(&TO_TENSOR_OP), loc);
        state.operands = vec![input];
        state.result_types = vec![to];
        Some(state)
    });
    types
}

/// Whether `op` sits inside a kernel function.
fn in_kernel(ir: &Ir<'_>, op: OpId) -> bool {
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if ir.is(p, &FUNC_OP) {
            return kernel_kind(ir, p).is_some();
        }
        cur = ir.parent_op(p);
    }
    false
}

/// The kernel ABI: results become output arguments (tensor-typed here; the conversion makes
/// them GM memrefs), written by `bufferization.materialize_in_destination`.
fn results_to_outputs<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) {
    let Some((inputs, results)) = signature(ir, kernel) else { return };
    if results.is_empty() {
        return;
    }
    let Some(body) = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)) else { return };
    let outs: Vec<Type<'c>> = results
        .iter()
        .map(|&t| match *t.kind() {
            TypeKind::RankedTensor { shape, elem, .. } => memref_type(ctx, shape, elem, Space::Gm),
            _ => t,
        })
        .collect();
    let mut all = inputs.to_vec();
    all.extend(&outs);
    set_signature(ctx, ir.op_mut(kernel), &all, &[]);
    let loc = ir.op(kernel).loc;
    let out_args: Vec<ValueId> = outs.iter().map(|&t| ir.add_block_arg(body, t, Some(loc))).collect();
    let term = ir.last_op(body).expect("kernels end in a return");
    let values = ir.operands(term).to_vec();
    for (&v, &out) in values.iter().zip(&out_args) {
        let mut state = OperationState::new(
            MATERIALIZE_IN_DESTINATION_OP.name,
            Some(&MATERIALIZE_IN_DESTINATION_OP),
            ir.op(term).loc,
        );
        state.operands = vec![v, out];
        let op = ir.create_op(state);
        ir.insert_op_before(term, op);
    }
    ir.set_operands(term, &[]);
}

/// `func.call @k(%in)` -> `%out = memref.alloc()` per result and `npuvec.launch @k(%in, %out)`.
struct Call;

impl ConversionPattern for Call {
    fn root(&self) -> Root {
        Root::Op(&CALL_OP)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool {
        let loc = rw.ir().op(op).loc;
        let callee = rw.ir().attr(op, "callee");
        let results: Vec<Type<'c>> = rw.ir().results(op).iter().map(|&v| rw.ir().value_type(v)).collect();
        let Some(outs) = results.iter().map(|&t| rw.convert_type(t)).collect::<Option<Vec<_>>>() else {
            return false;
        };
        let mut buffers = Vec::new();
        for ty in outs {
            let state = gm_alloc(rw.ctx, ty, loc);
            let a = rw.create_before(op, state);
            buffers.push(rw.ir().results(a)[0]);
        }
        let attrs: Vec<(&str, _)> = callee.map(|c| ("callee", c)).into_iter().collect();
        let mut launch = OperationState::of(rw.ctx, &npuvec::LAUNCH_OP, loc, &attrs);
        launch.operands = operands.iter().chain(&buffers).copied().collect();
        rw.create_before(op, launch);
        rw.replace_op(op, &buffers)
    }
}

/// A host `hl` op becomes an `npuvec` op on buffers with the same operands and attributes.
struct HostOp {
    root: &'static OpDef,
    to: &'static OpDef,
}

impl ConversionPattern for HostOp {
    fn root(&self) -> Root {
        Root::Op(self.root)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool {
        if in_kernel(rw.ir(), op) {
            return false;
        }
        let result = rw.ir().value_type(rw.ir().results(op)[0]);
        let Some(ty) = rw.convert_type(result) else { return false };
        let value = rw.ir().op(op).properties.and_then(|p| p.dict_get("value"));
        let attrs: Vec<(&str, _)> = value
            .filter(|_| std::ptr::eq(self.to, &npuvec::CONSTANT_OP))
            .map(|v| ("value", v))
            .into_iter()
            .collect();
        let mut state = OperationState::of(rw.ctx, self.to, rw.ir().op(op).loc, &attrs);
        state.operands = operands.to_vec();
        state.result_types = vec![ty];
        let new = rw.create_before(op, state);
        let values = rw.ir().results(new).to_vec();
        rw.replace_op(op, &values)
    }
}

/// `memref.alloc() : <ty>` (no dynamic sizes or symbols).
pub fn gm_alloc<'c>(
    ctx: &Context<'c>,
    ty: Type<'c>,
    loc: kiln_compiler::Attribute<'c>,
) -> OperationState<'c> {
    let mut alloc = OperationState::new(ALLOC_OP.name, Some(&ALLOC_OP), loc);
    alloc.result_types = vec![ty];
    let segments = NamedAttr { name: ctx.intern_str("operandSegmentSizes"), value: i32_array(ctx, &[0, 0]) };
    alloc.properties = Some(ctx.dict_attr(&[segments]));
    alloc
}
