// RUN: %kiln-opt %s --dce | FileCheck %s
// RUN: %kiln-opt %s --dce --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// dce reads the ops' declared memory effects: an unused op that only reads (memref.load) or
// only allocates its own result (memref.alloc) is erased; an op that writes (memref.store) or
// frees (memref.dealloc) is kept, and so is everything feeding it.

// STATS: (S) 4 num-erased

// CHECK-LABEL: func.func @effects(
// CHECK-SAME:      %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index, %[[V:.*]]: f32)
// CHECK-NEXT:    memref.store %[[V]], %[[M]][%[[I]]]
// CHECK-NEXT:    %[[B:.*]] = memref.alloc()
// CHECK-NEXT:    %[[L:.*]] = memref.load %[[M]][%[[I]]]
// CHECK-NEXT:    memref.store %[[L]], %[[B]][%[[I]]]
// CHECK-NEXT:    memref.dealloc %[[B]]
// CHECK-NEXT:    return
func.func @effects(%m: memref<4xf32>, %i: index, %v: f32) {
  %dead_load = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
  %dead_alloc = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> ()
  %b = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  %l = "memref.load"(%m, %i) : (memref<4xf32>, index) -> f32
  "memref.store"(%l, %b, %i) : (f32, memref<4xf32>, index) -> ()
  "memref.dealloc"(%b) : (memref<4xf32>) -> ()
  // A dead load of a dead alloc: both go.
  %c = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<f32>
  %d = "memref.load"(%c) : (memref<f32>) -> f32
  return
}
