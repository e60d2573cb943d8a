// RUN: %kiln-opt %s --no-verify-each -p 'builtin.module(kiln-codegen-bufferize,kiln-codegen-lower,kiln-codegen-plan-ub{target=tiny-npu})' | FileCheck %s
// kiln-codegen-plan-ub retries without double buffering: this kernel's tile asks for two
// copies (`buffers = 2`) of a plan that peaks at 14592 bytes, twice which tiny-npu's 16384-byte
// UB cannot hold; it gets one copy, and its tile attribute says so.

// CHECK-LABEL: func.func private @ew_kernel0(
// CHECK-SAME:      npuvec.tile = {block = 6 : i64, block_dim = 2 : i64, col_block = 300 : i64, key = 0 : i64, peak_bytes = 14592 : i64}
// CHECK-SAME:      npuvec.ub_bytes = 14592 : i64
// CHECK-NOT:     npuvec.buffer {{.*}}, {{.*}}]
// CHECK:         npuvec.buffer [0] : memref<6x300xf32, #npuvec.space<ub>>
// CHECK-NOT:     npuvec.buffer {{.*}}, {{.*}}]
// CHECK:         return
func.func private @ew_kernel0(%a: tensor<64x300xf32>, %b: tensor<64x300xf32>) -> tensor<64x300xf32> attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector", npuvec.tile = {block = 6 : i64, block_dim = 2 : i64, buffers = 2 : i64, col_block = 300 : i64, key = 0 : i64, peak_bytes = 14592 : i64}} {
  %0 = hl.add %a, %b : tensor<64x300xf32>
  %1 = hl.exp %0 : tensor<64x300xf32>
  %2 = hl.mul %1, %a : tensor<64x300xf32>
  return %2 : tensor<64x300xf32>
}
