// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// The verifier of the `hl` ops the ONNX importer added: element type classes, index operand
// types, shapes of indices and updates, attribute values.

func.func @bitwise_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.bitwise_and' op operand #0 must be ranked tensor of i8, i32 or i64 values, but got 'tensor<4xf32>'}}
  %0 = hl.bitwise_and %a, %a : tensor<4xf32>
  return
}

// -----

func.func @shift_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'hl.shift_left' op operand #0 must be ranked tensor of i8, i32 or i64 values, but got 'tensor<4xi1>'}}
  %0 = hl.shift_left %a, %a : tensor<4xi1>
  return
}

// -----

func.func @sin_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'hl.sin' op operand #0 must be ranked tensor of f16, bf16 or f32 values, but got 'tensor<4xi32>'}}
  %0 = hl.sin %a : tensor<4xi32>
  return
}

// -----

func.func @gather_elements_rank(%d: tensor<3x4xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'hl.gather_elements' op indices must have the data's rank 2, but got 'tensor<2xi64>'}}
  %0 = hl.gather_elements %d, %i : tensor<3x4xf32>, tensor<2xi64> -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_float_indices(%d: tensor<3x4xf32>, %i: tensor<3x2xf32>) {
  // expected-error @+1 {{'hl.gather_elements' op operand #1 must be ranked tensor of i32 or i64 values, but got 'tensor<3x2xf32>'}}
  %0 = hl.gather_elements %d, %i : tensor<3x4xf32>, tensor<3x2xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @gather_nd_depth(%d: tensor<3x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'hl.gather_nd' op index tuples of 3 with batch_dims 0 do not fit data of rank 2}}
  %0 = hl.gather_nd %d, %i : tensor<3x4xf32>, tensor<2x3xi64> -> tensor<2xf32>
  return
}

// -----

func.func @scatter_elements_updates(%d: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x3xf32>) {
  // expected-error @+1 {{'hl.scatter_elements' op updates 'tensor<3x3xf32>' must have the data's element type 'f32' and shape [3, 2]}}
  %0 = hl.scatter_elements %d, %i, %u : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x3xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_reduction(%d: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>) {
  // expected-error @+1 {{'hl.scatter_elements' op attribute 'reduction' must be "none", "add", "mul", "max" or "min", but got "sub"}}
  %0 = hl.scatter_elements %d, %i, %u {reduction = "sub"} : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_nd_updates(%d: tensor<3x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+1 {{'hl.scatter_nd' op updates 'tensor<2x3xf32>' must have the data's element type 'f32' and shape [2, 4]}}
  %0 = hl.scatter_nd %d, %i, %u : tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x3xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @cumsum_axis(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'hl.cumsum' op axis 2 is out of range for rank 2}}
  %0 = hl.cumsum %x {axis = 2 : i64} : tensor<3x4xf32>
  return
}

// -----

func.func @topk_k(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'hl.topk' op attribute 'k' (5) must be in 0..=4 (dim #1)}}
  %0, %1 = hl.topk %x {k = 5 : i64} : tensor<3x4xf32> -> tensor<3x5xf32>, tensor<3x5xi64>
  return
}

// -----

func.func @topk_results(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'hl.topk' op inferred type 'tensor<3x2xi64>' is incompatible with result #1 type 'tensor<3x2xi32>'}}
  %0, %1 = hl.topk %x {k = 2 : i64} : tensor<3x4xf32> -> tensor<3x2xf32>, tensor<3x2xi32>
  return
}
