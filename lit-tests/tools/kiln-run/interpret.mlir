// kiln-run --interpret runs a function on the hl reference interpreter.
// RUN: %kiln-run --interpret %s | FileCheck %s
// RUN: %kiln-run --interpret %s --entry scale --input %S/Inputs/x.npy | FileCheck %s --check-prefix=NPY
// RUN: %kiln-run --interpret %s --entry scale --seed 3 --print-limit 0 | FileCheck %s --check-prefix=SEEDED
// RUN: rm -rf %t && %kiln-run --interpret %s --output-dir %t && %kiln-run --interpret %s --entry twice --input %t/result0.npy | FileCheck %s --check-prefix=ROUNDTRIP

// CHECK: result #0: tensor<2xf32> (2 elements, min 2, max 4, mean 3.000000)
// CHECK-NEXT: [2, 4]
// CHECK-NEXT: result #1: tensor<2xi32> (2 elements, min -6, max 2147483647
// CHECK-NEXT: [-6, 2147483647]
func.func @consts() -> (tensor<2xf32>, tensor<2xi32>) {
  %0 = hl.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = hl.add %0, %0 : tensor<2xf32>
  %i = hl.constant dense<[-3, -2147483647]> : tensor<2xi32>
  %j = hl.constant dense<[2, -1]> : tensor<2xi32>
  // Integers wrap: -2147483647 * -1 = 2147483647, and -3 * 2 = -6.
  %k = hl.mul %i, %j : tensor<2xi32>
  return %1, %k : tensor<2xf32>, tensor<2xi32>
}

// NPY: result #0: tensor<1x3xf32> (3 elements, min -4, max 6.5
// NPY-NEXT: [3, -4, 6.5]
// SEEDED: result #0: tensor<1x3xf32> (3 elements
// SEEDED-NOT: [
func.func @scale(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %c = hl.constant dense<2.0> : tensor<f32>
  %y = hl.mul %x, %c : tensor<1x3xf32>, tensor<f32> -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}

// ROUNDTRIP: result #0: tensor<2xf32> (2 elements, min 4, max 8
func.func @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = hl.add %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}

// Integers print exactly (no round trip through f64), floats as the shortest decimal that reads
// back to the same value of their own type.
// RUN: %kiln-run --interpret %s --entry exact | FileCheck %s --check-prefix=EXACT
// EXACT: result #0: tensor<2xi64> (2 elements, min -9223372036854775808, max 18014398509481986, mean
// EXACT-NEXT: [18014398509481986, -9223372036854775808]
// EXACT-NEXT: result #1: tensor<2xf16> (2 elements, min 0.1, max 0.3, mean
// EXACT-NEXT: [0.1, 0.3]
// EXACT-NEXT: result #2: tensor<1xf32> (1 elements, min 0.1, max 0.1, mean
// EXACT-NEXT: [0.1]
func.func @exact() -> (tensor<2xi64>, tensor<2xf16>, tensor<1xf32>) {
  %0 = hl.constant dense<[18014398509481986, -9223372036854775808]> : tensor<2xi64>
  %1 = hl.constant dense<[0.1, 0.3]> : tensor<2xf16>
  %2 = hl.constant dense<0.1> : tensor<1xf32>
  return %0, %1, %2 : tensor<2xi64>, tensor<2xf16>, tensor<1xf32>
}
