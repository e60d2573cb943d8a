// --mlir-elide-elementsattrs-if-larger=N prints elements attributes with more than N elements
// as dense_resource<__elided__>, except splats; a sparse attribute is elided when its indices
// or its values would be. elide-elementsattrs-with-mlir.mlir compares the bytes with mlir-opt.
// RUN: %kiln-opt %S/Inputs/elide-elements.mlir --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=2 | FileCheck %s
// CHECK: %{{.*}} = arith.constant dense_resource<__elided__> : tensor<4xi32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: %{{.*}} = arith.constant dense<7> : tensor<1xi32>
// CHECK-NEXT: "test.sparse"() {s = sparse<{{\[\[}}0], [2]], [1, 5]> : tensor<4xi32>}

// RUN: %kiln-opt %S/Inputs/elide-elements.mlir --allow-unregistered-dialect --mlir-elide-elementsattrs-if-larger=1 --mlir-print-op-generic | FileCheck %s --check-prefix=ONE
// ONE: <{value = dense_resource<__elided__> : tensor<4xi32>}>
// ONE-NEXT: <{value = dense_resource<__elided__> : tensor<2xf32>}>
// ONE-NEXT: <{value = dense<1.000000e+00> : tensor<8xf32>}>
// ONE-NEXT: <{value = dense<7> : tensor<1xi32>}>
// ONE-NEXT: {s = dense_resource<__elided__> : tensor<4xi32>}
