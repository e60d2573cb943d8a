// RUN: %kiln-opt %s --split-input-file --hl-decompose | FileCheck %s
// Regression test: hl-decompose used to fail on these verified inputs ("'hl.swiglu' op cannot
// be decomposed: invalid slice [0:-9223372036854775808:1] of dim #0 (size ?)", "expansion
// produced 'tensor<2x8xf32>' instead of 'tensor<2x?xf32>'"). Its contract now keeps
// composites with a dynamic dim in an operand or the result: the run succeeds and they stay.

// CHECK-LABEL: func.func @swiglu_dynamic_batch(
// CHECK-NEXT:    hl.swiglu %{{.*}} : tensor<?x8xf32> -> tensor<?x4xf32>
// CHECK-NOT:     hl.slice
func.func @swiglu_dynamic_batch(%x: tensor<?x8xf32>) -> tensor<?x4xf32> {
  %0 = hl.swiglu %x : tensor<?x8xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @swiglu_dynamic_axis(
// CHECK-NEXT:    hl.swiglu %{{.*}} : tensor<2x?xf32>
// CHECK-NOT:     hl.slice
func.func @swiglu_dynamic_axis(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = hl.swiglu %x : tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// Only the declared result is dynamic.
// CHECK-LABEL: func.func @softmax_less_static_result(
// CHECK-NEXT:    hl.softmax %{{.*}} : tensor<2x8xf32> -> tensor<2x?xf32>
// CHECK-NOT:     hl.reduce_max
func.func @softmax_less_static_result(%x: tensor<2x8xf32>) -> tensor<2x?xf32> {
  %0 = hl.softmax %x : tensor<2x8xf32> -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}
