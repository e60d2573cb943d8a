// RUN: %kiln-opt %s --symbol-dce | FileCheck %s
// Liveness is reachability from live code: private functions that only call each other (or
// themselves) die together, as with mlir-opt --symbol-dce.

// CHECK-LABEL: func.func @pub() {
// CHECK-NOT:   @mutual_a
// CHECK-NOT:   @mutual_b
// CHECK-NOT:   @self_recursive
func.func @pub() {
  return
}

func.func private @mutual_a() {
  func.call @mutual_b() : () -> ()
  return
}

func.func private @mutual_b() {
  func.call @mutual_a() : () -> ()
  return
}

func.func private @self_recursive() {
  func.call @self_recursive() : () -> ()
  return
}
