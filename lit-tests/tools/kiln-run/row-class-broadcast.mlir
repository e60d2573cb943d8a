// A `?` dim is never broadcast from 1 inside a shape class: the class binds both inputs' row
// counts to one symbol. Inputs with 5 and 1 rows (numpy broadcasting, valid for the module)
// are another class: kiln-run says so and specializes; 5 and 5 rows run on the class.
// RUN: %kiln-run --target tiny-npu %s --input-shape 0=5x16 --input-shape 1=1x16 --check --print-limit 0 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTE < %t.err
// RUN: %kiln-run --target tiny-npu %s --input-shape 0=5x16 --input-shape 1=5x16 --check --print-limit 0 2>&1 | FileCheck %s --check-prefix=SAME

// CHECK: result #0: tensor<5x16xf32> (80 elements
// CHECK: check: the VM and the interpreter agree on 1 results
// NOTE: kiln-run: note: the inputs are not in the module's shape class (input #1 dim 0 is 1, but symbol `n` is 5 (from input #0 dim 0)), specialized to their shapes instead
// SAME-NOT: note
// SAME: check: the VM and the interpreter agree on 1 results

func.func @add(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %0 = hl.add %x, %y : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}
