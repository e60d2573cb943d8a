// RUN: %kiln-opt %s --kiln-fuse=opt-level=1 | FileCheck %s --check-prefixes=CHECK,L1
// RUN: %kiln-opt %s --kiln-fuse=opt-level=2 | FileCheck %s --check-prefixes=CHECK,L2
// RUN: %kiln-opt %s -p 'builtin.module(func.func(kiln-fuse{opt-level=2}))' | FileCheck %s --check-prefixes=CHECK,L2
// One function per fusion rule of kiln-fuse, at opt-level 1 (elementwise + reduce-forward) and
// opt-level 2 (adds stitching, CV/mix and horizontal/multi-output fusion). The output verifies
// (kiln-opt verifies after each pass).

// Elementwise ops with a broadcast operand chain into one vector region.
// CHECK-LABEL: func.func @elementwise_chain
// CHECK: fused.region vector
// CHECK-NEXT: hl.add
// CHECK-NEXT: hl.exp
// CHECK-NEXT: hl.mul
// CHECK-NEXT: fused.yield
func.func @elementwise_chain(%a: tensor<8x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %0 = hl.add %a, %b : tensor<8x64xf32>, tensor<64xf32> -> tensor<8x64xf32>
  %1 = hl.exp %0 : tensor<8x64xf32>
  %2 = hl.mul %1, %a : tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// A materialized broadcast fuses into its consumer.
// CHECK-LABEL: func.func @broadcast
// CHECK: fused.region vector
// CHECK-NEXT: hl.broadcast_to
// CHECK-NEXT: hl.sub
func.func @broadcast(%a: tensor<8x64xf32>, %b: tensor<8x1xf32>) -> tensor<8x64xf32> {
  %0 = hl.broadcast_to %b : tensor<8x1xf32> -> tensor<8x64xf32>
  %1 = hl.sub %a, %0 : tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}

// Reduce-forward: the producers join the reduction, which ends the region at opt-level 1;
// at opt-level 2 its row-wise result is stitched into the consumer.
// CHECK-LABEL: func.func @reduce_forward
// CHECK: fused.region vector
// CHECK-NEXT: hl.abs
// CHECK-NEXT: hl.reduce_sum
// L1-NEXT: fused.yield
// L1: hl.div
// L2-NEXT: hl.div
// L2-NEXT: fused.yield
func.func @reduce_forward(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.abs %a : tensor<8x64xf32>
  %1 = hl.reduce_sum %0 {axes = [1], keep_dims = true} : tensor<8x64xf32> -> tensor<8x1xf32>
  %2 = hl.div %a, %1 : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}

// Decomposed softmax: one region at opt-level 2 (stitch); at opt-level 1 the reductions end
// regions and exp's second consumer keeps it out of multi-output regions.
// CHECK-LABEL: func.func @softmax
// L1: hl.reduce_max
// L1: fused.region vector
// L1-NEXT: hl.sub
// L1-NEXT: hl.exp
// L1-NEXT: fused.yield
// L2: fused.region vector
// L2-NEXT: hl.reduce_max
// L2-NEXT: hl.sub
// L2-NEXT: hl.exp
// L2-NEXT: hl.reduce_sum
// L2-NEXT: hl.div
// L2-NEXT: fused.yield
// L2-NOT: fused.region
// CHECK: return
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = hl.reduce_max %x {axes = [1], keep_dims = true} : tensor<4x16xf32> -> tensor<4x1xf32>
  %1 = hl.sub %x, %0 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  %2 = hl.exp %1 : tensor<4x16xf32>
  %3 = hl.reduce_sum %2 {axes = [1], keep_dims = true} : tensor<4x16xf32> -> tensor<4x1xf32>
  %4 = hl.div %2, %3 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// CV fusion: matmul + bias + activation is a mix region at opt-level 2; at opt-level 1 cube
// ops are off and only the epilogue fuses.
// CHECK-LABEL: func.func @matmul_epilogue
// L1: hl.matmul
// L1: fused.region vector
// L1-NEXT: hl.add
// L1-NEXT: hl.relu
// L2: fused.region mix
// L2-NEXT: hl.matmul
// L2-NEXT: hl.add
// L2-NEXT: hl.relu
func.func @matmul_epilogue(%a: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %0 = hl.matmul %a, %w : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  %1 = hl.add %0, %b : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %2 = hl.relu %1 : tensor<16x64xf32>
  return %2 : tensor<16x64xf32>
}

// Horizontal fusion (opt-level 2): independent ops reading the same input share one
// multi-output region.
// CHECK-LABEL: func.func @horizontal
// L1-NOT: fused.region
// L2: %{{.*}}:2 = fused.region vector
// L2-NEXT: hl.exp
// L2-NEXT: hl.neg
// L2-NEXT: fused.yield
func.func @horizontal(%a: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = hl.exp %a : tensor<8x64xf32>
  %1 = hl.neg %a : tensor<8x64xf32>
  return %0, %1 : tensor<8x64xf32>, tensor<8x64xf32>
}

// A diamond: the shared producer joins only when its value may stay inside (opt-level 2);
// a value also needed outside becomes an extra output there.
// CHECK-LABEL: func.func @diamond
// L1: hl.exp
// L1: fused.region vector
// L1-NEXT: hl.abs
// L1-NEXT: hl.neg
// L1-NEXT: hl.add
// L2: %{{.*}}:2 = fused.region vector
// L2-NEXT: hl.exp
// L2-NEXT: hl.abs
// L2-NEXT: hl.neg
// L2-NEXT: hl.add
// L2-NEXT: fused.yield
func.func @diamond(%a: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = hl.exp %a : tensor<8x64xf32>
  %1 = hl.abs %0 : tensor<8x64xf32>
  %2 = hl.neg %0 : tensor<8x64xf32>
  %3 = hl.add %1, %2 : tensor<8x64xf32>
  return %3, %0 : tensor<8x64xf32>, tensor<8x64xf32>
}

// Reshape, expand_dims and squeeze are free inside a region; the Ascend 910B target
// transposes in UB, so a transpose fuses too (the back end reads a region input through it);
// slice does not.
// CHECK-LABEL: func.func @layout
// CHECK: fused.region vector
// CHECK-NEXT: hl.transpose
// CHECK-NEXT: hl.exp
// CHECK-NEXT: hl.reshape
// CHECK-NEXT: hl.neg
// CHECK-NEXT: fused.yield
// CHECK: hl.slice
func.func @layout(%a: tensor<8x64xf32>) -> tensor<64x1x4xf32> {
  %0 = hl.transpose %a {perm = [1, 0]} : tensor<8x64xf32> -> tensor<64x8xf32>
  %1 = hl.exp %0 : tensor<64x8xf32>
  %2 = hl.reshape %1 : tensor<64x8xf32> -> tensor<64x1x8xf32>
  %3 = hl.neg %2 : tensor<64x1x8xf32>
  %4 = hl.slice %3 {starts = [0, 0, 0], limits = [64, 1, 4]} : tensor<64x1x8xf32> -> tensor<64x1x4xf32>
  return %4 : tensor<64x1x4xf32>
}

// Composites are opaque: decompose them first.
// CHECK-LABEL: func.func @composite
// CHECK-NOT: fused.region
// CHECK: hl.softmax
func.func @composite(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.softmax %a {axis = -1 : i64} : tensor<8x64xf32>
  %1 = hl.exp %0 : tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}
