// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-codegen-tile{target=tiny-npu})' | FileCheck %s --check-prefix=TINY
// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-codegen-tile{target=ascend910b})' | FileCheck %s --check-prefix=910B
// RUN: %kiln-opt %s --split-input-file -p 'builtin.module(kiln-codegen-tile{target=tiny-npu})' | FileCheck %s --check-prefix=SAME
// kiln-codegen-tile attaches `npuvec.tile`, chosen from the target (tiny-npu: 16 KiB UB, two
// vector cores, one cube core; ascend910b: 196352 usable UB bytes, 48 vector and 24 cube cores),
// and changes nothing else.

// 13 rows of 64 f32: on tiny-npu 7 rows per tile (two tiles: 7 and a tail of 6) on both vector
// cores; on ascend910b one row per tile so that 13 cores take part.
// TINY-LABEL: func.func private @softmax_kernel0(
// TINY-SAME:    npuvec.tile = {block = 7 : i64, block_dim = 2 : i64, col_block = 64 : i64, key = 0 : i64, peak_bytes = 2016 : i64}
// 910B-LABEL: func.func private @softmax_kernel0(
// 910B-SAME:    npuvec.tile = {block = 1 : i64, block_dim = 13 : i64, col_block = 64 : i64, key = 0 : i64, peak_bytes = 288 : i64}
// SAME-LABEL: func.func private @softmax_kernel0(
// SAME-NEXT:    hl.reduce_max
// SAME-NEXT:    hl.sub
// SAME-NEXT:    hl.exp
// SAME-NEXT:    hl.reduce_sum
// SAME-NEXT:    hl.div
// SAME-NEXT:    return
func.func private @softmax_kernel0(%a: tensor<13x64xf32>) -> tensor<13x64xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %m = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<13x64xf32> -> tensor<13x1xf32>
  %s = hl.sub %a, %m : tensor<13x64xf32>, tensor<13x1xf32> -> tensor<13x64xf32>
  %e = hl.exp %s : tensor<13x64xf32>
  %t = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<13x64xf32> -> tensor<13x1xf32>
  %d = hl.div %e, %t : tensor<13x64xf32>, tensor<13x1xf32> -> tensor<13x64xf32>
  return %d : tensor<13x64xf32>
}

// -----

// A 5000-wide f32 row (20000 bytes) does not fit tiny-npu's UB: the row is reduced in column
// chunks of 625 (`col_block` < 5000); ascend910b takes whole rows.
// TINY-LABEL: func.func private @long_row_kernel0(
// TINY-SAME:    npuvec.tile = {block = 1 : i64, block_dim = 2 : i64, col_block = 625 : i64, key = 0 : i64, peak_bytes = 10176 : i64}
// 910B-LABEL: func.func private @long_row_kernel0(
// 910B-SAME:    npuvec.tile = {block = 1 : i64, block_dim = 4 : i64, col_block = 5000 : i64, key = 0 : i64, peak_bytes = 20032 : i64}
func.func private @long_row_kernel0(%a: tensor<4x5000xf32>) -> tensor<4x5000xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %m = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<4x5000xf32> -> tensor<4x1xf32>
  %s = hl.sub %a, %m : tensor<4x5000xf32>, tensor<4x1xf32> -> tensor<4x5000xf32>
  %e = hl.exp %s : tensor<4x5000xf32>
  %t = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x5000xf32> -> tensor<4x1xf32>
  %d = hl.div %e, %t : tensor<4x5000xf32>, tensor<4x1xf32> -> tensor<4x5000xf32>
  return %d : tensor<4x5000xf32>
}

// -----

// Matmul tiles are fractal (16) multiples; tiny-npu has one cube core.
// TINY-LABEL: func.func private @matmul_kernel0(
// TINY-SAME:    npuvec.tile = {block_dim = 1 : i64, k = 16 : i64, m = 48 : i64, n = 64 : i64}
// 910B-LABEL: func.func private @matmul_kernel0(
// 910B-SAME:    npuvec.tile = {block_dim = 2 : i64, k = 128 : i64, m = 112 : i64, n = 128 : i64}
func.func private @matmul_kernel0(%a: tensor<100x300xf32>, %b: tensor<300x200xf32>) -> tensor<100x200xf32> attributes {npuvec.core = #npuvec.core<aic>, npuvec.kind = "matmul"} {
  %0 = hl.matmul %a, %b : tensor<100x300xf32>, tensor<300x200xf32> -> tensor<100x200xf32>
  return %0 : tensor<100x200xf32>
}

// -----

// A row over two reduced axes (8192 f32) does not fit tiny-npu's UB: it is chunked along the
// last reduced axis (`col_block` = 128, the whole axis), one index of the other at a time.
// TINY-LABEL: func.func private @wide_kernel0(
// TINY-SAME:    col_block = 128 : i64
// 910B-LABEL: func.func private @wide_kernel0(
// 910B-SAME:    col_block = 8192 : i64
func.func private @wide_kernel0(%a: tensor<4x64x128xf32>) -> tensor<4x1x1xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %e = hl.exp %a : tensor<4x64x128xf32>
  %r = hl.reduce_sum %e {axes = [1, 2], keep_dims = true} : tensor<4x64x128xf32> -> tensor<4x1x1xf32>
  return %r : tensor<4x1x1xf32>
}
