// REQUIRES: mlir-opt
// Enum attributes in the generic form are MLIR's pretty dialect attributes: mlir-opt, to which
// hl and fused are unregistered, reads them as opaque attributes and prints them back byte for
// byte, and we read its output back to the same custom form.
// RUN: %kiln-opt %S/attrs.mlir --mlir-print-op-generic > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.ours > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: %kiln-opt %t.theirs | FileCheck %S/attrs.mlir
