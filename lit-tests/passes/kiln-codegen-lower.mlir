// RUN: %kiln-opt %s --split-input-file --no-verify-each -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower)' > %t
// RUN: FileCheck %s < %t
// The lowered module verifies (the steps in between do not: see kiln-codegen-bufferize.mlir).
// RUN: %kiln-opt --split-input-file %t > /dev/null
// kiln-codegen-lower: kernel bodies become npuvec tile loops on unplanned buffers, on
// tiny-npu (16 KiB UB, two vector cores, one cube core).

// 13 rows in tiles of 7: two tiles, the second a tail of 6 rows. The row-less input [64] is
// loaded once, as a [1, 64] buffer, before the loop; tiles go round robin over the cores.
// CHECK-LABEL: func.func private @rows_kernel0(
// CHECK-SAME:      %[[X:[^:]*]]: memref<13x64xf32, #npuvec.space<gm>>, %[[G:[^:]*]]: memref<64xf32, #npuvec.space<gm>>, %[[OUT:[^:]*]]: memref<13x64xf32, #npuvec.space<gm>>)
// CHECK-SAME:      npuvec.block_dim = 2 : i64
// CHECK-NEXT:    %[[GB:.*]] = npuvec.alloc : memref<1x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[BODY:.*]] = npuvec.alloc : memref<7x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[TAIL:.*]] = npuvec.alloc : memref<6x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[BMAX:.*]] = npuvec.alloc : memref<7x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[TMAX:.*]] = npuvec.alloc : memref<6x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    npuvec.load ins(%[[G]][%[[Z]]] : memref<64xf32, #npuvec.space<gm>>) outs(%[[GB]] : memref<1x64xf32, #npuvec.space<ub>>) sizes [64] strides [1]
// CHECK-NEXT:    %[[IDX:.*]] = npuvec.block_idx : index
// CHECK-NEXT:    %[[NUM:.*]] = npuvec.block_num : index
// CHECK-NEXT:    %[[TILES:.*]] = arith.constant 2 : index
// CHECK-NEXT:    scf.for %[[T:.*]] = %[[IDX]] to %[[TILES]] step %[[NUM]] {
// CHECK:           %[[J:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK-NEXT:      %[[ROWE:.*]] = arith.constant 448 : index
// CHECK-NEXT:      %[[OFF:.*]] = arith.muli %[[J]], %[[ROWE]] : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[ISTAIL:.*]] = arith.cmpi eq, %[[J]], %[[LAST]] : index
// CHECK-NEXT:      scf.if %[[ISTAIL]] {
// CHECK-NEXT:        npuvec.load ins(%[[X]][%[[OFF]]] : memref<13x64xf32, #npuvec.space<gm>>) outs(%[[TAIL]] : memref<6x64xf32, #npuvec.space<ub>>) sizes [384] strides [1]
// CHECK-NEXT:        npuvec.reduce max ins(%[[TAIL]] : {{.*}}) outs(%[[TMAX]] : memref<6x1xf32, #npuvec.space<ub>>)
// CHECK-NEXT:        npuvec.sub ins(%[[TAIL]], %[[TMAX]] : memref<6x64xf32, #npuvec.space<ub>>, memref<6x1xf32, #npuvec.space<ub>>) outs(%[[TAIL]] :
// CHECK-NEXT:        npuvec.exp ins(%[[TAIL]] : {{.*}}) outs(%[[TAIL]] :
// CHECK-NEXT:        npuvec.mul ins(%[[TAIL]], %[[GB]] : memref<6x64xf32, #npuvec.space<ub>>, memref<1x64xf32, #npuvec.space<ub>>) outs(%[[TAIL]] :
// CHECK-NEXT:        %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:        npuvec.mul ins(%[[TAIL]], %[[TWO]] : memref<6x64xf32, #npuvec.space<ub>>, f32) outs(%[[TAIL]] :
// CHECK-NEXT:        npuvec.store ins(%[[TAIL]] : memref<6x64xf32, #npuvec.space<ub>>) outs(%[[OUT]][%[[OFF]]] : memref<13x64xf32, #npuvec.space<gm>>) sizes [384] strides [1]
// CHECK-NEXT:      } else {
// CHECK-NEXT:        npuvec.load ins(%[[X]][%[[OFF]]] : {{.*}}) outs(%[[BODY]] : memref<7x64xf32, #npuvec.space<ub>>) sizes [448] strides [1]
// CHECK-NEXT:        npuvec.reduce max ins(%[[BODY]] : {{.*}}) outs(%[[BMAX]] :
// CHECK-NEXT:        npuvec.sub ins(%[[BODY]], %[[BMAX]] :
// CHECK-NEXT:        npuvec.exp ins(%[[BODY]] :
// CHECK-NEXT:        npuvec.mul ins(%[[BODY]], %[[GB]] :
// CHECK-NEXT:        arith.constant 2.000000e+00 : f32
// CHECK-NEXT:        npuvec.mul ins(%[[BODY]], %{{.*}} : memref<7x64xf32, #npuvec.space<ub>>, f32)
// CHECK-NEXT:        npuvec.store ins(%[[BODY]] : {{.*}}) outs(%[[OUT]][%[[OFF]]] : {{.*}}) sizes [448] strides [1]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NOT:     hl.
// CHECK-NOT:     bufferization.
// CHECK-LABEL: func.func @rows(
func.func @rows(%x: tensor<13x64xf32>, %g: tensor<64xf32>) -> tensor<13x64xf32> {
  %r = fused.region vector (%a = %x, %b = %g) : (tensor<13x64xf32>, tensor<64xf32>) -> tensor<13x64xf32> {
    %two = hl.constant dense<2.0> : tensor<f32>
    %m = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<13x64xf32> -> tensor<13x1xf32>
    %s = hl.sub %a, %m : tensor<13x64xf32>, tensor<13x1xf32> -> tensor<13x64xf32>
    %e = hl.exp %s : tensor<13x64xf32>
    %p = hl.mul %e, %b : tensor<13x64xf32>, tensor<64xf32> -> tensor<13x64xf32>
    %q = hl.mul %p, %two : tensor<13x64xf32>, tensor<f32> -> tensor<13x64xf32>
    fused.yield %q : tensor<13x64xf32>
  }
  return %r : tensor<13x64xf32>
}

