// RUN: %kiln-opt %s --allow-unregistered-dialect | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --mlir-print-op-generic | %kiln-opt --allow-unregistered-dialect | FileCheck %s
// RUN: not %kiln-opt %s 2>&1 | FileCheck %s --check-prefix=REJECT
// --allow-unregistered-dialect keeps ops of unknown dialects (with their attributes, regions
// and successors) unchanged; without it they are rejected with a located error.

// REJECT: unregistered.mlir:[[@LINE+5]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// CHECK-LABEL: func.func @keep(
// CHECK-SAME:      %[[A:.*]]: i32)
// CHECK-NEXT:    %[[X:.*]] = "unk.op"(%[[A]]) {attr = "value", n = 2 : i64} : (i32) -> i32
func.func @keep(%a: i32) -> i32 {
  %x = "unk.op"(%a) {attr = "value", n = 2 : i64} : (i32) -> i32
  // CHECK-NEXT:  "unk.region"() ({
  // CHECK-NEXT:    "unk.inner"(%[[X]]) : (i32) -> ()
  // CHECK-NEXT:  }) : () -> ()
  "unk.region"() ({
    "unk.inner"(%x) : (i32) -> ()
  }) : () -> ()
  // CHECK-NEXT:  "unk.br"(%[[X]])[^[[BB:.*]]] : (i32) -> ()
  "unk.br"(%x)[^bb1] : (i32) -> ()
// CHECK-NEXT:  ^[[BB]](%[[Y:.*]]: i32):
^bb1(%y: i32):
  // CHECK-NEXT:  return %[[Y]] : i32
  return %y : i32
}
