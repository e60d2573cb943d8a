// An attention region's `parts` (its fallback kernels) survive `fused-outline` as the kernel's
// `fused.parts` and come back from `fused-inline`, so an outlined and re-inlined attention
// still lowers as its parts, not one kernel per op.
// RUN: %kiln-opt %s --kiln-fuse=opt-level=2 > %t.fused
// RUN: %kiln-opt %t.fused -p fused-outline | FileCheck %s --check-prefix=OUT
// RUN: %kiln-opt %t.fused -p fused-outline | %kiln-opt -p fused-inline > %t.back
// RUN: diff %t.fused %t.back
// RUN: FileCheck %s --check-prefix=BACK < %t.back

// OUT: func.func private @padding_kernel0({{.*}} attributes {fused.id = 0 : i64, fused.kernel, fused.kind = #fused.kind<attention>, fused.parts = [0, 1, 1, 1, 2, 2, 2, 2, 2, 3]}
// BACK: fused.region attention ({{.*}} attributes {id = 0 : i64, parts = [0, 1, 1, 1, 2, 2, 2, 2, 2, 3]}
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
