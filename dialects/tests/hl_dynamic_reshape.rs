//! The interpreter runs a reshape with several `?` result dims when `source_dims` ties them to
//! operand dims (at most one `?` left to the element count), and refuses one that leaves its
//! shape undetermined.

use bumpalo::Bump;
use kiln_compiler::syntax::parse_source;
use kiln_compiler::verifier::verify;
use kiln_compiler::Context;
use kiln_dialects::hl::interp::program::run_function;
use kiln_dialects::hl::interp::{random_tensor, DType};

const MODULE: &str = r#"
func.func @tied(%x: tensor<?x?x32xf32>) -> tensor<?x?x4x8xf32> {
  %0 = hl.reshape %x {source_dims = [0, 1, -1, -1]} : tensor<?x?x32xf32> -> tensor<?x?x4x8xf32>
  return %0 : tensor<?x?x4x8xf32>
}
func.func @swapped(%x: tensor<?x?xf32>) -> tensor<?x?x1xf32> {
  %0 = hl.reshape %x {source_dims = [1, -1, -1]} : tensor<?x?xf32> -> tensor<?x?x1xf32>
  return %0 : tensor<?x?x1xf32>
}
func.func @untied(%x: tensor<?x?x32xf32>) -> tensor<?x?x4x8xf32> {
  %0 = hl.reshape %x : tensor<?x?x32xf32> -> tensor<?x?x4x8xf32>
  return %0 : tensor<?x?x4x8xf32>
}
"#;

#[test]
fn ties_determine_the_dynamic_dims() {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let module = parse_source(&ctx, MODULE, "dynamic.mlir").expect("the module parses");
    verify(&ctx, &module.ir, module.top).expect("the module verifies");
    let funcs: Vec<_> =
        module.ir.block_ops(module.ir.entry_block(module.ir.regions(module.top)[0]).unwrap()).collect();
    let x = random_tensor(DType::F32, vec![2, 3, 32], 7);
    let tied =
        run_function(&ctx, &module.ir, funcs[0], std::slice::from_ref(&x)).expect("the tied reshape runs");
    assert_eq!(tied[0].shape(), &[2, 3, 4, 8]);
    assert_eq!(tied[0].to_f64s(), x.to_f64s());
    let y = random_tensor(DType::F32, vec![2, 5], 7);
    let swapped = run_function(&ctx, &module.ir, funcs[1], &[y]).expect("the swapped reshape runs");
    assert_eq!(swapped[0].shape(), &[5, 2, 1]);
    let err = run_function(&ctx, &module.ir, funcs[2], &[x]).expect_err("two untied `?` are undetermined");
    assert!(err.message.contains("leaves its shape undetermined"), "{}", err.message);
}
