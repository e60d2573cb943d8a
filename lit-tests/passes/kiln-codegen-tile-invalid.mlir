// RUN: %kiln-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(kiln-codegen-tile{target=tiny-npu})'
// kiln-codegen-tile refuses, on the kernel, what it cannot tile.

// expected-error@+1 {{kiln-codegen needs static shapes}}
func.func private @dyn_kernel0(%a: tensor<?x64xf32>) -> tensor<?x64xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %e = hl.exp %a : tensor<?x64xf32>
  return %e : tensor<?x64xf32>
}
