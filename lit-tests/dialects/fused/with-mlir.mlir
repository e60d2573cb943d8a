// REQUIRES: mlir-opt
// RUN: %kiln-opt %s --kiln-fuse --mlir-print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic | %kiln-opt | FileCheck %s
// kiln-fuse's output, region ids included, goes through mlir-opt 22 (as unregistered ops with
// properties) and back unchanged.

// CHECK-LABEL: func.func @f
// CHECK:         fused.region vector (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> attributes {id = 0 : i64} {
// CHECK-NEXT:      hl.add
// CHECK-NEXT:      hl.exp
// CHECK-NEXT:      fused.yield
func.func @f(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.add %a, %b : tensor<8x64xf32>
  %1 = hl.exp %0 : tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}
