// RUN: not %kiln-opt %s --test-dialect-conversion --debug-only=dialect-conversion -o /dev/null 2>&1 | FileCheck %s
// RUN: not %kiln-opt %s --test-dialect-conversion --debug-only=other -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER --allow-empty
// The conversion driver's trace (MLIR's -debug-only=dialect-conversion): every op it
// legalizes, every pattern it tries and why a pattern declined. Another debug type prints
// nothing. The i32 multiply is illegal on purpose: the run fails after the trace.

// CHECK-LABEL: Legalizing operation : 'hl.add'
// CHECK-NEXT:    * Pattern : 'ElementwiseToTest' {
// CHECK-NEXT:    } -> SUCCESS
// CHECK-NEXT:  } -> SUCCESS
// CHECK-LABEL: Legalizing operation : 'hl.mul'
// CHECK-NEXT:    * Pattern : 'ElementwiseToTest' {
// CHECK-NEXT:      ** Failure : the result type tensor<4xi32> is not of f32 elements
// CHECK-NEXT:    } -> FAILURE : pattern failed to match
// CHECK-NEXT:  } -> FAILURE : no matched legalization pattern
// OTHER-NOT: Legalizing
func.func @f(%a: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = hl.add %a, %a : tensor<4xf32>
  %1 = hl.mul %i, %i : tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}
