// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// The memref ops verify and round trip in the generic form; `memref.alloc` carries its
// operand segments (`dynamicSizes`, `symbolOperands`) as mlir-opt 22 prints them.

// CHECK: #map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME:      %[[N:.*]]: index, %[[S:.*]]: index)
// CHECK-NEXT:    %[[A:.*]] = "memref.alloc"(%[[N]]) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?x8xf32>
// CHECK-NEXT:    %[[B:.*]] = "memref.alloc"(%[[N]], %[[S]]) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index) -> memref<?x4xf32, #map>
// CHECK-NEXT:    %[[V:.*]] = "memref.load"(%[[A]], %[[N]], %[[N]]) : (memref<?x8xf32>, index, index) -> f32
// CHECK-NEXT:    "memref.store"(%[[V]], %[[A]], %[[S]], %[[S]]) : (f32, memref<?x8xf32>, index, index) -> ()
// CHECK-NEXT:    "memref.dealloc"(%[[B]]) : (memref<?x4xf32, #map>) -> ()
// CHECK-NEXT:    "memref.dealloc"(%[[A]]) : (memref<?x8xf32>) -> ()
// CHECK-NEXT:    return
func.func @buffers(%n: index, %s: index) {
  %a = "memref.alloc"(%n) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?x8xf32>
  %b = "memref.alloc"(%n, %s) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index) -> memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  %v = "memref.load"(%a, %n, %n) : (memref<?x8xf32>, index, index) -> f32
  "memref.store"(%v, %a, %s, %s) : (f32, memref<?x8xf32>, index, index) -> ()
  "memref.dealloc"(%b) : (memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>) -> ()
  "memref.dealloc"(%a) : (memref<?x8xf32>) -> ()
  return
}

// A rank-0 buffer: no indices, no dynamic sizes (all segments empty).
// CHECK-LABEL: func.func @scalar(
// CHECK-NEXT:    %[[A:.*]] = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<f32, 1>
// CHECK-NEXT:    %{{.*}} = "memref.load"(%[[A]]) : (memref<f32, 1>) -> f32
func.func @scalar() -> f32 {
  %a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<f32, 1>
  %v = "memref.load"(%a) : (memref<f32, 1>) -> f32
  return %v : f32
}
