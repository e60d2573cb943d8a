// An MLP block: Linear -> GELU -> Linear with a residual connection.
// Run: kiln-run --interpret examples/mlp.mlir --seed 1
func.func @mlp(%x: tensor<8x256xf32>, %w1: tensor<256x512xf32>, %b1: tensor<512xf32>,
               %w2: tensor<512x256xf32>, %b2: tensor<256xf32>) -> tensor<8x256xf32> {
  %0 = hl.matmul %x, %w1 : tensor<8x256xf32>, tensor<256x512xf32> -> tensor<8x512xf32>
  %1 = hl.bias_add %0, %b1 : tensor<8x512xf32>, tensor<512xf32> -> tensor<8x512xf32>
  %2 = hl.gelu %1 : tensor<8x512xf32>
  %3 = hl.matmul %2, %w2 : tensor<8x512xf32>, tensor<512x256xf32> -> tensor<8x256xf32>
  %4 = hl.bias_add %3, %b2 : tensor<8x256xf32>, tensor<256xf32> -> tensor<8x256xf32>
  %5 = hl.add %4, %x : tensor<8x256xf32>
  return %5 : tensor<8x256xf32>
}
