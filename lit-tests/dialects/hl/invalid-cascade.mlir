// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// RUN: not %kiln-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=DUP
// Regression test (fixed in 982cae1): the op's `verify` hook (the hl shape rules) ran even
// when the declaration check had failed, so a missing or ill-typed attribute was reported a
// second time, misleadingly, by inference (and `hl.constant` without `value` got the same
// message twice). As in MLIR, a failing declaration check now stops the op's verification:
// each chunk expects only the first error.

func.func @transpose_missing_perm(%a: tensor<4xf32>) {
  // Also reported today: 'perm' [] is not a permutation of rank 1.
  // expected-error @+1 {{'hl.transpose' op requires attribute 'perm'}}
  %0 = hl.transpose %a : tensor<4xf32>
  return
}

// -----

func.func @transpose_perm_kind(%a: tensor<4xf32>) {
  // Also reported today: expected an array of integers, but got 1 : i64.
  // expected-error @+1 {{'hl.transpose' op attribute 'perm' failed to satisfy constraint: array attribute}}
  %0 = hl.transpose %a {perm = 1 : i64} : tensor<4xf32>
  return
}

// -----

func.func @cmp_missing_predicate(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.cmp' op requires attribute 'predicate'}}
  %0 = hl.cmp %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @cmp_predicate_kind(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.cmp' op attribute 'predicate' failed to satisfy constraint: comparison predicate `#hl.cmp<eq|ne|lt|le|gt|ge>`}}
  %0 = hl.cmp %a, %a {predicate = 1 : i64} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @constant_missing_value() {
  // Reported twice today, word for word (one designator matches both, as in MLIR, so the
  // DUP run checks the count).
  // DUP: 'hl.constant' op requires attribute 'value'
  // DUP-NOT: 'hl.constant' op requires attribute 'value'
  // expected-error @+1 {{'hl.constant' op requires attribute 'value'}}
  %0 = "hl.constant"() : () -> tensor<4xf32>
  return
}

// -----

func.func @argmin_axis_kind(%a: tensor<4x8xf32>) {
  // Also reported today: requires integer attribute 'axis'.
  // expected-error @+1 {{'hl.argmin' op attribute 'axis' failed to satisfy constraint: integer attribute}}
  %0 = hl.argmin %a {axis = [1]} : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @keep_dims_kind(%a: tensor<4x8xf32>) {
  // Also reported today: inferred type 'tensor<4x1xf32>' ... (inference reads 1 : i64 as true).
  // expected-error @+1 {{'hl.reduce_sum' op attribute 'keep_dims' failed to satisfy constraint: bool attribute}}
  %0 = hl.reduce_sum %a {axes = [1], keep_dims = 1 : i64} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @padding_kind(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // Also reported today: expected an array of integers, but got dense<0> : tensor<4xi64>.
  // expected-error @+1 {{'hl.conv2d' op attribute 'padding' failed to satisfy constraint: array attribute}}
  %0 = "hl.conv2d"(%x, %w) <{padding = dense<0> : tensor<4xi64>}> : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @concat_no_operands() {
  // Also reported today: expected operand #0.
  // expected-error @+1 {{'hl.concat' op expected 1 or more operands, but found 0}}
  %0 = "hl.concat"() <{axis = 0 : i64}> : () -> tensor<4xf32>
  return
}
