// The 8-op elementwise chain of benches/vm_vs_c_numpy.sh over 16M f32 (two inputs).
func.func @chain(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = hl.add %a, %b : tensor<4096x4096xf32>
  %1 = hl.mul %0, %a : tensor<4096x4096xf32>
  %2 = hl.exp %1 : tensor<4096x4096xf32>
  %3 = hl.add %2, %b : tensor<4096x4096xf32>
  %4 = hl.maximum %3, %a : tensor<4096x4096xf32>
  %5 = hl.mul %4, %b : tensor<4096x4096xf32>
  %6 = hl.sub %5, %a : tensor<4096x4096xf32>
  %7 = hl.tanh %6 : tensor<4096x4096xf32>
  return %7 : tensor<4096x4096xf32>
}
