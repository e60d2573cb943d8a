//! Dialect conversion on a toy lowering: `toy.add` / `toy.neg` on `i32` become `low.add` /
//! `low.neg` on `i64` (the toy type conversion), region arguments included; partial and full
//! conversion; an op left illegal is reported at its location with the patterns tried and the
//! IR is left unchanged; a pattern does not recurse on its own output.

use bumpalo::Bump;
use kiln_compiler::conversion::{
    apply_full_conversion, apply_partial_conversion, ConversionPattern, ConversionPatternSet,
    ConversionRewriter, ConversionTarget, Root, TypeConverter, UNREALIZED_CONVERSION_CAST,
};
use kiln_compiler::syntax::{parse_source, print_module, PrintOptions};
use kiln_compiler::{Arity, Context, Dialect, DialectRegistry, OpDef, OpId, TypeKind, ValueId};

static TOY_ADD: OpDef =
    OpDef { name: "toy.add", operands: Arity::Exactly(2), results: Arity::Exactly(1), ..OpDef::DEFAULT };
static TOY_NEG: OpDef =
    OpDef { name: "toy.neg", operands: Arity::Exactly(1), results: Arity::Exactly(1), ..OpDef::DEFAULT };
static TOY_LOOP: OpDef = OpDef { name: "toy.loop", regions: Arity::Exactly(1), ..OpDef::DEFAULT };
static TOY: Dialect = Dialect {
    name: "toy",
    summary: "toy ops",
    ops: &[&TOY_ADD, &TOY_NEG, &TOY_LOOP],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
    attrs: &[],
    types: &[],
};
static BUILTIN: Dialect = Dialect {
    name: "builtin",
    summary: "the cast",
    ops: &[&UNREALIZED_CONVERSION_CAST],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
    attrs: &[],
    types: &[],
};

/// `i32 -> i64`, everything else unchanged.
fn widen<'a, 'c>() -> TypeConverter<'a, 'c> {
    let mut types = TypeConverter::new();
    types.add_conversion(|_, t| Some(t));
    types.add_conversion(|ctx: &Context<'c>, t| match *t.kind() {
        TypeKind::Integer { width: 32, .. } => Some(ctx.int_type(64)),
        _ => None,
    });
    types
}

