// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --hl-to-tosa
// Every hl op without a TOSA form is reported at once, each at its location.

func.func @refused(%x: tensor<4x8xf32>, %i: tensor<1x3x8x8xf32>, %w: tensor<3x1x3x3xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>, tensor<1x3x6x6xf32>) {
  // expected-error @+1 {{'hl.softmax' op has no TOSA form: a composite: run `hl-decompose` first}}
  %0 = hl.softmax %x {axis = -1 : i64} : tensor<4x8xf32>
  // expected-error @+1 {{'hl.sqrt' op has no TOSA form: no TOSA op computes it}}
  %1 = hl.sqrt %0 : tensor<4x8xf32>
  // expected-error @+1 {{'hl.slice' op has no TOSA form: TOSA slices with unit strides}}
  %2 = hl.slice %1 {starts = [0, 0], limits = [4, 8], strides = [1, 2]} : tensor<4x8xf32> -> tensor<4x4xf32>
  // expected-error @+1 {{'hl.conv2d' op has no TOSA form: grouped convolutions are not supported}}
  %3 = hl.conv2d %i, %w {groups = 3 : i64} : tensor<1x3x8x8xf32>, tensor<3x1x3x3xf32> -> tensor<1x3x6x6xf32>
  return %1, %2, %3 : tensor<4x8xf32>, tensor<4x4xf32>, tensor<1x3x6x6xf32>
}

// -----

// TOSA's intdiv takes i32 only.
func.func @narrow_div(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'hl.div' op has no TOSA form: TOSA divides integers as i32 only}}
  %0 = hl.div %a, %a : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

// An op with a TOSA form that the conversion cannot build from these operands: the driver's
// error; the op's pattern (named after it) says why it declined, as a note.
func.func @partly_broadcast(%a: tensor<2x1x4x5xf32>, %b: tensor<1x3x5x6xf32>) -> tensor<2x3x4x6xf32> {
  // expected-error @+3 {{failed to legalize operation 'hl.batch_matmul' that was explicitly marked illegal}}
  // expected-note @+2 {{patterns tried: hl.batch_matmul}}
  // expected-note @+1 {{'hl.batch_matmul' declined: batch dims that broadcast partly are not supported}}
  %0 = hl.batch_matmul %a, %b : tensor<2x1x4x5xf32>, tensor<1x3x5x6xf32> -> tensor<2x3x4x6xf32>
  return %0 : tensor<2x3x4x6xf32>
}
