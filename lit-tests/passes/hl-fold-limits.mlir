// RUN: %kiln-opt %s --hl-canonicalize | FileCheck %s
// RUN: %kiln-opt %s --canonicalize | FileCheck %s
// Folding is bounded by size and work: splats fold as splats without materializing the
// shape, and an op whose operands or result are too large, or whose declared cost is too
// high, is left alone (each case here would take gigabytes or minutes if folded naively).

// An elementwise op of splats folds to a splat computed from one element; a broadcast and
// a reshape of a splat are splats of the same value.
// CHECK-LABEL: func.func @splats(
// CHECK-DAG:     %[[E:.*]] = hl.constant dense<3.000000e+00> : tensor<1000000000xf32>
// CHECK-DAG:     %[[B:.*]] = hl.constant dense<1.000000e+00> : tensor<100000x100000xf32>
// CHECK-DAG:     %[[R:.*]] = hl.constant dense<1.000000e+00> : tensor<1000x1000000xf32>
// CHECK-NOT:     hl.add
// CHECK-NOT:     hl.broadcast_to
// CHECK-NOT:     hl.reshape
// CHECK:         return %[[E]], %[[B]], %[[R]]
func.func @splats() -> (tensor<1000000000xf32>, tensor<100000x100000xf32>, tensor<1000x1000000xf32>) {
  %a = hl.constant dense<1.0> : tensor<1000000000xf32>
  %b = hl.constant dense<2.0> : tensor<1000000000xf32>
  %e = hl.add %a, %b : tensor<1000000000xf32>
  %s = hl.constant dense<1.0> : tensor<1xf32>
  %w = hl.broadcast_to %s : tensor<1xf32> -> tensor<100000x100000xf32>
  %r = hl.reshape %a : tensor<1000000000xf32> -> tensor<1000x1000000xf32>
  return %e, %w, %r : tensor<1000000000xf32>, tensor<100000x100000xf32>, tensor<1000x1000000xf32>
}

// A reduction of a huge splat and a matmul of splats with a long contraction stay.
// CHECK-LABEL: func.func @too_big(
// CHECK:         hl.reduce_sum
// CHECK:         hl.matmul
func.func @too_big() -> (tensor<f32>, tensor<256x256xf32>) {
  %a = hl.constant dense<1.0> : tensor<1000000000xf32>
  %sum = hl.reduce_sum %a {axes = [0]} : tensor<1000000000xf32> -> tensor<f32>
  %l = hl.constant dense<1.0> : tensor<256x200000xf32>
  %r = hl.constant dense<1.0> : tensor<200000x256xf32>
  %m = hl.matmul %l, %r : tensor<256x200000xf32>, tensor<200000x256xf32> -> tensor<256x256xf32>
  return %sum, %m : tensor<f32>, tensor<256x256xf32>
}

// Within the limits, a non-splat fold still happens.
// CHECK-LABEL: func.func @small(
// CHECK:         %[[C:.*]] = hl.constant dense<[2.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    return %[[C]]
func.func @small() -> tensor<2xf32> {
  %a = hl.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = hl.add %a, %a : tensor<2xf32>
  return %b : tensor<2xf32>
}
