// A Transformer encoder block (post-norm): 4-head self-attention, residual, LayerNorm,
// GELU feed-forward, residual, LayerNorm. Sequence 16, model width 64, head width 16.
func.func @encoder(%x: tensor<16x64xf32>,
                   %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>,
                   %wo: tensor<64x64xf32>,
                   %g1: tensor<64xf32>, %be1: tensor<64xf32>,
                   %w1: tensor<64x256xf32>, %b1: tensor<256xf32>,
                   %w2: tensor<256x64xf32>, %b2: tensor<64xf32>,
                   %g2: tensor<64xf32>, %be2: tensor<64xf32>) -> tensor<16x64xf32> {
  %q0 = hl.matmul %x, %wq : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %k0 = hl.matmul %x, %wk : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %v0 = hl.matmul %x, %wv : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %q1 = hl.reshape %q0 : tensor<16x64xf32> -> tensor<16x4x16xf32>
  %k1 = hl.reshape %k0 : tensor<16x64xf32> -> tensor<16x4x16xf32>
  %v1 = hl.reshape %v0 : tensor<16x64xf32> -> tensor<16x4x16xf32>
  %q = hl.transpose %q1 {perm = [1, 0, 2]} : tensor<16x4x16xf32> -> tensor<4x16x16xf32>
  %k = hl.transpose %k1 {perm = [1, 0, 2]} : tensor<16x4x16xf32> -> tensor<4x16x16xf32>
  %v = hl.transpose %v1 {perm = [1, 0, 2]} : tensor<16x4x16xf32> -> tensor<4x16x16xf32>
  %s0 = hl.batch_matmul %q, %k {transpose_b = true} : tensor<4x16x16xf32>, tensor<4x16x16xf32> -> tensor<4x16x16xf32>
  %scale = hl.constant dense<2.500000e-01> : tensor<f32>
  %s1 = hl.mul %s0, %scale : tensor<4x16x16xf32>, tensor<f32> -> tensor<4x16x16xf32>
  %p = hl.softmax %s1 {axis = -1 : i64} : tensor<4x16x16xf32>
  %c0 = hl.batch_matmul %p, %v : tensor<4x16x16xf32>, tensor<4x16x16xf32> -> tensor<4x16x16xf32>
  %c1 = hl.transpose %c0 {perm = [1, 0, 2]} : tensor<4x16x16xf32> -> tensor<16x4x16xf32>
  %c2 = hl.reshape %c1 : tensor<16x4x16xf32> -> tensor<16x64xf32>
  %o = hl.matmul %c2, %wo : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %h0 = hl.add %x, %o : tensor<16x64xf32>
  %h = hl.layer_norm %h0, %g1, %be1 {epsilon = 9.99999974E-6 : f32} : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %f0 = hl.matmul %h, %w1 : tensor<16x64xf32>, tensor<64x256xf32> -> tensor<16x256xf32>
  %f1 = hl.bias_add %f0, %b1 : tensor<16x256xf32>, tensor<256xf32> -> tensor<16x256xf32>
  %f2 = hl.gelu %f1 : tensor<16x256xf32>
  %f3 = hl.matmul %f2, %w2 : tensor<16x256xf32>, tensor<256x64xf32> -> tensor<16x64xf32>
  %f4 = hl.bias_add %f3, %b2 : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %y0 = hl.add %h, %f4 : tensor<16x64xf32>
  %y = hl.layer_norm %y0, %g2, %be2 {epsilon = 9.99999974E-6 : f32} : tensor<16x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
