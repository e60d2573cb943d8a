// RUN: %kiln-opt %s -p 'builtin.module(hl-decompose, hl-canonicalize, cse, dce, kiln-fuse{target=tiny-npu opt-level=2}, kiln-codegen{target=tiny-npu})' | FileCheck %s
// A row class without rows-less inputs is double-buffered when its pipes' estimate says so
// for many tiles per core (tiny-npu's softmax over 768 columns: 2-row tiles, ping and pong):
// the pong tile, under `scf.if`, computes its own extent from its own tile index.

// CHECK: npuvec.tile = {block = 2 : i64, block_dim = 2 : i64, buffers = 2 : i64
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %arg3 step %[[STEP:.*]] {
// CHECK: arith.minsi %{{.*}}, %c2 : index
// CHECK: npuvec.load ins(%arg0[%{{.*}}] : memref<?x768xf32, #npuvec.space<gm>>) outs(%0#0 : memref<2x768xf32, #npuvec.space<ub>>) sizes [2, 768] strides [768, 1] extents [%{{.*}}] dims [0]
// CHECK: npuvec.store ins(%0#0 : {{.*}} extents [%{{.*}}] dims [0]
// CHECK: scf.if
// CHECK: %[[E2:.*]] = arith.minsi %{{.*}}, %c2 : index
// CHECK: npuvec.load ins(%arg0[%{{.*}}] : memref<?x768xf32, #npuvec.space<gm>>) outs(%0#1 : {{.*}} extents [%[[E2]]] dims [0]
// CHECK: npuvec.store ins(%0#1 : {{.*}} extents [%[[E2]]] dims [0]
func.func @softmax(%x: tensor<?x768xf32>) -> tensor<?x768xf32> {
  %s = hl.softmax %x {axis = -1 : i64} : tensor<?x768xf32>
  return %s : tensor<?x768xf32>
}
