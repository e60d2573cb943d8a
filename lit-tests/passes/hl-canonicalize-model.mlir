// RUN: %kiln-opt %s --hl-canonicalize | FileCheck %s
// Folding the model ops: a split of constants folds into one constant per result (a splat
// stays a splat); a pad of a splat is not a splat of the operand's value.

// CHECK-LABEL: func.func @f(
// CHECK-NEXT:    %[[S0:.*]] = hl.constant dense<1.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT:    %[[S1:.*]] = hl.constant dense<1.000000e+00> : tensor<3x4xf32>
// CHECK-NEXT:    %[[K1:.*]] = hl.constant dense<{{\[\[}}5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]]> : tensor<1x4xf32>
// CHECK-NEXT:    %[[P:.*]] = hl.constant dense<{{\[\[}}5, 5, 5], [3, 3, 3]]> : tensor<2x3xi32>
// CHECK-NEXT:    return %[[K1]], %[[S0]], %[[S1]], %[[P]]
func.func @f() -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<3x4xf32>, tensor<2x3xi32>) {
  %c = hl.constant dense<1.0> : tensor<4x4xf32>
  %s0, %s1 = hl.split %c {sizes = [1, 3]} : tensor<4x4xf32> -> tensor<1x4xf32>, tensor<3x4xf32>
  %k = hl.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %k0, %k1 = hl.split %k {sizes = [1, 1]} : tensor<2x4xf32> -> tensor<1x4xf32>, tensor<1x4xf32>
  %p = hl.constant dense<3> : tensor<1x3xi32>
  %q = hl.pad %p {low = [1, 0], high = [0, 0], value = 5 : i32} : tensor<1x3xi32> -> tensor<2x3xi32>
  return %k1, %s0, %s1, %q : tensor<1x4xf32>, tensor<1x4xf32>, tensor<3x4xf32>, tensor<2x3xi32>
}
