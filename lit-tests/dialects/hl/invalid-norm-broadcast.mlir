// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// BUG: dialects/src/hl/infer.rs `normalization` only checks that the extra operands of
// layer_norm / rms_norm / batch_norm are broadcast compatible with `x` and then returns `x`'s
// type, so operands that broadcast `x` to a larger shape verify. The op's semantics (and
// hl-decompose, which then fails with "expansion produced 'tensor<4x5xf32>' instead of
// 'tensor<4x1xf32>'") give the larger shape: verified IR that a pass cannot handle.
// Expected: the verifier rejects scale/bias/statistics that do not broadcast *to* `x`.

func.func @layer_norm_gamma_widens(%x: tensor<4x1xf32>, %g: tensor<1x5xf32>) {
  // expected-error @+1 {{'hl.layer_norm' op}}
  %0 = hl.layer_norm %x, %g, %g : tensor<4x1xf32>, tensor<1x5xf32>, tensor<1x5xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @rms_norm_gamma_adds_rank(%x: tensor<8xf32>, %g: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.rms_norm' op}}
  %0 = hl.rms_norm %x, %g : tensor<8xf32>, tensor<4x8xf32> -> tensor<8xf32>
  return
}
