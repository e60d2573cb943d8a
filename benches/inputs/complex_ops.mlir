func.func @complex_math(%a: complex<f32>, %b: complex<f32>, %re: f64, %im: f64) -> complex<f64> {
  %0 = complex.add %a, %b : complex<f32>
  %1 = complex.mul %0, %b : complex<f32>
  %2 = complex.abs %1 : complex<f32>
  %3 = complex.re %1 : complex<f32>
  %4 = complex.im %1 : complex<f32>
  %5 = complex.create %re, %im : complex<f64>
  %6 = complex.exp %5 : complex<f64>
  %7 = complex.conj %6 : complex<f64>
  %8 = complex.constant [1.5 : f64, -2.0 : f64] : complex<f64>
  %9 = complex.div %7, %8 : complex<f64>
  %c = arith.constant dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>
  %d = arith.constant dense<[(1.0, 0.5), (0.1, -3.0)]> : tensor<2xcomplex<f64>>
  %e = arith.constant dense<[(1, 2), (3, -4)]> : tensor<2xcomplex<i16>>
  return %9 : complex<f64>
}
