// RUN: %kiln-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(kiln-codegen-tile{target=tiny-npu})'
// RUN: not %kiln-opt %S/../tools/kiln-run/limits.mlir -p 'builtin.module(func.func(hl-decompose,kiln-fuse),kiln-codegen{target=tiny-npu})' 2>&1 | FileCheck %s
// A kernel over a tensor larger than the target's HBM is refused before any tile arithmetic
// (whose i64 products overflowed on such shapes: found by scripts/resource-limits).
// CHECK: limits.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'func.func' op kiln-codegen cannot tile a kernel over tensor<4294967296x4294967296xf32>: it is larger than the target's HBM (68719476736 bytes, hbm.capacity_bytes)

// expected-error@+1 {{kiln-codegen cannot tile a kernel over tensor<4294967296x4294967296xf32>: it is larger than the target's HBM (68719476736 bytes, hbm.capacity_bytes)}}
func.func private @huge_kernel0(%a: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x1xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %r = hl.reduce_sum %a {axes = [1], keep_dims = true} : tensor<4294967296x4294967296xf32> -> tensor<4294967296x1xf32>
  return %r : tensor<4294967296x1xf32>
}

// -----

// expected-error@+1 {{kiln-codegen cannot tile a kernel over tensor<100000x100000x100000xf32>}}
func.func private @wraps_kernel0(%a: tensor<100000x100000x100000xf32>) -> tensor<100000x100000x100000xf32> attributes {npuvec.core = #npuvec.core<aiv>, npuvec.kind = "vector"} {
  %e = hl.exp %a : tensor<100000x100000x100000xf32>
  return %e : tensor<100000x100000x100000xf32>
}
