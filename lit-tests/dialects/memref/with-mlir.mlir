// REQUIRES: mlir-opt
// The memref ops print as mlir-opt 22 prints them. Generic form: mlir-opt (to which memref is
// a registered dialect, so it verifies them too) prints our output of ops.mlir back byte for
// byte. Custom form: mlir-opt's reprint of our custom output differs only in SSA names (Kiln
// has no result-name hints: `%0` where mlir-opt writes `%alloc`), which sed replaces by `%V`
// on both sides; and we read mlir-opt's custom output back to our text. The errors of
// invalid.mlir are mlir-opt's, word for word.
// RUN: %kiln-opt %S/ops.mlir --mlir-print-op-generic > %t.ours
// RUN: mlir-opt --mlir-print-op-generic %t.ours > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: %kiln-opt %S/ops.mlir > %t.custom
// RUN: mlir-opt %t.custom > %t.mlir-custom
// RUN: sed -E 's/%[[:alnum:]_-]+/%V/g' %t.custom > %t.ours-names
// RUN: sed -E 's/%[[:alnum:]_-]+/%V/g' %t.mlir-custom > %t.theirs-names
// RUN: diff %t.ours-names %t.theirs-names
// RUN: %kiln-opt %t.mlir-custom > %t.back
// RUN: diff %t.custom %t.back
// RUN: mlir-opt %S/invalid.mlir --split-input-file --verify-diagnostics
