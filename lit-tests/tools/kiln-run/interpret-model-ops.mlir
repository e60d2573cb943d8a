// The interpreter's semantics of the ops model importers need, on small inputs with
// hand-computed results.
// RUN: %kiln-run --interpret %s --entry gather | FileCheck %s --check-prefix=GATHER
// RUN: not %kiln-run --interpret %s --entry gather_out_of_range 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: %kiln-run --interpret %s --entry split | FileCheck %s --check-prefix=SPLIT
// RUN: %kiln-run --interpret %s --entry pad_iota_trilu | FileCheck %s --check-prefix=PAD
// RUN: %kiln-run --interpret %s --entry pools | FileCheck %s --check-prefix=POOL
// RUN: %kiln-run --interpret %s --entry cube | FileCheck %s --check-prefix=CUBE

// Rows 2 and -3 (= 0) of a 3x2 table.
// GATHER: result #0: tensor<2x2xf32>
// GATHER-NEXT: [4, 5, 0, 1]
func.func @gather() -> tensor<2x2xf32> {
  %d = hl.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %i = hl.constant dense<[2, -3]> : tensor<2xi32>
  %r = hl.gather %d, %i : tensor<3x2xf32>, tensor<2xi32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// OOB: error: 'hl.gather' op `gather` index 3 is out of range for dim 0 of size 3
// OOB-NEXT: %r = hl.gather
func.func @gather_out_of_range() -> tensor<1x2xf32> {
  %d = hl.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %i = hl.constant dense<[3]> : tensor<1xi64>
  %r = hl.gather %d, %i : tensor<3x2xf32>, tensor<1xi64> -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// SPLIT: result #0: tensor<2x1xi32>
// SPLIT-NEXT: [0, 3]
// SPLIT-NEXT: result #1: tensor<2x2xi32>
// SPLIT-NEXT: [1, 2, 4, 5]
func.func @split() -> (tensor<2x1xi32>, tensor<2x2xi32>) {
  %x = hl.iota {dimension = 1 : i64} : tensor<2x3xi32>
  %three = hl.constant dense<[[0], [3]]> : tensor<2x1xi32>
  %y = hl.add %x, %three : tensor<2x3xi32>, tensor<2x1xi32> -> tensor<2x3xi32>
  %a, %b = hl.split %y {axis = -1 : i64, sizes = [1, 2]} : tensor<2x3xi32> -> tensor<2x1xi32>, tensor<2x2xi32>
  return %a, %b : tensor<2x1xi32>, tensor<2x2xi32>
}

// PAD: result #0: tensor<3x3xf16>
// PAD-NEXT: [9, 9, 9, 1, 2, 9, 3, 4, 9]
// PAD-NEXT: result #1: tensor<2x3xf32>
// PAD-NEXT: [0, 1, 2, 0, 1, 2]
// PAD-NEXT: result #2: tensor<3x3xi32>
// PAD-NEXT: [0, 0, 0, 3, 4, 0, 6, 7, 8]
// PAD-NEXT: result #3: tensor<3x3xi32>
// PAD-NEXT: [0, 1, 2, 0, 0, 5, 0, 0, 0]
func.func @pad_iota_trilu() -> (tensor<3x3xf16>, tensor<2x3xf32>, tensor<3x3xi32>, tensor<3x3xi32>) {
  %x = hl.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %p = hl.pad %x {low = [1, 0], high = [0, 1], value = 9.0 : f16} : tensor<2x2xf16> -> tensor<3x3xf16>
  %i = hl.iota {dimension = 1 : i64} : tensor<2x3xf32>
  %m = hl.constant dense<[[0, 1, 2], [3, 4, 5], [6, 7, 8]]> : tensor<3x3xi32>
  %lower = hl.trilu %m : tensor<3x3xi32>
  %upper = hl.trilu %m {upper = true, k = 1 : i64} : tensor<3x3xi32>
  return %p, %i, %lower, %upper : tensor<3x3xf16>, tensor<2x3xf32>, tensor<3x3xi32>, tensor<3x3xi32>
}

// 2x2 windows, stride 2, padding 1 on [[0, 1, 2], [3, 4, 5], [6, 7, 8]]: the windows hold
// {0}, {1, 2}, {3, 6}, {4, 5, 7, 8} (and 3, 2, 2, 0 padded cells).
// POOL: result #0: tensor<1x1x2x2xf32>
// POOL-NEXT: [0, 2, 6, 8]
// POOL-NEXT: result #1: tensor<1x1x2x2xf32>
// POOL-NEXT: [0, 1.5, 4.5, 6]
// POOL-NEXT: result #2: tensor<1x1x2x2xf32>
// POOL-NEXT: [0, 0.75, 2.25, 6]
// POOL-NEXT: result #3: tensor<1x1x1x1xf32>
// POOL-NEXT: [4]
func.func @pools() -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>) {
  %x = hl.constant dense<[[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]]]> : tensor<1x1x3x3xf32>
  %0 = hl.max_pool2d %x {kernel = [2, 2], strides = [2, 2], padding = [1, 1, 1, 1]} : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  %1 = hl.avg_pool2d %x {kernel = [2, 2], strides = [2, 2], padding = [1, 1, 1, 1]} : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  %2 = hl.avg_pool2d %x {kernel = [2, 2], strides = [2, 2], padding = [1, 1, 1, 1], count_include_pad = true} : tensor<1x1x3x3xf32> -> tensor<1x1x2x2xf32>
  %3 = hl.global_avg_pool2d %x : tensor<1x1x3x3xf32> -> tensor<1x1x1x1xf32>
  return %0, %1, %2, %3 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x1x1xf32>
}

// [[1, 2]] and [[3, 4]] times [[1, 1], [0, 2]] (a rank-2 operand broadcast over the batch);
// a 1x1 convolution with weights [1, 2] and bias [10, 20].
// CUBE: result #0: tensor<2x1x2xf32>
// CUBE-NEXT: [1, 5, 3, 11]
// CUBE-NEXT: result #1: tensor<1x2x2x2xf32>
// CUBE-NEXT: [11, 12, 13, 14, 22, 24, 26, 28]
func.func @cube() -> (tensor<2x1x2xf32>, tensor<1x2x2x2xf32>) {
  %a = hl.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %b = hl.constant dense<[[1.0, 1.0], [0.0, 2.0]]> : tensor<2x2xf32>
  %m = hl.batch_matmul %a, %b : tensor<2x1x2xf32>, tensor<2x2xf32> -> tensor<2x1x2xf32>
  %x = hl.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %w = hl.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %bias = hl.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %c = hl.conv2d %x, %w, %bias : tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32> -> tensor<1x2x2x2xf32>
  return %m, %c : tensor<2x1x2xf32>, tensor<1x2x2x2xf32>
}
