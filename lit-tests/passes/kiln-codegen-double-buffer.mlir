// RUN: %kiln-opt %s -p 'builtin.module(func.func(kiln-fuse{opt-level=2}),kiln-codegen{target=tiny-npu-fast-dma})' | FileCheck %s
// RUN: %kiln-opt %s -p 'builtin.module(func.func(kiln-fuse{opt-level=2}),kiln-codegen{target=tiny-npu-fast-dma})' | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s -p 'builtin.module(func.func(kiln-fuse{opt-level=2}),kiln-codegen{target=tiny-npu})' | FileCheck %s --check-prefix=SINGLE
// RUN: %kiln-opt %s -p 'builtin.module(func.func(kiln-fuse{opt-level=2}),kiln-codegen{target=tiny-npu-fast-dma double-buffer=false})' | FileCheck %s --check-prefix=SINGLE
// A double-buffered elementwise kernel. 64x300 f32 on tiny-npu-fast-dma (tiny-npu with a cheap
// DMA setup, so that halving the tile pays: kiln-codegen-tile estimates the per-pipe cycles both
// ways; on tiny-npu itself the single-buffered 6-row tile is cheaper and is kept): tiles sized
// for half the UB (3 rows, 3648 B per buffer) give each of the 2 cores 11 tiles, so the tile
// loop is unrolled by two: the first tile of an iteration ("ping") on result #0 of each npuvec.buffer, the
// second ("pong", under scf.if) on result #1, which sits one single plan (7296 B) higher. The
// body (3-row) and tail (1-row) tiles of one copy share addresses; ping and pong never do.

// SINGLE-LABEL: func.func private @chain_kernel0(
// SINGLE-SAME:      npuvec.tile = {block = 6 : i64, block_dim = 2 : i64, col_block = 300 : i64, key = 0 : i64, peak_bytes = 14592 : i64}
// SINGLE-NOT:     npuvec.buffer {{.*}}, {{.*}}]
// SINGLE:         npuvec.barrier all

func.func @chain(%a: tensor<64x300xf32>, %b: tensor<64x300xf32>) -> tensor<64x300xf32> {
  %0 = hl.add %a, %b : tensor<64x300xf32>
  %1 = hl.exp %0 : tensor<64x300xf32>
  %2 = hl.mul %1, %a : tensor<64x300xf32>
  return %2 : tensor<64x300xf32>
}

// CHECK-LABEL: func.func private @chain_kernel0(
// CHECK-SAME:      npuvec.tile = {block = 3 : i64, block_dim = 2 : i64, buffers = 2 : i64, col_block = 300 : i64, key = 0 : i64, peak_bytes = 7296 : i64}
// CHECK-SAME:      npuvec.ub_bytes = 14592 : i64
// CHECK-NEXT:    %[[B:.*]]:2 = npuvec.buffer [0, 7296] : memref<3x300xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[T:.*]]:2 = npuvec.buffer [0, 7296] : memref<1x300xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[B2:.*]]:2 = npuvec.buffer [3648, 10944] : memref<3x300xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[T2:.*]]:2 = npuvec.buffer [1216, 8512] : memref<1x300xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[BID:.*]] = npuvec.block_idx : index
// CHECK-NEXT:    %[[NUM:.*]] = npuvec.block_num : index
// CHECK-NEXT:    %[[TILES:.*]] = arith.constant 22 : index
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.muli %[[NUM]], %[[TWO]] : index
// The "buffer free" flags of ping (event 1) and pong (event 2) are set before the loop...
// CHECK-NEXT:    npuvec.set_flag mte3 -> mte2 event 2
// CHECK-NEXT:    npuvec.set_flag mte3 -> mte2 event 1
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[BID]] to %[[TILES]] step %[[STEP]] {
// ... waited for at the head of the ping tile (tail or body), before its loads...
// CHECK:           npuvec.wait_flag mte3 -> mte2 event 1
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        npuvec.load {{.*}} outs(%[[T]]#0 :
// CHECK:             npuvec.store ins(%[[T]]#0 :
// CHECK-NEXT:      } else {
// CHECK-NEXT:        npuvec.load {{.*}} outs(%[[B]]#0 :
// CHECK-NEXT:        npuvec.load {{.*}} outs(%[[B2]]#0 :
// CHECK-NEXT:        npuvec.set_flag mte2 -> v event 0
// CHECK-NEXT:        npuvec.wait_flag mte2 -> v event 0
// CHECK:             npuvec.set_flag v -> mte3 event 0
// CHECK-NEXT:        npuvec.wait_flag v -> mte3 event 0
// CHECK-NEXT:        npuvec.store ins(%[[B]]#0 :
// CHECK-NEXT:      }
// ... and set again at its tail, once its store is issued: the pong tile's loads need not
// wait for it.
// CHECK-NEXT:      npuvec.set_flag mte3 -> mte2 event 1
// The second tile of the iteration, when there is one: the same on the pong copies.
// CHECK-NEXT:      %[[NEXT:.*]] = arith.addi %[[I]], %[[NUM]] : index
// CHECK-NEXT:      %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[TILES]] : index
// CHECK-NEXT:      npuvec.wait_flag mte3 -> mte2 event 2
// CHECK-NEXT:      scf.if %[[MORE]] {
// CHECK-NOT:         wait_flag mte3 -> mte2
// CHECK:             npuvec.store ins(%[[T]]#1 :
// CHECK:           } else {
// CHECK-NEXT:          npuvec.load {{.*}} outs(%[[B]]#1 :
// CHECK-NEXT:          npuvec.load {{.*}} outs(%[[B2]]#1 :
// CHECK-NOT:           wait_flag mte3 -> mte2
// CHECK:               npuvec.store ins(%[[B]]#1 :
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      npuvec.set_flag mte3 -> mte2 event 2
// CHECK-NEXT:    }
// Drained after the loop, so that no flag is left set.
// CHECK-NEXT:    npuvec.wait_flag mte3 -> mte2 event 1
// CHECK-NEXT:    npuvec.wait_flag mte3 -> mte2 event 2
// CHECK-NEXT:    npuvec.barrier all
