// kiln-fuse measures a candidate region's UB with the back end's own model: the buffers of
// the kernel kiln-codegen-outline would make of it (in-place reuse, lifetimes), placed as
// kiln-codegen-plan-ub places them, at the smallest tile kiln-codegen-tile would choose (one
// row). A region it accepts is a kernel the tile pass tiles at those bytes.
//
// Ascend 910B: one stitched row of 32768 f32 (128 KiB, the sub in place) and its max fit;
// so do the long rows below.
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 target=ascend910b report=%t.ascend.json' -o /dev/null
// RUN: cat %t.ascend.json | FileCheck %s --check-prefix=ASCEND-REPORT
// ASCEND-REPORT: "function": "stitched",
// ASCEND-REPORT: "est_ub_bytes": 131104,
// ASCEND-REPORT: "function": "long_rows",
// ASCEND-REPORT: "est_ub_bytes": 16416,
// ASCEND-REPORT: "function": "long_stitched",
// ASCEND-REPORT: "est_ub_bytes": 16448,
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse{opt-level=2 target=ascend910b}, kiln-codegen-outline, kiln-codegen-tile{target=ascend910b})' | FileCheck %s --check-prefix=ASCEND-TILE
// ASCEND-TILE: func.func private @stitched_kernel0({{.*}}npuvec.tile = {block = 1 : i64, block_dim = 4 : i64, col_block = 32768 : i64, key = 0 : i64, peak_bytes = 131104 : i64}
// ASCEND-TILE-NOT: func.func private @stitched_kernel1
//
// tiny-npu (16 KiB of UB): a stitched row must fit whole, so the max stays out of the sub's
// region; an elementwise chain over rows longer than the UB fuses, the back end cutting its
// rows into column chunks (fusion measures chunks of one vector repeat: 4 buffers of 64 f32,
// and those of the 3-column tail chunk of 4099 = 64 * 64 + 3).
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 target=tiny-npu remarks report=%t.tiny.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: remark: not fused 'hl.reduce_max' -> 'hl.sub': UB estimate 128 KiB exceeds 80% of 16 KiB
// TINY: remark: not fused 'hl.reduce_max' -> 'hl.sub': UB estimate 16.1 KiB exceeds 80% of 16 KiB
// RUN: cat %t.tiny.json | FileCheck %s --check-prefix=TINY-REPORT
// TINY-REPORT: "function": "long_rows",
// TINY-REPORT: "est_ub_bytes": 1152,
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse{opt-level=2 target=tiny-npu}, kiln-codegen-outline, kiln-codegen-tile{target=tiny-npu})' | FileCheck %s --check-prefix=TINY-TILE
// TINY-TILE: func.func private @long_rows_kernel0({{.*}}col_block = 512 : i64
// TINY-TILE-NOT: func.func private @long_rows_kernel1

func.func @stitched(%a: tensor<4x32768xf32>) -> tensor<4x32768xf32> {
  %0 = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<4x32768xf32> -> tensor<4x1xf32>
  %1 = hl.sub %a, %0 : tensor<4x32768xf32>, tensor<4x1xf32> -> tensor<4x32768xf32>
  return %1 : tensor<4x32768xf32>
}

func.func @long_rows(%a: tensor<4x4099xf32>) -> tensor<4x4099xf32> {
  %0 = hl.exp %a : tensor<4x4099xf32>
  %1 = hl.neg %0 : tensor<4x4099xf32>
  %2 = hl.abs %1 : tensor<4x4099xf32>
  return %2 : tensor<4x4099xf32>
}

func.func @long_stitched(%a: tensor<4x4099xf32>) -> tensor<4x4099xf32> {
  %0 = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<4x4099xf32> -> tensor<4x1xf32>
  %1 = hl.sub %a, %0 : tensor<4x4099xf32>, tensor<4x1xf32> -> tensor<4x4099xf32>
  return %1 : tensor<4x4099xf32>
}
