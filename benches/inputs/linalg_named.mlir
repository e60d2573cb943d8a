func.func @named(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>, %v: f32) -> tensor<4x16xf32> {
  %f = linalg.fill ins(%v : f32) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = tensor.empty() : tensor<16x4xf32>
  %t = linalg.transpose ins(%m : tensor<4x16xf32>) outs(%e : tensor<16x4xf32>) permutation = [1, 0]
  %add = linalg.add ins(%m, %m : tensor<4x16xf32>, tensor<4x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %add : tensor<4x16xf32>
}
func.func @conv(%in: memref<1x8x8x3xf32>, %k: memref<3x3x3x4xf32>, %out: memref<1x6x6x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%in, %k : memref<1x8x8x3xf32>, memref<3x3x3x4xf32>) outs(%out : memref<1x6x6x4xf32>)
  return
}
