// A cube kernel: a 16x32 by 32x16 f16 matmul in one k-step, zero-padded loads into L1,
// moves to L0A / L0B, mmad into L0C, fixpipe with relu to UB and a store.
module {
  func.func private @mm_kernel(%a: memref<16x32xf16, #npuvec.space<gm>>, %b: memref<32x16xf16, #npuvec.space<gm>>, %c: memref<16x16xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aic>, npuvec.ub_bytes = 1024 : i64} {
    %l1a = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<16x32xf16, #npuvec.space<l1>>
    %l1b = "npuvec.buffer"() {offsets = array<i64: 1024>} : () -> memref<32x16xf16, #npuvec.space<l1>>
    %l0a = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<16x32xf16, #npuvec.space<l0a>>
    %l0b = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<32x16xf16, #npuvec.space<l0b>>
    %l0c = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<16x16xf32, #npuvec.space<l0c>>
    %ub = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<16x16xf32, #npuvec.space<ub>>
    %c0 = arith.constant 0 : index
    "npuvec.load"(%a, %c0, %l1a) {sizes = array<i64: 16, 32>, strides = array<i64: 32, 1>, zero_pad} : (memref<16x32xf16, #npuvec.space<gm>>, index, memref<16x32xf16, #npuvec.space<l1>>) -> ()
    "npuvec.load"(%b, %c0, %l1b) {sizes = array<i64: 32, 16>, strides = array<i64: 16, 1>, zero_pad} : (memref<32x16xf16, #npuvec.space<gm>>, index, memref<32x16xf16, #npuvec.space<l1>>) -> ()
    "npuvec.set_flag"() {src = #npuvec.pipe<mte2>, dst = #npuvec.pipe<mte1>, event = 0 : i64} : () -> ()
    "npuvec.wait_flag"() {src = #npuvec.pipe<mte2>, dst = #npuvec.pipe<mte1>, event = 0 : i64} : () -> ()
    "npuvec.move"(%l1a, %l0a) : (memref<16x32xf16, #npuvec.space<l1>>, memref<16x32xf16, #npuvec.space<l0a>>) -> ()
    "npuvec.move"(%l1b, %l0b) : (memref<32x16xf16, #npuvec.space<l1>>, memref<32x16xf16, #npuvec.space<l0b>>) -> ()
    "npuvec.set_flag"() {src = #npuvec.pipe<mte1>, dst = #npuvec.pipe<m>, event = 0 : i64} : () -> ()
    "npuvec.wait_flag"() {src = #npuvec.pipe<mte1>, dst = #npuvec.pipe<m>, event = 0 : i64} : () -> ()
    "npuvec.mmad"(%l0a, %l0b, %l0c) : (memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>, memref<16x16xf32, #npuvec.space<l0c>>) -> ()
    "npuvec.set_flag"() {src = #npuvec.pipe<m>, dst = #npuvec.pipe<fix>, event = 0 : i64} : () -> ()
    "npuvec.wait_flag"() {src = #npuvec.pipe<m>, dst = #npuvec.pipe<fix>, event = 0 : i64} : () -> ()
    "npuvec.fixpipe"(%l0c, %ub) {relu} : (memref<16x16xf32, #npuvec.space<l0c>>, memref<16x16xf32, #npuvec.space<ub>>) -> ()
    "npuvec.set_flag"() {src = #npuvec.pipe<fix>, dst = #npuvec.pipe<mte3>, event = 0 : i64} : () -> ()
    "npuvec.wait_flag"() {src = #npuvec.pipe<fix>, dst = #npuvec.pipe<mte3>, event = 0 : i64} : () -> ()
    "npuvec.store"(%ub, %c, %c0) {sizes = array<i64: 16, 16>, strides = array<i64: 16, 1>} : (memref<16x16xf32, #npuvec.space<ub>>, memref<16x16xf32, #npuvec.space<gm>>, index) -> ()
    return
  }
  func.func @mm(%a: memref<16x32xf16, #npuvec.space<gm>>, %b: memref<32x16xf16, #npuvec.space<gm>>) -> memref<16x16xf32, #npuvec.space<gm>> {
    %c = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<16x16xf32, #npuvec.space<gm>>
    "npuvec.launch"(%a, %b, %c) {callee = @mm_kernel} : (memref<16x32xf16, #npuvec.space<gm>>, memref<32x16xf16, #npuvec.space<gm>>, memref<16x16xf32, #npuvec.space<gm>>) -> ()
    return %c : memref<16x16xf32, #npuvec.space<gm>>
  }
}
