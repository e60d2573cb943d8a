// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// One error per rule of the arith ops' declarations and verifiers, in mlir-opt 22's words:
// with-mlir.mlir runs this file through mlir-opt.

func.func @addi_float(%a: f32) {
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = "arith.addi"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @addi_mixed(%a: index, %b: i32) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (index, i32) -> index
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> index
  return
}

// -----

func.func @constant_signed() {
  // expected-error @+1 {{'arith.constant' op integer return type must be signless}}
  %0 = arith.constant 1 : si32
  return
}

// -----

func.func @cmpi_keyword(%a: index) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = arith.cmpi lt, %a, %a : index
  return
}

// -----

func.func @cmpi_predicate(%a: index) {
  // expected-error @+1 {{invalid properties {predicate = 12 : i64} for op arith.cmpi: Invalid attribute `predicate` in property conversion: 12 : i64}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 12 : i64}> : (index, index) -> i1
  return
}

// -----

func.func @cmpi_missing_predicate(%a: index) {
  // expected-error @+1 {{'arith.cmpi' op requires attribute 'predicate'}}
  %0 = "arith.cmpi"(%a, %a) : (index, index) -> i1
  return
}

// -----

func.func @cmpi_result(%a: index) {
  // expected-error @+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (index, index) -> i32
  return
}

// -----

func.func @cmpi_operands(%a: index, %b: i32) {
  // expected-error @+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 1 : i64}> : (index, i32) -> i1
  return
}

// -----

func.func @cmpi_shape(%a: index) {
  // expected-error @+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 1 : i64}> : (index, index) -> vector<2xi1>
  return
}

// -----

func.func @select_condition(%a: index, %c: i32) {
  // expected-error @+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%c, %a, %a) : (i32, index, index) -> index
  return
}

// -----

func.func @select_types(%a: index, %c: i1, %b: i32) {
  // expected-error @+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %a, %b) : (i1, index, i32) -> index
  return
}

// -----

func.func @index_cast(%a: i32) {
  // expected-error @+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = "arith.index_cast"(%a) : (i32) -> i64
  return
}

// -----

// Counts, in the words of MLIR's count traits (NOperands, OneOperand, ZeroOperands,
// OneResult, ZeroRegions).
func.func @addi_operand_count(%a: i32, %b: i32, %c: i32) {
  // expected-error @+1 {{'arith.addi' op expected 2 operands, but found 3}}
  %0 = "arith.addi"(%a, %b, %c) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @index_cast_operand_count(%a: i32) {
  // expected-error @+1 {{'arith.index_cast' op requires a single operand}}
  %0 = "arith.index_cast"(%a, %a) : (i32, i32) -> index
  return
}

// -----

func.func @constant_operand_count(%a: i32) {
  // expected-error @+1 {{'arith.constant' op requires zero operands}}
  %0 = "arith.constant"(%a) <{value = 1 : i32}> : (i32) -> i32
  return
}

// -----

func.func @addi_result_count(%a: i32, %b: i32) {
  // expected-error @+1 {{'arith.addi' op requires one result}}
  %0:2 = "arith.addi"(%a, %b) : (i32, i32) -> (i32, i32)
  return
}

// -----

func.func @addi_region_count(%a: i32, %b: i32) {
  // expected-error @+1 {{'arith.addi' op requires zero regions}}
  %0 = "arith.addi"(%a, %b) ({
  }) : (i32, i32) -> i32
  return
}
