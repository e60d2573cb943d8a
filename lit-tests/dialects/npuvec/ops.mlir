// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt --mlir-print-op-generic > %t.generic
// RUN: %kiln-opt %t.generic --mlir-print-op-generic | diff %t.generic -
// Every `npuvec` op verifies and round trips: custom -> custom, custom -> generic -> custom,
// and generic -> generic.

// An alias of the UB space (the printer expands it).
#ub = #npuvec.space<ub>

// CHECK-LABEL: func.func @core_and_buffers(
// CHECK-SAME:  ) -> (index, index) {
// CHECK-NEXT:  %[[V0:[0-9a-z_]+]] = npuvec.block_idx : index
// CHECK-NEXT:  %[[V1:[0-9a-z_]+]] = npuvec.block_num : index
// CHECK-NEXT:  %[[V2:[0-9a-z_]+]] = npuvec.alloc : memref<8x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:  %[[V3:[0-9a-z_]+]] = npuvec.alloc : memref<32x16xf16, #npuvec.space<l1>>
// CHECK-NEXT:  %[[V4:[0-9a-z_]+]]:2 = npuvec.buffer [0, 2048] : memref<8x64xf32, #npuvec.space<ub>>
// CHECK-NEXT:  %[[V5:[0-9a-z_]+]] = npuvec.buffer [4096] : memref<8x1xf32, #npuvec.space<ub>>
// CHECK-NEXT:  return %[[V0]], %[[V1]] : index, index
func.func @core_and_buffers() -> (index, index) {
  %i = npuvec.block_idx : index
  %n = npuvec.block_num : index
  %a = npuvec.alloc : memref<8x64xf32, #npuvec.space<ub>>
  %l = npuvec.alloc : memref<32x16xf16, #npuvec.space<l1>>
  %b:2 = npuvec.buffer [0, 2048] : memref<8x64xf32, #npuvec.space<ub>>
  %c = npuvec.buffer [4096] : memref<8x1xf32, #npuvec.space<ub>>
  return %i, %n : index, index
}

