// RUN: %kiln-opt %s --split-input-file --kiln-fuse='opt-level=2 remarks' -o /dev/null 2>&1 | FileCheck %s
// The remarks of attention candidates (a matmul whose result reaches a softmax-like chain
// into another matmul): the region formed, or why not, at the QK^T matmul.

// CHECK: :[[@LINE+2]]:{{.*}} remark: fused 'hl.batch_matmul' -> 'hl.add' -> 'hl.reduce_max' -> 'hl.sub' -> 'hl.exp' -> 'hl.reduce_sum' -> 'hl.div' -> 'hl.batch_matmul' into region 0 (attention, 8 ops; lowered as 3 kernels until a flash-attention kernel exists)
func.func @formed(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %mask: tensor<8x8xf32>) -> tensor<2x8x16xf32> {
  %s = hl.batch_matmul %q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32> -> tensor<2x8x8xf32>
  %s1 = hl.add %s, %mask : tensor<2x8x8xf32>, tensor<8x8xf32> -> tensor<2x8x8xf32>
  %m = hl.reduce_max %s1 {axes = [2], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %x = hl.sub %s1, %m : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  %e = hl.exp %x : tensor<2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [2], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %p = hl.div %e, %z : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// CHECK: :[[@LINE+2]]:{{.*}} remark: attention at 'hl.batch_matmul' not formed: mask shape 2x1x8x8 of 'hl.add' is not broadcastable to scores 1x2x8x8
func.func @mask_not_broadcastable(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x16x8xf32>, %v: tensor<2x2x8x16xf32>, %mask: tensor<2x1x8x8xf32>) -> tensor<2x2x8x16xf32> {
  %s = hl.batch_matmul %q, %k : tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x8x8xf32>
  %s1 = hl.add %s, %mask : tensor<1x2x8x8xf32>, tensor<2x1x8x8xf32> -> tensor<2x2x8x8xf32>
  %m = hl.reduce_max %s1 {axes = [3], keep_dims = true} : tensor<2x2x8x8xf32> -> tensor<2x2x8x1xf32>
  %x = hl.sub %s1, %m : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32> -> tensor<2x2x8x8xf32>
  %e = hl.exp %x : tensor<2x2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [3], keep_dims = true} : tensor<2x2x8x8xf32> -> tensor<2x2x8x1xf32>
  %p = hl.div %e, %z : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32> -> tensor<2x2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32> -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// CHECK: :[[@LINE+2]]:{{.*}} remark: attention at 'hl.batch_matmul' not formed: softmax axis is not the key axis: 'hl.reduce_max' reduces axes [1] of rank-3 scores
func.func @softmax_over_queries(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %s = hl.batch_matmul %q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32> -> tensor<2x8x8xf32>
  %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x1x8xf32>
  %x = hl.sub %s, %m : tensor<2x8x8xf32>, tensor<2x1x8xf32> -> tensor<2x8x8xf32>
  %e = hl.exp %x : tensor<2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x1x8xf32>
  %p = hl.div %e, %z : tensor<2x8x8xf32>, tensor<2x1x8xf32> -> tensor<2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// CHECK: :[[@LINE+2]]:{{.*}} remark: attention at 'hl.batch_matmul' not formed: a value escapes the region: the result of 'hl.exp' is used outside by 'func.return'
func.func @probabilities_escape(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8x8xf32>) {
  %s = hl.batch_matmul %q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32> -> tensor<2x8x8xf32>
  %m = hl.reduce_max %s {axes = [2], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %x = hl.sub %s, %m : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  %e = hl.exp %x : tensor<2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [2], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %p = hl.div %e, %z : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %o, %e : tensor<2x8x16xf32>, tensor<2x8x8xf32>
}

// -----

// CHECK: :[[@LINE+2]]:{{.*}} remark: attention at 'hl.batch_matmul' not formed: the softmax is the composite 'hl.softmax' (hl-decompose expands it when its shape is static)
func.func @composite_softmax(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %s = hl.batch_matmul %q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32> -> tensor<2x8x8xf32>
  %p = hl.softmax %s {axis = -1 : i64} : tensor<2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// CHECK: :[[@LINE+2]]:{{.*}} remark: attention at 'hl.batch_matmul' not formed: 'hl.batch_matmul' has a dynamic shape
func.func @dynamic(%q: tensor<2x?x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x?x16xf32> {
  %s = hl.batch_matmul %q, %k : tensor<2x?x16xf32>, tensor<2x16x8xf32> -> tensor<2x?x8xf32>
  %m = hl.reduce_max %s {axes = [2], keep_dims = true} : tensor<2x?x8xf32> -> tensor<2x?x1xf32>
  %x = hl.sub %s, %m : tensor<2x?x8xf32>, tensor<2x?x1xf32> -> tensor<2x?x8xf32>
  %e = hl.exp %x : tensor<2x?x8xf32>
  %z = hl.reduce_sum %e {axes = [2], keep_dims = true} : tensor<2x?x8xf32> -> tensor<2x?x1xf32>
  %p = hl.div %e, %z : tensor<2x?x8xf32>, tensor<2x?x1xf32> -> tensor<2x?x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<2x?x8xf32>, tensor<2x8x16xf32> -> tensor<2x?x16xf32>
  return %o : tensor<2x?x16xf32>
}

// -----

// PV with an elementwise epilogue (a residual add) is one mix kernel today; the attention
// region would keep PV apart from it (a kernel more), so the attention is not formed.
// CHECK: :[[@LINE+2]]:{{.*}} remark: attention at 'hl.batch_matmul' not formed: as an attention region (lowered as 3 kernels until a flash-attention kernel exists) the block needs 4 kernels, 3 without
func.func @costs_a_kernel(%q: tensor<2x8x16xf32>, %k: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %r: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %s = hl.batch_matmul %q, %k : tensor<2x8x16xf32>, tensor<2x16x8xf32> -> tensor<2x8x8xf32>
  %m = hl.reduce_max %s {axes = [2], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %x = hl.sub %s, %m : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  %e = hl.exp %x : tensor<2x8x8xf32>
  %z = hl.reduce_sum %e {axes = [2], keep_dims = true} : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %p = hl.div %e, %z : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  %o = hl.batch_matmul %p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32> -> tensor<2x8x16xf32>
  %y = hl.add %o, %r : tensor<2x8x16xf32>
  return %y : tensor<2x8x16xf32>
}
