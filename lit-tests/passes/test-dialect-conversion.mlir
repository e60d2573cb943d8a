// RUN: %kiln-opt %s --test-dialect-conversion --allow-unregistered-dialect | FileCheck %s
// RUN: %kiln-opt %s --test-dialect-conversion --allow-unregistered-dialect | %kiln-opt --allow-unregistered-dialect | FileCheck %s
// RUN: %kiln-opt %s --test-dialect-conversion --allow-unregistered-dialect --mlir-print-op-generic | %kiln-opt --allow-unregistered-dialect | FileCheck %s
// Partial conversion: hl.add / hl.mul (illegal) become test ops on memrefs, the signature is
// converted, hl.exp (unknown legality, no pattern) stays on tensors between casts; the casts
// that nothing needs are folded away.

// CHECK-LABEL: func.func @lower(
// CHECK-SAME:      %[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>) -> memref<4xf32>
// CHECK-NEXT:    %[[ADD:.*]] = "test.add"(%[[A]], %[[B]]) : (memref<4xf32>, memref<4xf32>) -> memref<4xf32>
// CHECK-NEXT:    %[[T:.*]] = builtin.unrealized_conversion_cast %[[ADD]] : memref<4xf32> to tensor<4xf32>
// CHECK-NEXT:    %[[EXP:.*]] = hl.exp %[[T]] : tensor<4xf32>
// CHECK-NEXT:    %[[M:.*]] = builtin.unrealized_conversion_cast %[[EXP]] : tensor<4xf32> to memref<4xf32>
// CHECK-NEXT:    %[[MUL:.*]] = "test.mul"(%[[M]], %[[ADD]])
// CHECK-NEXT:    return %[[MUL]] : memref<4xf32>
func.func @lower(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.add %a, %b : tensor<4xf32>
  %1 = hl.exp %0 : tensor<4xf32>
  %2 = hl.mul %1, %0 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// Ops of unknown legality with unconverted types stay as they are.
// CHECK-LABEL: func.func @untouched(
// CHECK-SAME:      %{{.*}}: i32) -> i32
// CHECK-NEXT:    return
func.func @untouched(%x: i32) -> i32 {
  return %x : i32
}
