// REQUIRES: mlir-opt
// Our generic form of every hl op (ops.mlir) is MLIR's generic form: mlir-opt, to which hl is
// an unregistered dialect, reads it and prints it back byte for byte, and we read mlir-opt's
// output back to the same custom form.
// RUN: %kiln-opt %S/ops.mlir --mlir-print-op-generic > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.ours > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: %kiln-opt %t.theirs | FileCheck %S/ops.mlir
// RUN: FileCheck %s --input-file %t.theirs

// What mlir-opt prints is generic throughout, the last op of ops.mlir included.
// CHECK-NOT: = hl.
// CHECK: "hl.swiglu"(%{{.*}}) <{axis = 1 : i64}> : (tensor<2x?x256xf16>) -> tensor<2x?x256xf16>
// CHECK-NOT: = hl.
