// A LLaMA-style decoder block without rotary embeddings: RMSNorm, 4-head attention (scaled,
// softmax), residual, RMSNorm, SwiGLU feed-forward, residual. Sequence 16, width 64.
func.func @llama_block(%x: tensor<16x64xf32>, %g1: tensor<64xf32>,
                       %wq: tensor<64x64xf32>, %wk: tensor<64x64xf32>, %wv: tensor<64x64xf32>,
                       %wo: tensor<64x64xf32>, %g2: tensor<64xf32>,
                       %wgu: tensor<64x512xf32>, %wd: tensor<256x64xf32>) -> tensor<16x64xf32> {
  %n = hl.rms_norm %x, %g1 {epsilon = 9.99999997E-7 : f32} : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %q0 = hl.matmul %n, %wq : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %k0 = hl.matmul %n, %wk : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %v0 = hl.matmul %n, %wv : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
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
  %h = hl.add %x, %o : tensor<16x64xf32>
  %m = hl.rms_norm %h, %g2 {epsilon = 9.99999997E-7 : f32} : tensor<16x64xf32>, tensor<64xf32> -> tensor<16x64xf32>
  %gu = hl.matmul %m, %wgu : tensor<16x64xf32>, tensor<64x512xf32> -> tensor<16x512xf32>
  %a = hl.swiglu %gu {axis = -1 : i64} : tensor<16x512xf32> -> tensor<16x256xf32>
  %d = hl.matmul %a, %wd : tensor<16x256xf32>, tensor<256x64xf32> -> tensor<16x64xf32>
  %y = hl.add %h, %d : tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