// -----

// A matmul 40x300 * 300x100 in m = n = 48, k = 16 tiles (tiny-npu has one cube core): per
// tile zero-padded loads into L1, moves to L0A / L0B, mmad into L0C (accumulate after the first
// K chunk, in a loop, then the K tail of 12), fixpipe into UB and a store; the n tail (4
// columns) has its own UB buffer.
// CHECK-LABEL: func.func private @mm_kernel0(
// CHECK-SAME:      %[[A:[^:]*]]: memref<40x300xf32, #npuvec.space<gm>>, %[[B:[^:]*]]: memref<300x100xf32, #npuvec.space<gm>>, %[[C:[^:]*]]: memref<40x100xf32, #npuvec.space<gm>>)
// CHECK-SAME:      npuvec.block_dim = 1 : i64
// CHECK-NEXT:    %[[A1:.*]] = npuvec.alloc : memref<48x16xf32, #npuvec.space<l1>>
// CHECK-NEXT:    %[[B1:.*]] = npuvec.alloc : memref<16x48xf32, #npuvec.space<l1>>
// CHECK-NEXT:    %[[A0:.*]] = npuvec.alloc : memref<48x16xf32, #npuvec.space<l0a>>
// CHECK-NEXT:    %[[B0:.*]] = npuvec.alloc : memref<16x48xf32, #npuvec.space<l0b>>
// CHECK-NEXT:    %[[C0:.*]] = npuvec.alloc : memref<48x48xf32, #npuvec.space<l0c>>
// CHECK-NEXT:    %[[CUB:.*]] = npuvec.alloc : memref<40x48xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[CTAIL:.*]] = npuvec.alloc : memref<40x4xf32, #npuvec.space<ub>>
// CHECK:         scf.for
// The n tail tile (3rd n block): 4 columns of B.
// CHECK:           scf.if
// CHECK:             npuvec.load ins(%[[A]][{{.*}}] : memref<40x300xf32, #npuvec.space<gm>>) outs(%[[A1]] : memref<48x16xf32, #npuvec.space<l1>>) sizes [40, 16] strides [300, 1] {zero_pad}
// CHECK-NEXT:        npuvec.load ins(%[[B]][{{.*}}] : memref<300x100xf32, #npuvec.space<gm>>) outs(%[[B1]] : memref<16x48xf32, #npuvec.space<l1>>) sizes [16, 4] strides [100, 1] {zero_pad}
// CHECK-NEXT:        npuvec.move ins(%[[A1]] : {{.*}}) outs(%[[A0]] : memref<48x16xf32, #npuvec.space<l0a>>)
// CHECK-NEXT:        npuvec.move ins(%[[B1]] : {{.*}}) outs(%[[B0]] : memref<16x48xf32, #npuvec.space<l0b>>)
// CHECK-NEXT:        npuvec.mmad ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : memref<48x48xf32, #npuvec.space<l0c>>){{$}}
// CHECK:             scf.for
// CHECK:               npuvec.mmad ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : {{.*}}) {accumulate}
// CHECK-NEXT:        }
// CHECK:             npuvec.load ins(%[[A]][{{.*}}] : {{.*}}) outs(%[[A1]] : {{.*}}) sizes [40, 12] strides [300, 1] {zero_pad}
// CHECK-NEXT:        npuvec.load ins(%[[B]][{{.*}}] : {{.*}}) outs(%[[B1]] : {{.*}}) sizes [12, 4] strides [100, 1] {zero_pad}
// CHECK-NEXT:        npuvec.move
// CHECK-NEXT:        npuvec.move
// CHECK-NEXT:        npuvec.mmad ins(%[[A0]], %[[B0]] : {{.*}}) outs(%[[C0]] : {{.*}}) {accumulate}
// CHECK-NEXT:        npuvec.fixpipe ins(%[[C0]] : memref<48x48xf32, #npuvec.space<l0c>>) outs(%[[CTAIL]] : memref<40x4xf32, #npuvec.space<ub>>)
// CHECK:             npuvec.store ins(%[[CTAIL]] : memref<40x4xf32, #npuvec.space<ub>>) outs(%[[C]][{{.*}}] : memref<40x100xf32, #npuvec.space<gm>>) sizes [40, 4] strides [100, 1]
// CHECK-NEXT:      } else {
// CHECK:             npuvec.load ins(%[[B]][{{.*}}] : {{.*}}) outs(%[[B1]] : {{.*}}) sizes [16, 48] strides [100, 1] {zero_pad}
// CHECK:             npuvec.fixpipe ins(%[[C0]] : {{.*}}) outs(%[[CUB]] : memref<40x48xf32, #npuvec.space<ub>>)
// CHECK:             npuvec.store ins(%[[CUB]] : {{.*}}) outs(%[[C]][{{.*}}] : {{.*}}) sizes [40, 48] strides [100, 1]
// CHECK-NOT:     hl.
// CHECK-LABEL: func.func @mm(
func.func @mm(%a: tensor<40x300xf32>, %b: tensor<300x100xf32>) -> tensor<40x100xf32> {
  %0 = hl.matmul %a, %b : tensor<40x300xf32>, tensor<300x100xf32> -> tensor<40x100xf32>
  return %0 : tensor<40x100xf32>
}

