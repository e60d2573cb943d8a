// RUN: %kiln-opt %s --split-input-file --hl-decompose | FileCheck %s
// XFAIL: *
// BUG: passes/src/hl_decompose.rs fails ("'hl.swiglu' op cannot be decomposed: invalid slice
// [0:-9223372036854775808:1] of dim #0 (size ?)") on verified IR:
//  - swiglu copies the operand's shape into the slice `limits`, so any dynamic dim (the
//    split axis or another) becomes the DYNAMIC sentinel as a limit, and `shape[axis] / 2`
//    halves the sentinel;
//  - every expansion must produce exactly the declared result type, so a composite whose
//    declared result is less static than its operand (which the verifier accepts as
//    compatible) is rejected: "expansion produced 'tensor<2x8xf32>' instead of
//    'tensor<2x?xf32>'".
// The pass contract ("assumes verified IR; guarantees verified IR") and CONVENTIONS ("a pass
// never fails on verified IR") require these to expand.

// CHECK-LABEL: func.func @swiglu_dynamic_batch(
// CHECK-NOT:     hl.swiglu
// CHECK:         hl.sigmoid
func.func @swiglu_dynamic_batch(%x: tensor<?x8xf32>) -> tensor<?x4xf32> {
  %0 = hl.swiglu %x : tensor<?x8xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @swiglu_dynamic_axis(
// CHECK-NOT:     hl.swiglu
// CHECK:         hl.sigmoid
func.func @swiglu_dynamic_axis(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = hl.swiglu %x : tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_less_static_result(
// CHECK-NOT:     hl.softmax
// CHECK:         hl.reduce_max
func.func @softmax_less_static_result(%x: tensor<2x8xf32>) -> tensor<2x?xf32> {
  %0 = hl.softmax %x : tensor<2x8xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
