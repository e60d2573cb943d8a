//! `test-dialect-conversion`: exercises the dialect-conversion framework
//! (`kiln_compiler::conversion`) on a toy lowering, for lit tests (MLIR's
//! `-test-legalize-patterns`).
//!
//! Rewrites: the toy type conversion turns every ranked `tensor<S x E>` into `memref<S x E>`;
//! `hl.add` and `hl.mul` on `f32` elements become `"test.add"` / `"test.mul"` on the converted
//! operands (the unregistered `test` dialect is legal); `func.func` signatures and block
//! arguments, and `func.return` operands, are converted. `hl.add` and `hl.mul` are illegal;
//! `func.func` / `func.return` are legal once their types are; every other op has unknown
//! legality. Where converted and unconverted values meet, `builtin.unrealized_conversion_cast`
//! materializations bridge them.
//! Assumes: verified IR. Guarantees: with `full=false` (partial conversion), no `hl.add` /
//! `hl.mul` is left and other ops are kept; with `full=true`, every op left is legal. An op
//! that cannot be legalized is an error at its location naming it and the patterns tried, and
//! the IR is left unchanged.

use kiln_compiler::conversion::{
    apply_full_conversion, apply_partial_conversion, ConversionPattern, ConversionPatternSet,
    ConversionRewriter, ConversionTarget, Root, TypeConverter,
};
use kiln_compiler::pass::{OptionKind, PassFailed, PassOptionSpec};
use kiln_compiler::{Context, FloatKind, OpDef, OpId, Type, TypeKind, ValueId};
use kiln_dialects::func::conversion::{signature, ReturnConversion, SignatureConversion};
use kiln_dialects::func::{FUNC_OP, RETURN_OP};
use kiln_dialects::hl::{ADD, MUL};

kiln_compiler::declare_pass! {
    struct TestDialectConversion {
        full: bool,
    }
    name: "test-dialect-conversion",
    summary: "Test the dialect conversion framework",
    description: "Converts f32 hl.add / hl.mul into test.add / test.mul on memrefs (tensor -> memref), with \
                  function signatures; partial or full conversion.",
    options: &[PassOptionSpec {
        name: "full",
        help: "Run a full conversion (every op must end legal) instead of a partial one",
        kind: OptionKind::Bool,
        default: "false",
    }],
    create(o) {
        Ok(TestDialectConversion { full: o.get_bool("full") })
    }
    fn run(&mut self, cx, root) {
        let types = tensor_to_memref();
        let mut target = ConversionTarget::new();
        target.add_legal_dialect("test");
        target.add_illegal_op(&ADD);
        target.add_illegal_op(&MUL);
        target.add_dynamically_legal_op(&FUNC_OP, |ctx, ir, op| {
            signature(ir, op).is_some_and(|(i, r)| types.are_legal(ctx, i.iter().chain(r).copied()))
        });
        target.add_dynamically_legal_op(&RETURN_OP, |ctx, ir, op| {
            types.are_legal(ctx, ir.operands(op).iter().map(|&v| ir.value_type(v)))
        });
        let mut patterns = ConversionPatternSet::new();
        patterns.add(ElementwiseToTest { root: &ADD, to: "test.add" });
        patterns.add(ElementwiseToTest { root: &MUL, to: "test.mul" });
        patterns.add(SignatureConversion);
        patterns.add(ReturnConversion);
        let apply = if self.full { apply_full_conversion } else { apply_partial_conversion };
        apply(cx.ctx, cx.ir, root, &target, &patterns, Some(&types)).map_err(|d| {
            cx.diagnostics.push(d);
            PassFailed
        })
    }
}

/// The toy type conversion: ranked tensors become memrefs of the same shape; other types stay.
fn tensor_to_memref<'a, 'c>() -> TypeConverter<'a, 'c> {
    let mut types = TypeConverter::new();
    types.add_conversion(|_, t| Some(t));
    types.add_conversion(|ctx: &Context<'c>, t: Type<'c>| match *t.kind() {
        TypeKind::RankedTensor { shape, elem, .. } => {
            Some(ctx.ty(TypeKind::MemRef { shape, elem, layout: None, memory_space: None }))
        }
        _ => None,
    });
    types
}

/// `hl.<op>` on `f32` elements -> `"test.<op>"` on the converted operands.
struct ElementwiseToTest {
    root: &'static OpDef,
    to: &'static str,
}

impl ConversionPattern for ElementwiseToTest {
    fn root(&self) -> Root {
        Root::Op(self.root)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool {
        let result = rw.ir().value_type(rw.ir().results(op)[0]);
        if result.element_type().map(|e| *e.kind()) != Some(TypeKind::Float(FloatKind::F32)) {
            return rw.notify_match_failure(format!("the result type {result} is not of f32 elements"));
        }
        let Some(converted) = rw.convert_type(result) else {
            return rw.notify_match_failure(format!("the result type {result} has no converted type"));
        };
        rw.replace_op_with_new(op, self.to, None, operands, vec![converted])
    }
}
