// RUN: %kiln-opt %s --hl-infer-shapes | FileCheck %s
// hl-infer-shapes refines every result of an op of several results (`hl.split`) on its own:
// the first result, used by an hl op, becomes static; the second, returned, keeps its type.

// CHECK-LABEL: func.func @split(
// CHECK-NEXT:    %[[S:.*]]:2 = hl.split %{{.*}} {axis = 1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<?x12xf32>
// CHECK-NEXT:    hl.exp %[[S]]#0 : tensor<2x4xf32> -> tensor<?x4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[S]]#1 : tensor<?x4xf32>, tensor<?x12xf32>
func.func @split(%x: tensor<2x16xf32>) -> (tensor<?x4xf32>, tensor<?x12xf32>) {
  %a, %b = hl.split %x {axis = 1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<?x4xf32>, tensor<?x12xf32>
  %e = hl.exp %a : tensor<?x4xf32>
  return %e, %b : tensor<?x4xf32>, tensor<?x12xf32>
}
