// Tiles sized for a larger UB than the target has (`ub-budget`) overflow the UB plan:
// kiln-codegen-plan-ub alone reports it; the named pipeline kiln-codegen first drops double
// buffering, then retiles the kernel for half the budget, a quarter, an eighth, and reports
// the overflow only when none fits.
// RUN: %kiln-opt %s -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu ub-budget=65536})' | FileCheck %s --check-prefix=TILE
// RUN: not %kiln-opt %s -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu ub-budget=65536},kiln-codegen-bufferize,kiln-codegen-lower,kiln-codegen-plan-ub{target=tiny-npu})' 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: %kiln-opt %s -p 'builtin.module(kiln-codegen{target=tiny-npu ub-budget=65536})' | FileCheck %s --check-prefix=RETILED
// RUN: not %kiln-opt %s -p 'builtin.module(kiln-codegen{target=tiny-npu ub-budget=1048576})' 2>&1 | FileCheck %s --check-prefix=FAIL

// Sized for 64 KiB: 8 rows per tile, double-buffered (two copies of 32000 bytes).
// TILE: npuvec.tile = {block = 8 : i64, block_dim = 2 : i64, buffers = 2 : i64, col_block = 1000 : i64, key = 0 : i64, peak_bytes = 32000 : i64}

// One copy of the plan does not fit tiny-npu's 16 KiB either.
// PLAN: [[@LINE+6]]:8: error: 'func.func' op the ub plan needs 32000 bytes, but the target 'tiny-npu' has 16384 (memory.ub_usable_bytes)

// Retiled for 16 KiB (a quarter of the budget): 4 rows, one copy, within the UB.
// RETILED: npuvec.tile = {block = 4 : i64, block_dim = 2 : i64, col_block = 1000 : i64, key = 0 : i64, peak_bytes = 16000 : i64}
// RETILED-SAME: npuvec.ub_bytes = 16000 : i64
func.func @exp(%x: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %0 = hl.exp %x : tensor<64x1000xf32>
  return %0 : tensor<64x1000xf32>
}

// Even an eighth of 1 MiB (128 KiB) is too much: the error after the retries.
// FAIL: [[@LINE-5]]:8: error: 'func.func' op the ub plan needs 64000 bytes, but the target 'tiny-npu' has 16384 (memory.ub_usable_bytes), after retiling for 1/2, 1/4, 1/8 of the tile budget of 1048576 bytes
