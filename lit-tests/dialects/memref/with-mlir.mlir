// REQUIRES: mlir-opt
// The memref ops, operand segments included, in our generic form are MLIR's: mlir-opt 22 (to
// which memref is a registered dialect, so it verifies them too) prints ops.mlir back byte for
// byte, and we read its output back; the errors of invalid.mlir are mlir-opt's, word for word.
// RUN: %kiln-opt %S/ops.mlir --mlir-print-op-generic > %t.ours
// RUN: mlir-opt --mlir-print-op-generic %t.ours > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: %kiln-opt %t.theirs | FileCheck %S/ops.mlir
// RUN: mlir-opt %S/invalid.mlir --split-input-file --verify-diagnostics
