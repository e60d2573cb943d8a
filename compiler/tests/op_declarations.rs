//! Op declarations with named operand and result groups, operand segments and memory effects,
//! on a dialect that exists only in this test: the generic verifier's derived checks (one
//! test per check), the group accessors, and the effects query.

use bumpalo::Bump;
use kiln_compiler::dialect::effects::{
    effects_allow_erasure, is_memory_effect_free, memory_effects, EffectDecl, EffectKind, EffectOn,
    MemoryEffects, Resource, ResourceRef,
};
use kiln_compiler::dialect::{operand_group, result_group};
use kiln_compiler::syntax::parse_source;
use kiln_compiler::verifier::verify;
use kiln_compiler::{Arity, Context, Dialect, DialectRegistry, OpDef, Trait, TypeConstraint as C, ValueDef};

/// `test.seg`: a single index, an optional i1, a variadic group of floats of one type (as
/// `x`'s); results: a variadic group and a single of `x`'s type, with result segments.
static SEG: OpDef = OpDef {
    name: "test.seg",
    operands: Arity::Named(&[
        ValueDef::single("n", C::Index),
        ValueDef::optional("flag", C::I1),
        ValueDef::variadic("xs", C::AnyFloat),
        ValueDef::single("x", C::AnyOf(&[C::AnyFloat, C::SignlessInteger])),
    ]),
    results: Arity::Named(&[ValueDef::variadic("outs", C::SameAs("x")), ValueDef::optional("last", C::Any)]),
    traits: &[Trait::Pure],
    ..OpDef::DEFAULT
};

/// `test.opt`: one optional group only, so no segments.
static OPT: OpDef = OpDef {
    name: "test.opt",
    operands: Arity::Named(&[ValueDef::single("a", C::Any), ValueDef::optional("b", C::Any)]),
    traits: &[Trait::Pure],
    ..OpDef::DEFAULT
};

/// `test.write`: writes operand #0 in its memory space; `test.read` reads the named resource
/// "ub"; `test.alloc` allocates its result; `test.unknown` declares nothing.
static WRITE: OpDef = OpDef {
    name: "test.write",
    operands: Arity::Exactly(1),
    interfaces: &[&MemoryEffects(&[EffectDecl::write(EffectOn::Operand(0), Resource::MemorySpace)])],
    ..OpDef::DEFAULT
};
static READ: OpDef = OpDef {
    name: "test.read",
    results: Arity::Exactly(1),
    interfaces: &[&MemoryEffects(&[EffectDecl::read(EffectOn::Resource, Resource::Named("ub"))])],
    ..OpDef::DEFAULT
};
static ALLOC: OpDef = OpDef {
    name: "test.alloc",
    results: Arity::Exactly(1),
    interfaces: &[&MemoryEffects(&[EffectDecl::allocate(EffectOn::Result(0), Resource::Default)])],
    ..OpDef::DEFAULT
};
static UNKNOWN: OpDef = OpDef { name: "test.unknown", results: Arity::Exactly(1), ..OpDef::DEFAULT };

static TEST: Dialect = Dialect {
    name: "test",
    summary: "ops for this test",
    ops: &[&SEG, &OPT, &WRITE, &READ, &ALLOC, &UNKNOWN],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
    attrs: &[],
    types: &[],
};

fn registry() -> DialectRegistry {
    let mut r = DialectRegistry::new();
    r.register(&TEST);
    r
}

/// The verifier's messages for the single op in `op_text`, whose operands are `%i: index`,
/// `%b: i1`, `%f: f32`, `%g: f64`, `%m: memref<4xf32, 3>`.
fn errors(op_text: &str) -> Vec<String> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, registry());
    ctx.set_allow_unregistered(true);
    let src = format!(
        "\"t.f\"() ({{\n^bb0(%i: index, %b: i1, %f: f32, %g: f64, %m: memref<4xf32, 3>):\n  {op_text}\n  \"t.end\"() : () -> ()\n}}) : () -> ()\n"
    );
    let m = parse_source(&ctx, &src, "t.mlir").unwrap_or_else(|d| panic!("{src}: {}", d[0].message));
    match verify(&ctx, &m.ir, m.top) {
        Ok(()) => Vec::new(),
        Err(ds) => ds.into_iter().map(|d| d.message).collect(),
    }
}

/// The entry block of the `t.f` op the parser wrapped in a module, and its ops.
fn body_ops(
    ir: &kiln_compiler::Ir<'_>,
    top: kiln_compiler::OpId,
) -> (kiln_compiler::BlockId, Vec<kiln_compiler::OpId>) {
    let f = ir.first_op(ir.entry_block(ir.regions(top)[0]).unwrap()).unwrap();
    let body = ir.entry_block(ir.regions(f)[0]).unwrap();
    (body, ir.block_ops(body).collect())
}

