// A planned kernel goes to bytecode and back: the disassembly pins registers and buffers,
// re-emits, and disassembles to the same text again.
// RUN: %kiln-translate --allow-unregistered-dialect --emit-bytecode %s -o %t.kbc
// RUN: %kiln-translate --disassemble %t.kbc -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %kiln-translate --allow-unregistered-dialect --emit-bytecode %t.mlir -o %t.again.kbc
// RUN: %kiln-translate --disassemble %t.again.kbc | diff %t.mlir -
// RUN: %kiln-translate --disassemble %t.kbc --target tiny-npu | diff %t.mlir -

// CHECK-LABEL: "func.func"() <{function_type = (memref<8x64xf32, #npuvec.space<gm>>, memref<8x64xf32, #npuvec.space<gm>>) -> (), sym_name = "k", sym_visibility = "private"}>
// CHECK: %[[BUF:.*]] = "npuvec.buffer"() <{offsets = array<i64: 0>}> : () -> memref<4x64xf32, #npuvec.space<ub>>
// CHECK: %[[IDX:.*]] = "npuvec.block_idx"() {npuvec.reg = 0 : i64} : () -> index
// CHECK: %[[HI:.*]] = "arith.constant"() <{value = 2 : index}> {npuvec.reg = 1 : i64} : () -> index
// CHECK: %[[STEP:.*]] = "arith.constant"() <{value = 1 : index}> {npuvec.reg = 2 : i64} : () -> index
// CHECK: "scf.for"(%[[IDX]], %[[HI]], %[[STEP]]) ({
// CHECK-NEXT: ^bb0(%[[IV:.*]]: index):
// CHECK-NEXT: %[[C:.*]] = "arith.constant"() <{value = 256 : index}> {npuvec.reg = 4 : i64}
// CHECK-NEXT: %[[OFF:.*]] = "arith.muli"(%[[IV]], %[[C]]) <{overflowFlags = #arith.overflow<none>}> {npuvec.reg = 5 : i64} : (index, index) -> index
// CHECK: "npuvec.load"(%{{.*}}, %[[OFF]], %[[BUF]]) <{sizes = array<i64: 4, 64>, strides = array<i64: 64, 1>}>
// CHECK: "npuvec.relu"(%[[BUF]], %[[BUF]])
// CHECK: "npuvec.store"(%[[BUF]], %{{.*}}, %[[OFF]])
// CHECK: }) {npuvec.reg = 3 : i64} : (index, index, index) -> ()
// CHECK: {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 1024 : i64}
// CHECK-LABEL: sym_name = "relu"
// CHECK: "npuvec.launch"(%{{.*}}, %[[OUT:.*]]) <{callee = @k}>
// CHECK: "func.return"(%[[OUT]])
// CHECK: {npuvec.target = "tiny-npu"}
module attributes {npuvec.target = "tiny-npu"} {
  func.func private @k(%x: memref<8x64xf32, #npuvec.space<gm>>, %y: memref<8x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 1024 : i64} {
    %buf = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<4x64xf32, #npuvec.space<ub>>
    %idx = "npuvec.block_idx"() : () -> index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    scf.for %t = %idx to %c2 step %c1 {
      %c256 = arith.constant 256 : index
      %off = arith.muli %t, %c256 : index
      "npuvec.load"(%x, %off, %buf) {sizes = array<i64: 4, 64>, strides = array<i64: 64, 1>} : (memref<8x64xf32, #npuvec.space<gm>>, index, memref<4x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
      "npuvec.relu"(%buf, %buf) : (memref<4x64xf32, #npuvec.space<ub>>, memref<4x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
      "npuvec.store"(%buf, %y, %off) {sizes = array<i64: 4, 64>, strides = array<i64: 64, 1>} : (memref<4x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<gm>>, index) -> ()
    }
    return
  }
  func.func @relu(%x: memref<8x64xf32, #npuvec.space<gm>>) -> memref<8x64xf32, #npuvec.space<gm>> {
    %y = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<8x64xf32, #npuvec.space<gm>>
    "npuvec.launch"(%x, %y) {callee = @k} : (memref<8x64xf32, #npuvec.space<gm>>, memref<8x64xf32, #npuvec.space<gm>>) -> ()
    return %y : memref<8x64xf32, #npuvec.space<gm>>
  }
}
