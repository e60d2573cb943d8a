// RUN: %kiln-opt %s --symbol-dce | FileCheck %s
// XFAIL: *
// BUG: passes/src/symbol_dce.rs computes liveness as "referenced by any op under the root"
// rather than "reachable from a live (public) symbol", so dead private functions that
// reference each other, or only themselves, are never erased. Its `own` check only skips an
// op's reference to its own name in its own attributes, not the calls in its body. mlir-opt
// --symbol-dce erases all three functions below; kiln-opt keeps them.

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
