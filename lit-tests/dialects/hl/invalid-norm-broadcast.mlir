// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// Regression test (fixed in 982cae1): `normalization` inference only checked that the extra
// operands of layer_norm / rms_norm / batch_norm were broadcast compatible with `x`, so
// operands that broadcast `x` to a larger shape verified, and hl-decompose then failed on
// the verified IR ("expansion produced 'tensor<4x5xf32>' instead of 'tensor<4x1xf32>'").

func.func @layer_norm_gamma_widens(%x: tensor<4x1xf32>, %g: tensor<1x5xf32>) {
  // expected-error @+1 {{'hl.layer_norm' op operand #1 of type 'tensor<1x5xf32>' does not broadcast to 'tensor<4x1xf32>'}}
  %0 = hl.layer_norm %x, %g, %g : tensor<4x1xf32>, tensor<1x5xf32>, tensor<1x5xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @rms_norm_gamma_adds_rank(%x: tensor<8xf32>, %g: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.rms_norm' op operand #1 of type 'tensor<4x8xf32>' does not broadcast to 'tensor<8xf32>'}}
  %0 = hl.rms_norm %x, %g : tensor<8xf32>, tensor<4x8xf32> -> tensor<8xf32>
  return
}
