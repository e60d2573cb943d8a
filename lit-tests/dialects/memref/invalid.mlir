// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// Errors the generic verifier derives from the memref ops' declarations (named operand
// groups, operand segments, type constraints, relations between groups) and from their
// verifier hooks, in mlir-opt 22's words: ir/with-mlir/memref-invalid.mlir runs this file
// through mlir-opt. (Two checks MLIR makes while parsing properties are in invalid-kiln.mlir.)

func.func @segments_total(%i: index) {
  // expected-error @+1 {{'memref.alloc' op operand count (3) does not match with the total size (2) specified in attribute 'operandSegmentSizes'}}
  %0 = "memref.alloc"(%i, %i, %i) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index, index) -> memref<?xf32>
  return
}

// -----

// An absent segment property counts as all zeros.
func.func @segments_absent(%i: index) {
  // expected-error @+1 {{'memref.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %0 = "memref.alloc"(%i) : (index) -> memref<?xf32>
  return
}

// -----

func.func @segments_negative(%i: index) {
  // expected-error @+1 {{'memref.alloc' op 'operandSegmentSizes' attribute cannot have negative elements}}
  %0 = "memref.alloc"(%i) <{operandSegmentSizes = array<i32: -1, 2>}> : (index) -> memref<?xf32>
  return
}

// -----

func.func @variadic_constraint(%i: i32) {
  // expected-error @+1 {{'memref.alloc' op operand #0 must be variadic of index, but got 'i32'}}
  %0 = "memref.alloc"(%i) <{operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> memref<?xf32>
  return
}

// -----

func.func @result_constraint() {
  // expected-error @+1 {{'memref.alloc' op result #0 must be memref of any type values, but got 'memref<*xf32>'}}
  %0 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<*xf32>
  return
}

// -----

func.func @single_constraint(%t: tensor<4xf32>) {
  // expected-error @+1 {{'memref.dealloc' op operand #0 must be ranked or unranked memref of any type values, but got 'tensor<4xf32>'}}
  "memref.dealloc"(%t) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @count(%v: f32) {
  // expected-error @+1 {{'memref.store' op expected 2 or more operands, but found 1}}
  "memref.store"(%v) : (f32) -> ()
  return
}

// -----

func.func @count_none() {
  // expected-error @+1 {{'memref.load' op expected 1 or more operands, but found 0}}
  %0 = "memref.load"() : () -> f32
  return
}

// -----

func.func @index_type(%m: memref<4xf32>, %i: i32) {
  // expected-error @+1 {{'memref.load' op operand #1 must be variadic of index, but got 'i32'}}
  %0 = "memref.load"(%m, %i) : (memref<4xf32>, i32) -> f32
  return
}

// -----

func.func @result_element_type(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
  %0 = "memref.load"(%m, %i) : (memref<4xf32>, index) -> i32
  return
}

// -----

func.func @operand_element_type(%m: memref<f32>) {
  // expected-error @+1 {{'memref.store' op failed to verify that type of 'value' matches element type of 'memref'}}
  "memref.store"(%m, %m) : (memref<f32>, memref<f32>) -> ()
  return
}

// -----

func.func @load_indices(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.load' op incorrect number of indices for load, expected 1 but got 0}}
  %0 = "memref.load"(%m) : (memref<4xf32>) -> f32
  return
}

// -----

func.func @store_indices(%m: memref<4xf32>, %v: f32) {
  // expected-error @+1 {{'memref.store' op store index operand count not equal to memref rank}}
  "memref.store"(%v, %m) : (f32, memref<4xf32>) -> ()
  return
}

// -----

func.func @dynamic_sizes() {
  // expected-error @+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 0, expected 1}}
  %0 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<?xf32>
  return
}

// -----

func.func @symbols(%i: index) {
  // expected-error @+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %0 = "memref.alloc"(%i) <{operandSegmentSizes = array<i32: 0, 1>}> : (index) -> memref<4xf32>
  return
}

// -----

func.func @alignment() {
  // expected-error @+1 {{'memref.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = "memref.alloc"() <{alignment = 48 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  return
}

// -----

func.func @dealloc_results(%m: memref<f32>) {
  // expected-error @+1 {{'memref.dealloc' op requires zero results}}
  %0 = "memref.dealloc"(%m) : (memref<f32>) -> f32
  return
}

// -----

func.func @dealloc_operands() {
  // expected-error @+1 {{'memref.dealloc' op requires a single operand}}
  "memref.dealloc"() : () -> ()
  return
}
