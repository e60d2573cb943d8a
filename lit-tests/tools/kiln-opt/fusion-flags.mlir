// kiln-opt's fusion flags set kiln-fuse's options: remarks, report, DOT, and the flag string.
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse)' --kiln-fusion-remarks --verify-diagnostics -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse)' --kiln-fusion-report=%t/report.json --kiln-fusion-dot=%t/graph.dot -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t/report.json
// RUN: FileCheck %s --check-prefix=DOT --input-file %t/graph.dot
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse)' --kiln-fusion-flags="--opt_level=0" | FileCheck %s --check-prefix=OFF
// RUN: not %kiln-opt %s -p 'builtin.module(kiln-fuse)' --kiln-fusion-flags="--opt_levle=1" 2>&1 | FileCheck %s --check-prefix=BAD
// An option the pipeline gives by name wins over the flag string (and fusion-flags in it).
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse{opt-level=1})' --kiln-fusion-flags="--opt_level=0" | FileCheck %s --check-prefix=PIPELINE
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse{opt-level=0 fusion-flags="--opt_level=1"})' | FileCheck %s --check-prefix=OFF
// PIPELINE: fused.region vector

// REPORT: "kernels_before": 3
// REPORT: "kernels_after": 1
// REPORT: "kind": "vector"
// DOT: digraph
// DOT: subgraph cluster
// OFF-NOT: fused.region
// BAD: unknown fusion flag '--opt_levle'

func.func @chain(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-remark @+1 {{fused 'hl.add' -> 'hl.exp' -> 'hl.mul' into region 0 (vector, 3 ops}}
  %0 = hl.add %x, %y : tensor<64x128xf32>
  %1 = hl.exp %0 : tensor<64x128xf32>
  %2 = hl.mul %1, %x : tensor<64x128xf32>
  return %2 : tensor<64x128xf32>
}
