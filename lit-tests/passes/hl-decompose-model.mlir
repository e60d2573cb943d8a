// RUN: %kiln-opt %s --hl-decompose | FileCheck %s
// The expansions of the ops model importers emit (passes/src/hl_decompose/model.rs).

// CHECK-LABEL: func.func @split(
// CHECK:         %[[A:.*]] = hl.slice %{{.*}} {limits = [2, 4], starts = [0, 0], strides = [1, 1]}
// CHECK-NEXT:    %[[B:.*]] = hl.slice %{{.*}} {limits = [2, 16], starts = [0, 4], strides = [1, 1]}
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @split(%x: tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x12xf32>) {
  %a, %b = hl.split %x {axis = 1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x12xf32>
  return %a, %b : tensor<2x4xf32>, tensor<2x12xf32>
}

// CHECK-LABEL: func.func @linear(
// CHECK:         hl.reshape %{{.*}} : tensor<2x3x8xf32> -> tensor<6x8xf32>
// CHECK-NEXT:    hl.matmul %{{.*}}, %{{.*}} : tensor<6x8xf32>, tensor<8x5xf32> -> tensor<6x5xf32>
// CHECK-NEXT:    hl.reshape %{{.*}} : tensor<6x5xf32> -> tensor<2x3x5xf32>
func.func @linear(%a: tensor<2x3x8xf32>, %w: tensor<8x5xf32>) -> tensor<2x3x5xf32> {
  %0 = hl.batch_matmul %a, %w : tensor<2x3x8xf32>, tensor<8x5xf32> -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @conv_bias(
// CHECK:         %[[C:.*]] = hl.conv2d %{{.*}}, %{{.*}} {strides = [2, 2]} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x3x3xf32>
// CHECK-NEXT:    %[[B:.*]] = hl.reshape %{{.*}} : tensor<4xf32> -> tensor<4x1x1xf32>
// CHECK-NEXT:    hl.add %[[C]], %[[B]]
func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = hl.conv2d %x, %w, %b {strides = [2, 2]} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// Nine taps, each a strided slice, combined left to right; no padding, so no concat.
// CHECK-LABEL: func.func @max_pool(
// CHECK-NOT:     hl.concat
// CHECK:         %[[T0:.*]] = hl.slice %{{.*}} {limits = [1, 2, 5, 5], starts = [0, 0, 0, 0], strides = [1, 1, 2, 2]}
// CHECK-NEXT:    %[[T1:.*]] = hl.slice %{{.*}} {limits = [1, 2, 5, 6], starts = [0, 0, 0, 1], strides = [1, 1, 2, 2]}
// CHECK-NEXT:    hl.maximum %[[T0]], %[[T1]]
// CHECK-COUNT-7: hl.maximum
// CHECK-NOT:     hl.maximum
func.func @max_pool(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32> {
  %0 = hl.max_pool2d %x {kernel = [3, 3], strides = [2, 2]} : tensor<1x2x7x7xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// CHECK-LABEL: func.func @iota(
// CHECK:         hl.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
// CHECK-NEXT:    hl.reshape %{{.*}} : tensor<8xi32> -> tensor<1x8xi32>
// CHECK-NEXT:    hl.broadcast_to %{{.*}} : tensor<1x8xi32> -> tensor<4x8xi32>
func.func @iota() -> tensor<4x8xi32> {
  %0 = hl.iota {dimension = 1 : i64} : tensor<4x8xi32>
  return %0 : tensor<4x8xi32>
}
