// REQUIRES: mlir-opt
// mlir-opt 22 and Kiln agree on `parser/mlir-agreement.mlir` (they print it alike, in both
// forms, with and without locations) and on `parser/mlir-agreement-errors.mlir` (the same
// errors).
// RUN: mlir-opt --allow-unregistered-dialect %S/../parser/mlir-agreement.mlir > %t.ref
// RUN: %kiln-opt --allow-unregistered-dialect %S/../parser/mlir-agreement.mlir > %t.ours
// RUN: diff %t.ref %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %S/../parser/mlir-agreement.mlir > %t.ref.generic
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %S/../parser/mlir-agreement.mlir > %t.ours.generic
// RUN: diff %t.ref.generic %t.ours.generic
// RUN: %kiln-opt --allow-unregistered-dialect %S/../parser/mlir-agreement.mlir | mlir-opt --allow-unregistered-dialect > %t.back
// RUN: diff %t.ref %t.back
// With locations (hexadecimal line and column numbers print in decimal):
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/../parser/mlir-agreement.mlir > %t.ref.loc
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-debuginfo %S/../parser/mlir-agreement.mlir > %t.ours.loc
// RUN: diff %t.ref.loc %t.ours.loc
// Carriage returns: whitespace between any tokens, the end of a comment, themselves in strings:
// RUN: echo -e '"x.cr"() : () -> () loc\r("f.mlir":0x1:0x2)\r// c\r"x.cr2"() {a = tensor\r<4xf32>, b = "s\rt", c = [1,\r2]}\r: () -> (memref\r<\r4\rx\rf32\r>)' > %t.cr.mlir
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-debuginfo %t.cr.mlir > %t.cr.ref
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-debuginfo %t.cr.mlir > %t.cr.ours
// RUN: diff %t.cr.ref %t.cr.ours
// NUL bytes between tokens:
// RUN: echo -e '\x00"x.nul"()\x00 {a = [1,\x00 2]\x00, b = "s\x00t"}\x00 : () -> (tensor<4x\x00f32>)\x00' > %t.nul.mlir
// RUN: mlir-opt --allow-unregistered-dialect %t.nul.mlir > %t.nul.ref
// RUN: %kiln-opt --allow-unregistered-dialect %t.nul.mlir > %t.nul.ours
// RUN: diff %t.nul.ref %t.nul.ours
// RUN: mlir-opt %S/../parser/mlir-agreement-errors.mlir --split-input-file --verify-diagnostics --allow-unregistered-dialect > /dev/null
