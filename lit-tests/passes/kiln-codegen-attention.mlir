// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-fuse{opt-level=2}, kiln-codegen{target=tiny-npu})' | FileCheck %s
// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-fuse{opt-level=2}, kiln-codegen{target=tiny-npu})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-fuse{opt-level=2}, kiln-codegen{target=tiny-npu flash-attention=false})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARTS
// An attention region is one flash-attention kernel (codegen/lower_attention.rs): Q resident in
// L0A, K^T and V streamed through L1 / L0B tile by tile, the scores from L0C to UB, the online
// softmax on the vector unit, P through a GM workspace of one tile per core (never S x S), the
// output normalized once and stored through the head merge.

// REMARK: remark: attention region lowered as 1 kernel
// CHECK-LABEL: func.func private @heads_kernel0(
// CHECK-SAME:    %[[WS:[a-z0-9]+]]: memref<1x16x16xf16, #npuvec.space<gm>>)
// CHECK-SAME:    npuvec.core = #npuvec.core<mix>, npuvec.kind = "attention"
// CHECK-SAME:    npuvec.tile = {block_dim = 1 : i64, k = 16 : i64, q = 16 : i64}
// The key tiles are software-pipelined: the scores of tile j + 1 are computed on the cube
// while the vector unit works on tile j (issued after tile j's score ops, so the vector unit's
// wait for its mask covers no K or V load); they are drained to UB once tile j's are consumed,
// and tile j's PV is added to the output during tile j + 1's softmax.
// CHECK:         scf.for
// CHECK:           npuvec.load {{.*}} outs(%{{.*}} : memref<16x16xf16, #npuvec.space<l1>>) sizes [16, 16] strides [64, 1] {zero_pad}
// CHECK:           npuvec.load {{.*}} outs(%[[K1:.*]] : memref<16x16xf16, #npuvec.space<l1>>) sizes [16, 16] strides [1, 64] {zero_pad}
// CHECK:           npuvec.mmad
// CHECK:           npuvec.fixpipe ins(%[[SC:.*]] : memref<16x16xf32, #npuvec.space<l0c>>) outs(%[[S:.*]] : memref<16x16xf16, #npuvec.space<ub>>)
// CHECK:           scf.for
// CHECK:             npuvec.mul ins(%[[S]],
// CHECK:             npuvec.load {{.*}} outs(%[[K1]] : {{.*}}) sizes [16, 16] strides [1, 64] {zero_pad}
// CHECK:             npuvec.mmad ins({{.*}}) outs(%[[SC]] :
// CHECK:             npuvec.cast rint ins(%[[S]] : memref<16x16xf16, #npuvec.space<ub>>) outs(%{{.*}} : memref<16x16xf32, #npuvec.space<ub>>)
// CHECK:             npuvec.reduce max
// CHECK:             npuvec.exp
// CHECK:             npuvec.reduce sum
// CHECK:             npuvec.store ins(%{{.*}} : memref<16x16xf16, #npuvec.space<ub>>) outs(%[[WS]][
// CHECK:             npuvec.fixpipe ins(%[[SC]] : {{.*}}) outs(%[[S]] :
// CHECK:             npuvec.load ins(%[[WS]][
// CHECK:             npuvec.mmad
// CHECK:             npuvec.fixpipe ins(%{{.*}} : memref<16x16xf32, #npuvec.space<l0c>>) outs(%{{.*}} : memref<16x16xf32, #npuvec.space<ub>>)
// CHECK:           }
// CHECK:           npuvec.store ins(%{{.*}} : memref<16x16xf16, #npuvec.space<ub>>) outs(%[[WS]][
// CHECK:           npuvec.mmad
// CHECK:           npuvec.div
// CHECK:           npuvec.cast
// CHECK:           npuvec.store ins(%{{.*}} : memref<16x16xf16, #npuvec.space<ub>>) outs(%{{.*}}) sizes [16, 16] strides [64, 1]
// CHECK-NOT:   func.func private @heads_kernel1(
// CHECK-LABEL: func.func @heads(
// CHECK-COUNT-1: npuvec.launch
// CHECK-NOT:     npuvec.launch
// PARTS: remark: attention region lowered as 6 kernels: flash-attention=false
func.func @heads(%q: tensor<64x64xf16>, %k: tensor<64x64xf16>, %v: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %q1 = hl.reshape %q : tensor<64x64xf16> -> tensor<64x4x16xf16>
  %qh = hl.transpose %q1 {perm = [1, 0, 2]} : tensor<64x4x16xf16> -> tensor<4x64x16xf16>
  %k1 = hl.reshape %k : tensor<64x64xf16> -> tensor<64x4x16xf16>
  %kh = hl.transpose %k1 {perm = [1, 0, 2]} : tensor<64x4x16xf16> -> tensor<4x64x16xf16>
  %v1 = hl.reshape %v : tensor<64x64xf16> -> tensor<64x4x16xf16>
  %vh = hl.transpose %v1 {perm = [1, 0, 2]} : tensor<64x4x16xf16> -> tensor<4x64x16xf16>
  %s = hl.batch_matmul %qh, %kh {transpose_b = true} : tensor<4x64x16xf16>, tensor<4x64x16xf16> -> tensor<4x64x64xf16>
  %c = hl.constant dense<0.25> : tensor<f16>
  %s1 = hl.mul %s, %c : tensor<4x64x64xf16>, tensor<f16> -> tensor<4x64x64xf16>
  %m = hl.reduce_max %s1 {axes = [2], keep_dims = true} : tensor<4x64x64xf16> -> tensor<4x64x1xf16>
  %x = hl.sub %s1, %m : tensor<4x64x64xf16>, tensor<4x64x1xf16> -> tensor<4x64x64xf16>
  %e = hl.exp %x : tensor<4x64x64xf16>
  %z = hl.reduce_sum %e {axes = [2], keep_dims = true} : tensor<4x64x64xf16> -> tensor<4x64x1xf16>
  %p = hl.div %e, %z : tensor<4x64x64xf16>, tensor<4x64x1xf16> -> tensor<4x64x64xf16>
  %o = hl.batch_matmul %p, %vh : tensor<4x64x64xf16>, tensor<4x64x16xf16> -> tensor<4x64x16xf16>
  %ot = hl.transpose %o {perm = [1, 0, 2]} : tensor<4x64x16xf16> -> tensor<64x4x16xf16>
  %r = hl.reshape %ot : tensor<64x4x16xf16> -> tensor<64x64xf16>
  return %r : tensor<64x64xf16>
}

