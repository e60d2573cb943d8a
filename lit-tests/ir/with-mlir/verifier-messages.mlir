// REQUIRES: mlir-opt
// Verifier messages word for word as mlir-opt 22's: a return of the wrong type is reported
// with `emitError` in MLIR, so without the `'func.return' op` prefix; a diagnostic at a
// location without a file prints at `<unknown>:0`, after the location unless it is unknown.
// RUN: not mlir-opt %s 2>&1 | FileCheck %s
// RUN: not %kiln-opt %s 2>&1 | FileCheck %s
// CHECK: {{^}}{{.*}}verifier-messages.mlir:[[@LINE+2]]:3: error: type of return operand 0 ('i32') doesn't match function result type ('i64') in function @f{{$}}
func.func @f(%a: i32) -> i64 {
  return %a : i32
}
// CHECK: {{^}}<unknown>:0: error: loc("foo"): type of return operand 0 ('i32') doesn't match function result type ('i64') in function @g{{$}}
func.func @g(%a: i32) -> i64 {
  return %a : i32 loc("foo")
}
// CHECK: {{^}}<unknown>:0: error: type of return operand 0 ('i32') doesn't match function result type ('i64') in function @h{{$}}
func.func @h(%a: i32) -> i64 {
  return %a : i32 loc(unknown)
}
