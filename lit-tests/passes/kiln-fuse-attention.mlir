// RUN: %kiln-opt %s --split-input-file --kiln-fuse=opt-level=2 | FileCheck %s
// RUN: %kiln-opt %s --split-input-file --kiln-fuse='opt-level=2 attention=false' | FileCheck %s --check-prefix=OFF
// RUN: %kiln-opt %s --split-input-file --kiln-fuse=opt-level=1 | FileCheck %s --check-prefix=OFF
// Attention regions (issue 42) as exporters write attention: one region per attention, its
// `parts` the kernels today's fusion makes of it (lowered so until a flash kernel exists).
// Without `attention` (or below opt-level 2) the same ops form today's regions.

// OFF-NOT: fused.region attention

// K transposed by hl.transpose, scores divided, a key-padding mask: 4 parts (the transpose,
// QK^T with its scale and mask, the softmax, PV).
// CHECK-LABEL: func.func @padding
// CHECK: %[[C:.*]] = hl.constant dense<4.000000e+00>
// CHECK: fused.region attention (%{{.*}} = %arg1, %{{.*}} = %arg0, %{{.*}} = %[[C]], %{{.*}} = %arg3, %{{.*}} = %arg2) : {{.*}} attributes {id = 0 : i64, parts = [0, 1, 1, 1, 2, 2, 2, 2, 2, 3]} {
// CHECK-NEXT: hl.transpose
// CHECK-NEXT: hl.batch_matmul
// CHECK-NEXT: hl.div
// CHECK-NEXT: hl.add
// CHECK-NEXT: hl.reduce_max
// CHECK-NEXT: hl.sub
// CHECK-NEXT: hl.exp
// CHECK-NEXT: hl.reduce_sum
// CHECK-NEXT: hl.div
// CHECK-NEXT: hl.batch_matmul
// CHECK-NEXT: fused.yield
// CHECK-NOT: fused.region
// CHECK: return
func.func @padding(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %mask: tensor<1x1x1x8xf32>) -> tensor<1x2x8x16xf32> {
  %t = hl.transpose %k {perm = [0, 1, 3, 2]} : tensor<1x2x8x16xf32> -> tensor<1x2x16x8xf32>
  %s = hl.batch_matmul %q, %t : tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x8x8xf32>
  %c = hl.constant dense<4.0> : tensor<f32>
  %s1 = hl.div %s, %c : tensor<1x2x8x8xf32>, tensor<f32> -> tensor<1x2x8x8xf32>
  %s2 = hl.add %s1, %mask : tensor<1x2x8x8xf32>, tensor<1x1x1x8xf32> -> tensor<1x2x8x8xf32>
  %m = hl.reduce_max %s2 {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %x = hl.sub %s2, %m : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %e = hl.exp %x : tensor<1x2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %p = hl.div %e, %z : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// f16 scores through an f32 softmax between two casts, K by the transpose_b flag, scaled by
// mul, a causal mask applied by select.
// CHECK-LABEL: func.func @causal_f16
// CHECK: fused.region attention
// CHECK-SAME: parts = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2]
// CHECK-NEXT: hl.batch_matmul %{{.*}}, %{{.*}} {transpose_b = true}
// CHECK-NEXT: hl.mul
// CHECK-NEXT: hl.select
// CHECK-NEXT: hl.cast
// CHECK: hl.cast
// CHECK-NEXT: hl.batch_matmul
// CHECK-NEXT: fused.yield
func.func @causal_f16(%q: tensor<2x4x8xf16>, %k: tensor<2x4x8xf16>, %v: tensor<2x4x8xf16>, %banned: tensor<4x4xi1>) -> tensor<2x4x8xf16> {
  %s = hl.batch_matmul %q, %k {transpose_b = true} : tensor<2x4x8xf16>, tensor<2x4x8xf16> -> tensor<2x4x4xf16>
  %c = hl.constant dense<0.35> : tensor<f16>
  %s1 = hl.mul %s, %c : tensor<2x4x4xf16>, tensor<f16> -> tensor<2x4x4xf16>
  %f = hl.constant dense<0xFC00> : tensor<f16>
  %s2 = hl.select %banned, %f, %s1 : tensor<4x4xi1>, tensor<f16>, tensor<2x4x4xf16> -> tensor<2x4x4xf16>
  %s3 = hl.cast %s2 : tensor<2x4x4xf16> -> tensor<2x4x4xf32>
  %m = hl.reduce_max %s3 {axes = [2], keep_dims = true} : tensor<2x4x4xf32> -> tensor<2x4x1xf32>
  %x = hl.sub %s3, %m : tensor<2x4x4xf32>, tensor<2x4x1xf32> -> tensor<2x4x4xf32>
  %e = hl.exp %x : tensor<2x4x4xf32>
  %z = hl.reduce_sum %e {axes = [2], keep_dims = true} : tensor<2x4x4xf32> -> tensor<2x4x1xf32>
  %p = hl.div %e, %z : tensor<2x4x4xf32>, tensor<2x4x1xf32> -> tensor<2x4x4xf32>
  %p1 = hl.cast %p : tensor<2x4x4xf32> -> tensor<2x4x4xf16>
  %o = hl.batch_matmul %p1, %v : tensor<2x4x4xf16>, tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  return %o : tensor<2x4x8xf16>
}

// -----

// Grouped-query attention (2 query heads per K/V head, repeated by expand_dims, broadcast_to
// and reshape), the NaN guard of scaled_dot_product_attention exports, heads merged after PV.
// CHECK-LABEL: func.func @gqa
// CHECK: fused.region attention
// CHECK-DAG: hl.broadcast_to
// CHECK-DAG: hl.cmp
// CHECK-DAG: hl.select
// CHECK: hl.batch_matmul
// CHECK-NEXT: hl.transpose
// CHECK-NEXT: hl.reshape
// CHECK-NEXT: fused.yield
// CHECK-NOT: fused.region attention
func.func @gqa(%q: tensor<1x4x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x8x64xf32> {
  %k1 = hl.expand_dims %k {axis = 2 : i64} : tensor<1x2x8x16xf32> -> tensor<1x2x1x8x16xf32>
  %k2 = hl.broadcast_to %k1 : tensor<1x2x1x8x16xf32> -> tensor<1x2x2x8x16xf32>
  %k3 = hl.reshape %k2 : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
  %v1 = hl.expand_dims %v {axis = 2 : i64} : tensor<1x2x8x16xf32> -> tensor<1x2x1x8x16xf32>
  %v2 = hl.broadcast_to %v1 : tensor<1x2x1x8x16xf32> -> tensor<1x2x2x8x16xf32>
  %v3 = hl.reshape %v2 : tensor<1x2x2x8x16xf32> -> tensor<1x4x8x16xf32>
  %s = hl.batch_matmul %q, %k3 {transpose_b = true} : tensor<1x4x8x16xf32>, tensor<1x4x8x16xf32> -> tensor<1x4x8x8xf32>
  %m = hl.reduce_max %s {axes = [3], keep_dims = true} : tensor<1x4x8x8xf32> -> tensor<1x4x8x1xf32>
  %x = hl.sub %s, %m : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32> -> tensor<1x4x8x8xf32>
  %e = hl.exp %x : tensor<1x4x8x8xf32>
  %z = hl.reduce_sum %e {axes = [3], keep_dims = true} : tensor<1x4x8x8xf32> -> tensor<1x4x8x1xf32>
  %p = hl.div %e, %z : tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32> -> tensor<1x4x8x8xf32>
  %nan = hl.cmp %p, %p {predicate = #hl.cmp<ne>} : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32> -> tensor<1x4x8x8xi1>
  %zero = hl.constant dense<0.0> : tensor<f32>
  %g = hl.select %nan, %zero, %p : tensor<1x4x8x8xi1>, tensor<f32>, tensor<1x4x8x8xf32> -> tensor<1x4x8x8xf32>
  %o = hl.batch_matmul %g, %v3 : tensor<1x4x8x8xf32>, tensor<1x4x8x16xf32> -> tensor<1x4x8x16xf32>
  %t = hl.transpose %o {perm = [0, 2, 1, 3]} : tensor<1x4x8x16xf32> -> tensor<1x8x4x16xf32>
  %r = hl.reshape %t : tensor<1x8x4x16xf32> -> tensor<1x8x64xf32>
  return %r : tensor<1x8x64xf32>
}

// -----

// Two attentions, the first one's output (through a transpose, its head merge) the second's
// K^T: the transpose belongs to the first region, so the second forms without its prologue.
// CHECK-LABEL: func.func @chained
// CHECK: %[[A:.*]] = fused.region attention
// CHECK: hl.div
// CHECK-NEXT: hl.batch_matmul
// CHECK-NEXT: hl.transpose
// CHECK-NEXT: fused.yield
// CHECK: fused.region attention (%{{.*}} = %arg3, %{{.*}} = %[[A]], %{{.*}} = %arg4)
// CHECK-NEXT: hl.batch_matmul
func.func @chained(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<1x2x8x16xf32>, %q2: tensor<1x2x8x16xf32>, %v2: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %s = hl.batch_matmul %q, %k : tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x8x8xf32>
  %m = hl.reduce_max %s {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %x = hl.sub %s, %m : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %e = hl.exp %x : tensor<1x2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %p = hl.div %e, %z : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  %t = hl.transpose %o {perm = [0, 1, 3, 2]} : tensor<1x2x8x16xf32> -> tensor<1x2x16x8xf32>
  %s2 = hl.batch_matmul %q2, %t : tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x8x8xf32>
  %m2 = hl.reduce_max %s2 {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %x2 = hl.sub %s2, %m2 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %e2 = hl.exp %x2 : tensor<1x2x8x8xf32>
  %z2 = hl.reduce_sum %e2 {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
  %p2 = hl.div %e2, %z2 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
  %o2 = hl.batch_matmul %p2, %v2 : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
  return %o2 : tensor<1x2x8x16xf32>
}
