// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --test-dialect-conversion='full=true'
// A conversion that leaves an op illegal fails at that op's location, naming it and the
// patterns tried (unit tests in kiln-compiler check that the IR is then unchanged).

func.func @unknown_in_full(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.add %a, %b : tensor<4xf32>
  // expected-error @+2 {{failed to legalize operation 'hl.exp'}}
  // expected-note @+1 {{no conversion pattern matches this operation}}
  %1 = hl.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

func.func @explicitly_illegal(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+3 {{failed to legalize operation 'hl.add' that was explicitly marked illegal}}
  // expected-note @+2 {{patterns tried: ElementwiseToTest}}
  // expected-note @+1 {{'ElementwiseToTest' declined: the result type tensor<4xi32> is not of f32 elements}}
  %0 = hl.add %a, %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}
