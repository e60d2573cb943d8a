// Bad invocations and inputs are clear errors, never crashes.
// RUN: not %kiln-run %s --target nope 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not %kiln-run --interpret %s --entry nope 2>&1 | FileCheck %s --check-prefix=NOENTRY
// RUN: not %kiln-run --interpret %s --input %S/Inputs/not-npy.npy 2>&1 | FileCheck %s --check-prefix=BADNPY
// RUN: not %kiln-run --interpret %s --input %S/Inputs/x_i32.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not %kiln-run --interpret %s --input %S/Inputs/x.npy --input %S/Inputs/x.npy 2>&1 | FileCheck %s --check-prefix=TOOMANY
// RUN: not %kiln-run --interpret %s --entry dyn 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not %kiln-run --interpret %s --entry conflict --input %S/Inputs/x.npy 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not %kiln-run --interpert %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kiln-run: Unknown command line argument '--interpert'.  Try: '{{.*}}kiln-run --help'
// UNKNOWN-NEXT: kiln-run: Did you mean '--interpret'?

// NOTARGET: kiln-run: error: {{.*}}nope
// NOENTRY: error: no function named '@nope' in the module
// BADNPY: kiln-run: error: argument #0: `{{.*}}not-npy.npy`: truncated npy header
// DTYPE: kiln-run: error: argument #0: `{{.*}}x_i32.npy`: npy file holds i32, expected f32
// TOOMANY: error: 2 inputs given, but the function takes 1
// DYNAMIC: error: argument #0 has dynamic type 'tensor<?x3xf32>': give its shape with --input-shape 0=DIMS or its values with --input
// CONFLICT: error: cannot specialize the function to the inputs' shapes [1, 3]:
// CONFLICT-NEXT: errors.mlir:[[# @LINE + 11]]:8: error: 'hl.reshape' op cannot reshape 'tensor<1x3xf32>' (3 elements) to 'tensor<?x4xf32>' (a multiple of 4 elements)
func.func @f(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  return %x : tensor<1x3xf32>
}

func.func @dyn(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  return %x : tensor<?x3xf32>
}

// A dynamic dim that the data contradicts at run time.
func.func @conflict(%x: tensor<?x3xf32>) -> tensor<?x4xf32> {
  %y = hl.reshape %x : tensor<?x3xf32> -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
