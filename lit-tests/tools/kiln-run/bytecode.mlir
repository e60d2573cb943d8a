// kiln-run runs compiled bytecode (`.kbc`) as it runs a module: the same results, printed and
// written with --output-dir.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %kiln-translate --emit-bytecode %s -o %t/twice.kbc
// RUN: %kiln-run %t/twice.kbc --input %S/Inputs/x2.npy --output-dir %t/out | FileCheck %s
// RUN: %kiln-run --interpret %s --input %t/out/result0.npy | FileCheck %s --check-prefix=AGAIN
// RUN: not %kiln-run %t/twice.kbc --input-shape 0=2 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: kiln-run: error: --input-shape needs the MLIR module: bytecode has static inputs

// CHECK: result #0: tensor<2xf32> (2 elements, min 2, max 6
// CHECK-NEXT: [2, 6]
// The result file holds the bytecode's result: twice [1, 3] is [2, 6], and once more [4, 12].
// AGAIN: result #0: tensor<2xf32> (2 elements, min 4, max 12
// AGAIN-NEXT: [4, 12]
func.func @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = hl.add %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
