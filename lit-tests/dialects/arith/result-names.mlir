// RUN: %kiln-opt %s | FileCheck %s --strict-whitespace --match-full-lines
// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s --strict-whitespace --match-full-lines
// Result-name hints as mlir-opt 22 prints them (its output, verbatim): arith.constant names
// `%c<value>` (`_<type>` for integers other than index), `%true`/`%false`, `%cst`; memref.alloc
// `%alloc`. A name used already in the region or an enclosing one gets `_N` from a conflict
// counter that each region restarts from its parent's; sibling regions reuse names.

//      CHECK:module {
// CHECK-NEXT:  func.func @f(%arg0: index, %arg1: memref<4xf32>) -> index {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c0_0 = arith.constant 0 : index
// CHECK-NEXT:    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:    %cst_1 = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-NEXT:    %0 = arith.addi %arg0, %c0 : index
// CHECK-NEXT:    %alloc = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    scf.for %arg2 = %c0 to %arg0 step %c0_0 {
// CHECK-NEXT:      %c0_2 = arith.constant 0 : index
// CHECK-NEXT:      %2 = arith.addi %arg2, %c0_2 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    %1 = scf.if %true -> (index) {
// CHECK-NEXT:      %c5 = arith.constant 5 : index
// CHECK-NEXT:      scf.yield %c5 : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %c5 = arith.constant 5 : index
// CHECK-NEXT:      scf.yield %c5 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    %c-3 = arith.constant -3 : index
// CHECK-NEXT:    return %0 : index
// CHECK-NEXT:  }
// CHECK-NEXT:}

func.func @f(%a: index, %m: memref<4xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c0_1 = arith.constant 0 : index
  %c1 = arith.constant 1 : i32
  %t = arith.constant true
  %f = arith.constant 1.5 : f32
  %v = arith.constant dense<1.0> : vector<4xf32>
  %x = arith.addi %a, %c0 : index
  %al = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %a step %c0_1 {
    %c0_2 = arith.constant 0 : index
    %y = arith.addi %i, %c0_2 : index
  }
  %r = scf.if %t -> index {
    %c5 = arith.constant 5 : index
    scf.yield %c5 : index
  } else {
    %c5 = arith.constant 5 : index
    scf.yield %c5 : index
  }
  %n = arith.constant -3 : index
  return %x : index
}
