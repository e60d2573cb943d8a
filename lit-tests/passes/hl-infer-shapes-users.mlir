// RUN: %kiln-opt %s --hl-infer-shapes | FileCheck %s
// A refinement that a user contradicts (its `?` must be 5 here, not 4) is not made, so the
// output still verifies.

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
