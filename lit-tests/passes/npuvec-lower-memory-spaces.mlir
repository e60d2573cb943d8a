// RUN: %kiln-opt %s --allow-unregistered-dialect --npuvec-lower-memory-spaces | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --npuvec-lower-memory-spaces --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// npuvec-lower-memory-spaces rewrites `#npuvec.space<..>` to integer memory spaces (gm 0,
// written as no space, ub 1, l1 2, l0a 3, l0b 4, l0c 5) in result and block argument types, in
// function types and in attributes holding types; other memory spaces and attributes stay.
// The npuvec verifiers accept the integer spaces, so the result verifies.

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      %{{.*}}: memref<16x64xf32>, %{{.*}}: memref<*xf32, 5>)
func.func @kernel(%x: memref<16x64xf32, #npuvec.space<gm>>, %u: memref<*xf32, #npuvec.space<l0c>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>} {
  // CHECK-NEXT: %[[B:.*]] = npuvec.alloc : memref<8x64xf32, 1>
  %b = npuvec.alloc : memref<8x64xf32, #npuvec.space<ub>>
  // CHECK-NEXT: npuvec.alloc : memref<16x16xf16, 2>
  %l1 = npuvec.alloc : memref<16x16xf16, #npuvec.space<l1>>
  // CHECK-NEXT: npuvec.alloc : memref<16x16xf16, 3>
  %a = npuvec.alloc : memref<16x16xf16, #npuvec.space<l0a>>
  // CHECK-NEXT: npuvec.alloc : memref<16x16xf16, 4>
  %bb = npuvec.alloc : memref<16x16xf16, #npuvec.space<l0b>>
  // CHECK-NEXT: npuvec.exp ins(%[[B]] : memref<8x64xf32, 1>) outs(%[[B]] : memref<8x64xf32, 1>)
  npuvec.exp ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>)
  // Types inside attributes, other memory spaces, and npuvec attributes that are not memory
  // spaces.
  // CHECK-NEXT: "x.op"() {f = (memref<4xf32, 1>) -> memref<4xf32>, keep = #npuvec.space<ub>, l = [memref<4xf32, 4>], other = memref<4xf32, 7>} : () -> ()
  "x.op"() {f = (memref<4xf32, #npuvec.space<ub>>) -> memref<4xf32, #npuvec.space<gm>>, l = [memref<4xf32, #npuvec.space<l0b>>], keep = #npuvec.space<ub>, other = memref<4xf32, 7>} : () -> ()
  // Block arguments of nested regions.
  // CHECK-NEXT: "x.region"() ({
  // CHECK-NEXT: ^bb0(%{{.*}}: memref<8x1xf32, 1>):
  "x.region"() ({
  ^bb0(%s: memref<8x1xf32, #npuvec.space<ub>>):
    "x.yield"() : () -> ()
  }) : () -> ()
  return
}

// STATS: 7 num-values - Number of values whose type was rewritten