/// `toy.<op>` with an integer result -> `"low.<op>"` with converted operand and result types.
struct Lower(&'static OpDef);

impl ConversionPattern for Lower {
    fn root(&self) -> Root {
        Root::Op(self.0)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool {
        let ty = rw.ir().value_type(rw.ir().results(op)[0]);
        if !matches!(ty.kind(), TypeKind::Integer { .. }) {
            return false;
        }
        let Some(ty) = rw.convert_type(ty) else { return false };
        let name = rw.ctx.intern_str(&self.0.name.replace("toy.", "low."));
        rw.replace_op_with_new(op, name, None, operands, vec![ty])
    }
}

/// Converts the argument types of `toy.loop`'s body in place.
struct LoopArgs;

impl ConversionPattern for LoopArgs {
    fn root(&self) -> Root {
        Root::Op(&TOY_LOOP)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        _: &[ValueId],
    ) -> bool {
        let region = rw.ir().regions(op)[0];
        rw.convert_region_types(region)
    }
}

fn patterns() -> ConversionPatternSet {
    let mut p = ConversionPatternSet::new();
    p.add(Lower(&TOY_ADD));
    p.add(Lower(&TOY_NEG));
    p.add(LoopArgs);
    p
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Partial,
    Full,
}

/// Runs the toy conversion on `src`; returns the printed result (generic form) or the error.
fn run(src: &str, mode: Mode, neg_legal: bool) -> Result<String, (String, String)> {
    let arena = Bump::new();
    let mut registry = DialectRegistry::new();
    registry.register(&TOY);
    registry.register(&BUILTIN);
    let ctx = Context::new(&arena, registry);
    ctx.set_allow_unregistered(true);
    let mut m = parse_source(&ctx, src, "in.mlir").expect("test input parses");
    let opts = PrintOptions { generic: true, ..Default::default() };
    let before = print_module(&ctx, &m, &opts);
    let types = widen();
    let mut target = ConversionTarget::new();
    target.add_legal_dialect("low");
    target.add_illegal_op(&TOY_ADD);
    if neg_legal {
        target.add_legal_op(&TOY_NEG);
    }
    target.add_dynamically_legal_op(&TOY_LOOP, |ctx, ir, op| {
        let body = ir.entry_block(ir.regions(op)[0]);
        body.is_none_or(|b| types.are_legal(ctx, ir.block_args(b).iter().map(|&a| ir.value_type(a))))
    });
    target.add_legal_dialect("test");
    let apply = if mode == Mode::Full { apply_full_conversion } else { apply_partial_conversion };
    match apply(&ctx, &mut m.ir, m.top, &target, &patterns(), Some(&types)) {
        Ok(()) => Ok(print_module(&ctx, &m, &opts)),
        Err(d) => {
            assert_eq!(print_module(&ctx, &m, &opts), before, "a failed conversion leaves the IR unchanged");
            let (_, line, col) = kiln_compiler::SourceMgr::file_location(d.loc).expect("a file location");
            let notes: Vec<String> = d.notes.iter().map(|n| n.message.clone()).collect();
            Err((format!("{line}:{col}: {}", d.message), notes.join("; ")))
        }
    }
}

const CHAIN: &str = r#"
"test.f"() ({
^bb0(%a: i32, %b: i32):
  %0 = "toy.add"(%a, %b) : (i32, i32) -> i32
  %1 = "toy.neg"(%0) : (i32) -> i32
  %2 = "toy.add"(%1, %0) : (i32, i32) -> i32
  "test.use"(%2) : (i32) -> ()
}) : () -> ()
"#;

#[test]
fn full_conversion_rewrites_every_op_and_bridges_unconverted_users() {
    let out = run(CHAIN, Mode::Full, false).expect("every toy op has a pattern");
    // The block arguments of the unconverted `test.f` keep i32: target materializations
    // bridge them; `test.use` keeps its i32 operand through a source materialization; casts
    // between converted ops were folded away.
    let expected = r#"  ^bb0(%arg0: i32, %arg1: i32):
    %0 = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
    %1 = "builtin.unrealized_conversion_cast"(%arg1) : (i32) -> i64
    %2 = "low.add"(%0, %1) : (i64, i64) -> i64
    %3 = "low.neg"(%2) : (i64) -> i64
    %4 = "low.add"(%3, %2) : (i64, i64) -> i64
    %5 = "builtin.unrealized_conversion_cast"(%4) : (i64) -> i32
    "test.use"(%5) : (i32) -> ()"#;
    assert!(out.contains(expected), "{out}");
}

#[test]
fn partial_conversion_keeps_legal_and_unknown_ops() {
    let out = run(CHAIN, Mode::Partial, true).expect("toy.add has a pattern");
    let expected = r#"    %2 = "low.add"(%0, %1) : (i64, i64) -> i64
    %3 = "builtin.unrealized_conversion_cast"(%2) : (i64) -> i32
    %4 = "toy.neg"(%3) : (i32) -> i32
    %5 = "builtin.unrealized_conversion_cast"(%4) : (i32) -> i64
    %6 = "low.add"(%5, %2) : (i64, i64) -> i64"#;
    assert!(out.contains(expected), "{out}");
}

#[test]
fn region_arguments_are_converted_with_the_signature() {
    let src = r#"
"toy.loop"() ({
^bb0(%i: i32):
  %0 = "toy.add"(%i, %i) : (i32, i32) -> i32
  "test.use"(%0) : (i32) -> ()
}) : () -> ()
"#;
    let out = run(src, Mode::Partial, false).expect("converts");
    let expected = r#"  ^bb0(%arg0: i64):
    %0 = "low.add"(%arg0, %arg0) : (i64, i64) -> i64
    %1 = "builtin.unrealized_conversion_cast"(%0) : (i64) -> i32
    "test.use"(%1) : (i32) -> ()"#;
    assert!(out.contains(expected), "{out}");
}

#[test]
fn an_op_left_illegal_is_a_located_error_and_the_ir_is_unchanged() {
    // `Lower` does not apply to a `toy.add` with a float result, so that op stays illegal.
    let src = r#"
"test.f"() ({
^bb0(%a: i32):
  %0 = "toy.neg"(%a) : (i32) -> i32
  %1 = "toy.add"(%0, %0) : (i32, i32) -> f32
  "test.use"(%1) : (f32) -> ()
}) : () -> ()
"#;
    // Full conversion: the first op that stays illegal is reported (the earlier `toy.neg`
    // was converted already, and that too is rolled back).
    let (message, notes) = run(src, Mode::Full, false).expect_err("toy.add on f32 results has no lowering");
    assert_eq!(message, "5:8: failed to legalize operation 'toy.add' that was explicitly marked illegal");
    assert_eq!(notes, "patterns tried: Lower");
    // Partial conversion with an unknown op that no pattern matches succeeds, keeping it.
    let unknown =
        src.replace("\"toy.add\"(%0, %0) : (i32, i32) -> f32", "\"other.op\"(%0, %0) : (i32, i32) -> f32");
    assert!(run(&unknown, Mode::Partial, false).is_ok());
    // Full conversion names an unknown op too, without patterns to try.
    let (message, notes) = run(&unknown, Mode::Full, false).expect_err("other.op has unknown legality");
    assert_eq!(message, "5:8: failed to legalize operation 'other.op'");
    assert_eq!(notes, "no conversion pattern matches this operation");
}

/// Rewrites `toy.neg` into a `toy.neg` again (a pattern whose output matches itself).
struct Recurse;

impl ConversionPattern for Recurse {
    fn root(&self) -> Root {
        Root::Op(&TOY_NEG)
    }

    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool {
        let ty = rw.ir().value_type(rw.ir().results(op)[0]);
        rw.replace_op_with_new(op, TOY_NEG.name, Some(&TOY_NEG), operands, vec![ty])
    }
}

#[test]
fn a_pattern_is_not_applied_to_its_own_output() {
    let arena = Bump::new();
    let mut registry = DialectRegistry::new();
    registry.register(&TOY);
    let ctx = Context::new(&arena, registry);
    ctx.set_allow_unregistered(true);
    let src = "\"test.f\"() ({\n^bb0(%a: i32):\n  %0 = \"toy.neg\"(%a) : (i32) -> i32\n}) : () -> ()\n";
    let mut m = parse_source(&ctx, src, "in.mlir").expect("parses");
    let mut target = ConversionTarget::new();
    target.add_illegal_op(&TOY_NEG);
    target.add_legal_dialect("test");
    let mut patterns = ConversionPatternSet::new();
    patterns.add(Recurse);
    let err =
        apply_full_conversion(&ctx, &mut m.ir, m.top, &target, &patterns, None).expect_err("never legal");
    assert!(err.message.contains("'toy.neg' that was explicitly marked illegal"), "{}", err.message);
    assert_eq!(err.notes[0].message, "no conversion pattern matches this operation");
}
