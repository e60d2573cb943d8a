// RUN: %kiln-opt %s --cse | FileCheck %s
// cse merges only ops without memory effects: two identical stores, allocs or loads stay
// apart (a load is not merged even with no write between: the pass keeps that simple).

// CHECK-LABEL: func.func @effects(
// CHECK-SAME:      %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index, %[[V:.*]]: f32)
// CHECK-NEXT:    %[[L0:.*]] = memref.load %[[M]][%[[I]]]
// CHECK-NEXT:    memref.store %[[V]], %[[M]][%[[I]]]
// CHECK-NEXT:    memref.store %[[V]], %[[M]][%[[I]]]
// CHECK-NEXT:    %[[L1:.*]] = memref.load %[[M]][%[[I]]]
// CHECK-NEXT:    %[[L2:.*]] = memref.load %[[M]][%[[I]]]
// CHECK-NEXT:    %[[A0:.*]] = memref.alloc()
// CHECK-NEXT:    %[[A1:.*]] = memref.alloc()
// CHECK-NEXT:    return %[[L0]], %[[L1]], %[[L2]], %[[A0]], %[[A1]]
func.func @effects(%m: memref<4xf32>, %i: index, %v: f32) -> (f32, f32, f32, memref<f32>, memref<f32>) {
  %l0 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> ()
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> ()
  %l1 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
  %l2 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
  %a0 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<f32>
  %a1 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<f32>
  return %l0, %l1, %l2, %a0, %a1 : f32, f32, f32, memref<f32>, memref<f32>
}
