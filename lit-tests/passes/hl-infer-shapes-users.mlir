// RUN: %kiln-opt %s --hl-infer-shapes | FileCheck %s
// XFAIL: *
// BUG: passes/src/hl_infer_shapes.rs refines a result without re-checking its hl users, so
// verified input becomes IR that fails the verifier after the pass:
//   'hl.reshape' op cannot reshape 'tensor<4x8xf32>' (32 elements) to 'tensor<5x8xf32>' (40 elements)
//   'hl.concat' op operand #1 has dim #0 of size 5, but 4 was expected
// (the contract: "Assumes: verified IR. Guarantees: verified IR"). Expected: a refinement
// that would make a user invalid is not made (or the pass reports a diagnostic instead of
// leaving invalid IR for the verifier; then this test needs updating).

// CHECK-LABEL: func.func @reshape_user(
// CHECK:         hl.reshape %{{.*}} -> tensor<5x8xf32>
func.func @reshape_user(%a: tensor<?x8xf32>, %b: tensor<4x1xf32>) -> tensor<5x8xf32> {
  %0 = hl.add %a, %b : tensor<?x8xf32>, tensor<4x1xf32> -> tensor<?x8xf32>
  %1 = hl.reshape %0 : tensor<?x8xf32> -> tensor<5x8xf32>
  return %1 : tensor<5x8xf32>
}

// CHECK-LABEL: func.func @concat_user(
// CHECK:         hl.concat
func.func @concat_user(%a: tensor<?x8xf32>, %b: tensor<4x1xf32>, %c: tensor<5x8xf32>) -> tensor<5x16xf32> {
  %0 = hl.add %a, %b : tensor<?x8xf32>, tensor<4x1xf32> -> tensor<?x8xf32>
  %1 = hl.concat %0, %c {axis = 1 : i64} : tensor<?x8xf32>, tensor<5x8xf32> -> tensor<5x16xf32>
  return %1 : tensor<5x16xf32>
}
