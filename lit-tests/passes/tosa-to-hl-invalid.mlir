// RUN: %kiln-opt --allow-unregistered-dialect %s --verify-diagnostics --tosa-to-hl
// Every TOSA op without an hl form is reported at once, each at its location.

func.func @unsupported(%a: tensor<4xf32>, %b: tensor<2x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tosa.sin' op is not supported by tosa-to-hl}}
  %0 = "tosa.sin"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "tosa.exp"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'tosa.argmax' op is not supported by tosa-to-hl}}
  %2 = "tosa.argmax"(%b) <{axis = 0 : i32}> : (tensor<2x4xf32>) -> tensor<4xi32>
  return %1 : tensor<4xf32>
}
