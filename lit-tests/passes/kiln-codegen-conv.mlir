// RUN: %kiln-opt %s --split-input-file --no-verify-each -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower)' > %t
// RUN: FileCheck %s < %t
// The lowered module verifies.
// RUN: %kiln-opt --split-input-file %t > /dev/null
// kiln-codegen-lower on conv2d: an implicit im2col on the cube. A 3x3 conv with padding 1 of a
// 2-channel 4x5 map into 3 channels: W (operand 1) is the [3, 18] left operand, the input gives
// the right operand through strided views. Output rows {0}, {1, 2}, {3} and columns {0},
// {1..3}, {4} see different kernel rows / columns (the rest is padding, never read): one tile
// loop per class pair, nine in all, each along rows or (when that makes fewer tiles) columns,
// numbered across the pairs so that the cores take turns.

// CHECK-LABEL: func.func private @conv_kernel0(
// CHECK-SAME:      %[[X:[^:]*]]: memref<1x2x4x5xf32, #npuvec.space<gm>>, %[[W:[^:]*]]: memref<3x2x3x3xf32, #npuvec.space<gm>>, %[[Y:[^:]*]]: memref<1x3x4x5xf32, #npuvec.space<gm>>)
// CHECK-SAME:      npuvec.kind = "matmul", npuvec.tile = {block_dim = 1 : i64, k = 32 : i64, m = 16 : i64, n = 16 : i64}
// CHECK-NEXT:    %[[A1:.*]] = npuvec.alloc : memref<16x32xf32, #npuvec.space<l1>>
// CHECK-NEXT:    %[[B1:.*]] = npuvec.alloc : memref<32x16xf32, #npuvec.space<l1>>
// CHECK-NEXT:    %[[A0:.*]] = npuvec.alloc : memref<16x32xf32, #npuvec.space<l0a>>
// CHECK-NEXT:    %[[B0:.*]] = npuvec.alloc : memref<32x16xf32, #npuvec.space<l0b>>
// CHECK-NEXT:    %[[C0:.*]] = npuvec.alloc : memref<16x16xf32, #npuvec.space<l0c>>
// CHECK-NEXT:    %[[PIX:.*]] = npuvec.alloc : memref<3x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[ROW:.*]] = npuvec.alloc : memref<3x3xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[COL:.*]] = npuvec.alloc : memref<3x2xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[BID:.*]] = npuvec.block_idx
// CHECK-NEXT:    %[[NB:.*]] = npuvec.block_num
// Top-left corner (kh, kw in 1..3): per kernel row of a channel, W[:, c, kh, 1..3] against
// the two input elements it meets; kh = 1 starts the contraction, kh = 2 accumulates, then
// channel 1 in a loop.
// CHECK:         scf.for %{{.*}} = %[[BID]] to
// CHECK:           %[[CX:.*]] = arith.constant 0 : index
// CHECK:           npuvec.load ins(%[[W]][{{.*}}] : memref<3x2x3x3xf32, #npuvec.space<gm>>) outs(%[[A1]] : memref<16x32xf32, #npuvec.space<l1>>) sizes [3, 2] strides [18, 1] {zero_pad}
// CHECK-NEXT:      npuvec.load ins(%[[X]][%[[CX]]] : memref<1x2x4x5xf32, #npuvec.space<gm>>) outs(%[[B1]] : memref<32x16xf32, #npuvec.space<l1>>) sizes [2, 1] strides [1, 1] {zero_pad}
// CHECK-NEXT:      npuvec.move ins(%[[A1]] : {{.*}}) outs(%[[A0]] : memref<16x32xf32, #npuvec.space<l0a>>)
// CHECK-NEXT:      npuvec.move ins(%[[B1]] : {{.*}}) outs(%[[B0]] : memref<32x16xf32, #npuvec.space<l0b>>)
// CHECK-NEXT:      npuvec.mmad ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : memref<16x16xf32, #npuvec.space<l0c>>){{$}}
// CHECK:           npuvec.load ins(%[[W]][{{.*}}] : {{.*}}) outs(%[[A1]] : {{.*}}) sizes [3, 2] strides [18, 1] {zero_pad}
// CHECK-NEXT:      npuvec.load ins(%[[X]][{{.*}}] : {{.*}}) outs(%[[B1]] : {{.*}}) sizes [2, 1] strides [1, 1] {zero_pad}
// CHECK-NEXT:      npuvec.move
// CHECK-NEXT:      npuvec.move
// CHECK-NEXT:      npuvec.mmad ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : {{.*}}) {accumulate}
// CHECK:           scf.for
// CHECK-COUNT-2:     npuvec.mmad ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : {{.*}}) {accumulate}
// CHECK-NEXT:      }
// CHECK-NEXT:      npuvec.fixpipe ins(%[[C0]] : memref<16x16xf32, #npuvec.space<l0c>>) outs(%[[PIX]] : memref<3x1xf32, #npuvec.space<ub>>)
// CHECK:           npuvec.store ins(%[[PIX]] : memref<3x1xf32, #npuvec.space<ub>>) outs(%[[Y]][{{.*}}] : memref<1x3x4x5xf32, #npuvec.space<gm>>) sizes [3, 1] strides [20, 1]
// CHECK-NEXT:    }
// Two more class loops (the rest of row 0; the next tile goes to the next core: the loop
// starts at (block_idx - 1) mod block_num), then the left column of rows 1-2, as one tile
// along the column (pixels 5 input elements apart): kw in 1..3 for every kh of a channel.
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.remui %[[ONE]], %[[NB]]
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[BID]], %[[NB]]
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[UP]], %[[SHIFT]]
// CHECK-NEXT:    %[[FIRST:.*]] = arith.remui %[[D]], %[[NB]]
// CHECK:         scf.for %{{.*}} = %[[FIRST]] to %{{.*}} step %[[NB]] {
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK:           npuvec.load ins(%[[X]][{{.*}}] : {{.*}}) outs(%[[B1]] : {{.*}}) sizes [2, 2] strides [1, 5] {zero_pad}
// CHECK:           npuvec.fixpipe ins(%[[C0]] : {{.*}}) outs(%[[COL]] : memref<3x2xf32, #npuvec.space<ub>>)
// CHECK:           npuvec.store ins(%[[COL]] : {{.*}}) outs(%[[Y]][{{.*}}] : {{.*}}) sizes [3, 2] strides [20, 5]
// CHECK-NEXT:    }
// Then the interior (rows 1-2, columns 1-3: every tap valid), along rows: one chunk of both
// channels, W[:, 0..18] against a [c, kh, kw, ow] view of 18 rows x 3 pixels, one mmad.
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK:           npuvec.load ins(%[[W]][{{.*}}] : {{.*}}) outs(%[[A1]] : {{.*}}) sizes [3, 18] strides [18, 1] {zero_pad}
// CHECK-NEXT:      npuvec.load ins(%[[X]][{{.*}}] : {{.*}}) outs(%[[B1]] : {{.*}}) sizes [2, 3, 3, 3] strides [20, 5, 1, 1] {zero_pad}
// CHECK-NEXT:      npuvec.move
// CHECK-NEXT:      npuvec.move
// CHECK-NEXT:      npuvec.mmad ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : {{.*}}){{$}}
// CHECK-NEXT:      npuvec.fixpipe ins(%[[C0]] : {{.*}}) outs(%[[ROW]] : memref<3x3xf32, #npuvec.space<ub>>)
// CHECK:           npuvec.store ins(%[[ROW]] : {{.*}}) outs(%[[Y]][{{.*}}] : {{.*}}) sizes [3, 3] strides [20, 1]
// CHECK-NEXT:    }
// CHECK-COUNT-4: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK-NOT:     scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[NB]] {
// CHECK-NOT:     hl.
// CHECK-LABEL: func.func @conv(
func.func @conv(%x: tensor<1x2x4x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x4x5xf32> {
  %0 = hl.conv2d %x, %w {padding = [1, 1, 1, 1]} : tensor<1x2x4x5xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x4x5xf32>
  return %0 : tensor<1x3x4x5xf32>
}

// -----

// Stride 2, dilation 2, two groups, batch 2, no padding: one class pair. The tile index
// splits into (ow block, oh, group, batch); W of group g starts at g * 2 * 18 and the input
// channels at g * 2 * 7 * 9; taps step by 2 rows and 2 columns, pixels by 2 columns.
// CHECK-LABEL: func.func private @grouped_kernel0(
// CHECK:         scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT:     scf.for
// CHECK:           arith.remui %[[T]]
// CHECK:           npuvec.load {{.*}} sizes [2, 18] strides [18, 1] {zero_pad}
// CHECK-NEXT:      npuvec.load {{.*}} sizes [2, 3, 3, 3] strides [63, 18, 2, 2] {zero_pad}
// CHECK:           npuvec.mmad {{.*}}{{$}}
// CHECK-NEXT:      npuvec.fixpipe {{.*}} outs(%{{.*}} : memref<2x3xf32, #npuvec.space<ub>>)
// CHECK:           npuvec.store {{.*}} : memref<2x4x2x3xf32, #npuvec.space<gm>>) sizes [2, 3] strides [6, 1]
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
func.func @grouped(%x: tensor<2x4x7x9xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<2x4x2x3xf32> {
  %0 = hl.conv2d %x, %w {strides = [2, 2], dilation = [2, 2], groups = 2} : tensor<2x4x7x9xf32>, tensor<4x2x3x3xf32> -> tensor<2x4x2x3xf32>
  return %0 : tensor<2x4x2x3xf32>
}
