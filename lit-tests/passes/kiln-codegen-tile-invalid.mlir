// RUN: %kiln-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(kiln-codegen-tile{target=tiny-npu})'
// RUN: not %kiln-opt %s --split-input-file -p 'builtin.module(kiln-codegen-tile{target=%S/Inputs/small-ub.toml})' 2>&1 | FileCheck %s --check-prefix=SMALL
// kiln-codegen-tile refuses, on the kernel, what it cannot tile.

// A target whose UB cannot hold one vector repeat is refused when it loads, naming the fields.
// SMALL: error: invalid pass pipeline: kiln-codegen-tile: target file '{{.*}}small-ub.toml': field `memory.ub_usable_bytes` (128) cannot hold one vector repeat (`vector.repeat_bytes` = 256)

// A layout kernel with `?` dims has no shape class.
// expected-error@+1 {{kernel @dyn_kernel0 is not a row shape class: it is a layout kernel with `?` dims (only vector kernels have a class)}}
func.func private @dyn_kernel0(%a: tensor<?x64xf32>) -> tensor<64x?xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "layout"} {
  %e = hl.transpose %a {perm = [1, 0]} : tensor<?x64xf32> -> tensor<64x?xf32>
  return %e : tensor<64x?xf32>
}

// -----

// A zero-size tensor has no tile (and no element to compute).
// expected-error@+1 {{kiln-codegen cannot tile a kernel over the zero-size tensor<0x64xf32>}}
func.func private @empty_kernel0(%a: tensor<0x64xf32>) -> tensor<0x64xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %e = hl.exp %a : tensor<0x64xf32>
  return %e : tensor<0x64xf32>
}