// -----

// Fallback: a head dim of 1024 leaves no room in the tiny target's 16 KiB UB for one 16x16
// tile's output accumulator: the region is lowered as its parts, the remark says why.
// REMARK: remark: attention region lowered as 3 kernels: a 16x16 tile of queries and keys needs {{[0-9]+}} bytes of UB, 16384 available
// CHECK-LABEL: func.func private @wide_kernel0(
// CHECK-NOT:     npuvec.kind = "attention"
// PARTS: remark: attention region lowered as 3 kernels: flash-attention=false
func.func @wide(%q: tensor<16x1024xf32>, %k: tensor<16x1024xf32>, %v: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %s = hl.matmul %q, %k {transpose_b = true} : tensor<16x1024xf32>, tensor<16x1024xf32> -> tensor<16x16xf32>
  %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<16x16xf32> -> tensor<16x1xf32>
  %x = hl.sub %s, %m : tensor<16x16xf32>, tensor<16x1xf32> -> tensor<16x16xf32>
  %e = hl.exp %x : tensor<16x16xf32>
  %z = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<16x16xf32> -> tensor<16x1xf32>
  %p = hl.div %e, %z : tensor<16x16xf32>, tensor<16x1xf32> -> tensor<16x16xf32>
  %o = hl.matmul %p, %v : tensor<16x16xf32>, tensor<16x1024xf32> -> tensor<16x1024xf32>
  return %o : tensor<16x1024xf32>
}
