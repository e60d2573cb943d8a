// A module with `?` dims that is not a row shape class (a matmul over the `?` rows) is
// specialized to the inputs' shapes instead, with a note saying why; kiln-translate refuses
// to write bytecode for it, naming the kernel.
// RUN: %kiln-run --target tiny-npu %s --input-shape x=5x16 --check --print-limit 0 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTE < %t.err
// RUN: not %kiln-translate --emit-bytecode --target tiny-npu %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REFUSED

// CHECK: result #0: tensor<5x16xf32> (80 elements
// CHECK: check: the VM and the interpreter agree on 1 results
// NOTE: kiln-run: note: not compiled as a shape class, specialized to the inputs' shapes instead:
// NOTE: error: 'func.func' op kernel @proj_kernel0 is not a row shape class: it is a matmul kernel with `?` dims (only vector kernels have a class)
// REFUSED: error: 'func.func' op kernel @proj_kernel0 is not a row shape class: it is a matmul kernel with `?` dims

func.func @proj(%x: tensor<?x16xf32> loc("x"), %w: tensor<16x16xf32> loc("w")) -> tensor<?x16xf32> {
  %p = hl.matmul %x, %w : tensor<?x16xf32>, tensor<16x16xf32> -> tensor<?x16xf32>
  return %p : tensor<?x16xf32>
}
