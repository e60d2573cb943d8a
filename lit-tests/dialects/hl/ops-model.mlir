// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Round trip of the `hl` ops model importers need (gather, split, pad, iota, trilu, the
// pools, broadcasting batch_matmul, conv2d with a bias) through the custom and generic forms.

// CHECK-LABEL: func.func @model_ops(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<2x16xf32>, %[[D:[^:]*]]: tensor<50x16xf32>, %[[I:[^:]*]]: tensor<2x7xi32>, %[[P:[^:]*]]: tensor<2x3xf32>, %[[IM:[^:]*]]: tensor<1x8x16x16xf32>, %[[A:[^:]*]]: tensor<2x3x4xf32>, %[[B:[^:]*]]: tensor<4x5xf32>, %[[W:[^:]*]]: tensor<4x8x3x3xf32>, %[[BIAS:[^:]*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[S:.*]]:2 = hl.split %[[X]] {axis = 1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x12xf32>
// CHECK-NEXT:    hl.gather %[[D]], %[[I]] {axis = 0 : i64} : tensor<50x16xf32>, tensor<2x7xi32> -> tensor<2x7x16xf32>
// CHECK-NEXT:    hl.gather %[[D]], %[[I]] : tensor<50x16xf32>, tensor<2x7xi32> -> tensor<2x7x16xf32>
// CHECK-NEXT:    hl.iota {dimension = 1 : i64} : tensor<4x8xi32>
// CHECK-NEXT:    hl.iota {dimension = 0 : i64} : tensor<3xf16>
// CHECK-NEXT:    hl.trilu %[[P]] {k = 0 : i64, upper = false} : tensor<2x3xf32>
// CHECK-NEXT:    hl.trilu %[[P]] {k = -1 : i64, upper = true} : tensor<2x3xf32>
// CHECK-NEXT:    hl.pad %[[P]] {high = [2, 0], low = [0, 1], value = 0.000000e+00 : f32} : tensor<2x3xf32> -> tensor<4x4xf32>
// CHECK-NEXT:    hl.pad %[[I]] {high = [0, 0], low = [1, 0], value = -1 : i32} : tensor<2x7xi32> -> tensor<3x7xi32>
// CHECK-NEXT:    hl.max_pool2d %[[IM]] {dilation = [1, 1], kernel = [3, 3], padding = [1, 1, 1, 1], strides = [2, 2]} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
// CHECK-NEXT:    hl.max_pool2d %[[IM]] {ceil_mode = true, kernel = [2, 2], strides = [3, 3]} : tensor<1x8x16x16xf32> -> tensor<1x8x6x6xf32>
// CHECK-NEXT:    hl.avg_pool2d %[[IM]] {count_include_pad = false, kernel = [2, 2], padding = [0, 0, 0, 0], strides = [2, 2]} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
// CHECK-NEXT:    hl.avg_pool2d %[[IM]] {count_include_pad = true, dilation = [2, 2], kernel = [3, 3], padding = [2, 2, 2, 2]} : tensor<1x8x16x16xf32>{{$}}
// CHECK-NEXT:    hl.global_avg_pool2d %[[IM]] : tensor<1x8x16x16xf32> -> tensor<1x8x1x1xf32>
// CHECK-NEXT:    hl.batch_matmul %[[A]], %[[B]] : tensor<2x3x4xf32>, tensor<4x5xf32> -> tensor<2x3x5xf32>
// CHECK-NEXT:    hl.batch_matmul %[[B]], %[[A]] {transpose_a = true, transpose_b = true} : tensor<4x5xf32>, tensor<2x3x4xf32> -> tensor<2x5x3xf32>
// CHECK-NEXT:    hl.conv2d %[[IM]], %[[W]], %[[BIAS]] : tensor<1x8x16x16xf32>, tensor<4x8x3x3xf32>, tensor<4xf32> -> tensor<1x4x14x14xf32>
// CHECK-NEXT:    return %[[S]]#1 : tensor<2x12xf32>
// GENERIC-LABEL: sym_name = "model_ops"
// GENERIC:         %[[S:.*]]:2 = "hl.split"(%{{.*}}) <{axis = 1 : i64, sizes = [4, 12]}> : (tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x12xf32>)
// GENERIC:         "hl.iota"() <{dimension = 1 : i64}> : () -> tensor<4x8xi32>
// GENERIC:         "hl.pad"(%{{.*}}) <{high = [2, 0], low = [0, 1], value = 0.000000e+00 : f32}> : (tensor<2x3xf32>) -> tensor<4x4xf32>
// GENERIC:         "hl.conv2d"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x8x16x16xf32>, tensor<4x8x3x3xf32>, tensor<4xf32>) -> tensor<1x4x14x14xf32>
// GENERIC:         "func.return"(%[[S]]#1)
func.func @model_ops(%x: tensor<2x16xf32>, %d: tensor<50x16xf32>, %i: tensor<2x7xi32>, %p: tensor<2x3xf32>, %im: tensor<1x8x16x16xf32>,
                     %a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %w: tensor<4x8x3x3xf32>, %bias: tensor<4xf32>) -> tensor<2x12xf32> {
  %s0, %s1 = hl.split %x {axis = 1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x12xf32>
  %0 = hl.gather %d, %i {axis = 0 : i64} : tensor<50x16xf32>, tensor<2x7xi32> -> tensor<2x7x16xf32>
  %1 = hl.gather %d, %i : tensor<50x16xf32>, tensor<2x7xi32> -> tensor<2x7x16xf32>
  %2 = hl.iota {dimension = 1 : i64} : tensor<4x8xi32>
  %3 = hl.iota {dimension = 0 : i64} : tensor<3xf16>
  %4 = hl.trilu %p {upper = false, k = 0 : i64} : tensor<2x3xf32>
  %5 = hl.trilu %p {upper = true, k = -1 : i64} : tensor<2x3xf32>
  %6 = hl.pad %p {low = [0, 1], high = [2, 0], value = 0.000000e+00 : f32} : tensor<2x3xf32> -> tensor<4x4xf32>
  %7 = hl.pad %i {low = [1, 0], high = [0, 0], value = -1 : i32} : tensor<2x7xi32> -> tensor<3x7xi32>
  %8 = hl.max_pool2d %im {kernel = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1], dilation = [1, 1]} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
  // ceil_mode: (16 - 2) / 3 rounds up to 5, so 6 windows.
  %9 = hl.max_pool2d %im {kernel = [2, 2], strides = [3, 3], ceil_mode = true} : tensor<1x8x16x16xf32> -> tensor<1x8x6x6xf32>
  %10 = hl.avg_pool2d %im {kernel = [2, 2], strides = [2, 2], padding = [0, 0, 0, 0], count_include_pad = false} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
  %11 = hl.avg_pool2d %im {kernel = [3, 3], padding = [2, 2, 2, 2], dilation = [2, 2], count_include_pad = true} : tensor<1x8x16x16xf32> -> tensor<1x8x16x16xf32>
  %12 = hl.global_avg_pool2d %im : tensor<1x8x16x16xf32> -> tensor<1x8x1x1xf32>
  %13 = hl.batch_matmul %a, %b : tensor<2x3x4xf32>, tensor<4x5xf32> -> tensor<2x3x5xf32>
  %14 = hl.batch_matmul %b, %a {transpose_a = true, transpose_b = true} : tensor<4x5xf32>, tensor<2x3x4xf32> -> tensor<2x5x3xf32>
  %15 = hl.conv2d %im, %w, %bias : tensor<1x8x16x16xf32>, tensor<4x8x3x3xf32>, tensor<4xf32> -> tensor<1x4x14x14xf32>
  return %s1 : tensor<2x12xf32>
}