// CHECK-LABEL: func.func @dma(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>, %[[V1:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>, %[[V2:[0-9a-z_]+]]: index, %[[V3:[0-9a-z_]+]]: memref<8x64xf32, #npuvec.space<ub>>, %[[V4:[0-9a-z_]+]]: memref<64x8xf32, #npuvec.space<l1>>, %[[V5:[0-9a-z_]+]]: memref<64x8xf32, #npuvec.space<l0a>>) {
// CHECK-NEXT:  npuvec.load ins(%[[V0]][%[[V2]]] : memref<16x64xf32, #npuvec.space<gm>>) outs(%[[V3]] : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
// CHECK-NEXT:  npuvec.load ins(%[[V0]][%[[V2]]] : memref<16x64xf32, #npuvec.space<gm>>) outs(%[[V4]] : memref<64x8xf32, #npuvec.space<l1>>) sizes [8, 8, 8] strides [8, 64, 1] {zero_pad}
// CHECK-NEXT:  npuvec.store ins(%[[V3]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]][%[[V2]]] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
// CHECK-NEXT:  npuvec.store add ins(%[[V3]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]][%[[V2]]] : memref<16x64xf32, #npuvec.space<gm>>) sizes [512] strides [1]
// CHECK-NEXT:  npuvec.move ins(%[[V4]] : memref<64x8xf32, #npuvec.space<l1>>) outs(%[[V5]] : memref<64x8xf32, #npuvec.space<l0a>>)
// CHECK-NEXT:  return
func.func @dma(%x: memref<16x64xf32, #npuvec.space<gm>>, %y: memref<16x64xf32, #npuvec.space<gm>>, %off: index, %b: memref<8x64xf32, #npuvec.space<ub>>, %l1: memref<64x8xf32, #npuvec.space<l1>>, %l0a: memref<64x8xf32, #npuvec.space<l0a>>) {
  npuvec.load ins(%x[%off] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
  npuvec.load ins(%x[%off] : memref<16x64xf32, #npuvec.space<gm>>) outs(%l1 : memref<64x8xf32, #npuvec.space<l1>>) sizes [8, 8, 8] strides [8, 64, 1] {zero_pad}
  npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
  npuvec.store add ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [512] strides [1]
  npuvec.move ins(%l1 : memref<64x8xf32, #npuvec.space<l1>>) outs(%l0a : memref<64x8xf32, #npuvec.space<l0a>>)
  return
}

// Extents: a view dim sized at run time (`%rows` rows of at most 4), over a GM buffer with a
// `?` dim; the generic form reads back as the custom one.
// CHECK-LABEL: func.func @extents(
// CHECK-SAME:  %[[X:[0-9a-z_]+]]: memref<?x16xf32, #npuvec.space<gm>>, %[[O:[0-9a-z_]+]]: index, %[[R:[0-9a-z_]+]]: index, %[[C:[0-9a-z_]+]]: index, %[[B:[0-9a-z_]+]]: memref<4x16xf32, #npuvec.space<ub>>) {
// CHECK-NEXT:  npuvec.load ins(%[[X]][%[[O]]] : memref<?x16xf32, #npuvec.space<gm>>) outs(%[[B]] : memref<4x16xf32, #npuvec.space<ub>>) sizes [4, 16] strides [16, 1] extents [%[[R]]] dims [0]
// CHECK-NEXT:  npuvec.load ins(%[[X]][%[[O]]] : memref<?x16xf32, #npuvec.space<gm>>) outs(%[[B]] : memref<4x16xf32, #npuvec.space<ub>>) sizes [4, 16] strides [16, 1] extents [%[[R]], %[[C]]] dims [0, 1] {zero_pad}
// CHECK-NEXT:  npuvec.store add ins(%[[B]] : memref<4x16xf32, #npuvec.space<ub>>) outs(%[[X]][%[[O]]] : memref<?x16xf32, #npuvec.space<gm>>) sizes [4, 16] strides [16, 1] extents [%[[C]]] dims [1]
// CHECK-NEXT:  npuvec.store ins(%[[B]] : memref<4x16xf32, #npuvec.space<ub>>) outs(%[[X]][%[[O]]] : memref<?x16xf32, #npuvec.space<gm>>) sizes [4, 16] strides [16, 1] extents [%[[R]]] dims [0]
// CHECK-NEXT:  return
func.func @extents(%x: memref<?x16xf32, #npuvec.space<gm>>, %off: index, %rows: index, %cols: index, %b: memref<4x16xf32, #npuvec.space<ub>>) {
  npuvec.load ins(%x[%off] : memref<?x16xf32, #npuvec.space<gm>>) outs(%b : memref<4x16xf32, #npuvec.space<ub>>) sizes [4, 16] strides [16, 1] extents [%rows] dims [0]
  "npuvec.load"(%x, %off, %b, %rows, %cols) <{extent_dims = array<i64: 0, 1>, sizes = array<i64: 4, 16>, strides = array<i64: 16, 1>, zero_pad}> : (memref<?x16xf32, #npuvec.space<gm>>, index, memref<4x16xf32, #npuvec.space<ub>>, index, index) -> ()
  npuvec.store add ins(%b : memref<4x16xf32, #npuvec.space<ub>>) outs(%x[%off] : memref<?x16xf32, #npuvec.space<gm>>) sizes [4, 16] strides [16, 1] extents [%cols] dims [1]
  "npuvec.store"(%b, %x, %off, %rows) <{extent_dims = array<i64: 0>, sizes = array<i64: 4, 16>, strides = array<i64: 16, 1>}> : (memref<4x16xf32, #npuvec.space<ub>>, memref<?x16xf32, #npuvec.space<gm>>, index, index) -> ()
  return
}

// CHECK-LABEL: func.func @gather(
// CHECK-SAME:  %[[T:[0-9a-z_]+]]: memref<50x16xf32, #npuvec.space<gm>>, %[[I:[0-9a-z_]+]]: memref<2x7xi64, #npuvec.space<gm>>, %[[J:[0-9a-z_]+]]: memref<i32, #npuvec.space<gm>>, %[[O:[0-9a-z_]+]]: index, %[[B:[0-9a-z_]+]]: memref<7x16xf32, #npuvec.space<ub>>, %[[C:[0-9a-z_]+]]: memref<1x4xf32, #npuvec.space<ub>>) {
// CHECK-NEXT:  npuvec.gather ins(%[[T]][%[[O]]], %[[I]][%[[O]]] : memref<50x16xf32, #npuvec.space<gm>>, memref<2x7xi64, #npuvec.space<gm>>) outs(%[[B]] : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 7>, index_strides = array<i64: 1>}
// CHECK-NEXT:  npuvec.gather ins(%[[T]][%[[O]]], %[[J]][%[[O]]] : memref<50x16xf32, #npuvec.space<gm>>, memref<i32, #npuvec.space<gm>>) outs(%[[C]] : memref<1x4xf32, #npuvec.space<ub>>) sizes [10, 4] strides [4, 16] {index_sizes = array<i64: 1>, index_strides = array<i64: 0>}
// CHECK-NEXT:  return
func.func @gather(%t: memref<50x16xf32, #npuvec.space<gm>>, %i: memref<2x7xi64, #npuvec.space<gm>>, %j: memref<i32, #npuvec.space<gm>>, %off: index, %b: memref<7x16xf32, #npuvec.space<ub>>, %c: memref<1x4xf32, #npuvec.space<ub>>) {
  npuvec.gather ins(%t[%off], %i[%off] : memref<50x16xf32, #npuvec.space<gm>>, memref<2x7xi64, #npuvec.space<gm>>) outs(%b : memref<7x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 7>, index_strides = array<i64: 1>}
  "npuvec.gather"(%t, %off, %j, %off, %c) <{index_sizes = array<i64: 1>, index_strides = array<i64: 0>, sizes = array<i64: 10, 4>, strides = array<i64: 4, 16>}> : (memref<50x16xf32, #npuvec.space<gm>>, index, memref<i32, #npuvec.space<gm>>, index, memref<1x4xf32, #npuvec.space<ub>>) -> ()
  return
}

// CHECK-LABEL: func.func @unary(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<8x64xf32, #npuvec.space<ub>>, %[[V1:[0-9a-z_]+]]: memref<8x64xf32, #npuvec.space<ub>>, %[[V2:[0-9a-z_]+]]: memref<8x64xi1, #npuvec.space<ub>>) {
// CHECK-NEXT:  npuvec.copy ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.neg ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.abs ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.exp ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.log ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.sqrt ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.rsqrt ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.recip ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.tanh ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.erf ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.sigmoid ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.relu ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.floor ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.ceil ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.round ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.sign ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.not ins(%[[V2]] : memref<8x64xi1, #npuvec.space<ub>>) outs(%[[V2]] : memref<8x64xi1, #npuvec.space<ub>>)
// CHECK-NEXT:  return
func.func @unary(%a: memref<8x64xf32, #ub>, %b: memref<8x64xf32, #ub>, %m: memref<8x64xi1, #ub>) {
  npuvec.copy ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.neg ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.abs ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.exp ins(%a : memref<8x64xf32, #ub>) outs(%a : memref<8x64xf32, #ub>)
  npuvec.log ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.sqrt ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.rsqrt ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.recip ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.tanh ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.erf ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.sigmoid ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.relu ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.floor ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.ceil ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.round ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.sign ins(%a : memref<8x64xf32, #ub>) outs(%b : memref<8x64xf32, #ub>)
  npuvec.not ins(%m : memref<8x64xi1, #ub>) outs(%m : memref<8x64xi1, #ub>)
  return
}

// CHECK-LABEL: func.func @binary(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<8x64xf32, #npuvec.space<ub>>, %[[V1:[0-9a-z_]+]]: memref<1x64xf32, #npuvec.space<ub>>, %[[V2:[0-9a-z_]+]]: memref<8x1xf32, #npuvec.space<ub>>, %[[V3:[0-9a-z_]+]]: f32, %[[V4:[0-9a-z_]+]]: memref<8x64xi1, #npuvec.space<ub>>, %[[V5:[0-9a-z_]+]]: memref<8x64xi1, #npuvec.space<ub>>) {
// CHECK-NEXT:  npuvec.add ins(%[[V0]], %[[V3]] : memref<8x64xf32, #npuvec.space<ub>>, f32) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.sub ins(%[[V0]], %[[V1]] : memref<8x64xf32, #npuvec.space<ub>>, memref<1x64xf32, #npuvec.space<ub>>) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.mul ins(%[[V2]], %[[V0]] : memref<8x1xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.div ins(%[[V3]], %[[V0]] : f32, memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.max ins(%[[V0]], %[[V0]] : memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.min ins(%[[V0]], %[[V2]] : memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.pow ins(%[[V0]], %[[V3]] : memref<8x64xf32, #npuvec.space<ub>>, f32) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.and ins(%[[V4]], %[[V5]] : memref<8x64xi1, #npuvec.space<ub>>, memref<8x64xi1, #npuvec.space<ub>>) outs(%[[V4]] : memref<8x64xi1, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.or ins(%[[V4]], %[[V5]] : memref<8x64xi1, #npuvec.space<ub>>, memref<8x64xi1, #npuvec.space<ub>>) outs(%[[V5]] : memref<8x64xi1, #npuvec.space<ub>>)
// CHECK-NEXT:  return
func.func @binary(%a: memref<8x64xf32, #ub>, %row: memref<1x64xf32, #ub>, %col: memref<8x1xf32, #ub>, %cst: f32, %m: memref<8x64xi1, #ub>, %k: memref<8x64xi1, #ub>) {
  npuvec.add ins(%a, %cst : memref<8x64xf32, #ub>, f32) outs(%a : memref<8x64xf32, #ub>)
  npuvec.sub ins(%a, %row : memref<8x64xf32, #ub>, memref<1x64xf32, #ub>) outs(%a : memref<8x64xf32, #ub>)
  npuvec.mul ins(%col, %a : memref<8x1xf32, #ub>, memref<8x64xf32, #ub>) outs(%a : memref<8x64xf32, #ub>)
  npuvec.div ins(%cst, %a : f32, memref<8x64xf32, #ub>) outs(%a : memref<8x64xf32, #ub>)
  npuvec.max ins(%a, %a : memref<8x64xf32, #ub>, memref<8x64xf32, #ub>) outs(%a : memref<8x64xf32, #ub>)
  npuvec.min ins(%a, %col : memref<8x64xf32, #ub>, memref<8x1xf32, #ub>) outs(%a : memref<8x64xf32, #ub>)
  npuvec.pow ins(%a, %cst : memref<8x64xf32, #ub>, f32) outs(%a : memref<8x64xf32, #ub>)
  npuvec.and ins(%m, %k : memref<8x64xi1, #ub>, memref<8x64xi1, #ub>) outs(%m : memref<8x64xi1, #ub>)
  npuvec.or ins(%m, %k : memref<8x64xi1, #ub>, memref<8x64xi1, #ub>) outs(%k : memref<8x64xi1, #ub>)
  return
}

// CHECK-LABEL: func.func @vector(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<8x64xf32, #npuvec.space<ub>>, %[[V1:[0-9a-z_]+]]: memref<8x1xf32, #npuvec.space<ub>>, %[[V2:[0-9a-z_]+]]: f32, %[[V3:[0-9a-z_]+]]: memref<8x64xi1, #npuvec.space<ub>>, %[[V4:[0-9a-z_]+]]: memref<8x64xf16, #npuvec.space<ub>>, %[[V5:[0-9a-z_]+]]: memref<16x32xf16, #npuvec.space<ub>>, %[[V6:[0-9a-z_]+]]: memref<32x16xf16, #npuvec.space<ub>>) {
// CHECK-NEXT:  npuvec.cmp lt ins(%[[V0]], %[[V1]] : memref<8x64xf32, #npuvec.space<ub>>, memref<8x1xf32, #npuvec.space<ub>>) outs(%[[V3]] : memref<8x64xi1, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.cmp ge ins(%[[V0]], %[[V2]] : memref<8x64xf32, #npuvec.space<ub>>, f32) outs(%[[V3]] : memref<8x64xi1, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.select ins(%[[V3]], %[[V0]], %[[V2]] : memref<8x64xi1, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>, f32) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.reduce sum ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x1xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.reduce max ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V1]] : memref<8x1xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.broadcast ins(%[[V1]] : memref<8x1xf32, #npuvec.space<ub>>) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.fill ins(%[[V2]] : f32) outs(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.cast rint ins(%[[V0]] : memref<8x64xf32, #npuvec.space<ub>>) outs(%[[V4]] : memref<8x64xf16, #npuvec.space<ub>>)
// CHECK-NEXT:  npuvec.transpose ins(%[[V5]] : memref<16x32xf16, #npuvec.space<ub>>) outs(%[[V6]] : memref<32x16xf16, #npuvec.space<ub>>)
// CHECK-NEXT:  return
func.func @vector(%a: memref<8x64xf32, #ub>, %col: memref<8x1xf32, #ub>, %cst: f32, %m: memref<8x64xi1, #ub>, %h: memref<8x64xf16, #ub>, %t: memref<16x32xf16, #ub>, %tt: memref<32x16xf16, #ub>) {
  npuvec.cmp lt ins(%a, %col : memref<8x64xf32, #ub>, memref<8x1xf32, #ub>) outs(%m : memref<8x64xi1, #ub>)
  npuvec.cmp ge ins(%a, %cst : memref<8x64xf32, #ub>, f32) outs(%m : memref<8x64xi1, #ub>)
  npuvec.select ins(%m, %a, %cst : memref<8x64xi1, #ub>, memref<8x64xf32, #ub>, f32) outs(%a : memref<8x64xf32, #ub>)
  npuvec.reduce sum ins(%a : memref<8x64xf32, #ub>) outs(%col : memref<8x1xf32, #ub>)
  npuvec.reduce max ins(%a : memref<8x64xf32, #ub>) outs(%col : memref<8x1xf32, #ub>)
  npuvec.broadcast ins(%col : memref<8x1xf32, #ub>) outs(%a : memref<8x64xf32, #ub>)
  npuvec.fill ins(%cst : f32) outs(%a : memref<8x64xf32, #ub>)
  npuvec.cast rint ins(%a : memref<8x64xf32, #ub>) outs(%h : memref<8x64xf16, #ub>)
  npuvec.transpose ins(%t : memref<16x32xf16, #ub>) outs(%tt : memref<32x16xf16, #ub>)
  return
}

// CHECK-LABEL: func.func @cube(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<16x32xf16, #npuvec.space<l0a>>, %[[V1:[0-9a-z_]+]]: memref<32x16xf16, #npuvec.space<l0b>>, %[[V2:[0-9a-z_]+]]: memref<16x16xf32, #npuvec.space<l0c>>, %[[V3:[0-9a-z_]+]]: memref<16x16xf16, #npuvec.space<ub>>) {
// CHECK-NEXT:  npuvec.mmad ins(%[[V0]], %[[V1]] : memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%[[V2]] : memref<16x16xf32, #npuvec.space<l0c>>)
// CHECK-NEXT:  npuvec.mmad ins(%[[V0]], %[[V1]] : memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%[[V2]] : memref<16x16xf32, #npuvec.space<l0c>>) {accumulate}
// CHECK-NEXT:  npuvec.fixpipe ins(%[[V2]] : memref<16x16xf32, #npuvec.space<l0c>>) outs(%[[V3]] : memref<16x16xf16, #npuvec.space<ub>>) {relu}
// CHECK-NEXT:  return
func.func @cube(%a: memref<16x32xf16, #npuvec.space<l0a>>, %b: memref<32x16xf16, #npuvec.space<l0b>>, %c: memref<16x16xf32, #npuvec.space<l0c>>, %u: memref<16x16xf16, #ub>) {
  npuvec.mmad ins(%a, %b : memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%c : memref<16x16xf32, #npuvec.space<l0c>>)
  npuvec.mmad ins(%a, %b : memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%c : memref<16x16xf32, #npuvec.space<l0c>>) {accumulate}
  npuvec.fixpipe ins(%c : memref<16x16xf32, #npuvec.space<l0c>>) outs(%u : memref<16x16xf16, #ub>) {relu}
  return
}

// CHECK-LABEL: func.func @sync(
// CHECK-SAME:  ) {
// CHECK-NEXT:  npuvec.set_flag mte2 -> v event 0
// CHECK-NEXT:  npuvec.wait_flag mte2 -> v event 0
// CHECK-NEXT:  npuvec.set_flag v -> mte3 event 7
// CHECK-NEXT:  npuvec.wait_flag v -> mte3 event 7
// CHECK-NEXT:  npuvec.barrier v
// CHECK-NEXT:  npuvec.barrier all
// CHECK-NEXT:  return
func.func @sync() {
  npuvec.set_flag mte2 -> v event 0
  npuvec.wait_flag mte2 -> v event 0
  npuvec.set_flag v -> mte3 event 7
  npuvec.wait_flag v -> mte3 event 7
  npuvec.barrier v
  npuvec.barrier all
  return
}

// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>, %[[V1:[0-9a-z_]+]]: memref<1024xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 4096 : i64} {
// CHECK-NEXT:  return
func.func @kernel(%x: memref<16x64xf32, #npuvec.space<gm>>, %y: memref<1024xf32, #npuvec.space<gm>>) attributes {npuvec.block_dim = 2 : i64, npuvec.core = #npuvec.core<aiv>, npuvec.ub_bytes = 4096 : i64} {
  return
}

// CHECK-LABEL: func.func @host(
// CHECK-SAME:  %[[V0:[0-9a-z_]+]]: memref<16x64xf32, #npuvec.space<gm>>) -> memref<4xf32, #npuvec.space<gm>> {
// CHECK-NEXT:  %[[V1:[0-9a-z_]+]] = npuvec.reshape %[[V0]] : memref<16x64xf32, #npuvec.space<gm>> -> memref<1024xf32, #npuvec.space<gm>>
// CHECK-NEXT:  npuvec.launch @kernel(%[[V0]], %[[V1]]) : (memref<16x64xf32, #npuvec.space<gm>>, memref<1024xf32, #npuvec.space<gm>>) -> ()
// CHECK-NEXT:  %[[V2:[0-9a-z_]+]] = npuvec.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> -> memref<4xf32, #npuvec.space<gm>>
// CHECK-NEXT:  return %[[V2]] : memref<4xf32, #npuvec.space<gm>>
func.func @host(%x: memref<16x64xf32, #npuvec.space<gm>>) -> memref<4xf32, #npuvec.space<gm>> {
  %r = npuvec.reshape %x : memref<16x64xf32, #npuvec.space<gm>> -> memref<1024xf32, #npuvec.space<gm>>
  npuvec.launch @kernel(%x, %r) : (memref<16x64xf32, #npuvec.space<gm>>, memref<1024xf32, #npuvec.space<gm>>) -> ()
  %c = npuvec.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> -> memref<4xf32, #npuvec.space<gm>>
  return %c : memref<4xf32, #npuvec.space<gm>>
}
