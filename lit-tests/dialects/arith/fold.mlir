// RUN: %kiln-opt %s --canonicalize | FileCheck %s
// Integer ops and `arith.cmpi` on scalar constants fold (results wrap to the width; `index` is
// 64 bits); division by zero does not fold.

// CHECK-LABEL: func.func @index_arithmetic(
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[T:.*]] = arith.constant true
// CHECK-DAG:     %[[W:.*]] = arith.constant -128 : i8
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[M:.*]] = arith.constant 255 : i32
// CHECK-DAG:     %[[D:.*]] = arith.divui %[[C8]], %[[Z]] : index
// CHECK:         return %[[C8]], %[[C1]], %[[T]], %[[W]], %[[D]], %[[M]]
func.func @index_arithmetic() -> (index, index, i1, i8, index, i32) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c0 = arith.constant 0 : index
  %0 = arith.addi %c2, %c3 : index
  %1 = arith.muli %0, %c2 : index
  %2 = arith.subi %1, %c2 : index
  %3 = arith.remui %c3, %c2 : index
  %4 = arith.cmpi ult, %3, %2 : index
  %c127 = arith.constant 127 : i8
  %c1_i8 = arith.constant 1 : i8
  %5 = arith.addi %c127, %c1_i8 : i8
  %6 = arith.divui %2, %c0 : index
  %cm1 = arith.constant -1 : i32
  %c255 = arith.constant 255 : i32
  %7 = arith.minui %cm1, %c255 : i32
  return %2, %3, %4, %5, %6, %7 : index, index, i1, i8, index, i32
}