const SEGS: &str = "operandSegmentSizes = array<i32:";

#[test]
fn a_well_formed_segmented_op_verifies() {
    let op = format!(
        "%r:2 = \"test.seg\"(%i, %b, %f, %f, %f) <{{{SEGS} 1, 1, 2, 1>, resultSegmentSizes = array<i32: 2, 0>}}> : (index, i1, f32, f32, f32) -> (f32, f32)"
    );
    assert_eq!(errors(&op), Vec::<String>::new());
    let op = format!("\"test.seg\"(%i, %f) <{{{SEGS} 1, 0, 0, 1>, resultSegmentSizes = array<i32: 0, 0>}}> : (index, f32) -> ()");
    assert_eq!(errors(&op), Vec::<String>::new());
}

#[test]
fn segment_total_must_match_the_count() {
    let op = format!("\"test.seg\"(%i, %f) <{{{SEGS} 1, 0, 2, 1>}}> : (index, f32) -> ()");
    assert_eq!(
        errors(&op),
        ["'test.seg' op operand count (2) does not match with the total size (4) specified in attribute 'operandSegmentSizes'"]
    );
}

#[test]
fn segment_property_is_checked() {
    let op = format!("\"test.seg\"(%i, %f) <{{{SEGS} 1, 1>}}> : (index, f32) -> ()");
    assert_eq!(
        errors(&op),
        ["'test.seg' op 'operandSegmentSizes' attribute for specifying operand segments must have 4 elements, but got 2"]
    );
    let op = format!("\"test.seg\"(%i, %f) <{{{SEGS} 1, -1, 1, 1>}}> : (index, f32) -> ()");
    assert_eq!(errors(&op), ["'test.seg' op 'operandSegmentSizes' attribute cannot have negative elements"]);
    let op = "\"test.seg\"(%i, %f) <{operandSegmentSizes = [1, 0, 0, 1]}> : (index, f32) -> ()";
    assert_eq!(
        errors(op),
        ["'test.seg' op attribute 'operandSegmentSizes' failed to satisfy constraint: i32 dense array attribute"]
    );
}

#[test]
fn group_sizes_respect_their_kinds() {
    let op = format!("\"test.seg\"(%i, %b, %b, %f) <{{{SEGS} 1, 2, 0, 1>, resultSegmentSizes = array<i32: 0, 0>}}> : (index, i1, i1, f32) -> ()");
    assert_eq!(
        errors(&op),
        ["'test.seg' op operand group starting at #1 requires 0 or 1 element, but found 2"]
    );
    let op = format!("\"test.seg\"(%f, %f) <{{{SEGS} 0, 0, 1, 1>, resultSegmentSizes = array<i32: 0, 0>}}> : (f32, f32) -> ()");
    assert_eq!(errors(&op), ["'test.seg' op operand group starting at #0 requires 1 element, but found 0"]);
    // Without segments, an optional group takes what the single groups leave.
    assert_eq!(errors("\"test.opt\"(%i, %f) : (index, f32) -> ()"), Vec::<String>::new());
    assert_eq!(
        errors("\"test.opt\"(%i, %f, %f) : (index, f32, f32) -> ()"),
        ["'test.opt' op operand group starting at #1 requires 0 or 1 element, but found 2"]
    );
    assert_eq!(
        errors("\"test.opt\"() : () -> ()"),
        ["'test.opt' op expected 1 or more operands, but found 0"]
    );
}

#[test]
fn type_constraints_name_the_flat_index() {
    let op = format!("\"test.seg\"(%i, %f, %i, %f) <{{{SEGS} 1, 0, 2, 1>, resultSegmentSizes = array<i32: 0, 0>}}> : (index, f32, index, f32) -> ()");
    assert_eq!(errors(&op), ["'test.seg' op operand #2 must be variadic of floating-point, but got 'index'"]);
    let op = format!("\"test.seg\"(%i, %i) <{{{SEGS} 1, 0, 0, 1>, resultSegmentSizes = array<i32: 0, 0>}}> : (index, index) -> ()");
    assert_eq!(
        errors(&op),
        ["'test.seg' op operand #1 must be floating-point or signless integer, but got 'index'"]
    );
    let op = format!("\"test.seg\"(%f, %f) <{{{SEGS} 1, 0, 0, 1>, resultSegmentSizes = array<i32: 0, 0>}}> : (f32, f32) -> ()");
    assert_eq!(errors(&op), ["'test.seg' op operand #0 must be index, but got 'f32'"]);
}

