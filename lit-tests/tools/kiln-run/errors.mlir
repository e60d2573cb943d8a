// Bad invocations and inputs are clear errors, never crashes.
// RUN: not %kiln-run %s --entry dyn --input %S/Inputs/x.npy 2>&1 | FileCheck %s --check-prefix=VMDYNAMIC
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

// VMDYNAMIC: error: 'func.func' op kiln-codegen needs static shapes
// NOTARGET: kiln-run: error: {{.*}}nope
// NOENTRY: error: no function named '@nope' in the module
// BADNPY: not-npy.npy:
// DTYPE: x_i32.npy:
// TOOMANY: error: 2 inputs given, but the function takes 1
// DYNAMIC: error: argument #0 has dynamic type 'tensor<?x3xf32>'; give it with --input
// CONFLICT: error: 'hl.reshape' op
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
