// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// Malformed segment properties: mlir-opt 22 rejects them while converting properties
// ("invalid properties ... size mismatch in attribute conversion: 1 vs 2"); Kiln's verifier
// reports them in the words of MLIR's former `operand_segment_sizes` verifier.

func.func @segments_length(%i: index) {
  // expected-error @+1 {{'memref.alloc' op 'operandSegmentSizes' attribute for specifying operand segments must have 2 elements, but got 1}}
  %0 = "memref.alloc"(%i) <{operandSegmentSizes = array<i32: 1>}> : (index) -> memref<?xf32>
  return
}

// -----

func.func @segments_type(%i: index) {
  // expected-error @+1 {{'memref.alloc' op attribute 'operandSegmentSizes' failed to satisfy constraint: i32 dense array attribute}}
  %0 = "memref.alloc"(%i) <{operandSegmentSizes = array<i64: 1, 0>}> : (index) -> memref<?xf32>
  return
}