// -----

// A 5000-wide row does not fit: it is reduced in two chunks of 2500 columns, the second
// accumulating into the first's result.
// CHECK-LABEL: func.func private @long_kernel0(
// CHECK-SAME:      col_block = 2500 : i64
// CHECK-NEXT:    %[[CH:.*]] = npuvec.alloc : memref<1x2500xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[ACC:.*]] = npuvec.alloc : memref<1x1xf32, #npuvec.space<ub>>
// CHECK:         scf.for
// CHECK:           npuvec.load {{.*}} outs(%[[CH]] : memref<1x2500xf32, #npuvec.space<ub>>) sizes [2500] strides [1]
// CHECK-NEXT:      npuvec.reduce sum ins(%[[CH]] : {{.*}}) outs(%[[ACC]] : memref<1x1xf32, #npuvec.space<ub>>){{$}}
// CHECK:           npuvec.load {{.*}} outs(%[[CH]] : memref<1x2500xf32, #npuvec.space<ub>>) sizes [2500] strides [1]
// CHECK-NEXT:      npuvec.reduce sum ins(%[[CH]] : {{.*}}) outs(%[[ACC]] : {{.*}}) {accumulate}
// CHECK-NEXT:      npuvec.store ins(%[[ACC]] : {{.*}}) {{.*}} sizes [1] strides [1]
// CHECK-NEXT:    }
func.func @long(%x: tensor<4x5000xf32>) -> tensor<4x1xf32> {
  %0 = hl.reduce_sum %x {axes = [1], keep_dims = true} : tensor<4x5000xf32> -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// A 20000-wide row in chunks of 2500: the first chunk starts the fold, the other seven run in
// an scf.for whose index makes the GM offset (no unrolling, so no limit on the chunk count).
// CHECK-LABEL: func.func private @longer_kernel0(
// CHECK-SAME:      col_block = 2500 : i64
// CHECK-NEXT:    %[[CH:.*]] = npuvec.alloc : memref<1x2500xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[ACC:.*]] = npuvec.alloc : memref<1x1xf32, #npuvec.space<ub>>
// CHECK:         scf.for
// CHECK:           %[[ROW:.*]] = arith.muli %{{.*}}, %c20000 : index
// CHECK:           npuvec.load ins(%arg0[%[[ROW]]] : {{.*}}) outs(%[[CH]] : {{.*}}) sizes [2500] strides [1]
// CHECK-NEXT:      npuvec.reduce max ins(%[[CH]] : {{.*}}) outs(%[[ACC]] : memref<1x1xf32, #npuvec.space<ub>>){{$}}
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[STEP:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[K:.*]] = %[[C1]] to %[[C8]] step %[[STEP]] {
// CHECK-NEXT:        %[[W:.*]] = arith.constant 2500 : index
// CHECK-NEXT:        %[[SHIFT:.*]] = arith.muli %[[K]], %[[W]] : index
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[ROW]], %[[SHIFT]] : index
// CHECK-NEXT:        npuvec.load ins(%arg0[%[[AT]]] : {{.*}}) outs(%[[CH]] : {{.*}}) sizes [2500] strides [1]
// CHECK-NEXT:        npuvec.reduce max ins(%[[CH]] : {{.*}}) outs(%[[ACC]] : {{.*}}) {accumulate}
// CHECK-NEXT:      }
// CHECK-NEXT:      npuvec.store ins(%[[ACC]] : {{.*}}) {{.*}} sizes [1] strides [1]
// The column output: every chunk (16 of 1250) in a loop.
// CHECK-LABEL: func.func private @longer_kernel1(
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %c16 step %{{.*}} {
// CHECK:             npuvec.load
// CHECK-NEXT:        npuvec.sub
// CHECK:             npuvec.store {{.*}} sizes [1250] strides [1]
// CHECK-NEXT:      }
func.func @longer(%x: tensor<4x20000xf32>) -> (tensor<4x1xf32>, tensor<4x20000xf32>) {
  %0 = hl.reduce_max %x {axes = [1], keep_dims = true} : tensor<4x20000xf32> -> tensor<4x1xf32>
  %1 = hl.sub %x, %0 : tensor<4x20000xf32>, tensor<4x1xf32> -> tensor<4x20000xf32>
  return %0, %1 : tensor<4x1xf32>, tensor<4x20000xf32>
}

// -----

// A row over three reduced axes (60000 elements) is chunked along the last one, one index of
// the other two at a time: index 0 starts the fold, the other 14 run in an scf.for over their
// flattened index, split by divui/remui into the two axes' indices for the GM offset.
// CHECK-LABEL: func.func private @three_axes_kernel0(
// CHECK-SAME:      col_block = 4000 : i64
// CHECK:           %[[ROW:.*]] = arith.muli %{{.*}}, %c60000 : index
// CHECK:           npuvec.load ins(%arg0[%[[ROW]]] : {{.*}}) outs(%[[CH:.*]] : memref<1x4000xf32, #npuvec.space<ub>>) sizes [4000] strides [1]
// CHECK-NEXT:      npuvec.reduce sum ins(%[[CH]] : {{.*}}) outs(%[[ACC:.*]] : memref<1x1xf32, #npuvec.space<ub>>){{$}}
// CHECK:           scf.for %[[Q:.*]] = %{{.*}} to %c15 step %{{.*}} {
// CHECK-NEXT:        %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:        %[[J:.*]] = arith.remui %[[Q]], %[[C5]] : index
// CHECK-NEXT:        %[[C5B:.*]] = arith.constant 5 : index
// CHECK-NEXT:        %[[I:.*]] = arith.divui %[[Q]], %[[C5B]] : index
// CHECK-NEXT:        %[[S2:.*]] = arith.constant 4000 : index
// CHECK-NEXT:        %[[T2:.*]] = arith.muli %[[J]], %[[S2]] : index
// CHECK-NEXT:        %[[S1:.*]] = arith.constant 20000 : index
// CHECK-NEXT:        %[[T1:.*]] = arith.muli %[[I]], %[[S1]] : index
// CHECK-NEXT:        %[[T:.*]] = arith.addi %[[T2]], %[[T1]] : index
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %[[ROW]], %[[T]] : index
// CHECK-NEXT:        npuvec.load ins(%arg0[%[[AT]]] : {{.*}}) outs(%[[CH]] : {{.*}}) sizes [4000] strides [1]
// CHECK-NEXT:        npuvec.reduce sum ins(%[[CH]] : {{.*}}) outs(%[[ACC]] : {{.*}}) {accumulate}
// CHECK-NEXT:      }
// CHECK-NEXT:      npuvec.store ins(%[[ACC]] : {{.*}}) {{.*}} sizes [1] strides [1]
func.func @three_axes(%x: tensor<2x3x5x4000xf32>) -> tensor<2xf32> {
  %0 = hl.reduce_sum %x {axes = [1, 2, 3]} : tensor<2x3x5x4000xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A matmul whose result is split into heads ([20, 512] -> [20, 2, 256] -> [2, 20, 256]) is one
// kernel that stores each tile through the permuted layout. A tile of 128 columns lies inside
// a head of 256: head `n / 2` (GM stride 20 * 256), at column `(n % 2) * 128` of it.
// CHECK-LABEL: func.func private @split_heads_kernel0(
// CHECK-SAME:      memref<2x20x256xf32, #npuvec.space<gm>>
// CHECK-SAME:      npuvec.kind = "matmul"
// CHECK:           npuvec.fixpipe
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[HEAD:.*]] = arith.divui %[[N:.*]], %[[C2]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.remui %[[N]], %[[C2]] : index
// CHECK:           arith.muli %[[HEAD]], %c5120 : index
// CHECK:           arith.muli %[[AT]], %c128{{.*}} : index
// CHECK:           npuvec.store ins(%{{.*}} : memref<20x128xf32, #npuvec.space<ub>>) outs(%{{.*}} : memref<2x20x256xf32, #npuvec.space<gm>>) sizes [20, 128] strides [256, 1]
// CHECK-NOT:     npuvec.kind = "layout"
// CHECK-LABEL: func.func @split_heads(
func.func @split_heads(%x: tensor<20x32xf32>, %w: tensor<32x512xf32>) -> tensor<2x20x256xf32> {
  %r = fused.region cube (%a = %x, %b = %w) : (tensor<20x32xf32>, tensor<32x512xf32>) -> tensor<2x20x256xf32> {
    %0 = hl.matmul %a, %b : tensor<20x32xf32>, tensor<32x512xf32> -> tensor<20x512xf32>
    %1 = hl.reshape %0 : tensor<20x512xf32> -> tensor<20x2x256xf32>
    %2 = hl.transpose %1 {perm = [1, 0, 2]} : tensor<20x2x256xf32> -> tensor<2x20x256xf32>
    fused.yield %2 : tensor<2x20x256xf32>
  }
  return %r : tensor<2x20x256xf32>
}

// -----

// Tiles of whole heads store as [rows, heads, columns of a head] blocks.
// CHECK-LABEL: func.func private @whole_heads_kernel0(
// CHECK:           npuvec.store ins(%{{.*}} : memref<16x64xf32, #npuvec.space<ub>>) outs(%{{.*}} : memref<4x16x16xf32, #npuvec.space<gm>>) sizes [16, 4, 16] strides [16, 256, 1]
func.func @whole_heads(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<4x16x16xf32> {
  %r = fused.region cube (%a = %x, %b = %w) : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x16xf32> {
    %0 = hl.matmul %a, %b : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
    %1 = hl.reshape %0 : tensor<16x64xf32> -> tensor<16x4x16xf32>
    %2 = hl.transpose %1 {perm = [1, 0, 2]} : tensor<16x4x16xf32> -> tensor<4x16x16xf32>
    fused.yield %2 : tensor<4x16x16xf32>
  }
  return %r : tensor<4x16x16xf32>
}

// -----

// Merging heads after a batch matmul ([4, 16, 16] -> [16, 4, 16] -> [16, 64]): batch `b` of
// the result lands at column 16 * b, rows 64 apart.
// CHECK-LABEL: func.func private @merge_heads_kernel0(
// CHECK:           npuvec.fixpipe
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %{{.*}} = arith.muli %{{.*}}, %[[C16]] : index
// CHECK-NEXT:      %[[C1024:.*]] = arith.constant 1024 : index
// CHECK:           npuvec.store ins(%{{.*}} : memref<16x16xf32, #npuvec.space<ub>>) outs(%{{.*}} : memref<16x64xf32, #npuvec.space<gm>>) sizes [16, 16] strides [64, 1]
func.func @merge_heads(%p: tensor<4x16x16xf32>, %v: tensor<4x16x16xf32>) -> tensor<16x64xf32> {
  %r = fused.region cube (%a = %p, %b = %v) : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<16x64xf32> {
    %0 = hl.batch_matmul %a, %b : tensor<4x16x16xf32>
    %1 = hl.transpose %0 {perm = [1, 0, 2]} : tensor<4x16x16xf32> -> tensor<16x4x16xf32>
    %2 = hl.reshape %1 : tensor<16x4x16xf32> -> tensor<16x64xf32>
    fused.yield %2 : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}
