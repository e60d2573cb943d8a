// kiln-fuse options, one RUN line (or two) each, checked on the output or on the remarks.
//
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 max-ops=3 remarks' 2>&1 >/dev/null | FileCheck %s --check-prefix=MAXOPS
// MAXOPS: remark: not fused 'hl.abs' -> 'hl.tanh': region would have 4 ops, more than max-ops=3
// MAXOPS: remark: fused 'hl.exp' -> 'hl.neg' -> 'hl.abs' into region 0 (vector, 3 ops
//
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 max-depth=2 remarks' 2>&1 >/dev/null | FileCheck %s --check-prefix=DEPTH
// DEPTH: remark: not fused 'hl.neg' -> 'hl.abs': a chain of 3 ops exceeds max-depth=2
//
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 disable-ops=Neg remarks' 2>&1 >/dev/null | FileCheck %s --check-prefix=DISABLE
// DISABLE: remark: not fused 'hl.neg': disabled by disable-ops=Neg
//
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 enable-ops-only=Exp,Neg remarks' 2>&1 >/dev/null | FileCheck %s --check-prefix=ONLY
// ONLY: remark: not fused 'hl.abs': not in enable-ops-only
// ONLY: remark: fused 'hl.exp' -> 'hl.neg' into region
//
// Cube ops at opt-level 1: off by default, on with enable-ops, in either option spelling.
// RUN: %kiln-opt %s --kiln-fuse=opt-level=1 | FileCheck %s --check-prefix=CUBE-OFF
// RUN: %kiln-opt %s --kiln-fuse='opt-level=1 enable-ops=MatMul' | FileCheck %s --check-prefix=CUBE-ON
// RUN: %kiln-opt %s --kiln-fuse='fusion-flags="--opt_level=1 --enable_ops=MatMul,BatchMatMul"' | FileCheck %s --check-prefix=CUBE-ON
// RUN: %kiln-opt %s -p 'builtin.module(kiln-fuse{fusion-flags="--opt_level=1 --enable_ops=MatMul"})' | FileCheck %s --check-prefix=CUBE-ON
// CUBE-OFF-LABEL: func.func @mm
// CUBE-OFF-NEXT: hl.matmul
// CUBE-ON-LABEL: func.func @mm
// CUBE-ON-NEXT: fused.region mix
// CUBE-ON-NEXT: hl.matmul
// CUBE-ON-NEXT: hl.add
//
// Rules: force lifts the opt-level restriction on the matched edges, forbid keeps them apart.
// RUN: echo '[{"pattern": "MatMul -> Add", "action": "force", "when": "m >= 16 && dtype == f32", "reason": "epilogue"}]' > %t.force.json
// RUN: %kiln-opt %s --kiln-fuse="opt-level=1 rules=%t.force.json" | FileCheck %s --check-prefix=CUBE-ON
// RUN: echo '[{"pattern": "MatMul -> Add", "action": "force", "when": "m >= 128"}]' > %t.cold.json
// RUN: %kiln-opt %s --kiln-fuse="opt-level=1 rules=%t.cold.json" | FileCheck %s --check-prefix=CUBE-OFF
// RUN: echo 'rule = [{pattern = "MatMul -> Add", action = "forbid", reason = "keep the matmul alone"}]' > %t.forbid.toml
// RUN: %kiln-opt %s --kiln-fuse="opt-level=2 remarks rules=%t.forbid.toml" 2>&1 | FileCheck %s --check-prefix=FORBID
// FORBID: remark: not fused 'hl.matmul' -> 'hl.add': forbidden by rule 'MatMul -> Add' (keep the matmul alone) on 'hl.matmul' -> 'hl.add'
// FORBID-LABEL: func.func @mm
// FORBID-NEXT: hl.matmul
//
// Precision guard: listed ops are not fused in f16/bf16.
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 precision-guard=ReduceSum remarks' 2>&1 >/dev/null | FileCheck %s --check-prefix=GUARD
// GUARD: remark: not fused 'hl.reduce_sum': precision guard: ReduceSum is not fused in f16 (force it with a rule)
//
// Targets: a transpose fuses on the Ascend 910B (it transposes in UB), not on tiny-npu. The
// back end reads a region input through the transpose (it transposes no computed value), so
// the exp before it stays out.
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 target=tiny-npu remarks' 2>&1 >/dev/null | FileCheck %s --check-prefix=TINY
// TINY: remark: not fused 'hl.transpose': target 'tiny-npu' cannot transpose in UB
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 target=%S/../../targets/ascend910b.toml' | FileCheck %s --check-prefix=ASCEND
// ASCEND-LABEL: func.func @transpose
// ASCEND-NEXT: hl.exp
// ASCEND-NEXT: fused.region vector
// ASCEND-NEXT: hl.transpose
//
// UB budget: the smallest tile of the matmul's mix kernel, its 16x16 f32 result tile and the
// bias tile (1 KiB each, as the tile pass counts them), needs more than 1% of the UB. (The
// elementwise chain runs in place in one 256-byte row buffer: it fits.)
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 ub-budget=1 remarks' 2>&1 >/dev/null | FileCheck %s --check-prefix=UB
// UB: remark: fused 'hl.exp' -> 'hl.neg' -> 'hl.abs' -> 'hl.tanh' -> 'hl.relu' into region 0 (vector, 5 ops, est. UB 0%
// UB: remark: not fused 'hl.matmul' -> 'hl.add': UB estimate 2 KiB exceeds 1% of 192 KiB
//
// Strategies: conservative never emits extra outputs; aggressive stitches at opt-level 1.
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 strategy=conservative' | FileCheck %s --check-prefix=CONSERVATIVE
// CONSERVATIVE-LABEL: func.func @diamond
// CONSERVATIVE-NEXT: hl.exp
// CONSERVATIVE-NEXT: fused.region vector
// RUN: %kiln-opt %s --kiln-fuse='opt-level=1 strategy=aggressive' | FileCheck %s --check-prefix=AGGRESSIVE
// AGGRESSIVE-LABEL: func.func @softmax
// AGGRESSIVE-NEXT: fused.region vector
// AGGRESSIVE-NEXT: hl.reduce_max
// AGGRESSIVE-NEXT: hl.sub
//
// opt-level=0 fuses nothing, and its report counts the real kernels (each one unfused).
// RUN: %kiln-opt %s --kiln-fuse=opt-level=0 | FileCheck %s --check-prefix=OFF
// OFF-NOT: fused.region
// RUN: %kiln-opt %s --kiln-fuse='opt-level=0 report=%t.o0.json' -o /dev/null && cat %t.o0.json | FileCheck %s --check-prefix=O0REPORT
// O0REPORT: "kernels_before": 21,
// O0REPORT-NEXT: "kernels_after": 21,
//
// Statistics, the JSON report and the DOT graph.
// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 report=%t.json dot=%t.dot' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: (S) {{[0-9]+}} num-regions
// STATS: (S) 21 kernels-before
// STATS: (S) 7 kernels-after
// RUN: cat %t.json | FileCheck %s --check-prefix=JSON
// JSON: "target": "ascend910b",
// JSON: "opt_level": 2,
// JSON: "kernels_before": 21,
// JSON: "kernels_after": 7,
// JSON: "regions": [
// JSON: "function": "chain",
// JSON-NEXT: "kind": "vector",
// JSON-NEXT: "ops": [
// JSON-NEXT: "hl.exp",
// JSON: "inputs": [
// JSON-NEXT: "tensor<8x64xf32>"
// JSON: "bytes_saved":
// RUN: cat %t.dot | FileCheck %s --check-prefix=DOT
// DOT: digraph kiln_fuse {
// DOT: subgraph cluster_b{{[0-9]+}}_r0 {
// DOT-NEXT: label="region 0 (vector, 5 ops, saves {{[0-9]+}} B)";
// DOT: [[B:b[0-9]+]]_arg0 [shape=ellipse, label="%arg0\ntensor<8x64xf32>"];
// DOT-NEXT: [[B]]_arg0 -> [[B]]_0;
// DOT: -> b{{[0-9]+}}_{{[0-9]+}};
//
// Errors: unknown flags, bad rule files, bad targets.
// RUN: not %kiln-opt %s --kiln-fuse='fusion-flags="--opt_levle=2"' 2>&1 | FileCheck %s --check-prefix=BADFLAG
// BADFLAG: kiln-fuse: unknown fusion flag '--opt_levle'; valid flags: opt-level, enable-ops,
// RUN: not %kiln-opt %s --kiln-fuse='enable-ops=Sort' 2>&1 | FileCheck %s --check-prefix=BADOP
// BADOP: kiln-fuse: unknown op 'Sort'; ops are named as hl ops in CamelCase (MatMul, BatchMatMul, Add, ReduceSum, ...) in 'enable-ops'
// RUN: echo '[{"pattern": "MatMul -> Add", "action": "always"}]' > %t.bad.json
// RUN: not %kiln-opt %s --kiln-fuse="rules=%t.bad.json" 2>&1 | FileCheck %s --check-prefix=BADRULE
// BADRULE: kiln-fuse: rules file '{{.*}}bad.json': rule #1: action must be "force" or "forbid", not "always"
// RUN: not %kiln-opt %s --kiln-fuse='target=nosuchchip' 2>&1 | FileCheck %s --check-prefix=BADTARGET
// BADTARGET: kiln-fuse: unknown target 'nosuchchip'
// RUN: echo 'name = "half"' > %t.target.toml
// RUN: not %kiln-opt %s --kiln-fuse="target=%t.target.toml" 2>&1 | FileCheck %s --check-prefix=BADFIELD
// BADFIELD: kiln-fuse: target file '{{.*}}target.toml': line 1: missing field `cores`

