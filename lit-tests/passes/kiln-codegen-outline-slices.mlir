// RUN: %kiln-opt %s -p 'builtin.module(hl-decompose, kiln-fuse, kiln-codegen-outline)' | FileCheck %s
// kiln-codegen-outline: the slices of a split (kiln-fuse leaves them alone) are copied into
// the vector kernels that use them, where they are strided views of the split value; no
// slice kernel is left.

// CHECK-LABEL: func.func private @heads_kernel0(
// CHECK-SAME:      %[[X:[^:]*]]: tensor<64x96xf32>
// CHECK-NEXT:    %[[Q:.*]] = hl.slice %[[X]] {limits = [64, 32], starts = [0, 0], strides = [1, 1]}
// CHECK-NEXT:    hl.mul %[[Q]], %{{.*}}
// CHECK-LABEL: func.func private @heads_kernel1(
// CHECK-NEXT:    %[[K:.*]] = hl.slice %{{.*}} {limits = [64, 64], starts = [0, 32], strides = [1, 1]}
// CHECK-NEXT:    hl.exp %[[K]]
// CHECK-LABEL: func.func private @heads_kernel2(
// CHECK-NEXT:    %[[V:.*]] = hl.slice %{{.*}} {limits = [64, 96], starts = [0, 64], strides = [1, 1]}
// CHECK-NEXT:    hl.tanh %[[V]]
// CHECK-LABEL: func.func @heads(
// CHECK-NOT:     hl.slice
// CHECK-NOT:     func.func private
func.func @heads(%x: tensor<64x96xf32>, %b: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) {
  %q, %k, %v = hl.split %x {axis = 1 : i64, sizes = [32, 32, 32]} : tensor<64x96xf32> -> tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>
  %q2 = hl.mul %q, %b : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
  %k2 = hl.exp %k : tensor<64x32xf32>
  %k3 = hl.add %k2, %b : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
  %v2 = hl.tanh %v : tensor<64x32xf32>
  return %q2, %k3, %v2 : tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>
}
