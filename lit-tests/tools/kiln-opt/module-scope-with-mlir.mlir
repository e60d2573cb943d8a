// REQUIRES: mlir-opt
// --mlir-print-ir-module-scope needs --mlir-disable-threading: both tools refuse it otherwise,
// with the same message and status, after parsing the input and before running anything.
// RUN: not mlir-opt %s --mlir-print-ir-module-scope > %t.ref.out 2> %t.ref.err
// RUN: not %kiln-opt %s --mlir-print-ir-module-scope > %t.out 2> %t.err
// RUN: diff %t.ref.err %t.err
// RUN: diff %t.ref.out %t.out
// RUN: FileCheck %s --input-file %t.err
// RUN: %kiln-opt %s --mlir-print-ir-module-scope --mlir-disable-threading -o /dev/null
// CHECK: {{^}}<unknown>:0: error: IR print for module scope can't be setup on a pass-manager without disabling multi-threading first.{{$}}
// CHECK-EMPTY:
func.func @f() {
  return
}
