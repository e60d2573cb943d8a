func.func @tosa(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %i: tensor<1x4x4x2xi8>) -> tensor<2x3xf32> {
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %1 = tosa.mul %0, %b, %shift : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.exp %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.reduce_sum %3 {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %5 = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %6 = tosa.sub %3, %5 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tosa.transpose %6 {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %8 = tosa.abs %6 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = tosa.cast %8 : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return %8 : tensor<2x3xf32>
}
