// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// The func dialect's verifiers (func.func, func.return, func.call). MLIR additionally
// attaches notes listing the types to a call result mismatch.

func.func @return_count() -> (i32, i32) {
  %0 = "unk.def"() : () -> i32
  // expected-error @+1 {{'func.return' op has 1 operands, but enclosing function (@return_count) returns 2}}
  return %0 : i32
}

// -----

func.func @return_type() -> i32 {
  %0 = "unk.def"() : () -> i64
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @return_type}}
  return %0 : i64
}

// -----

// expected-error @+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_args"}> ({
^bb0:
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_types"}> ({
^bb0(%a: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @public_declaration()

// -----

// mlir-opt 22's words: a visibility that is none of the three.
// expected-error @+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "priv"}}
"func.func"() <{function_type = () -> (), sym_name = "f", sym_visibility = "priv"}> ({
}) : () -> ()

// -----

func.func @caller() {
  // expected-error @+1 {{'func.call' op 'missing' does not reference a valid function}}
  func.call @missing() : () -> ()
  return
}

// -----

func.func private @callee(i32) -> i32

func.func @call_operand_count() {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = func.call @callee() : () -> i32
  return
}

// -----

func.func private @callee(i32) -> i32

func.func @call_operand_type(%a: i64) {
  // expected-error @+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %0 = func.call @callee(%a) : (i64) -> i32
  return
}

// -----

func.func private @callee(i32) -> i32

func.func @call_result_count(%a: i32) {
  // expected-error @+1 {{'func.call' op incorrect number of results for callee}}
  func.call @callee(%a) : (i32) -> ()
  return
}

// -----

func.func private @callee(i32) -> i32

func.func @call_result_type(%a: i32) {
  // expected-error @+1 {{'func.call' op result type mismatch at index 0}}
  %0 = func.call @callee(%a) : (i32) -> i64
  return
}
