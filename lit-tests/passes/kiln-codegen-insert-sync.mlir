// RUN: %kiln-opt %s --no-verify-each -p 'builtin.module(kiln-codegen-outline,kiln-codegen-tile{target=tiny-npu},kiln-codegen-bufferize,kiln-codegen-lower,kiln-codegen-plan-ub{target=tiny-npu},kiln-codegen-insert-sync)' | FileCheck %s
// kiln-codegen-insert-sync on the 13x64 softmax (tiles of 7 rows, tail 6): a flag pair before
// each access that conflicts with one on another pipe (split across iterations when the
// conflict is loop-carried), `barrier v` between dependent vector ops, `barrier all` at the
// end of the kernel.

// CHECK-LABEL: func.func private @softmax_kernel0(
// The next iteration's load (MTE2) overwrites the buffer this iteration's store (MTE3) reads:
// a loop-carried pair, set before the loop, waited at the head of the body, set at its tail
// (after the tile, whichever branch ran) and drained after the loop; event 1 (0 is for the
// pairs set and waited in one place).
// CHECK:         npuvec.set_flag mte3 -> mte2 event 1
// CHECK-NEXT:    scf.for
// CHECK:           npuvec.wait_flag mte3 -> mte2 event 1
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        npuvec.load
// The vector ops read what the load wrote.
// CHECK-NEXT:        npuvec.set_flag mte2 -> v event 0
// CHECK-NEXT:        npuvec.wait_flag mte2 -> v event 0
// The reduction overwrites UB bytes that the previous iteration's vector ops read: a barrier.
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.reduce max
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.sub
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.exp
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.reduce sum
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.div
// The store reads what the vector pipe wrote.
// CHECK-NEXT:        npuvec.set_flag v -> mte3 event 0
// CHECK-NEXT:        npuvec.wait_flag v -> mte3 event 0
// CHECK-NEXT:        npuvec.store
// The body tile, from the same state as the tail: the same flags.
// CHECK-NEXT:      } else {
// CHECK-NEXT:        npuvec.load
// CHECK-NEXT:        npuvec.set_flag mte2 -> v event 0
// CHECK-NEXT:        npuvec.wait_flag mte2 -> v event 0
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.reduce max
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.sub
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.exp
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.reduce sum
// CHECK-NEXT:        npuvec.barrier v
// CHECK-NEXT:        npuvec.div
// CHECK-NEXT:        npuvec.set_flag v -> mte3 event 0
// CHECK-NEXT:        npuvec.wait_flag v -> mte3 event 0
// CHECK-NEXT:        npuvec.store
// CHECK-NEXT:      }
// CHECK-NEXT:      npuvec.set_flag mte3 -> mte2 event 1
// CHECK-NEXT:    }
// CHECK-NEXT:    npuvec.wait_flag mte3 -> mte2 event 1
// CHECK-NEXT:    npuvec.barrier all
// CHECK-NEXT:    return
// The host is not a kernel: no flags.
// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     npuvec.set_flag
// CHECK-NOT:     npuvec.barrier
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
