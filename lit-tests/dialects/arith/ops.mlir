// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// The arith ops round trip in mlir-opt 22's custom form and through the generic form.
// (Results print as `%0`, not mlir-opt's name hints `%c0` / `%cst`.)

// CHECK-LABEL: func.func @constants(
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 3 : i32
// CHECK-NEXT:    arith.constant -1 : i64
// CHECK-NEXT:    arith.constant true
// CHECK-NEXT:    arith.constant false
// CHECK-NEXT:    arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    arith.constant -2.500000e+00 : f16
// CHECK-NEXT:    arith.constant {kiln.note} 7 : index
// GENERIC-LABEL: sym_name = "constants"
// GENERIC-NEXT:  "arith.constant"() <{value = 0 : index}> : () -> index
// GENERIC:       "arith.constant"() <{value = true}> : () -> i1
// GENERIC:       "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
func.func @constants() {
  %c0 = arith.constant 0 : index
  %c3_i32 = arith.constant 3 : i32
  %c-1_i64 = arith.constant -1 : i64
  %true = arith.constant true
  %false = arith.constant false
  %cst = arith.constant 1.0 : f32
  %cst_0 = arith.constant -2.5 : f16
  %c7 = arith.constant {kiln.note} 7 : index
  return
}

// CHECK-LABEL: func.func @integer(
// CHECK-SAME:      %[[A:.*]]: index, %[[B:.*]]: index, %[[X:.*]]: i32)
// CHECK-NEXT:    arith.addi %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.addi %[[A]], %[[B]] overflow<nsw, nuw> {kiln.note} : index
// CHECK-NEXT:    arith.subi %[[A]], %[[B]] overflow<nuw> : index
// CHECK-NEXT:    arith.muli %[[X]], %[[X]] overflow<nsw> : i32
// CHECK-NEXT:    arith.divui %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.divsi %[[X]], %[[X]] exact : i32
// CHECK-NEXT:    arith.remui %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.remsi %[[X]], %[[X]] : i32
// CHECK-NEXT:    arith.minsi %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.maxsi %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.minui %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.maxui %[[X]], %[[X]] : i32
// GENERIC-LABEL: sym_name = "integer"
// GENERIC-NEXT:  ^bb0
// GENERIC-NEXT:  "arith.addi"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index
// GENERIC-NEXT:  "arith.addi"(%{{.*}}, %{{.*}}) <{overflowFlags = #arith.overflow<nsw, nuw>}> {kiln.note} : (index, index) -> index
// GENERIC:       "arith.divsi"(%{{.*}}, %{{.*}}) <{isExact}> : (i32, i32) -> i32
func.func @integer(%a: index, %b: index, %x: i32) {
  %0 = arith.addi %a, %b : index
  %1 = arith.addi %a, %b overflow<nuw, nsw> {kiln.note} : index
  %2 = arith.subi %a, %b overflow<nuw> : index
  %3 = arith.muli %x, %x overflow<nsw> : i32
  %4 = arith.divui %a, %b : index
  %5 = arith.divsi %x, %x exact : i32
  %6 = arith.remui %a, %b : index
  %7 = arith.remsi %x, %x : i32
  %8 = arith.minsi %a, %b : index
  %9 = arith.maxsi %a, %b : index
  %10 = arith.minui %a, %b : index
  %11 = arith.maxui %x, %x : i32
  return
}

// CHECK-LABEL: func.func @compare_select_cast(
// CHECK-SAME:      %[[A:.*]]: index, %[[B:.*]]: index, %[[V:.*]]: vector<4xi32>, %[[M:.*]]: vector<4xi1>)
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi slt, %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.cmpi uge, %[[A]], %[[B]] {kiln.note} : index
// CHECK-NEXT:    arith.cmpi eq, %[[V]], %[[V]] : vector<4xi32>
// CHECK-NEXT:    arith.select %[[C]], %[[A]], %[[B]] : index
// CHECK-NEXT:    arith.select %[[M]], %[[V]], %[[V]] : vector<4xi1>, vector<4xi32>
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[A]] : index to i32
// CHECK-NEXT:    arith.index_cast %[[I]] : i32 to index
// GENERIC-LABEL: sym_name = "compare_select_cast"
// GENERIC-NEXT:  ^bb0
// GENERIC-NEXT:  "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 2 : i64}> : (index, index) -> i1
// GENERIC-NEXT:  "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 9 : i64}> {kiln.note} : (index, index) -> i1
// GENERIC-NEXT:  "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 0 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi1>
func.func @compare_select_cast(%a: index, %b: index, %v: vector<4xi32>, %m: vector<4xi1>) {
  %0 = arith.cmpi slt, %a, %b : index
  %1 = arith.cmpi uge, %a, %b {kiln.note} : index
  %2 = arith.cmpi eq, %v, %v : vector<4xi32>
  %3 = arith.select %0, %a, %b : index
  %4 = arith.select %m, %v, %v : vector<4xi1>, vector<4xi32>
  %5 = arith.index_cast %a : index to i32
  %6 = arith.index_cast %5 : i32 to index
  return
}
