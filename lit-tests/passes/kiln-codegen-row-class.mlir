// RUN: %kiln-opt %s --no-verify-each -p 'builtin.module(hl-decompose, hl-canonicalize, cse, dce, kiln-fuse{target=ascend910b opt-level=2}, kiln-codegen{target=ascend910b})' | FileCheck %s
// A module with `?` row dims compiles to one kernel per row shape class: the tile (20 rows of
// 768 columns fit the UB twice over with a softmax's and a layer norm's buffers) is fixed at
// compile time, the kernel takes N and ceil_div(N, 20) as launch parameters, its tile loop
// runs to the second, and every row load and store is bounded by the tile's extent
// min(N - t * 20, 20). gamma and beta have no rows: loaded once. The host binds symbol n to
// input #0 dim 0 and sizes the outputs and their buffers by it.

// CHECK-LABEL: func.func private @main_kernel0(
// CHECK-SAME: %[[N:arg5]]: index, %[[TILES:arg6]]: index)
// CHECK-SAME: npuvec.param_ranges = array<i64: 1, 1099511627776, 1, 54975581389>
// CHECK-SAME: npuvec.row_class = {axes = array<i64: 0, -1, -1, -1, 0, -1, 0, -1>, ranks = array<i64: 2, 1, 1, 2, 2>, rows = 20 : i64, static_rows = 1 : i64}
// CHECK: npuvec.load ins(%arg2[{{.*}}] : memref<768xf32, #npuvec.space<gm>>)
// CHECK: npuvec.load ins(%arg1[{{.*}}] : memref<768xf32, #npuvec.space<gm>>)
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[TILES]] step
// CHECK: %[[START:.*]] = arith.muli %[[T]], %[[C20:.*]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %[[START]] : index
// CHECK: %[[E:.*]] = arith.minsi %[[LEFT]], %[[C20]] : index
// CHECK: npuvec.load ins(%arg0[%[[OFF:.*]]] : memref<?x768xf32, #npuvec.space<gm>>) outs(%{{.*}} : memref<20x768xf32, #npuvec.space<ub>>) sizes [20, 768] strides [768, 1] extents [%[[E]]] dims [0]
// CHECK: npuvec.store {{.*}} outs(%arg3[%[[OFF]]] : memref<?x768xf32, #npuvec.space<gm>>) sizes [20, 768] strides [768, 1] extents [%[[E]]] dims [0]
// CHECK: npuvec.store {{.*}} outs(%arg4[%[[OFF]]] : memref<?x768xf32, #npuvec.space<gm>>) sizes [20, 768] strides [768, 1] extents [%[[E]]] dims [0]
// CHECK-LABEL: func.func @main(
// CHECK-SAME: npuvec.input_symbols = array<i64: 0, -1, -1, -1>, npuvec.output_sizes = ["n", "", "n", ""], npuvec.symbols = ["n"]
// CHECK: memref.alloc() {npuvec.size = "n * 3072"}
// CHECK: memref.alloc() {npuvec.size = "n * 3072"}
// CHECK: npuvec.launch @main_kernel0(%arg0, %arg1, %arg2, %{{.*}}, %{{.*}}) {npuvec.params = ["n", "ceil_div(n, 20)"]}
func.func @main(%x: tensor<?x768xf32>, %g: tensor<768xf32>, %b: tensor<768xf32>) -> (tensor<?x768xf32>, tensor<?x768xf32>) {
  %s = hl.softmax %x {axis = -1 : i64} : tensor<?x768xf32>
  %n = hl.layer_norm %x, %g, %b {epsilon = 9.9999997473787516E-6 : f32} : tensor<?x768xf32>, tensor<768xf32>, tensor<768xf32> -> tensor<?x768xf32>
  return %s, %n : tensor<?x768xf32>, tensor<?x768xf32>
}
