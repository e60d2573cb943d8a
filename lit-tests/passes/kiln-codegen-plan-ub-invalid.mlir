// RUN: %kiln-opt %s --verify-diagnostics -p 'builtin.module(kiln-codegen-plan-ub{target=tiny-npu})'
// kiln-codegen-plan-ub refuses, on the kernel, buffers that do not fit: a hand-written kernel
// whose three 8 KiB UB buffers are live at once at the second copy (a: copies 1-3, b: 1-2,
// c: 2-3), 24576 bytes > tiny-npu's 16384.
// expected-error@+1 {{the ub plan needs 24576 bytes, but the target 'tiny-npu' has 16384 (memory.ub_usable_bytes)}}
func.func private @overflow_kernel0() attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %a = npuvec.alloc : memref<32x64xf32, #npuvec.space<ub>>
  %b = npuvec.alloc : memref<32x64xf32, #npuvec.space<ub>>
  %c = npuvec.alloc : memref<32x64xf32, #npuvec.space<ub>>
  npuvec.copy ins(%a : memref<32x64xf32, #npuvec.space<ub>>) outs(%b : memref<32x64xf32, #npuvec.space<ub>>)
  npuvec.copy ins(%b : memref<32x64xf32, #npuvec.space<ub>>) outs(%c : memref<32x64xf32, #npuvec.space<ub>>)
  npuvec.copy ins(%c : memref<32x64xf32, #npuvec.space<ub>>) outs(%a : memref<32x64xf32, #npuvec.space<ub>>)
  return
}
