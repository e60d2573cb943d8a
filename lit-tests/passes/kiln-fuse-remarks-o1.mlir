// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --kiln-fuse='opt-level=1 remarks'
// Remarks at opt-level 1: cube ops are off, a reduction ends its region, and a value needed
// both inside and outside a region keeps it out (multi-output regions need opt-level 2).

func.func @cube_off(%a: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  // expected-remark @+1 {{not fused 'hl.matmul': cube ops are disabled (enable-ops=MatMul or opt-level=2)}}
  %0 = hl.matmul %a, %w : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  // expected-remark @+1 {{fused 'hl.add' -> 'hl.relu' into region 0 (vector, 2 ops, est. UB 0%, saves 8 KiB HBM traffic)}}
  %1 = hl.add %0, %b : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %2 = hl.relu %1 : tensor<16x64xf32>
  return %2 : tensor<16x64xf32>
}

// -----

func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = hl.reduce_max %x {axes = [1], keep_dims = true} : tensor<4x16xf32> -> tensor<4x1xf32>
  // expected-remark @+2 {{not fused 'hl.reduce_max' -> 'hl.sub': reduction 'hl.reduce_max' ends its region (stitching needs opt-level=2)}}
  // expected-remark @+1 {{fused 'hl.sub' -> 'hl.exp' into region 0 (vector, 2 ops, est. UB 0%, saves 512 B HBM traffic)}}
  %1 = hl.sub %x, %0 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  %2 = hl.exp %1 : tensor<4x16xf32>
  // expected-remark @+1 {{not fused 'hl.exp' -> 'hl.reduce_sum': the result of 'hl.exp' is also needed outside the region (multi-output regions need opt-level=2)}}
  %3 = hl.reduce_sum %2 {axes = [1], keep_dims = true} : tensor<4x16xf32> -> tensor<4x1xf32>
  // expected-remark @+2 {{not fused 'hl.exp' -> 'hl.div': 'hl.reduce_sum' would need the result of 'hl.exp' in HBM before the region ends}}
  // expected-remark @+1 {{not fused 'hl.reduce_sum' -> 'hl.div': reduction 'hl.reduce_sum' ends its region (stitching needs opt-level=2)}}
  %4 = hl.div %2, %3 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}