func.func @chain(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.exp %a : tensor<8x64xf32>
  %1 = hl.neg %0 : tensor<8x64xf32>
  %2 = hl.abs %1 : tensor<8x64xf32>
  %3 = hl.tanh %2 : tensor<8x64xf32>
  %4 = hl.relu %3 : tensor<8x64xf32>
  return %4 : tensor<8x64xf32>
}

func.func @mm(%a: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %0 = hl.matmul %a, %w : tensor<16x32xf32>, tensor<32x64xf32> -> tensor<16x64xf32>
  %1 = hl.add %0, %b : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  return %1 : tensor<16x64xf32>
}

func.func @f16_reduce(%a: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %0 = hl.abs %a : tensor<8x64xf16>
  %1 = hl.reduce_sum %0 {axes = [1], keep_dims = true} : tensor<8x64xf16> -> tensor<8x1xf16>
  return %1 : tensor<8x1xf16>
}

func.func @transpose(%a: tensor<8x64xf32>) -> tensor<64x8xf32> {
  %0 = hl.exp %a : tensor<8x64xf32>
  %1 = hl.transpose %0 {perm = [1, 0]} : tensor<8x64xf32> -> tensor<64x8xf32>
  %2 = hl.neg %1 : tensor<64x8xf32>
  return %2 : tensor<64x8xf32>
}

func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = hl.reduce_max %x {axes = [1], keep_dims = true} : tensor<4x16xf32> -> tensor<4x1xf32>
  %1 = hl.sub %x, %0 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  %2 = hl.exp %1 : tensor<4x16xf32>
  %3 = hl.reduce_sum %2 {axes = [1], keep_dims = true} : tensor<4x16xf32> -> tensor<4x1xf32>
  %4 = hl.div %2, %3 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

func.func @diamond(%a: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = hl.exp %a : tensor<8x64xf32>
  %1 = hl.abs %0 : tensor<8x64xf32>
  %2 = hl.neg %0 : tensor<8x64xf32>
  %3 = hl.add %1, %2 : tensor<8x64xf32>
  return %3, %0 : tensor<8x64xf32>, tensor<8x64xf32>
}
