// REQUIRES: mlir-opt
// The memref ops print as mlir-opt 22 prints them. Generic form: mlir-opt (to which memref is a
// registered dialect, so it verifies them too) prints our output of ops.mlir back byte for byte.
// Custom form: mlir-opt reprints our custom output byte for byte, SSA names included (result-name
// hints such as `%alloc`, made unique with `_N` as MLIR does), and we read mlir-opt's custom
// output back to our text. The errors of invalid.mlir are mlir-opt's, word for word.
// RUN: %kiln-opt %S/ops.mlir --mlir-print-op-generic > %t.ours
// RUN: mlir-opt --mlir-print-op-generic %t.ours > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: %kiln-opt %S/ops.mlir > %t.custom
// RUN: mlir-opt %t.custom > %t.mlir-custom
// RUN: diff %t.custom %t.mlir-custom
// RUN: %kiln-opt %t.mlir-custom > %t.back
// RUN: diff %t.custom %t.back
// RUN: mlir-opt %S/invalid.mlir --split-input-file --verify-diagnostics
