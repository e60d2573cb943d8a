// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s | %kiln-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// generic -> custom -> generic: hl ops written in the generic form (inherent attributes as
// properties `<{...}>`, discardable ones in `{...}`) print in the custom form and back
// unchanged.

// CHECK-LABEL: func.func @generic_input(
// CHECK-SAME:      %[[X:.*]]: tensor<8x?xbf16>, %[[Y:.*]]: tensor<1x?xbf16>, %[[P:.*]]: tensor<8x?xi1>)
// CHECK-NEXT:    %[[ADD:.*]] = hl.add %[[X]], %[[Y]] : tensor<8x?xbf16>, tensor<1x?xbf16> -> tensor<8x?xbf16>
// CHECK-NEXT:    %[[SEL:.*]] = hl.select %[[P]], %[[ADD]], %[[X]] : tensor<8x?xi1>, tensor<8x?xbf16>, tensor<8x?xbf16> -> tensor<8x?xbf16>
// CHECK-NEXT:    %[[RED:.*]] = hl.reduce_max %[[SEL]] {axes = [1], keep_dims = true} : tensor<8x?xbf16> -> tensor<8x1xbf16>
// CHECK-NEXT:    %[[GEL:.*]] = hl.gelu %[[SEL]] {approximate = #hl.approx<tanh>, kiln.note = "keep"} : tensor<8x?xbf16>
// CHECK-NEXT:    %[[C:.*]] = hl.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:    return %[[RED]], %[[GEL]], %[[C]]
// GENERIC-LABEL: sym_name = "generic_input"
// GENERIC:         "hl.add"(%{{.*}}, %{{.*}}) : (tensor<8x?xbf16>, tensor<1x?xbf16>) -> tensor<8x?xbf16>
// GENERIC-NEXT:    "hl.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<8x?xi1>, tensor<8x?xbf16>, tensor<8x?xbf16>) -> tensor<8x?xbf16>
// GENERIC-NEXT:    "hl.reduce_max"(%{{.*}}) <{axes = [1], keep_dims = true}> : (tensor<8x?xbf16>) -> tensor<8x1xbf16>
// GENERIC-NEXT:    "hl.gelu"(%{{.*}}) <{approximate = #hl.approx<tanh>}> {kiln.note = "keep"} : (tensor<8x?xbf16>) -> tensor<8x?xbf16>
// GENERIC-NEXT:    "hl.constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
"func.func"() <{function_type = (tensor<8x?xbf16>, tensor<1x?xbf16>, tensor<8x?xi1>) -> (tensor<8x1xbf16>, tensor<8x?xbf16>, tensor<2xi64>), sym_name = "generic_input"}> ({
^bb0(%x: tensor<8x?xbf16>, %y: tensor<1x?xbf16>, %p: tensor<8x?xi1>):
  %0 = "hl.add"(%x, %y) : (tensor<8x?xbf16>, tensor<1x?xbf16>) -> tensor<8x?xbf16>
  %1 = "hl.select"(%p, %0, %x) : (tensor<8x?xi1>, tensor<8x?xbf16>, tensor<8x?xbf16>) -> tensor<8x?xbf16>
  %2 = "hl.reduce_max"(%1) <{axes = [1], keep_dims = true}> : (tensor<8x?xbf16>) -> tensor<8x1xbf16>
  %3 = "hl.gelu"(%1) <{approximate = #hl.approx<tanh>}> {kiln.note = "keep"} : (tensor<8x?xbf16>) -> tensor<8x?xbf16>
  %4 = "hl.constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  "func.return"(%2, %3, %4) : (tensor<8x1xbf16>, tensor<8x?xbf16>, tensor<2xi64>) -> ()
}) : () -> ()

// Inherent attributes given as discardable ones in the generic form still verify and print
// in the custom form's attribute dictionary.
// CHECK-LABEL: func.func @inherent_as_discardable(
// CHECK-NEXT:    hl.transpose %{{.*}} {perm = [1, 0]} : tensor<2x3xi8> -> tensor<3x2xi8>
"func.func"() <{function_type = (tensor<2x3xi8>) -> tensor<3x2xi8>, sym_name = "inherent_as_discardable"}> ({
^bb0(%x: tensor<2x3xi8>):
  %0 = "hl.transpose"(%x) {perm = [1, 0]} : (tensor<2x3xi8>) -> tensor<3x2xi8>
  "func.return"(%0) : (tensor<3x2xi8>) -> ()
}) : () -> ()
