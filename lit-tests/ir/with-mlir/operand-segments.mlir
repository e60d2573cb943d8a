// REQUIRES: mlir-opt
// Operand segments of an unregistered op (three groups) survive both ways through mlir-opt 22.
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic %s > %t.ours
// RUN: mlir-opt --allow-unregistered-dialect --mlir-print-op-generic %t.ours > %t.theirs
// RUN: diff %t.ours %t.theirs
// RUN: FileCheck %s --input-file %t.theirs

// CHECK: "unk.segmented"(%arg0, %arg1, %arg1) <{operandSegmentSizes = array<i32: 1, 0, 2>}> : (index, f32, f32) -> ()
func.func @f(%i: index, %x: f32) {
  "unk.segmented"(%i, %x, %x) <{operandSegmentSizes = array<i32: 1, 0, 2>}> : (index, f32, f32) -> ()
  return
}
