// REQUIRES: mlir-opt
// hl-to-tosa's output is TOSA that mlir-opt 22 parses and verifies (its TOSA dialect is
// registered there): broadcasting by reshape, relu as clamp, float div as arith.divf (operands tiled to the
// result) and integer div as intdiv, a mean summed in f32 and divided once, lt with
// swapped operands, a truncating float-to-int cast, a two-axis reduction merged into one,
// batch_matmul by a broadcast rank-2 operand folded into rows, NCHW conv and pools in NHWC.
// RUN: %kiln-opt --allow-unregistered-dialect --hl-to-tosa --dce --mlir-print-op-generic %s > %t
// RUN: mlir-opt %t | FileCheck %s

// CHECK-LABEL: func.func @elementwise(
// CHECK:         %[[R:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK-NEXT:    %[[A:.*]] = tosa.add %arg0, %[[R]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = tosa.clamp %[[A]] {max_val = 0x7F800000 : f32, min_val = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[D:.*]] = arith.divf %[[C]], %arg0 : tensor<2x3xf32>
// CHECK-NEXT:    %[[LT:.*]] = tosa.greater %arg0, %[[D]]
// CHECK:         %[[NEG:.*]] = tosa.greater %{{.*}}, %[[D]] : (tensor<1x1xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[UP:.*]] = tosa.ceil %[[D]]
// CHECK-NEXT:    %[[DOWN:.*]] = tosa.floor %[[D]]
// CHECK-NEXT:    %[[T:.*]] = tosa.select %[[NEG]], %[[UP]], %[[DOWN]]
// CHECK-NEXT:    %[[K:.*]] = tosa.cast %[[T]] : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:    return %[[D]], %[[LT]], %[[K]]

// CHECK-LABEL: func.func @divide(
// CHECK:         %[[R:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x3xf32>
// CHECK:         %[[T:.*]] = tosa.tile %[[R]], %{{.*}} : (tensor<1x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %arg0, %[[T]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[N:.*]] = tosa.intdiv %arg2, %arg2 : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    return %[[Q]], %[[N]]

// CHECK-LABEL: func.func @mean(
// CHECK:         %[[M:.*]] = tosa.reshape %{{.*}} -> tensor<3x8xf16>
// CHECK-NEXT:    %[[W:.*]] = tosa.cast %[[M]] : (tensor<3x8xf16>) -> tensor<3x8xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.reduce_sum %[[W]] {axis = 1 : i32} : (tensor<3x8xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:    %[[K:.*]] = "tosa.const"() <{values = dense<8.000000e+00> : tensor<3x1xf32>}>
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %[[S]], %[[K]] : tensor<3x1xf32>
// CHECK-NEXT:    tosa.cast %[[Q]] : (tensor<3x1xf32>) -> tensor<3x1xf16>

// CHECK-LABEL: func.func @reduce(
// CHECK-NEXT:    %[[T:.*]] = tosa.transpose %arg0 {perms = array<i32: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK:         %[[M:.*]] = tosa.reshape %[[T]], %{{.*}} -> tensor<3x8xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.reduce_sum %[[M]] {axis = 1 : i32} : (tensor<3x8xf32>) -> tensor<3x1xf32>
// CHECK:         tosa.reshape %[[S]], %{{.*}} -> tensor<3xf32>

// CHECK-LABEL: func.func @matmul(
// CHECK:         tosa.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x10x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x10x4xf32>

// CHECK-LABEL: func.func @cnn(
// CHECK:         %[[X:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
// CHECK:         tosa.conv2d %[[X]], %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
// CHECK:         tosa.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK:         tosa.avg_pool2d %{{.*}} {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x4xf32>
// CHECK:         tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x4xf32>) -> tensor<1x4x2x2xf32>

func.func @elementwise(%x: tensor<2x3xf32>, %p: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi32>) {
  %0 = hl.add %x, %p : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %1 = hl.relu %0 : tensor<2x3xf32>
  %2 = hl.div %1, %x : tensor<2x3xf32>
  %3 = hl.cmp %2, %x {predicate = #hl.cmp<lt>} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xi1>
  %4 = hl.cast %2 : tensor<2x3xf32> -> tensor<2x3xi32>
  return %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xi32>
}
func.func @divide(%x: tensor<2x3xf32>, %p: tensor<3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0 = hl.div %x, %p : tensor<2x3xf32>, tensor<3xf32> -> tensor<2x3xf32>
  %1 = hl.div %i, %i : tensor<2x3xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi32>
}
func.func @mean(%x: tensor<2x3x4xf16>) -> tensor<3xf16> {
  %0 = hl.reduce_mean %x {axes = [0, 2]} : tensor<2x3x4xf16> -> tensor<3xf16>
  return %0 : tensor<3xf16>
}
func.func @reduce(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = hl.reduce_sum %x {axes = [0, 2]} : tensor<2x3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @matmul(%a: tensor<2x5x3xf32>, %w: tensor<4x3xf32>) -> tensor<2x5x4xf32> {
  %0 = hl.batch_matmul %a, %w {transpose_b = true} : tensor<2x5x3xf32>, tensor<4x3xf32> -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}
func.func @cnn(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x2x2xf32> {
  %0 = hl.conv2d %x, %w {padding = [1, 1, 1, 1]} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x8x8xf32>
  %1 = hl.max_pool2d %0 {kernel = [2, 2], strides = [2, 2]} : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %2 = hl.avg_pool2d %1 {kernel = [2, 2], strides = [2, 2]} : tensor<1x4x4x4xf32> -> tensor<1x4x2x2xf32>
  return %2 : tensor<1x4x2x2xf32>
}
