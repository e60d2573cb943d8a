// An `hl` module with a `?` row count compiles ONCE to a shape class (one kernel per row
// shape class, its tiling data computed at launch) and runs on any row count: kiln-translate
// writes the class file, --disassemble shows its parameters and extents, kiln-run runs the
// file and, from the module, compiles it once and checks it against the interpreter at 1, 7
// and 3001 rows (more tiles than tiny-npu's 2 cores, a tail). --dynamic-shape=false
// specializes instead, to the same results; --stats works on a class.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %kiln-translate --emit-bytecode --target tiny-npu %s -o %t/norm.kbc
// RUN: %kiln-translate --disassemble --target tiny-npu %t/norm.kbc | FileCheck %s --check-prefix=DIS
// RUN: %kiln-run --target tiny-npu %t/norm.kbc --input %S/Inputs/rows10x16.npy --input-shape 1=16 --input-shape 2=16 --print-limit 0 | FileCheck %s --check-prefix=FILE
// RUN: %kiln-run --target tiny-npu %s --input-shape x=1x16 --check --print-limit 0 | FileCheck %s --check-prefix=ONE
// RUN: %kiln-run --target tiny-npu %s --input-shape x=7x16 --check --print-limit 0 | FileCheck %s --check-prefix=SEVEN
// RUN: %kiln-run --target ascend910b %s --input-shape x=3001x16 --check --print-limit 0 | FileCheck %s --check-prefix=MANY
// RUN: %kiln-run --target tiny-npu %s --input-shape x=3001x16 --check --print-limit 0 | FileCheck %s --check-prefix=MANY
// RUN: %kiln-run --target tiny-npu %s --input-shape x=3001x16 --check --print-limit 0 --dynamic-shape=false | FileCheck %s --check-prefix=MANY
// RUN: %kiln-run --target tiny-npu %s --input-shape x=7x16 --stats --print-limit 0 | FileCheck %s --check-prefix=STATS

// DIS: "arith.minsi"
// DIS: "npuvec.load"({{.*}}) <{extent_dims = array<i64: 0>, sizes = array<i64: 101, 16>
// DIS: "npuvec.store"({{.*}}) <{extent_dims = array<i64: 0>, sizes = array<i64: 101, 16>
// DIS: npuvec.param_ranges = array<i64: 1, 1099511627776, 1, 10886253741>
// DIS: npuvec.params = ["n", "ceil_div(n, 101)"]
// DIS: npuvec.input_symbols = array<i64: 0, -1, -1, -1>, npuvec.output_sizes = ["n", ""], npuvec.symbols = ["n"]
// FILE: result #0: tensor<10x16xf32> (160 elements
// ONE: result #0: tensor<1x16xf32> (16 elements
// ONE: check: no unsynchronized pipe access
// ONE-NEXT: check: the VM and the interpreter agree on 1 results
// SEVEN: result #0: tensor<7x16xf32> (112 elements
// SEVEN: check: the VM and the interpreter agree on 1 results
// MANY: result #0: tensor<3001x16xf32> (48016 elements
// MANY: check: no unsynchronized pipe access
// MANY-NEXT: check: the VM and the interpreter agree on 1 results
// STATS: stats: total kernels=1 launches=1
// STATS: total: 1 launch,

func.func @norm(%x: tensor<?x16xf32> loc("x"), %g: tensor<16xf32> loc("gamma"), %b: tensor<16xf32> loc("beta")) -> tensor<?x16xf32> {
  %n = hl.layer_norm %x, %g, %b {epsilon = 9.9999997473787516E-6 : f32} : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<?x16xf32>
  %s = hl.softmax %n {axis = -1 : i64} : tensor<?x16xf32>
  %c = hl.constant dense<2.0> : tensor<f32>
  %r = hl.mul %s, %c : tensor<?x16xf32>, tensor<f32> -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
