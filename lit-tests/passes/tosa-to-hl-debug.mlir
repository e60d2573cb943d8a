// RUN: not %kiln-opt --allow-unregistered-dialect %s --tosa-to-hl --debug-only=dialect-conversion -o /dev/null 2>&1 | FileCheck %s
// tosa-to-hl in the conversion driver's trace: one pattern per op, named after the op it is
// rooted on and tried on that op only; the `arith` step first (no pattern for the TOSA ops),
// then the TOSA ops. The tile of a dim of size 2 is no broadcast: its pattern declines and
// the run fails after the trace.

// CHECK:       Legalizing operation : 'tosa.exp'
// CHECK-NEXT:  } -> FAILURE : no matched legalization pattern
// CHECK:       Legalizing operation : 'arith.addf'
// CHECK-NEXT:    * Pattern : 'arith.addf' {
// CHECK-NEXT:    } -> SUCCESS
// CHECK-NEXT:  } -> SUCCESS
// CHECK:       Legalizing operation : 'tosa.exp'
// CHECK-NEXT:    * Pattern : 'tosa.exp' {
// CHECK-NEXT:    } -> SUCCESS
// CHECK-NEXT:  } -> SUCCESS
// CHECK:       Legalizing operation : 'tosa.tile'
// CHECK-NEXT:    * Pattern : 'tosa.tile' {
// CHECK-NEXT:      ** Failure : tiles a dim of size other than 1
// CHECK-NEXT:    } -> FAILURE : pattern failed to match
// CHECK-NEXT:  } -> FAILURE : no matched legalization pattern
// CHECK:       error: failed to legalize operation 'tosa.tile' that was explicitly marked illegal
// CHECK:       note: patterns tried: tosa.tile
// CHECK-NEXT:  note: 'tosa.tile' declined: tiles a dim of size other than 1
func.func @f(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>) {
  %m = "tosa.const_shape"() <{values = dense<[2, 1]> : tensor<2xindex>}> : () -> !tosa.shape<2>
  %0 = "tosa.exp"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "arith.addf"(%0, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "tosa.tile"(%1, %m) : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
  return %1, %2 : tensor<2x3xf32>, tensor<4x3xf32>
}
