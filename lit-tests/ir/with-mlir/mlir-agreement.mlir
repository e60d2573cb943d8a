// REQUIRES: mlir-opt
// mlir-opt 22 and Kiln agree on `parser/mlir-agreement.mlir` (they print it alike, in both
// forms) and on `parser/mlir-agreement-errors.mlir` (the same errors).
// RUN: mlir-opt --allow-unregistered-dialect %S/../parser/mlir-agreement.mlir > %t.ref
// RUN: %kiln-opt --allow-unregistered-dialect %S/../parser/mlir-agreement.mlir > %t.ours
// RUN: diff %t.ref %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %S/../parser/mlir-agreement.mlir > %t.ref.generic
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %S/../parser/mlir-agreement.mlir > %t.ours.generic
// RUN: diff %t.ref.generic %t.ours.generic
// RUN: %kiln-opt --allow-unregistered-dialect %S/../parser/mlir-agreement.mlir | mlir-opt --allow-unregistered-dialect > %t.back
// RUN: diff %t.ref %t.back
// NUL bytes between tokens:
// RUN: echo -e '\x00"x.nul"()\x00 {a = [1,\x00 2]\x00, b = "s\x00t"}\x00 : () -> (tensor<4x\x00f32>)\x00' > %t.nul.mlir
// RUN: mlir-opt --allow-unregistered-dialect %t.nul.mlir > %t.nul.ref
// RUN: %kiln-opt --allow-unregistered-dialect %t.nul.mlir > %t.nul.ours
// RUN: diff %t.nul.ref %t.nul.ours
// RUN: mlir-opt %S/../parser/mlir-agreement-errors.mlir --split-input-file --verify-diagnostics --allow-unregistered-dialect > /dev/null
