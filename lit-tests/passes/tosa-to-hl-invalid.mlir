// RUN: %kiln-opt --allow-unregistered-dialect %s --split-input-file --verify-diagnostics --tosa-to-hl
// Every TOSA op (and `arith` op on tensors) without an hl form is reported at once, each at
// its location.

func.func @unsupported(%a: tensor<4xf32>, %b: tensor<2x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.sin' op is not supported by tosa-to-hl}}
  %0 = "tosa.sin"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "tosa.exp"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'tosa.argmax' op is not supported by tosa-to-hl}}
  %2 = "tosa.argmax"(%b) <{axis = 0 : i32}> : (tensor<2x4xf32>) -> tensor<4xi32>
  // expected-error @+1 {{'arith.maximumf' op is not supported by tosa-to-hl}}
  %3 = "arith.maximumf"(%1, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

// A supported op in a form hl has no op for: the driver's error; the op's pattern (named
// after it) says why it declined, as a note.
func.func @tile(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %m = "tosa.const_shape"() <{values = dense<[2, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  // expected-error @+3 {{failed to legalize operation 'tosa.tile' that was explicitly marked illegal}}
  // expected-note @+2 {{patterns tried: tosa.tile}}
  // expected-note @+1 {{'tosa.tile' declined: tiles a dim of size other than 1}}
  %0 = "tosa.tile"(%a, %m) : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// A zero point other than 0 (the zero points, converted first, are hl constants by then).
func.func @negate(%a: tensor<4xf32>) -> tensor<4xf32> {
  %one = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zero = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error @+3 {{failed to legalize operation 'tosa.negate' that was explicitly marked illegal}}
  // expected-note @+2 {{patterns tried: tosa.negate}}
  // expected-note @+1 {{'tosa.negate' declined: the input zero point must be a zero constant}}
  %0 = "tosa.negate"(%a, %one, %zero) : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
