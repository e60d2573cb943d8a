// Class-form IR (docs/backend.md, "Dynamic shapes") that does not make a shape class is a
// located error from --emit-bytecode, and nothing is written: here the temporary's size
// expression ends early, and (after the sed) a launch gives two parameters to a kernel that
// takes one, and a parameter's range is empty.
// RUN: rm -rf %t && mkdir %t
// RUN: not %kiln-translate --emit-bytecode %s -o %t/out.kbc 2>&1 | FileCheck %s --check-prefix=EXPR
// RUN: not cat %t/out.kbc
// RUN: sed -e 's/min(n, 8) \*"/min(n, 8) * 64"/' -e 's/npuvec.params = \["n"\]/npuvec.params = ["n", "1"]/' %s > %t/params.mlir
// RUN: not %kiln-translate --emit-bytecode %t/params.mlir -o %t/out.kbc 2>&1 | FileCheck %s --check-prefix=PARAMS
// RUN: sed -e 's/min(n, 8) \*"/min(n, 8) * 64"/' -e 's/array<i64: 1, 1073741824>/array<i64: 9, 1>/' %s > %t/range.mlir
// RUN: not %kiln-translate --emit-bytecode %t/range.mlir -o %t/out.kbc 2>&1 | FileCheck %s --check-prefix=RANGE

// EXPR: class-errors.mlir:[[# @LINE + 19]]:12: error: 'memref.alloc' op `npuvec.size` of temporary 0: `min(n, 8) *`: column 12: expected a number, a symbol, a function or '(', found the end of the text
// PARAMS: params.mlir:[[# @LINE + 19]]:5: error: 'npuvec.launch' op gives 2 launch parameters (`npuvec.params`), its kernel takes 1
// RANGE: range.mlir:[[# @LINE + 3]]:3: error: 'func.func' op `npuvec.param_ranges`: parameter 0 has the range 9..=1, whose min exceeds its max

"builtin.module"() ({
  "func.func"() <{function_type = (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>, index) -> (), sym_name = "head", sym_visibility = "private"}> ({
  ^bb0(%x: memref<?x16xf32, #npuvec.space<gm>>, %y: memref<?x16xf32, #npuvec.space<gm>>, %n: index):
    %buf = "npuvec.buffer"() <{offsets = array<i64: 0>}> : () -> memref<8x16xf32, #npuvec.space<ub>>
    %tile = "arith.constant"() <{value = 8 : index}> : () -> index
    %rows = "arith.minsi"(%n, %tile) : (index, index) -> index
    %zero = "arith.constant"() <{value = 0 : index}> : () -> index
    "npuvec.load"(%x, %zero, %buf, %rows) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>, strides = array<i64: 16, 1>}> : (memref<?x16xf32, #npuvec.space<gm>>, index, memref<8x16xf32, #npuvec.space<ub>>, index) -> ()
    "npuvec.set_flag"() <{dst = #npuvec.pipe<mte3>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
    "npuvec.wait_flag"() <{dst = #npuvec.pipe<mte3>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
    "npuvec.store"(%buf, %y, %zero, %rows) <{extent_dims = array<i64: 0>, sizes = array<i64: 8, 16>, strides = array<i64: 16, 1>}> : (memref<8x16xf32, #npuvec.space<ub>>, memref<?x16xf32, #npuvec.space<gm>>, index, index) -> ()
    "func.return"() : () -> ()
  }) {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.param_ranges = array<i64: 1, 1073741824>, npuvec.ub_bytes = 512 : i64} : () -> ()
  "func.func"() <{function_type = (memref<?x16xf32, #npuvec.space<gm>>) -> memref<?x16xf32, #npuvec.space<gm>>, sym_name = "main"}> ({
  ^bb0(%in: memref<?x16xf32, #npuvec.space<gm>>):
    %out = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> {npuvec.size = "min(n, 8) *"} : () -> memref<?x16xf32, #npuvec.space<gm>>
    "npuvec.launch"(%in, %out) <{callee = @head}> {npuvec.params = ["n"]} : (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>) -> ()
    "func.return"(%out) : (memref<?x16xf32, #npuvec.space<gm>>) -> ()
  }) {npuvec.input_symbols = array<i64: 0, -1>, npuvec.output_sizes = ["min(n, 8)", ""], npuvec.symbols = ["n"]} : () -> ()
}) {npuvec.target = "tiny-npu"} : () -> ()
