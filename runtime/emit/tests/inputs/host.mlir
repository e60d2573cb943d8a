// A host with two launches of two kernels, a splat and a dense constant, a temporary
// between the launches and a reshape of the result.
module {
  func.func private @scale(%x: memref<4x8xf32, #npuvec.space<gm>>, %s: memref<8xf32, #npuvec.space<gm>>, %y: memref<4x8xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 160 : i64} {
    %xs = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<4x8xf32, #npuvec.space<ub>>
    %ss = "npuvec.buffer"() {offsets = array<i64: 128>} : () -> memref<1x8xf32, #npuvec.space<ub>>
    %c0 = arith.constant 0 : index
    "npuvec.load"(%x, %c0, %xs) {sizes = array<i64: 4, 8>, strides = array<i64: 8, 1>} : (memref<4x8xf32, #npuvec.space<gm>>, index, memref<4x8xf32, #npuvec.space<ub>>) -> ()
    "npuvec.load"(%s, %c0, %ss) {sizes = array<i64: 8>, strides = array<i64: 1>} : (memref<8xf32, #npuvec.space<gm>>, index, memref<1x8xf32, #npuvec.space<ub>>) -> ()
    "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
    "npuvec.mul"(%xs, %ss, %xs) : (memref<4x8xf32, #npuvec.space<ub>>, memref<1x8xf32, #npuvec.space<ub>>, memref<4x8xf32, #npuvec.space<ub>>) -> ()
    "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
    "npuvec.store"(%xs, %y, %c0) {sizes = array<i64: 4, 8>, strides = array<i64: 8, 1>} : (memref<4x8xf32, #npuvec.space<ub>>, memref<4x8xf32, #npuvec.space<gm>>, index) -> ()
    return
  }
  func.func private @rowsum(%x: memref<4x8xf32, #npuvec.space<gm>>, %y: memref<4xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 256 : i64} {
    %xs = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<4x8xf32, #npuvec.space<ub>>
    %m = "npuvec.buffer"() {offsets = array<i64: 128>} : () -> memref<4x8xi1, #npuvec.space<ub>>
    %r = "npuvec.buffer"() {offsets = array<i64: 0>} : () -> memref<4x1xf32, #npuvec.space<ub>>
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.000000e+00 : f32
    "npuvec.load"(%x, %c0, %xs) {sizes = array<i64: 4, 8>, strides = array<i64: 8, 1>} : (memref<4x8xf32, #npuvec.space<gm>>, index, memref<4x8xf32, #npuvec.space<ub>>) -> ()
    "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
    "npuvec.cmp"(%xs, %zero, %m) {predicate = #npuvec.cmp<gt>} : (memref<4x8xf32, #npuvec.space<ub>>, f32, memref<4x8xi1, #npuvec.space<ub>>) -> ()
    "npuvec.select"(%m, %xs, %zero, %xs) : (memref<4x8xi1, #npuvec.space<ub>>, memref<4x8xf32, #npuvec.space<ub>>, f32, memref<4x8xf32, #npuvec.space<ub>>) -> ()
    "npuvec.reduce"(%xs, %r) {kind = #npuvec.reduce<sum>} : (memref<4x8xf32, #npuvec.space<ub>>, memref<4x1xf32, #npuvec.space<ub>>) -> ()
    "npuvec.barrier"() {pipe = #npuvec.pipe<all>} : () -> ()
    "npuvec.store"(%r, %y, %c0) {sizes = array<i64: 4>, strides = array<i64: 1>} : (memref<4x1xf32, #npuvec.space<ub>>, memref<4xf32, #npuvec.space<gm>>, index) -> ()
    return
  }
  func.func @prog(%x: memref<4x8xf32, #npuvec.space<gm>>) -> (memref<2x2xf32, #npuvec.space<gm>>, memref<4x8xf32, #npuvec.space<gm>>) {
    %s = "npuvec.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : () -> memref<8xf32, #npuvec.space<gm>>
    %one = "npuvec.constant"() {value = dense<1.5> : tensor<4x8xf32>} : () -> memref<4x8xf32, #npuvec.space<gm>>
    %t = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32, #npuvec.space<gm>>
    "npuvec.launch"(%x, %s, %t) {callee = @scale} : (memref<4x8xf32, #npuvec.space<gm>>, memref<8xf32, #npuvec.space<gm>>, memref<4x8xf32, #npuvec.space<gm>>) -> ()
    %y = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32, #npuvec.space<gm>>
    "npuvec.launch"(%t, %y) {callee = @rowsum} : (memref<4x8xf32, #npuvec.space<gm>>, memref<4xf32, #npuvec.space<gm>>) -> ()
    %r = "npuvec.reshape"(%y) : (memref<4xf32, #npuvec.space<gm>>) -> memref<2x2xf32, #npuvec.space<gm>>
    return %r, %one : memref<2x2xf32, #npuvec.space<gm>>, memref<4x8xf32, #npuvec.space<gm>>
  }
}
