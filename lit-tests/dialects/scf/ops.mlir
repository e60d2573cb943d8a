// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// The scf ops round trip in mlir-opt 22's custom form, where a `scf.yield` without operands
// is implicit, and through the generic form, where it is written out.

// CHECK-LABEL: func.func @loops(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: memref<?xf32>, %[[X:.*]]: i32)
// CHECK:         scf.for %[[I:.*]] = %[[LB:.*]] to %[[N]] step %[[ST:.*]] {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:      memref.store %[[V]], %[[M]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]]:2 = scf.for %[[J:.*]] = %[[LB]] to %[[N]] step %[[ST]] iter_args(%[[P:.*]] = %[[LB]], %[[Q:.*]] = %[[N]]) -> (index, index) {
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[P]], %[[J]] : index
// CHECK-NEXT:      scf.yield %[[S]], %[[Q]] : index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %{{.*}} = %[[X]] to %[[X]] step %[[X]]  : i32 {
// CHECK-NEXT:    } {kiln.note}
// CHECK-NEXT:    scf.for unsigned %{{.*}} = %[[X]] to %[[X]] step %[[X]]  : i32 {
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]#0
// GENERIC-LABEL: sym_name = "loops"
// GENERIC:       "memref.store"
// GENERIC-NEXT:  "scf.yield"() : () -> ()
// GENERIC-NEXT:  }) : (index, index, index) -> ()
// GENERIC:       }) : (index, index, index, index, index) -> (index, index)
// GENERIC:       }) {kiln.note} : (i32, i32, i32) -> ()
// GENERIC:       "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}) <{unsignedCmp}> ({
func.func @loops(%n: index, %m: memref<?xf32>, %x: i32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%p = %c0, %q = %n) -> (index, index) {
    %s = arith.addi %p, %j : index
    scf.yield %s, %q : index, index
  }
  scf.for %k = %x to %x step %x : i32 {
    scf.yield
  } {kiln.note}
  scf.for unsigned %k = %x to %x step %x : i32 {
  }
  return %r#0 : index
}

// CHECK-LABEL: func.func @conditionals(
// CHECK-SAME:      %[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32, %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index)
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      memref.store %[[A]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      memref.store %[[A]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      memref.store %[[B]], %[[M]][%[[I]]] : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[C]] -> (f32) {
// CHECK-NEXT:      scf.yield %[[A]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[B]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}}:2 = scf.if %[[C]] -> (f32, index) {
// CHECK:         } {kiln.note}
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:    } else {
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// GENERIC-LABEL: sym_name = "conditionals"
// GENERIC:       "scf.yield"() : () -> ()
// GENERIC-NEXT:  }, {
// GENERIC-NEXT:  }) : (i1) -> ()
func.func @conditionals(%c: i1, %a: f32, %b: f32, %m: memref<4xf32>, %i: index) -> f32 {
  scf.if %c {
    memref.store %a, %m[%i] : memref<4xf32>
  }
  scf.if %c {
    memref.store %a, %m[%i] : memref<4xf32>
  } else {
    memref.store %b, %m[%i] : memref<4xf32>
  }
  %r = scf.if %c -> (f32) {
    scf.yield %a : f32
  } else {
    scf.yield %b : f32
  }
  %s:2 = scf.if %c -> (f32, index) {
    scf.yield %a, %i : f32, index
  } else {
    scf.yield %b, %i : f32, index
  } {kiln.note}
  scf.if %c {
  } else {
  }
  return %r : f32
}

// Loops and conditionals nest; the yields of a nested loop carry its values.
// CHECK-LABEL: func.func @nested(
// CHECK:         scf.for
// CHECK-NEXT:      %{{.*}} = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK-NEXT:        %[[T:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:        %[[V:.*]] = scf.if %[[T]] -> (f32) {
// CHECK:           scf.yield %[[V]] : f32
func.func @nested(%n: index, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %a) -> (f32) {
      %t = arith.cmpi slt, %i, %j : index
      %v = scf.if %t -> (f32) {
        scf.yield %acc : f32
      } else {
        scf.yield %a : f32
      }
      scf.yield %v : f32
    }
  }
  return
}
