//! `fused::build_region` on real programs: regions built from groups of `hl` ops verify, print
//! and parse back, and the interpreter gives bit-identical results before and after fusion.
//! Bad groups (non-convex, out of order, kind mismatch, composites, no outside use) are
//! refused with the IR untouched.

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_source, print_module, PrintOptions};
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, Ir, Module, OpId, SourceMgr};
use kiln_dialects::fused::{build_region, region_inputs_outputs, RegionKind};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::program::{dtype_of, run_function};
use kiln_dialects::hl::interp::{random_tensor, Tensor};

fn parse<'c>(ctx: &Context<'c>, text: &str) -> Module<'c> {
    let mut sm = SourceMgr::new();
    sm.add("test.mlir", text);
    let module = parse_source(ctx, text, "test.mlir")
        .unwrap_or_else(|d| panic!("{}", d.iter().map(|d| sm.render(d)).collect::<String>()));
    check(ctx, &module);
    module
}

fn check<'c>(ctx: &Context<'c>, module: &Module<'c>) {
    if let Err(diags) = verify(ctx, &module.ir, module.top) {
        let text = print_module(ctx, module, &PrintOptions::default());
        panic!("{text}\n{}", diags.iter().map(|d| format!("{d:?}\n")).collect::<String>());
    }
}

fn print<'c>(ctx: &Context<'c>, module: &Module<'c>) -> String {
    print_module(ctx, module, &PrintOptions::default())
}

/// The first function of the module and the ops of its body (terminator excluded).
fn body(ir: &Ir<'_>, top: OpId) -> (OpId, Vec<OpId>) {
    let module_body = ir.entry_block(ir.regions(top)[0]).unwrap();
    let func = ir.first_op(module_body).unwrap();
    let entry = ir.entry_block(ir.regions(func)[0]).unwrap();
    let mut ops: Vec<OpId> = ir.block_ops(entry).collect();
    ops.pop();
    (func, ops)
}

fn inputs(ir: &Ir<'_>, func: OpId, seed: u64) -> Vec<Tensor> {
    let entry = ir.entry_block(ir.regions(func)[0]).unwrap();
    ir.block_args(entry)
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let (shape, elem) = tensor_parts(ir.value_type(a)).unwrap();
            let shape = shape.iter().map(|&d| d as usize).collect();
            random_tensor(dtype_of(elem).unwrap(), shape, seed + i as u64)
        })
        .collect()
}

fn bits(ts: &[Tensor]) -> Vec<(Vec<usize>, Vec<u64>)> {
    ts.iter().map(|t| (t.shape().to_vec(), t.to_f64s().iter().map(|x| x.to_bits()).collect())).collect()
}

fn run<'c>(ctx: &Context<'c>, m: &Module<'c>, args: &[Tensor]) -> Vec<(Vec<usize>, Vec<u64>)> {
    let (func, _) = body(&m.ir, m.top);
    bits(&run_function(ctx, &m.ir, func, args).unwrap_or_else(|d| panic!("{d:?}")))
}

/// Builds each group in turn, verifying after each; checks that the result prints and parses
/// back to the same text and computes the same bits as the original.
fn fuse_and_compare(text: &str, groups: &[(RegionKind, &[usize])]) -> String {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut m = parse(&ctx, text);
    let (func, ops) = body(&m.ir, m.top);
    let args = inputs(&m.ir, func, 7);
    let before = run(&ctx, &m, &args);
    for &(kind, group) in groups {
        let group: Vec<OpId> = group.iter().map(|&i| ops[i]).collect();
        let region = build_region(&ctx, &mut m.ir, kind, &group).unwrap();
        assert_eq!(m.ir.op(region).name, "fused.region");
        check(&ctx, &m);
    }
    assert_eq!(run(&ctx, &m, &args), before, "fusion changed the results");
    let printed = print(&ctx, &m);
    let reparsed = parse(&ctx, &printed);
    assert_eq!(print(&ctx, &reparsed), printed);
    assert_eq!(run(&ctx, &reparsed, &args), before);
    printed
}

