// RUN: %kiln-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: %kiln-opt --allow-unregistered-dialect %s | %kiln-opt --allow-unregistered-dialect | FileCheck %s
// RUN: %kiln-opt --allow-unregistered-dialect %s --mlir-print-op-generic | %kiln-opt --allow-unregistered-dialect | FileCheck %s
// A small complete program in docs/backend.md's conventions: a row softmax over 16x64 f32 as two
// kernels of 2 blocks each (8 rows per block: the GM view starts at `block_idx * 512`), with
// planned UB buffers, the kernel attributes and flags between the DMA and vector pipes, and
// the host function that allocates the GM buffers and launches the kernels in order. The
// address arithmetic (`arith`) and the GM allocations (`memref`) are upstream ops, checked
// loosely: their printed form is not what this file pins.

// CHECK: module attributes {npuvec.target = "tiny-npu"} {
module attributes {npuvec.target = "tiny-npu"} {
// CHECK-LABEL: func.func @softmax_exp(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>, %[[V1:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 2048 : i64} {
// CHECK-NEXT:  %[[V2:[0-9a-z_]+]] = {{.*}}arith.constant{{.*}}512 : index
// CHECK-NEXT:  %[[V3:[0-9a-z_]+]] = npuvec.block_idx : index
// CHECK-NEXT:  %[[V4:[0-9a-z_]+]] = {{.*}}arith.muli{{.*}}%[[V3]], %[[V2]]
// CHECK-NEXT:  %[[V5:[0-9a-z_]+]] = npuvec.buffer [0] : memref<8x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:  npuvec.load ins(%[[V0]][%[[V4]]] : memref<16x64xf32, #npuvec.space<gm>>) outs(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
// CHECK-NEXT:  npuvec.set_flag mte2 -> v event 0
// CHECK-NEXT:  npuvec.wait_flag mte2 -> v event 0
// CHECK-NEXT:  npuvec.exp ins(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.set_flag v -> mte3 event 0
// CHECK-NEXT:  npuvec.wait_flag v -> mte3 event 0
// CHECK-NEXT:  npuvec.store ins(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]][%[[V4]]] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
// CHECK-NEXT:  return
  func.func @softmax_exp(%x: memref<16x64xf32, #npuvec.space<gm>>, %t: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 2048 : i64} {
    %c512 = "arith.constant"() <{value = 512 : index}> : () -> index
    %i = npuvec.block_idx : index
    %off = "arith.muli"(%i, %c512) : (index, index) -> index
    %b = npuvec.buffer [0] : memref<8x64xf32, #npuvec.space<ub>>
    npuvec.load ins(%x[%off] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
    npuvec.set_flag mte2 -> v event 0
    npuvec.wait_flag mte2 -> v event 0
    npuvec.exp ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>)
    npuvec.set_flag v -> mte3 event 0
    npuvec.wait_flag v -> mte3 event 0
    npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%t[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
    return
  }
// CHECK-LABEL: func.func @softmax_norm(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>, %[[V1:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 2304 : i64} {
// CHECK-NEXT:  %[[V2:[0-9a-z_]+]] = {{.*}}arith.constant{{.*}}512 : index
// CHECK-NEXT:  %[[V3:[0-9a-z_]+]] = npuvec.block_idx : index
// CHECK-NEXT:  %[[V4:[0-9a-z_]+]] = {{.*}}arith.muli{{.*}}%[[V3]], %[[V2]]
// CHECK-NEXT:  %[[V5:[0-9a-z_]+]] = npuvec.buffer [0] : memref<8x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:  %[[V6:[0-9a-z_]+]] = npuvec.buffer [2048] : memref<8x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:  npuvec.load ins(%[[V0]][%[[V4]]] : memref<16x64xf32, #npuvec.space<gm>>) outs(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
// CHECK-NEXT:  npuvec.set_flag mte2 -> v event 0
// CHECK-NEXT:  npuvec.wait_flag mte2 -> v event 0
// CHECK-NEXT:  npuvec.reduce sum ins(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V6]] : memref<8x1xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.barrier v
// CHECK-NEXT:  npuvec.div ins(%[[V5]], %[[V6]] : memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>) outs(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.set_flag v -> mte3 event 0
// CHECK-NEXT:  npuvec.wait_flag v -> mte3 event 0
// CHECK-NEXT:  npuvec.store ins(%[[V5]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]][%[[V4]]] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
// CHECK-NEXT:  return
  func.func @softmax_norm(%t: memref<16x64xf32, #npuvec.space<gm>>, %y: memref<16x64xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 2304 : i64} {
    %c512 = "arith.constant"() <{value = 512 : index}> : () -> index
    %i = npuvec.block_idx : index
    %off = "arith.muli"(%i, %c512) : (index, index) -> index
    %b = npuvec.buffer [0] : memref<8x64xf32, #npuvec.space<ub>>
    %s = npuvec.buffer [2048] : memref<8x1xf32, #npuvec.space<ub>>
    npuvec.load ins(%t[%off] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
    npuvec.set_flag mte2 -> v event 0
    npuvec.wait_flag mte2 -> v event 0
    npuvec.reduce sum ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%s : memref<8x1xf32, #npuvec.space<ub>>)
    npuvec.barrier v
    npuvec.div ins(%b, %s : memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>)
    npuvec.set_flag v -> mte3 event 0
    npuvec.wait_flag v -> mte3 event 0
    npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
    return
  }
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>) -> memref<16x64xf32, #npuvec.space<gm>> {
// CHECK-NEXT:  %[[V1:[0-9a-z_]+]] = {{.*}}memref.alloc{{.*}}memref<16x64xf32, #npuvec.space<gm>>
// CHECK-NEXT:  %[[V2:[0-9a-z_]+]] = {{.*}}memref.alloc{{.*}}memref<16x64xf32, #npuvec.space<gm>>
// CHECK-NEXT:  npuvec.launch @softmax_exp(%[[V0]], %[[V1]]) : (memref<16x64xf32, #npuvec.space<gm>>, memref<16x64xf32, #npuvec.space<gm>>) -> ()
// CHECK-NEXT:  npuvec.launch @softmax_norm(%[[V1]], %[[V2]]) : (memref<16x64xf32, #npuvec.space<gm>>, memref<16x64xf32, #npuvec.space<gm>>) -> ()
// CHECK-NEXT:  return %[[V2]] : memref<16x64xf32, #npuvec.space<gm>>
  func.func @softmax(%x: memref<16x64xf32, #npuvec.space<gm>>) -> memref<16x64xf32, #npuvec.space<gm>> {
    %t = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<16x64xf32, #npuvec.space<gm>>
    %y = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<16x64xf32, #npuvec.space<gm>>
    npuvec.launch @softmax_exp(%x, %t) : (memref<16x64xf32, #npuvec.space<gm>>, memref<16x64xf32, #npuvec.space<gm>>) -> ()
    npuvec.launch @softmax_norm(%t, %y) : (memref<16x64xf32, #npuvec.space<gm>>, memref<16x64xf32, #npuvec.space<gm>>) -> ()
    return %y : memref<16x64xf32, #npuvec.space<gm>>
  }
}
