// The VM runs the function --entry names; the module's other public functions (here one
// with a matmul) are neither compiled nor run.
// RUN: %kiln-run --check %s --entry second --print-limit 4 | FileCheck %s
// RUN: %kiln-run --check %s --print-limit 4 | FileCheck %s --check-prefix=FIRST

// CHECK: result #0: tensor<4xf32>
// CHECK-NEXT: [1, 2, 3, 4]
// CHECK: check: the VM and the interpreter agree on 1 results
// FIRST: result #0: tensor<4x4xf32>
// FIRST: check: the VM and the interpreter agree on 1 results
func.func @first(%x: tensor<4x16xf32>, %w: tensor<16x4xf32>) -> tensor<4x4xf32> {
  %0 = hl.matmul %x, %w : tensor<4x16xf32>, tensor<16x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

func.func @second() -> tensor<4xf32> {
  %c = hl.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %one = hl.constant dense<1.0> : tensor<4xf32>
  %0 = hl.add %c, %one : tensor<4xf32>
  return %0 : tensor<4xf32>
}
