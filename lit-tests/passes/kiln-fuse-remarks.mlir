// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --kiln-fuse='opt-level=2 remarks'
// Remarks at opt-level 2: one per decision, at the op it concerns.

func.func @formed(%a: tensor<8x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  // expected-remark @+1 {{fused 'hl.add' -> 'hl.exp' -> 'hl.reduce_sum' -> 'hl.div' into region 0 (vector, 4 ops, est. UB 0%, saves 10.1 KiB HBM traffic)}}
  %0 = hl.add %a, %b : tensor<8x64xf32>, tensor<64xf32> -> tensor<8x64xf32>
  %1 = hl.exp %0 : tensor<8x64xf32>
  %2 = hl.reduce_sum %1 {axes = [1], keep_dims = true} : tensor<8x64xf32> -> tensor<8x1xf32>
  %3 = hl.div %1, %2 : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  return %3 : tensor<8x64xf32>
}

// -----

func.func @opaque_and_layout(%a: tensor<8x64xf32>) -> tensor<8x4xf32> {
  // expected-remark @+1 {{not fused 'hl.softmax': opaque op (run hl-decompose first)}}
  %0 = hl.softmax %a {axis = -1 : i64} : tensor<8x64xf32>
  // expected-remark @+1 {{not fused 'hl.slice': layout op (only reshape, expand_dims, squeeze and transpose fuse)}}
  %1 = hl.slice %0 {starts = [0, 0], limits = [8, 4]} : tensor<8x64xf32> -> tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// -----

// Vector ops fuse over `?` dims (the UB budget is a tile's, whatever the rows: a row shape
// class); a cube op does not.
func.func @dynamic(%a: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {
  // expected-remark @+1 {{fused 'hl.exp' -> 'hl.neg' into region 0 (vector, 2 ops, est. UB 0%, saves 512 B HBM traffic)}}
  %0 = hl.exp %a : tensor<?x64xf32>
  %1 = hl.neg %0 : tensor<?x64xf32>
  // expected-remark @+1 {{not fused 'hl.matmul': dynamic shape (only vector ops fuse with `?` dims: a row shape class)}}
  %2 = hl.matmul %1, %w : tensor<?x64xf32>, tensor<64x64xf32> -> tensor<?x64xf32>
  return %2 : tensor<?x64xf32>
}

// -----

func.func @cube_limits(%a: tensor<16x32xf32>, %w: tensor<32x32xf32>) -> tensor<16x1xf32> {
  %0 = hl.exp %a : tensor<16x32xf32>
  // expected-remark @+1 {{not fused 'hl.exp' -> 'hl.matmul': cube op 'hl.matmul' takes no prologue ('hl.exp' feeds it)}}
  %1 = hl.matmul %0, %w : tensor<16x32xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  // expected-remark @+1 {{not fused 'hl.matmul' -> 'hl.matmul': a region holds one cube op, and this one already has 'hl.matmul'}}
  %2 = hl.matmul %1, %w : tensor<16x32xf32>, tensor<32x32xf32> -> tensor<16x32xf32>
  // expected-remark @+1 {{not fused 'hl.matmul' -> 'hl.reduce_sum': the epilogue of cube op 'hl.matmul' is elementwise only, not 'hl.reduce_sum'}}
  %3 = hl.reduce_sum %2 {axes = [1], keep_dims = true} : tensor<16x32xf32> -> tensor<16x1xf32>
  return %3 : tensor<16x1xf32>
}

// -----

func.func @needed_in_hbm(%a: tensor<8x64xf32>) -> tensor<8x4xf32> {
  %0 = hl.exp %a : tensor<8x64xf32>
  // expected-remark @+1 {{not fused 'hl.slice': layout op (only reshape, expand_dims, squeeze and transpose fuse)}}
  %1 = hl.slice %0 {starts = [0, 0], limits = [8, 4]} : tensor<8x64xf32> -> tensor<8x4xf32>
  // expected-remark @+1 {{not fused 'hl.exp' -> 'hl.neg': 'hl.slice' would need the result of 'hl.exp' in HBM before the region ends}}
  %2 = hl.neg %0 : tensor<8x64xf32>
  // expected-remark @+1 {{not fused 'hl.slice': layout op (only reshape, expand_dims, squeeze and transpose fuse)}}
  %3 = hl.slice %2 {starts = [0, 0], limits = [8, 4]} : tensor<8x64xf32> -> tensor<8x4xf32>
  %4 = hl.add %1, %3 : tensor<8x4xf32>
  return %4 : tensor<8x4xf32>
}

// -----

// A stitched row must fit whole: one row of 65536 f32 is 256 KiB.
func.func @ub_budget(%a: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %0 = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<4x65536xf32> -> tensor<4x1xf32>
  // expected-remark @+1 {{not fused 'hl.reduce_max' -> 'hl.sub': UB estimate 256 KiB exceeds 80% of 192 KiB}}
  %1 = hl.sub %a, %0 : tensor<4x65536xf32>, tensor<4x1xf32> -> tensor<4x65536xf32>
  return %1 : tensor<4x65536xf32>
}

// -----

// One row of 32768 f32 (128 KiB, the sub in place) and the row's max fit.
func.func @ub_budget_fits(%a: tensor<4x32768xf32>) -> tensor<4x32768xf32> {
  // expected-remark @+1 {{fused 'hl.reduce_max' -> 'hl.sub' into region 0 (vector, 2 ops, est. UB 66%, saves 512 KiB HBM traffic)}}
  %0 = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<4x32768xf32> -> tensor<4x1xf32>
  %1 = hl.sub %a, %0 : tensor<4x32768xf32>, tensor<4x1xf32> -> tensor<4x32768xf32>
  return %1 : tensor<4x32768xf32>
}

// -----

func.func @non_trailing(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.reduce_sum %a {axes = [0], keep_dims = true} : tensor<8x64xf32> -> tensor<1x64xf32>
  // expected-remark @+1 {{not fused 'hl.reduce_sum' -> 'hl.sub': reduction 'hl.reduce_sum' spans non-trailing axes; its rows cannot be stitched}}
  %1 = hl.sub %a, %0 : tensor<8x64xf32>, tensor<1x64xf32> -> tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}

// -----

// The back end transposes what a kernel reads from GM, not a value it computes: a region
// holding both ops would be split into one kernel per op.
func.func @transpose_of_computed(%a: tensor<8x64xf32>) -> tensor<64x8xf32> {
  %0 = hl.exp %a : tensor<8x64xf32>
  // expected-remark @+2 {{not fused 'hl.exp' -> 'hl.transpose': the back end cannot run it as one kernel: no vector lowering for 'hl.transpose'}}
  // expected-remark @+1 {{fused 'hl.transpose' -> 'hl.neg' into region 0 (vector, 2 ops, est. UB 0%, saves 4 KiB HBM traffic)}}
  %1 = hl.transpose %0 {perm = [1, 0]} : tensor<8x64xf32> -> tensor<64x8xf32>
  %2 = hl.neg %1 : tensor<64x8xf32>
  return %2 : tensor<64x8xf32>
}

// -----

// A matmul's epilogue is elementwise: with the head split (a reshape that regroups the
// result) the back end would run every op on its own; without it, the matmul and its bias
// are one mix kernel.
func.func @head_split(%a: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x4x16xf32> {
  // expected-remark @+1 {{fused 'hl.matmul' -> 'hl.add' into region 0 (mix, 2 ops, est. UB 1%, saves 8 KiB HBM traffic)}}
  %0 = hl.matmul %a, %w : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  %1 = hl.add %0, %b : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  // expected-remark @+2 {{not fused 'hl.add' -> 'hl.reshape': the back end would run each of its ops as a kernel of its own}}
  // expected-remark @+1 {{fused 'hl.reshape' -> 'hl.exp' into region 1 (vector, 2 ops, est. UB 0%, saves 0 B HBM traffic)}}
  %2 = hl.reshape %1 : tensor<16x64xf32> -> tensor<16x4x16xf32>
  %3 = hl.exp %2 : tensor<16x4x16xf32>
  return %3 : tensor<16x4x16xf32>
}
