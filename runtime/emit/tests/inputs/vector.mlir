// A vector kernel over 10 rows of 64 f32 in tiles of 4 rows: a loop over the full tiles
// and a tail `scf.if`, with a broadcast row, an immediate and a double-buffered input.
module attributes {npuvec.target = "tiny-npu"} {
  func.func private @vec_kernel(%x: memref<10x64xf32, #npuvec.space<gm>>, %b: memref<64xf32, #npuvec.space<gm>>, %y: memref<10x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 3328 : i64} {
    %row = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<1x64xf32, #npuvec.space<ub>>
    %in:2 = "npuvec.buffer"() {offsets = array<i64: 256, 1280>} : () -> (memref<4x64xf32, #npuvec.space<ub>>, memref<4x64xf32, #npuvec.space<ub>>)
    %out = "npuvec.buffer"() {offsets = array<i64: 2304>} : () -> memref<4x64xf32, #npuvec.space<ub>>
    %c0 = arith.constant 0 : index
    "npuvec.load"(%b, %c0, %row) {sizes = array<i64: 64>, strides = array<i64: 1>} : (memref<64xf32, #npuvec.space<gm>>, index, memref<1x64xf32, #npuvec.space<ub>>) -> ()
    %half = arith.constant 5.000000e-01 : f32
    %idx = "npuvec.block_idx"() : () -> index
    %num = "npuvec.block_num"() : () -> index
    %c2 = arith.constant 2 : index
    scf.for %t = %idx to %c2 step %num {
      %c256 = arith.constant 256 : index
      %off = arith.muli %t, %c256 : index
      "npuvec.load"(%x, %off, %in#0) {sizes = array<i64: 4, 64>, strides = array<i64: 64, 1>} : (memref<10x64xf32, #npuvec.space<gm>>, index, memref<4x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.set_flag"() {src = #npuvec.pipe<mte2>, dst = #npuvec.pipe<v>, event = 0 : i64} : () -> ()
      "npuvec.wait_flag"() {src = #npuvec.pipe<mte2>, dst = #npuvec.pipe<v>, event = 0 : i64} : () -> ()
      "npuvec.add"(%in#0, %row, %out) : (memref<4x64xf32, #npuvec.space<ub>>, memref<1x64xf32, #npuvec.space<ub>>, memref<4x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.mul"(%out, %half, %out) : (memref<4x64xf32, #npuvec.space<ub>>, f32, memref<4x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.exp"(%out, %out) : (memref<4x64xf32, #npuvec.space<ub>>, memref<4x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.set_flag"() {src = #npuvec.pipe<v>, dst = #npuvec.pipe<mte3>, event = 1 : i64} : () -> ()
      "npuvec.wait_flag"() {src = #npuvec.pipe<v>, dst = #npuvec.pipe<mte3>, event = 1 : i64} : () -> ()
      "npuvec.store"(%out, %y, %off) {sizes = array<i64: 4, 64>, strides = array<i64: 64, 1>} : (memref<4x64xf32, #npuvec.space<ub>>, memref<10x64xf32, #npuvec.space<gm>>, index) -> ()
      "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
    }
    %c0b = arith.constant 0 : index
    %last = arith.cmpi eq, %idx, %c0b : index
    scf.if %last {
      %tail = "npuvec.buffer"() {offsets = array<i64: 1280>} : () -> memref<2x64xf32, #npuvec.space<ub>>
      %c512 = arith.constant 512 : index
      "npuvec.load"(%x, %c512, %tail) {sizes = array<i64: 2, 64>, strides = array<i64: 64, 1>} : (memref<10x64xf32, #npuvec.space<gm>>, index, memref<2x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
      "npuvec.max"(%tail, %half, %tail) : (memref<2x64xf32, #npuvec.space<ub>>, f32, memref<2x64xf32, #npuvec.space<ub>>) -> ()
      "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
      "npuvec.store"(%tail, %y, %c512) {sizes = array<i64: 2, 64>, strides = array<i64: 64, 1>, atomic = #npuvec.atomic<add>} : (memref<2x64xf32, #npuvec.space<ub>>, memref<10x64xf32, #npuvec.space<gm>>, index) -> ()
    }
    return
  }
  func.func @vec(%x: memref<10x64xf32, #npuvec.space<gm>>, %b: memref<64xf32, #npuvec.space<gm>>) -> memref<10x64xf32, #npuvec.space<gm>> {
    %y = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<10x64xf32, #npuvec.space<gm>>
    "npuvec.launch"(%x, %b, %y) {callee = @vec_kernel} : (memref<10x64xf32, #npuvec.space<gm>>, memref<64xf32, #npuvec.space<gm>>, memref<10x64xf32, #npuvec.space<gm>>) -> ()
    return %y : memref<10x64xf32, #npuvec.space<gm>>
  }
}
