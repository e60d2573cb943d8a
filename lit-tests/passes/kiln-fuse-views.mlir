// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --kiln-fuse='opt-level=2 remarks'
// A view (reshape, expand_dims, squeeze) left alone is no kernel (the back end aliases its
// operand's GM buffer), so fusing across one saves what fusing without it saves: not the
// traffic of a copy that never happens. (A kernel takes a view of a computed value that adds
// or drops size-1 dims; one that regroups its elements, 64x64 -> 4096, is left out of regions,
// since the back end would split the region at it.)

func.func @through_a_view(%x: tensor<64x64xf32>, %y: tensor<1x64x64xf32>) -> tensor<1x64x64xf32> {
  // expected-remark @+1 {{fused 'hl.exp' -> 'hl.reshape' -> 'hl.add' into region 0 (vector, 3 ops, est. UB 0%, saves 32 KiB HBM traffic)}}
  %0 = hl.exp %x : tensor<64x64xf32>
  %1 = hl.reshape %0 : tensor<64x64xf32> -> tensor<1x64x64xf32>
  %2 = hl.add %1, %y : tensor<1x64x64xf32>
  return %2 : tensor<1x64x64xf32>
}

// -----

func.func @without(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @+1 {{fused 'hl.exp' -> 'hl.add' into region 0 (vector, 2 ops, est. UB 0%, saves 32 KiB HBM traffic)}}
  %0 = hl.exp %x : tensor<64x64xf32>
  %2 = hl.add %0, %y : tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
}

// -----

// Two views in a row, around a squeeze, still join and save the same.
func.func @two_views(%x: tensor<1x64x64xf32>, %y: tensor<1x64x64xf32>) -> tensor<1x64x64xf32> {
  // expected-remark @+1 {{fused 'hl.exp' -> 'hl.squeeze' -> 'hl.reshape' -> 'hl.add' into region 0 (vector, 4 ops, est. UB 0%, saves 32 KiB HBM traffic)}}
  %0 = hl.exp %x : tensor<1x64x64xf32>
  %1 = hl.squeeze %0 {axes = [0]} : tensor<1x64x64xf32> -> tensor<64x64xf32>
  %2 = hl.reshape %1 : tensor<64x64xf32> -> tensor<1x64x64xf32>
  %3 = hl.add %2, %y : tensor<1x64x64xf32>
  return %3 : tensor<1x64x64xf32>
}
