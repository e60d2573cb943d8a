// RUN: %kiln-opt %s --no-verify-each -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower,kiln-codegen-plan-ub{target=tiny-npu})' | FileCheck %s
// kiln-codegen-plan-ub: every npuvec.alloc becomes an npuvec.buffer at a planned offset, and
// the kernel gets npuvec.ub_bytes, the peak of the plan (tiny-npu: 16384 bytes, 32-byte
// alignment; a [R, 1] f32 buffer takes R * 32 bytes).

// The 13x64 softmax in tiles of 7 rows (1792 bytes) with a tail of 6 (1536 bytes): the body and
// tail tiles have disjoint lifetimes (the two branches) and share offset 0; each branch's two
// [R, 1] buffers (max, then sum) share an offset too. Peak: 1792 + 7 * 32 = 2016.
// CHECK-LABEL: func.func private @softmax_kernel0(
// CHECK-SAME:      npuvec.ub_bytes = 2016 : i64
// CHECK-NEXT:    %[[BODY:.*]] = npuvec.buffer [0] : memref<7x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[TAIL:.*]] = npuvec.buffer [0] : memref<6x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[BMAX:.*]] = npuvec.buffer [1792] : memref<7x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[TMAX:.*]] = npuvec.buffer [1536] : memref<6x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[BSUM:.*]] = npuvec.buffer [1792] : memref<7x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:    %[[TSUM:.*]] = npuvec.buffer [1536] : memref<6x1xf32, #npuvec.space<ub>>
// CHECK-NOT:     npuvec.alloc
// CHECK:         npuvec.reduce max ins(%[[TAIL]] : {{.*}}) outs(%[[TMAX]] :
// CHECK:         npuvec.reduce sum ins(%[[TAIL]] : {{.*}}) outs(%[[TSUM]] :
// CHECK:         npuvec.reduce max ins(%[[BODY]] : {{.*}}) outs(%[[BMAX]] :
// CHECK:         npuvec.reduce sum ins(%[[BODY]] : {{.*}}) outs(%[[BSUM]] :
// CHECK-NOT:     npuvec.alloc
// CHECK-LABEL: func.func @softmax(
func.func @softmax(%x: tensor<13x64xf32>) -> tensor<13x64xf32> {
  %r = fused.region vector (%a = %x) : (tensor<13x64xf32>) -> tensor<13x64xf32> {
    %m = hl.reduce_max %a {axes = [1], keep_dims = true} : tensor<13x64xf32> -> tensor<13x1xf32>
    %s = hl.sub %a, %m : tensor<13x64xf32>, tensor<13x1xf32> -> tensor<13x64xf32>
    %e = hl.exp %s : tensor<13x64xf32>
    %t = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<13x64xf32> -> tensor<13x1xf32>
    %d = hl.div %e, %t : tensor<13x64xf32>, tensor<13x1xf32> -> tensor<13x64xf32>
    fused.yield %d : tensor<13x64xf32>
  }
  return %r : tensor<13x64xf32>
}
