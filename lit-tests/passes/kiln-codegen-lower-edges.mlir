// RUN: %kiln-opt %s --split-input-file --no-verify-each -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower)' > %t
// RUN: FileCheck %s < %t
// RUN: %kiln-opt --split-input-file %t > /dev/null
// kiln-codegen-lower on the edges of the vector model: the operand that sets a broadcast's
// shape is a splat (an immediate), a reduction over a size-1 axis only, a select on a splat
// condition, a transpose of rank 6 (a GM view has at most 4 dims).

// The splat [4] sets the shape: the result buffer spans it although no buffer operand does.
// CHECK-LABEL: func.func private @splat_sets_shape_kernel0(
// CHECK:         %[[A:.*]] = npuvec.alloc : memref<1x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[R:.*]] = npuvec.alloc : memref<1x4xf32, #npuvec.space<ub>>
// CHECK:         npuvec.add ins(%[[A]], %{{.*}} : memref<1x1xf32, #npuvec.space<ub>>, f32) outs(%[[R]] : memref<1x4xf32, #npuvec.space<ub>>)
// CHECK:         npuvec.store ins(%[[R]] : memref<1x4xf32, #npuvec.space<ub>>) {{.*}} sizes [4] strides [1]
func.func @splat_sets_shape(%a: tensor<1xf32>) -> tensor<4xf32> {
  %c = hl.constant dense<0.001> : tensor<4xf32>
  %r = hl.add %a, %c : tensor<1xf32>, tensor<4xf32> -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// reduce_max over the size-1 axis 1 folds nothing: it is a view of %x (x - x), and only the
// reduce_sum over axis 0 reduces the tile's columns.
// CHECK-LABEL: func.func private @size_one_reduction_kernel0(
// CHECK:         npuvec.load ins(%{{.*}} : memref<4x1xf32, #npuvec.space<gm>>) outs(%[[X:.*]] : memref<1x4xf32, #npuvec.space<ub>>)
// CHECK-NOT:     npuvec.reduce max
// CHECK:         npuvec.sub ins(%[[X]], %[[X]] :
// CHECK-NEXT:    npuvec.reduce sum
func.func @size_one_reduction(%x: tensor<4x1xf32>) -> tensor<1xf32> {
  %0 = fused.region vector (%arg1 = %x) : (tensor<4x1xf32>) -> tensor<1xf32> {
    %1 = hl.reduce_max %arg1 {axes = [1], keep_dims = true} : tensor<4x1xf32>
    %2 = hl.sub %arg1, %1 : tensor<4x1xf32>
    %3 = hl.reduce_sum %2 {axes = [0], keep_dims = false} : tensor<4x1xf32> -> tensor<1xf32>
    fused.yield %3 : tensor<1xf32>
  }
  return %0 : tensor<1xf32>
}

// -----

// A splat condition picks the false side for the whole tile: a copy, no select (whose mask
// must be a buffer).
// CHECK-LABEL: func.func private @splat_condition_kernel0(
// CHECK:         npuvec.load ins(%arg1{{.*}} outs(%[[B:[^ ]*]] :
// CHECK-NOT:     npuvec.select
// CHECK:         npuvec.copy ins(%[[B]] :
func.func @splat_condition(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = hl.constant dense<false> : tensor<4x8xi1>
  %r = hl.select %c, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Reversing 6 dims: no two merge, so the tile box keeps 3 of the kept axes (4 view dims with
// the column axis) and the outer ones are looped over: 6 tiles.
// CHECK-LABEL: func.func private @rank6_transpose_kernel0(
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c6 step
// CHECK:           npuvec.load {{.*}} sizes [2, 2, 3, 2] strides [6, 12, 24, 72]
func.func @rank6_transpose(%a: tensor<2x3x2x2x3x2xf32>) -> tensor<2x3x2x2x3x2xf32> {
  %r = hl.transpose %a {perm = [5, 4, 3, 2, 1, 0]} : tensor<2x3x2x2x3x2xf32> -> tensor<2x3x2x2x3x2xf32>
  return %r : tensor<2x3x2x2x3x2xf32>
}
