// Several symbols and kernels in one class: x's two `?` dims are symbols n0 and n1, y's is
// n2; the layer norm and max kernel flattens n0 * n1 rows, the softmax kernel 2 * n2 (a static
// leading dim times a `?` one). Each output dim is sized by its symbol. Checked at two shapes
// on both targets, one with rows in the thousands (many tiles, a tail).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %kiln-translate --emit-bytecode --target tiny-npu %s -o %t/three.kbc
// RUN: %kiln-translate --disassemble --target tiny-npu %t/three.kbc | FileCheck %s --check-prefix=DIS
// RUN: %kiln-run --target tiny-npu %s --input-shape 0=3x5x16 --input-shape 3=2x7x16 --check --print-limit 0 | FileCheck %s --check-prefix=SMALL
// RUN: %kiln-run --target ascend910b %s --input-shape 0=3x5x16 --input-shape 3=2x7x16 --check --print-limit 0 | FileCheck %s --check-prefix=SMALL
// RUN: %kiln-run --target tiny-npu %s --input-shape 0=1x3000x16 --input-shape 3=2x1001x16 --check --print-limit 0 | FileCheck %s --check-prefix=LARGE
// RUN: %kiln-run --target ascend910b %s --input-shape 0=1x3000x16 --input-shape 3=2x1001x16 --check --print-limit 0 | FileCheck %s --check-prefix=LARGE

// DIS: npuvec.params = ["n0 * n1", "ceil_div(n0 * n1, {{[0-9]+}})"]
// DIS: npuvec.params = ["n2 * 2", "ceil_div(n2 * 2, {{[0-9]+}})"]
// DIS: npuvec.input_symbols = array<i64: 0, 1, -1, -1, -1, -1, 2, -1>, npuvec.output_sizes = ["n0", "n1", "", "n0", "n1", "", "", "n2", ""], npuvec.symbols = ["n0", "n1", "n2"]
// SMALL: result #0: tensor<3x5x16xf32>
// SMALL-NEXT: result #1: tensor<3x5x1xf32>
// SMALL-NEXT: result #2: tensor<2x7x16xf32>
// SMALL: check: no unsynchronized pipe access
// SMALL-NEXT: check: the VM and the interpreter agree on 3 results
// LARGE: result #0: tensor<1x3000x16xf32>
// LARGE: result #2: tensor<2x1001x16xf32>
// LARGE: check: no unsynchronized pipe access
// LARGE-NEXT: check: the VM and the interpreter agree on 3 results

func.func @main(%x: tensor<?x?x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>, %y: tensor<2x?x16xf32>) -> (tensor<?x?x16xf32>, tensor<?x?x1xf32>, tensor<2x?x16xf32>) {
  %n = hl.layer_norm %x, %g, %b {epsilon = 9.9999997473787516E-6 : f32} : tensor<?x?x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<?x?x16xf32>
  %m = hl.reduce_max %n {axes = [2], keep_dims = true} : tensor<?x?x16xf32> -> tensor<?x?x1xf32>
  %e = hl.exp %y : tensor<2x?x16xf32>
  %s = hl.softmax %e {axis = -1 : i64} : tensor<2x?x16xf32>
  return %n, %m, %s : tensor<?x?x16xf32>, tensor<?x?x1xf32>, tensor<2x?x16xf32>
}
