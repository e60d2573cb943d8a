// RUN: %kiln-opt %s -p 'builtin.module(kiln-codegen{target=tiny-npu})' | FileCheck %s --implicit-check-not=hl.
// RUN: %kiln-opt %s -p 'builtin.module(kiln-codegen{target=tiny-npu})' | %kiln-opt | FileCheck %s
// An `hl.gather` is a gather kernel: tiles of indices, each an `npuvec.gather` (indexed DMA on
// MTE2) into UB and an `npuvec.store`, flags between them; the last block of indices is a tail
// with its own buffer.

// CHECK-LABEL: func.func private @rows_kernel0(
// CHECK-SAME:  %[[T:[0-9a-z_]+]]: memref<50x37xf32, #npuvec.space<gm>>, %[[I:[0-9a-z_]+]]: memref<15xi64, #npuvec.space<gm>>, %[[O:[0-9a-z_]+]]: memref<15x37xf32, #npuvec.space<gm>>)
// CHECK-SAME:  npuvec.kind = "gather", npuvec.tile = {block_dim = 2 : i64, rows = 8 : i64}
// CHECK-DAG:   %[[BODY:[0-9a-z_]+]] = npuvec.buffer [{{[0-9]+}}] : memref<8x37xf32, #npuvec.space<ub>>
// CHECK-DAG:   %[[TAIL:[0-9a-z_]+]] = npuvec.buffer [{{[0-9]+}}] : memref<7x37xf32, #npuvec.space<ub>>
// CHECK:       scf.for
// CHECK:       scf.if
// CHECK:       npuvec.gather ins(%[[T]][%{{.*}}], %[[I]][%{{.*}}] : memref<50x37xf32, #npuvec.space<gm>>, memref<15xi64, #npuvec.space<gm>>) outs(%[[TAIL]] : memref<7x37xf32, #npuvec.space<ub>>) sizes [50, 37] strides [37, 1] {index_sizes = array<i64: 7>, index_strides = array<i64: 1>}
// CHECK-NEXT:  npuvec.set_flag mte2 -> mte3
// CHECK-NEXT:  npuvec.wait_flag mte2 -> mte3
// CHECK-NEXT:  npuvec.store ins(%[[TAIL]] : memref<7x37xf32, #npuvec.space<ub>>) outs(%[[O]][%{{.*}}] : memref<15x37xf32, #npuvec.space<gm>>) sizes [259] strides [1]
// CHECK:       } else {
// CHECK:       npuvec.gather ins(%[[T]][%{{.*}}], %[[I]][%{{.*}}] : {{.*}}) outs(%[[BODY]] : memref<8x37xf32, #npuvec.space<ub>>) sizes [50, 37] strides [37, 1] {index_sizes = array<i64: 8>, index_strides = array<i64: 1>}
// CHECK:       npuvec.store ins(%[[BODY]] : memref<8x37xf32, #npuvec.space<ub>>) outs(%[[O]][%{{.*}}] : memref<15x37xf32, #npuvec.space<gm>>) sizes [296] strides [1]
// CHECK-LABEL: func.func @rows(
// CHECK:       npuvec.launch @rows_kernel0
func.func @rows(%t: tensor<50x37xf32>, %i: tensor<15xi64>) -> tensor<15x37xf32> {
  %0 = hl.gather %t, %i {axis = 0 : i64} : tensor<50x37xf32>, tensor<15xi64> -> tensor<15x37xf32>
  return %0 : tensor<15x37xf32>
}

// Along axis 1 of a rank-3 table: one table offset per outer index (`o * 6 * 3`), slices of 3
// elements 3 apart; the indices stay in GM even when they are a constant.
// CHECK-LABEL: func.func private @middle_kernel0(
// CHECK-SAME:  %[[T:[0-9a-z_]+]]: memref<4x6x3xf16, #npuvec.space<gm>>, %[[I:[0-9a-z_]+]]: memref<2xi32, #npuvec.space<gm>>, %[[O:[0-9a-z_]+]]: memref<4x2x3xf16, #npuvec.space<gm>>)
// CHECK:       scf.for %[[IV:[0-9a-z_]+]] =
// CHECK:       %[[C18:[0-9a-z_]+]] = arith.constant 18 : index
// CHECK:       %[[OFF:[0-9a-z_]+]] = arith.muli %[[IV]], %[[C18]] : index
// CHECK:       npuvec.gather ins(%[[T]][%[[OFF]]], %[[I]][%{{.*}}] : memref<4x6x3xf16, #npuvec.space<gm>>, memref<2xi32, #npuvec.space<gm>>) outs(%{{.*}} : memref<2x3xf16, #npuvec.space<ub>>) sizes [6, 3] strides [3, 1] {index_sizes = array<i64: 2>, index_strides = array<i64: 1>}
// CHECK-LABEL: func.func @middle(
// CHECK:       npuvec.constant dense<[5, -1]> : tensor<2xi32>
func.func @middle(%t: tensor<4x6x3xf16>) -> tensor<4x2x3xf16> {
  %i = hl.constant dense<[5, -1]> : tensor<2xi32>
  %0 = hl.gather %t, %i {axis = 1 : i64} : tensor<4x6x3xf16>, tensor<2xi32> -> tensor<4x2x3xf16>
  return %0 : tensor<4x2x3xf16>
}
