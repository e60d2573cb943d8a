// RUN: %kiln-opt %s --allow-unregistered-dialect --canonicalize | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --hl-canonicalize | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --hl-decompose | FileCheck %s --check-prefix=DECOMPOSE
// In a graph region an op may use its own result (directly or through a cycle). A pattern or
// fold that would forward such an op to its own result cannot apply: the op stays, and
// nothing is left naming an erased value (issue 13, class 1).

// CHECK-LABEL: func.func @self_use(
// CHECK:         "test.graph"() ({
// CHECK-NEXT:      %[[A:.*]] = hl.add %[[A]], %[[A]] : tensor<4xf32>
// CHECK-NEXT:      %[[N0:.*]] = hl.neg %[[N1:.*]] : tensor<4xf32>
// CHECK-NEXT:      %[[N1]] = hl.neg %[[N0]] : tensor<4xf32>
// CHECK-NEXT:      %[[Z:.*]] = hl.constant dense<-0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:      %[[AZ:.*]] = hl.add %[[AZ]], %[[Z]] : tensor<4xf32>
// CHECK-NEXT:      %[[R:.*]] = hl.reshape %[[R]] :
// CHECK-NEXT:      %[[C:.*]] = hl.cast %[[C]] :
// CHECK-NEXT:      %[[S:.*]] = hl.neg %[[S]] : tensor<4xf32>
// CHECK-NEXT:      "test.use"(%[[A]], %[[N1]], %[[AZ]], %[[R]], %[[C]]) :
func.func @self_use() {
  "test.graph"() ({
    %0 = hl.add %0, %0 : tensor<4xf32>
    %1 = hl.neg %2 : tensor<4xf32>
    %2 = hl.neg %1 : tensor<4xf32>
    %z = hl.constant dense<-0.0> : tensor<4xf32>
    %3 = hl.add %3, %z : tensor<4xf32>
    %4 = "hl.reshape"(%4) : (tensor<4xf32>) -> tensor<4xf32>
    %5 = "hl.cast"(%5) : (tensor<4xf32>) -> tensor<4xf32>
    %6 = hl.neg %6 : tensor<4xf32>
    "test.use"(%0, %2, %3, %4, %5) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) : () -> ()
  return
}

// DECOMPOSE-LABEL: func.func @self_dropout(
// DECOMPOSE:         %[[D:[0-9]+]] = hl.dropout %[[D]]
func.func @self_dropout() {
  "test.graph"() ({
    %0 = "hl.dropout"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    "test.use"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
  return
}
