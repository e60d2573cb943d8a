// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// The memref ops round trip in mlir-opt 22's custom form, and through the generic form, where
// `memref.alloc` carries its operand segments (`dynamicSizes`, `symbolOperands`).

// CHECK: #map = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME:      %[[N:.*]]: index, %[[S:.*]]: index)
// CHECK-NEXT:    %[[A:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc(%[[N]])[%[[S]]] : memref<?x4xf32, #map>
// CHECK-NEXT:    %[[V:.*]] = memref.load %[[A]][%[[N]], %[[N]]] : memref<?x8xf32>
// CHECK-NEXT:    memref.store %[[V]], %[[A]][%[[S]], %[[S]]] : memref<?x8xf32>
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<?x4xf32, #map>
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<?x8xf32>
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "buffers"
// GENERIC-NEXT:  ^bb0(%[[N:.*]]: index, %[[S:.*]]: index):
// GENERIC-NEXT:  "memref.alloc"(%[[N]]) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?x8xf32>
// GENERIC-NEXT:  "memref.alloc"(%[[N]], %[[S]]) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index) -> memref<?x4xf32, #map>
func.func @buffers(%n: index, %s: index) {
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x8xf32>
  %b = memref.alloc(%n)[%s] : memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  %v = memref.load %a[%n, %n] : memref<?x8xf32>
  memref.store %v, %a[%s, %s] : memref<?x8xf32>
  memref.dealloc %b : memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  memref.dealloc %a : memref<?x8xf32>
  return
}

// A rank-0 buffer: no indices, no dynamic sizes (all segments empty), written generically.
// CHECK-LABEL: func.func @scalar(
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<f32, 1>
// CHECK-NEXT:    %{{.*}} = memref.load %[[A]][] : memref<f32, 1>
func.func @scalar() -> f32 {
  %a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<f32, 1>
  %v = "memref.load"(%a) : (memref<f32, 1>) -> f32
  return %v : f32
}

// `nontemporal` is printed unless it is the default `false`; other attributes follow the
// indices.
// CHECK-LABEL: func.func @attributes(
// CHECK-NEXT:    %[[V:.*]] = memref.load %{{.*}}[%{{.*}}] {nontemporal = true} : memref<4xf32>
// CHECK-NEXT:    memref.store %[[V]], %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK-NEXT:    memref.dealloc %{{.*}} {kiln.note} : memref<4xf32>
func.func @attributes(%m: memref<4xf32>, %i: index) {
  %v = memref.load %m[%i] {nontemporal = true} : memref<4xf32>
  memref.store %v, %m[%i] {nontemporal = false} : memref<4xf32>
  memref.dealloc %m {kiln.note} : memref<4xf32>
  return
}