#[test]
fn mlp_regions_compute_the_same_bits() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/mlp.mlir")).unwrap();
    // 0 matmul, 1 bias_add, 2 gelu, 3 matmul, 4 bias_add, 5 add
    let out = fuse_and_compare(
        &text,
        &[(RegionKind::Cube, &[0]), (RegionKind::Mix, &[2, 3]), (RegionKind::Vector, &[5])],
    );
    assert_eq!(out.matches("fused.region cube").count(), 1, "{out}");
    assert_eq!(out.matches("fused.region mix").count(), 1, "{out}");
    assert_eq!(out.matches("fused.region vector").count(), 1, "{out}");
}

const CHAIN: &str = r#"
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>) {
  %0 = hl.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %1 = hl.neg %0 : tensor<4x8xf32>
  %2 = hl.exp %a : tensor<4x8xf32>
  %3 = hl.mul %0, %2 : tensor<4x8xf32>
  %4 = hl.reduce_sum %3 {axes = [1]} : tensor<4x8xf32> -> tensor<4xf32>
  %5 = hl.sub %3, %0 : tensor<4x8xf32>
  return %1, %5, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>
}
"#;

#[test]
fn inputs_and_outputs_in_order_and_dependent_ops_move_after() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let m = parse(&ctx, CHAIN);
    let (func, ops) = body(&m.ir, m.top);
    let entry = m.ir.entry_block(m.ir.regions(func)[0]).unwrap();
    let (a, b) = (m.ir.block_args(entry)[0], m.ir.block_args(entry)[1]);
    let set = [ops[0], ops[3], ops[4]];
    let (ins, outs) = region_inputs_outputs(&m.ir, &set);
    let res = |i: usize| m.ir.results(ops[i])[0];
    assert_eq!(ins, vec![a, b, res(2)]);
    assert_eq!(outs, vec![res(0), res(3), res(4)]);

    // `hl.neg` uses the set and sits inside its span: it moves after the region; `hl.exp` is
    // an input and stays before.
    let out = fuse_and_compare(CHAIN, &[(RegionKind::Vector, &[0, 3, 4])]);
    let (exp, region, neg) =
        (out.find("hl.exp").unwrap(), out.find("fused.region").unwrap(), out.find("hl.neg").unwrap());
    assert!(exp < region && region < neg, "{out}");
    assert!(out.contains("%1:3 = fused.region vector (%arg2 = %arg0, %arg3 = %arg1, %arg4 = %0)"), "{out}");
}

#[test]
fn reduce_and_broadcast_chains_fuse_whole() {
    fuse_and_compare(CHAIN, &[(RegionKind::Vector, &[0, 1, 2, 3, 4, 5])]);
    fuse_and_compare(CHAIN, &[(RegionKind::Vector, &[1]), (RegionKind::Vector, &[3, 4, 5])]);
}

#[test]
fn bad_groups_are_refused_and_leave_the_ir_untouched() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mlp = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/mlp.mlir")).unwrap();
    let nonconvex = r#"
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.exp %a : tensor<4xf32>
  %1 = hl.neg %0 : tensor<4xf32>
  %2 = hl.add %0, %1 : tensor<4xf32>
  %3 = hl.abs %a : tensor<4xf32>
  return %2 : tensor<4xf32>
}
"#;
    let cases: &[(&str, RegionKind, &[usize], &str)] = &[
        (nonconvex, RegionKind::Vector, &[0, 2], "not convex"),
        (nonconvex, RegionKind::Vector, &[1, 0], "program order"),
        (nonconvex, RegionKind::Vector, &[], "no ops"),
        (nonconvex, RegionKind::Vector, &[3], "needs at least one"),
        (nonconvex, RegionKind::Cube, &[0, 1], "of kind `cube`"),
        (&mlp, RegionKind::Vector, &[2, 3], "cannot hold cube op 'hl.matmul'"),
        (&mlp, RegionKind::Mix, &[0, 1], "composite op 'hl.bias_add'"),
    ];
    for &(text, kind, group, expected) in cases {
        let mut m = parse(&ctx, text);
        let before = print(&ctx, &m);
        let (_, ops) = body(&m.ir, m.top);
        let group: Vec<OpId> = group.iter().map(|&i| ops[i]).collect();
        let e = build_region(&ctx, &mut m.ir, kind, &group).unwrap_err();
        assert!(e.contains(expected), "expected '{expected}' in '{e}'");
        assert_eq!(print(&ctx, &m), before);
    }
}
