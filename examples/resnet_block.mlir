// A ResNet basic block: conv3x3 -> batchnorm -> relu -> conv3x3 -> batchnorm -> add -> relu,
// NCHW with 16 channels on an 8x8 map.
func.func @resnet_block(%x: tensor<1x16x8x8xf32>,
                        %w1: tensor<16x16x3x3xf32>, %m1: tensor<16x1x1xf32>, %v1: tensor<16x1x1xf32>,
                        %g1: tensor<16x1x1xf32>, %b1: tensor<16x1x1xf32>,
                        %w2: tensor<16x16x3x3xf32>, %m2: tensor<16x1x1xf32>, %v2: tensor<16x1x1xf32>,
                        %g2: tensor<16x1x1xf32>, %b2: tensor<16x1x1xf32>) -> tensor<1x16x8x8xf32> {
  // Variances are non-negative: take |v| so that seeded random parameters make sense.
  %va = hl.abs %v1 : tensor<16x1x1xf32>
  %vb = hl.abs %v2 : tensor<16x1x1xf32>
  %0 = hl.conv2d %x, %w1 {padding = [1, 1, 1, 1]} : tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32> -> tensor<1x16x8x8xf32>
  %1 = hl.batch_norm %0, %m1, %va, %g1, %b1 {epsilon = 9.99999974E-6 : f32} : tensor<1x16x8x8xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32> -> tensor<1x16x8x8xf32>
  %2 = hl.relu %1 : tensor<1x16x8x8xf32>
  %3 = hl.conv2d %2, %w2 {padding = [1, 1, 1, 1]} : tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32> -> tensor<1x16x8x8xf32>
  %4 = hl.batch_norm %3, %m2, %vb, %g2, %b2 {epsilon = 9.99999974E-6 : f32} : tensor<1x16x8x8xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32> -> tensor<1x16x8x8xf32>
  %5 = hl.add %4, %x : tensor<1x16x8x8xf32>
  %6 = hl.relu %5 : tensor<1x16x8x8xf32>
  return %6 : tensor<1x16x8x8xf32>
}
