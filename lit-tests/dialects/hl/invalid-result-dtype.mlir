// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// Regression test (fixed in 982cae1): verify.rs checked operand element types only, so ops
// whose result element type is declared rather than derived (`hl.cast`, `hl.constant`)
// accepted types outside hl (f16, bf16, f32, i1, i8, i32, i64).

func.func @cast_to_f64(%a: tensor<2xf32>) {
  // expected-error @+1 {{'hl.cast' op result #0 must be ranked tensor of f16, bf16, f32, i1, i8, i32 or i64 values, but got 'tensor<2xf64>'}}
  %0 = hl.cast %a : tensor<2xf32> -> tensor<2xf64>
  return
}

// -----

func.func @cast_to_i16(%a: tensor<2xf32>) {
  // expected-error @+1 {{'hl.cast' op result #0 must be ranked tensor of f16, bf16, f32, i1, i8, i32 or i64 values, but got 'tensor<2xi16>'}}
  %0 = hl.cast %a : tensor<2xf32> -> tensor<2xi16>
  return
}

// -----

func.func @constant_f64() {
  // expected-error @+1 {{'hl.constant' op result #0 must be ranked tensor of f16, bf16, f32, i1, i8, i32 or i64 values, but got 'tensor<4xf64>'}}
  %0 = hl.constant dense<1.0> : tensor<4xf64>
  return
}

// -----

func.func @constant_unsigned() {
  // expected-error @+1 {{'hl.constant' op result #0 must be ranked tensor of f16, bf16, f32, i1, i8, i32 or i64 values, but got 'tensor<4xui8>'}}
  %0 = hl.constant dense<1> : tensor<4xui8>
  return
}