#[test]
fn same_as_relates_groups_across_operands_and_results() {
    let op = format!("%r = \"test.seg\"(%i, %g) <{{{SEGS} 1, 0, 0, 1>, resultSegmentSizes = array<i32: 1, 0>}}> : (index, f64) -> f32");
    assert_eq!(errors(&op), ["'test.seg' op failed to verify that all of {x, outs} have same type"]);
    let op = format!("%r = \"test.seg\"(%i, %g) <{{{SEGS} 1, 0, 0, 1>, resultSegmentSizes = array<i32: 1, 0>}}> : (index, f64) -> f64");
    assert_eq!(errors(&op), Vec::<String>::new());
    let op = format!("%r = \"test.seg\"(%i, %g) <{{{SEGS} 1, 0, 0, 1>, resultSegmentSizes = array<i32: 2, 0>}}> : (index, f64) -> f64");
    assert_eq!(
        errors(&op),
        ["'test.seg' op result count (1) does not match with the total size (2) specified in attribute 'resultSegmentSizes'"]
    );
}

#[test]
fn groups_are_found_by_name() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, registry());
    ctx.set_allow_unregistered(true);
    let src = "\"t.f\"() ({\n^bb0(%i: index, %f: f32):\n  %r:3 = \"test.seg\"(%i, %f, %f, %f) <{operandSegmentSizes = array<i32: 1, 0, 2, 1>, resultSegmentSizes = array<i32: 2, 1>}> : (index, f32, f32, f32) -> (f32, f32, i8)\n  \"test.opt\"(%i) : (index) -> ()\n}) : () -> ()\n";
    let m = parse_source(&ctx, src, "t.mlir").unwrap_or_else(|d| panic!("{}", d[0].message));
    let ir = &m.ir;
    let (_, ops) = body_ops(ir, m.top);
    let (seg, opt) = (ops[0], ops[1]);
    let operands = ir.operands(seg);
    assert_eq!(operand_group(ir, seg, "n"), Some(&operands[..1]));
    assert_eq!(operand_group(ir, seg, "flag"), Some(&[][..]));
    assert_eq!(operand_group(ir, seg, "xs"), Some(&operands[1..3]));
    assert_eq!(operand_group(ir, seg, "x"), Some(&operands[3..]));
    assert_eq!(operand_group(ir, seg, "nope"), None);
    assert_eq!(result_group(ir, seg, "outs"), Some(&ir.results(seg)[..2]));
    assert_eq!(result_group(ir, seg, "last"), Some(&ir.results(seg)[2..]));
    assert_eq!(operand_group(ir, opt, "b"), Some(&[][..]));
    assert_eq!(operand_group(ir, opt, "a"), Some(ir.operands(opt)));
}

#[test]
fn memory_effects_resolve_values_and_resources() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, registry());
    ctx.set_allow_unregistered(true);
    let src = "\"t.f\"() ({\n^bb0(%m: memref<4xf32, 3>, %n: memref<4xf32>, %i: index):\n  \"test.write\"(%m) : (memref<4xf32, 3>) -> ()\n  \"test.write\"(%n) : (memref<4xf32>) -> ()\n  %0 = \"test.read\"() : () -> f32\n  %1 = \"test.alloc\"() : () -> memref<f32>\n  %2 = \"test.unknown\"() : () -> f32\n  \"test.opt\"(%i) : (index) -> ()\n  %3 = \"unk.op\"() : () -> f32\n}) : () -> ()\n";
    let m = parse_source(&ctx, src, "t.mlir").unwrap_or_else(|d| panic!("{}", d[0].message));
    let ir = &m.ir;
    let (body, ops) = body_ops(ir, m.top);
    let args = ir.block_args(body);
    let space = match ir.value_type(args[0]).kind() {
        kiln_compiler::TypeKind::MemRef { memory_space: Some(s), .. } => *s,
        _ => unreachable!("memref<4xf32, 3> has a memory space"),
    };
    let w = memory_effects(ir, ops[0]).unwrap();
    assert_eq!(
        (w[0].kind, w[0].value, w[0].resource),
        (EffectKind::Write, Some(args[0]), ResourceRef::Space(space))
    );
    assert_eq!(memory_effects(ir, ops[1]).unwrap()[0].resource, ResourceRef::Default);
    let r = memory_effects(ir, ops[2]).unwrap();
    assert_eq!((r[0].kind, r[0].value, r[0].resource), (EffectKind::Read, None, ResourceRef::Named("ub")));
    // Erasable when unused: reads, allocations of own results, no effects. Not: writes,
    // unknown effects (a registered op declaring none, an unregistered op).
    let erasable: Vec<bool> = ops.iter().map(|&o| effects_allow_erasure(ir, o)).collect();
    assert_eq!(erasable, [false, false, true, true, false, true, false]);
    let free: Vec<bool> = ops.iter().map(|&o| is_memory_effect_free(ir, o)).collect();
    assert_eq!(free, [false, false, false, false, false, true, false]);
    assert_eq!(memory_effects(ir, ops[4]), None);
    assert_eq!(memory_effects(ir, ops[6]), None);
}
