// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s | %kiln-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Round trip of builtin.module and the func dialect: custom -> generic -> custom.

// CHECK: module {
// GENERIC: "builtin.module"() ({

// CHECK-LABEL: func.func @empty() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// GENERIC-LABEL: "func.func"() <{function_type = () -> (), sym_name = "empty"}> ({
// GENERIC-NEXT:    "func.return"() : () -> ()
// GENERIC-NEXT:  }) : () -> ()
func.func @empty() {
  return
}

// CHECK-LABEL: func.func @args_and_results(
// CHECK-SAME:      %[[A:.*]]: i32, %[[B:.*]]: tensor<4x?xf32>) -> (i32, tensor<4x?xf32>) {
// CHECK-NEXT:    return %[[A]], %[[B]] : i32, tensor<4x?xf32>
// GENERIC-LABEL: "func.func"() <{function_type = (i32, tensor<4x?xf32>) -> (i32, tensor<4x?xf32>), sym_name = "args_and_results"}> ({
// GENERIC-NEXT:  ^bb0(%[[A:.*]]: i32, %[[B:.*]]: tensor<4x?xf32>):
// GENERIC-NEXT:    "func.return"(%[[A]], %[[B]]) : (i32, tensor<4x?xf32>) -> ()
func.func @args_and_results(%a: i32, %b: tensor<4x?xf32>) -> (i32, tensor<4x?xf32>) {
  return %a, %b : i32, tensor<4x?xf32>
}

// CHECK-LABEL: func.func private @declaration(i64) -> f32
// GENERIC-LABEL: "func.func"() <{function_type = (i64) -> f32, sym_name = "declaration", sym_visibility = "private"}> ({
// GENERIC-NEXT:  }) : () -> ()
func.func private @declaration(i64) -> f32

// CHECK-LABEL: func.func @calls(
// CHECK-SAME:      %[[X:.*]]: i64) -> f32 {
// CHECK-NEXT:    %[[R:.*]] = call @declaration(%[[X]]) : (i64) -> f32
// CHECK-NEXT:    return %[[R]] : f32
// GENERIC-LABEL: sym_name = "calls"
// GENERIC:         %[[R:.*]] = "func.call"(%{{.*}}) <{callee = @declaration}> : (i64) -> f32
// GENERIC-NEXT:    "func.return"(%[[R]]) : (f32) -> ()
func.func @calls(%x: i64) -> f32 {
  %r = func.call @declaration(%x) : (i64) -> f32
  return %r : f32
}

// CHECK-LABEL: func.func @with_attrs() attributes {kiln.tag = 3 : i32, kiln.unit} {
// GENERIC-LABEL: "func.func"() <{function_type = () -> (), sym_name = "with_attrs"}> ({
// GENERIC:       }) {kiln.tag = 3 : i32, kiln.unit} : () -> ()
func.func @with_attrs() attributes {kiln.tag = 3 : i32, kiln.unit} {
  return
}

// CHECK-LABEL: module @nested {
// CHECK-NEXT:    func.func nested @inner()
// GENERIC-LABEL: "builtin.module"() <{sym_name = "nested"}> ({
module @nested {
  func.func nested @inner()
}
