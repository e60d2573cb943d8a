// A kernel whose plan claims more UB than the tiny target has.
module attributes {npuvec.target = "tiny-npu"} {
  func.func private @k(%x: memref<8xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 1 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 1048576 : i64} {
    return
  }
  func.func @f(%x: memref<8xf32, #npuvec.space<gm>>) {
    "npuvec.launch"(%x) {callee = @k} : (memref<8xf32, #npuvec.space<gm>>) -> ()
    return
  }
}
