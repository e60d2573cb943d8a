// An elementwise chain over (n, 16) in the class form: 2 * max(x * y + x, 0.5), tiled by 4
// rows over the cores with a tail tile whose rows (`%9`, an SSA value that gets its register from
// the allocator) are the extent of every load and store. The launch
// parameters are n and ceil_div(n, 4). Emitted once, run on 3 and 10 rows (y = 1, x = the row
// index: row 0 gives 1, row r gives 4r), and refused when the inputs disagree on n.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %kiln-translate --emit-bytecode %s -o %t/chain.kbc
// RUN: %kiln-translate --disassemble %t/chain.kbc | FileCheck %s --check-prefix=DIS
// RUN: %kiln-run --target tiny-npu %t/chain.kbc --input %S/Inputs/rows3x16.npy --input %S/Inputs/ones3x16.npy | FileCheck %s --check-prefix=THREE
// RUN: %kiln-run --target tiny-npu %t/chain.kbc --input %S/Inputs/rows10x16.npy --input %S/Inputs/ones10x16.npy | FileCheck %s --check-prefix=TEN
// RUN: not %kiln-run --target tiny-npu %t/chain.kbc --input %S/Inputs/rows10x16.npy --input %S/Inputs/ones3x16.npy 2>&1 | FileCheck %s --check-prefix=DISAGREE

// DIS: %[[ROWS:.*]] = "arith.minsi"({{.*}}) {npuvec.reg = {{[0-9]+}} : i64}
// DIS: "npuvec.load"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]]) <{extent_dims = array<i64: 0>
// DIS: "npuvec.load"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]]) <{extent_dims = array<i64: 0>
// DIS: "npuvec.store"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]]) <{extent_dims = array<i64: 0>
// DIS: npuvec.param_ranges = array<i64: 1, 1099511627776, 1, 4294967296>
// DIS: {npuvec.params = ["n", "ceil_div(n, 4)"]}
// THREE: result #0: tensor<3x16xf32> (48 elements, min 1, max 8, mean 4.33
// THREE-NEXT: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, ...]
// TEN: result #0: tensor<10x16xf32> (160 elements, min 1, max 36, mean 18.1
// DISAGREE: kiln-run: error: the inputs do not fit the shape class: input #1 dim 0 is 3, but symbol `n` is 10 (from input #0 dim 0)

"builtin.module"() ({
  "func.func"() <{function_type = (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>, index, index) -> (), sym_name = "chain", sym_visibility = "private"}> ({
  ^bb0(%arg2: memref<?x16xf32, #npuvec.space<gm>>, %arg3: memref<?x16xf32, #npuvec.space<gm>>, %arg4: memref<?x16xf32, #npuvec.space<gm>>, %arg5: index, %arg6: index):
    %1 = "npuvec.buffer"() <{offsets = array<i64: 0>}> : () -> memref<4x16xf32, #npuvec.space<ub>>
    %2 = "npuvec.buffer"() <{offsets = array<i64: 256>}> : () -> memref<4x16xf32, #npuvec.space<ub>>
    %3 = "npuvec.block_idx"() : () -> index
    %4 = "npuvec.block_num"() : () -> index
    %5 = "arith.constant"() <{value = 4 : index}> : () -> index
    %6 = "arith.constant"() <{value = 16 : index}> : () -> index
    "scf.for"(%3, %arg6, %4) ({
    ^bb0(%arg7: index):
      %7 = "arith.muli"(%arg7, %5) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %8 = "arith.subi"(%arg5, %7) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      %9 = "arith.minsi"(%8, %5) : (index, index) -> index
      %10 = "arith.muli"(%7, %6) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
      "npuvec.load"(%arg2, %10, %1, %9) <{extent_dims = array<i64: 0>, sizes = array<i64: 4, 16>, strides = array<i64: 16, 1>}> : (memref<?x16xf32, #npuvec.space<gm>>, index, memref<4x16xf32, #npuvec.space<ub>>, index) -> ()
      "npuvec.load"(%arg3, %10, %2, %9) <{extent_dims = array<i64: 0>, sizes = array<i64: 4, 16>, strides = array<i64: 16, 1>}> : (memref<?x16xf32, #npuvec.space<gm>>, index, memref<4x16xf32, #npuvec.space<ub>>, index) -> ()
      "npuvec.set_flag"() <{dst = #npuvec.pipe<v>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
      "npuvec.wait_flag"() <{dst = #npuvec.pipe<v>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
      "npuvec.mul"(%1, %2, %2) : (memref<4x16xf32, #npuvec.space<ub>>, memref<4x16xf32, #npuvec.space<ub>>, memref<4x16xf32, #npuvec.space<ub>>) -> ()
      "npuvec.add"(%2, %1, %2) : (memref<4x16xf32, #npuvec.space<ub>>, memref<4x16xf32, #npuvec.space<ub>>, memref<4x16xf32, #npuvec.space<ub>>) -> ()
      %11 = "arith.constant"() <{value = 5.000000e-01 : f32}> : () -> f32
      "npuvec.max"(%2, %11, %2) : (memref<4x16xf32, #npuvec.space<ub>>, f32, memref<4x16xf32, #npuvec.space<ub>>) -> ()
      %12 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32
      "npuvec.mul"(%2, %12, %2) : (memref<4x16xf32, #npuvec.space<ub>>, f32, memref<4x16xf32, #npuvec.space<ub>>) -> ()
      "npuvec.set_flag"() <{dst = #npuvec.pipe<mte3>, event = 0 : i64, src = #npuvec.pipe<v>}> : () -> ()
      "npuvec.wait_flag"() <{dst = #npuvec.pipe<mte3>, event = 0 : i64, src = #npuvec.pipe<v>}> : () -> ()
      "npuvec.store"(%2, %arg4, %10, %9) <{extent_dims = array<i64: 0>, sizes = array<i64: 4, 16>, strides = array<i64: 16, 1>}> : (memref<4x16xf32, #npuvec.space<ub>>, memref<?x16xf32, #npuvec.space<gm>>, index, index) -> ()
      "npuvec.set_flag"() <{dst = #npuvec.pipe<mte2>, event = 0 : i64, src = #npuvec.pipe<mte3>}> : () -> ()
      "npuvec.wait_flag"() <{dst = #npuvec.pipe<mte2>, event = 0 : i64, src = #npuvec.pipe<mte3>}> : () -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "func.return"() : () -> ()
  }) {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.param_ranges = array<i64: 1, 1099511627776, 1, 4294967296>, npuvec.ub_bytes = 768 : i64} : () -> ()
  "func.func"() <{function_type = (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>) -> memref<?x16xf32, #npuvec.space<gm>>, sym_name = "main"}> ({
  ^bb0(%arg0: memref<?x16xf32, #npuvec.space<gm>>, %arg1: memref<?x16xf32, #npuvec.space<gm>>):
    %0 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> {npuvec.size = "n * 64"} : () -> memref<?x16xf32, #npuvec.space<gm>>
    "npuvec.launch"(%arg0, %arg1, %0) <{callee = @chain}> {npuvec.params = ["n", "ceil_div(n, 4)"]} : (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>) -> ()
    "func.return"(%0) : (memref<?x16xf32, #npuvec.space<gm>>) -> ()
  }) {npuvec.input_symbols = array<i64: 0, -1, 0, -1>, npuvec.output_sizes = ["n", ""], npuvec.symbols = ["n"]} : () -> ()
}) {npuvec.target = "tiny-npu"} : () -> ()
