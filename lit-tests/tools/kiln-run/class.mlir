// A program of a shape class written by hand in the class form (docs/backend.md, "Dynamic
// shapes"): it copies the first min(n, 8) rows of an (n, 16) input. --emit-bytecode writes a
// class file, --disassemble writes it back in the same form (which emits the same bytes), and
// kiln-run runs it on inputs of two shapes; an input whose static dim is wrong is refused by
// the binder before anything runs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %kiln-translate --emit-bytecode %s -o %t/head.kbc
// RUN: %kiln-translate --disassemble %t/head.kbc -o %t/head.mlir
// RUN: FileCheck %s --check-prefix=DIS < %t/head.mlir
// RUN: %kiln-translate --emit-bytecode %t/head.mlir -o %t/again.kbc
// RUN: %kiln-translate --disassemble %t/again.kbc | diff %t/head.mlir -
// RUN: %kiln-run --target tiny-npu %t/head.kbc --input-shape 0=3x16 | FileCheck %s --check-prefix=THREE
// RUN: %kiln-run --target tiny-npu %t/head.kbc --input %S/Inputs/rows10x16.npy | FileCheck %s --check-prefix=TEN
// RUN: not %kiln-run --target tiny-npu %t/head.kbc --input-shape 0=3x15 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not %kiln-run --target tiny-npu %t/head.kbc 2>&1 | FileCheck %s --check-prefix=NOSHAPE

// DIS: "func.func"() <{function_type = (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>, index) -> (), sym_name = "head", sym_visibility = "private"}>
// DIS-NEXT: ^bb0(%{{.*}}: memref<?x16xf32, #npuvec.space<gm>>, %{{.*}}: memref<?x16xf32, #npuvec.space<gm>>, %[[N:.*]]: index):
// DIS: %[[ROWS:.*]] = "arith.minsi"(%[[N]], %{{.*}}) {npuvec.reg = 2 : i64}
// DIS: "npuvec.load"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]]) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>, strides = array<i64: 16, 1>}>
// DIS: "npuvec.store"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]]) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>, strides = array<i64: 16, 1>}>
// DIS: npuvec.param_ranges = array<i64: 1, 1073741824>
// DIS: "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> {npuvec.size = "min(n, 8) * 64"}
// DIS: "npuvec.launch"({{.*}}) <{callee = @head}> {npuvec.params = ["n"]}
// DIS: {npuvec.input_symbols = array<i64: 0, -1>, npuvec.output_sizes = ["min(n, 8)", ""], npuvec.symbols = ["n"]}

// THREE: result #0: tensor<3x16xf32> (48 elements
// TEN: result #0: tensor<8x16xf32> (128 elements, min 0, max 7, mean 3.5
// BAD: kiln-run: error: the inputs do not fit the shape class: input #0 dim 1: expected 16, got 15 (the input is tensor<3x15xf32>, the program takes tensor<?x16xf32>)
// NOSHAPE: kiln-run: error: input #0 has symbolic dims (n): give its shape with --input-shape 0=DIMS or its values with --input

"builtin.module"() ({
  // The kernel: GM input and output, then its one launch parameter `n` (register r0).
  "func.func"() <{function_type = (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>, index) -> (), sym_name = "head", sym_visibility = "private"}> ({
  ^bb0(%x: memref<?x16xf32, #npuvec.space<gm>>, %y: memref<?x16xf32, #npuvec.space<gm>>, %n: index):
    %buf = "npuvec.buffer"() <{offsets = array<i64: 0>}> : () -> memref<8x16xf32, #npuvec.space<ub>>
    %tile = "arith.constant"() <{value = 8 : index}> : () -> index
    // The rows moved: the extent of dim 0 of the load's and the store's views.
    %rows = "arith.minsi"(%n, %tile) : (index, index) -> index
    %zero = "arith.constant"() <{value = 0 : index}> : () -> index
    "npuvec.load"(%x, %zero, %buf, %rows) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>, strides = array<i64: 16, 1>}> : (memref<?x16xf32, #npuvec.space<gm>>, index, memref<8x16xf32, #npuvec.space<ub>>, index) -> ()
    "npuvec.set_flag"() <{dst = #npuvec.pipe<mte3>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
    "npuvec.wait_flag"() <{dst = #npuvec.pipe<mte3>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
    "npuvec.store"(%buf, %y, %zero, %rows) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>, strides = array<i64: 16, 1>}> : (memref<8x16xf32, #npuvec.space<ub>>, memref<?x16xf32, #npuvec.space<gm>>, index, index) -> ()
    "func.return"() : () -> ()
  }) {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.param_ranges = array<i64: 1, 1073741824>, npuvec.ub_bytes = 512 : i64} : () -> ()
  // The host: `n` is dim 0 of the input; the output has min(n, 8) rows.
  "func.func"() <{function_type = (memref<?x16xf32, #npuvec.space<gm>>) -> memref<?x16xf32, #npuvec.space<gm>>, sym_name = "main"}> ({
  ^bb0(%in: memref<?x16xf32, #npuvec.space<gm>>):
    %out = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> {npuvec.size = "min(n, 8) * 64"} : () -> memref<?x16xf32, #npuvec.space<gm>>
    "npuvec.launch"(%in, %out) <{callee = @head}> {npuvec.params = ["n"]} : (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>) -> ()
    "func.return"(%out) : (memref<?x16xf32, #npuvec.space<gm>>) -> ()
  }) {npuvec.input_symbols = array<i64: 0, -1>, npuvec.output_sizes = ["min(n, 8)", ""], npuvec.symbols = ["n"]} : () -> ()
}) {npuvec.target = "tiny-npu"} : () -> ()
