// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// BUG: dialects/src/hl/verify.rs checks the element types of operands only. Ops whose result
// element type is declared rather than derived (`hl.cast`, `hl.constant`) accept types that
// are not `hl` types (hl/mod.rs: f16, bf16, f32, i1, i8, i32, i64 only): today every chunk
// below verifies without error. Expected: an error on result #0.

func.func @cast_to_f64(%a: tensor<2xf32>) {
  // expected-error @+1 {{'hl.cast' op result #0}}
  %0 = hl.cast %a : tensor<2xf32> -> tensor<2xf64>
  return
}

// -----

func.func @cast_to_i16(%a: tensor<2xf32>) {
  // expected-error @+1 {{'hl.cast' op result #0}}
  %0 = hl.cast %a : tensor<2xf32> -> tensor<2xi16>
  return
}

// -----

func.func @constant_f64() {
  // expected-error @+1 {{'hl.constant' op result #0}}
  %0 = hl.constant dense<1.0> : tensor<4xf64>
  return
}

// -----

func.func @constant_unsigned() {
  // expected-error @+1 {{'hl.constant' op result #0}}
  %0 = hl.constant dense<1> : tensor<4xui8>
  return
}
