// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Round trip of the `hl` ops the ONNX importer added (trigonometric and hyperbolic functions,
// rem, bitwise ops and shifts, element and tuple gathers and scatters, cumsum / cumprod, topk)
// through the custom and generic forms.

// CHECK-LABEL: func.func @onnx_ops(
// CHECK-SAME:      %[[A0:[^:]*]]: tensor<2x5xf32>, %[[A1:[^:]*]]: tensor<8xi32>, %[[A2:[^:]*]]: tensor<8xi32>, %[[A3:[^:]*]]: tensor<3x4xf32>, %[[A4:[^:]*]]: tensor<3x2xi64>, %[[A5:[^:]*]]: tensor<3x2xf32>, %[[A6:[^:]*]]: tensor<3x2xi32>, %[[A7:[^:]*]]: tensor<4x5x6xf16>, %[[A8:[^:]*]]: tensor<3xf32>)
// CHECK-NEXT:    %[[R:[^ ]+]] = hl.sin %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.cos %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.tan %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.asin %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.acos %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.atan %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.sinh %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.cosh %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.asinh %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.acosh %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.atanh %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.rem %[[A0]], %[[A0]] : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.bitwise_and %[[A1]], %[[A2]] : tensor<8xi32>
// CHECK-NEXT:    %{{.*}} = hl.bitwise_or %[[A1]], %[[A2]] : tensor<8xi32>
// CHECK-NEXT:    %{{.*}} = hl.bitwise_xor %[[A1]], %[[A2]] : tensor<8xi32>
// CHECK-NEXT:    %{{.*}} = hl.bitwise_not %[[A1]] : tensor<8xi32>
// CHECK-NEXT:    %{{.*}} = hl.shift_left %[[A1]], %[[A2]] : tensor<8xi32>
// CHECK-NEXT:    %{{.*}} = hl.shift_right %[[A1]], %[[A2]] : tensor<8xi32>
// CHECK-NEXT:    %{{.*}} = hl.gather_elements %[[A3]], %[[A4]] {axis = 1 : i64} : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}} = hl.gather_nd %[[A7]], %[[A6]] : tensor<4x5x6xf16>, tensor<3x2xi32> -> tensor<3x6xf16>
// CHECK-NEXT:    %{{.*}} = hl.scatter_elements %[[A3]], %[[A4]], %[[A5]] {axis = 1 : i64, reduction = "add"} : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = hl.scatter_nd %[[A3]], %[[A4]], %[[A8]] : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3xf32> -> tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = hl.cumsum %[[A0]] {axis = 1 : i64, exclusive = true} : tensor<2x5xf32>
// CHECK-NEXT:    %{{.*}} = hl.cumprod %[[A1]] {axis = 0 : i64, reverse = true} : tensor<8xi32>
// CHECK-NEXT:    %{{.*}}:2 = hl.topk %[[A0]] {axis = 1 : i64, k = 3 : i64} : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
// CHECK-NEXT:    return %[[R]] : tensor<2x5xf32>
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "onnx_ops"
// GENERIC:         "hl.bitwise_not"(%{{.*}}) : (tensor<8xi32>) -> tensor<8xi32>
// GENERIC:         "hl.gather_nd"(%{{.*}}, %{{.*}}) : (tensor<4x5x6xf16>, tensor<3x2xi32>) -> tensor<3x6xf16>
// GENERIC:         "hl.scatter_elements"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 1 : i64, reduction = "add"}> : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
// GENERIC:         "hl.cumsum"(%{{.*}}) <{axis = 1 : i64, exclusive = true}> : (tensor<2x5xf32>) -> tensor<2x5xf32>
// GENERIC:         %{{.*}}:2 = "hl.topk"(%{{.*}}) <{axis = 1 : i64, k = 3 : i64}> : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
func.func @onnx_ops(%x: tensor<2x5xf32>, %a: tensor<8xi32>, %b: tensor<8xi32>, %d: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>, %t: tensor<3x2xi32>, %n: tensor<4x5x6xf16>, %w: tensor<3xf32>) -> tensor<2x5xf32> {
  %0 = hl.sin %x : tensor<2x5xf32>
  %1 = hl.cos %x : tensor<2x5xf32>
  %2 = hl.tan %x : tensor<2x5xf32>
  %3 = hl.asin %x : tensor<2x5xf32>
  %4 = hl.acos %x : tensor<2x5xf32>
  %5 = hl.atan %x : tensor<2x5xf32>
  %6 = hl.sinh %x : tensor<2x5xf32>
  %7 = hl.cosh %x : tensor<2x5xf32>
  %8 = hl.asinh %x : tensor<2x5xf32>
  %9 = hl.acosh %x : tensor<2x5xf32>
  %10 = hl.atanh %x : tensor<2x5xf32>
  %11 = hl.rem %x, %x : tensor<2x5xf32>
  %12 = hl.bitwise_and %a, %b : tensor<8xi32>
  %13 = hl.bitwise_or %a, %b : tensor<8xi32>
  %14 = hl.bitwise_xor %a, %b : tensor<8xi32>
  %15 = hl.bitwise_not %a : tensor<8xi32>
  %16 = hl.shift_left %a, %b : tensor<8xi32>
  %17 = hl.shift_right %a, %b : tensor<8xi32>
  %18 = hl.gather_elements %d, %i {axis = 1 : i64} : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
  %19 = hl.gather_nd %n, %t : tensor<4x5x6xf16>, tensor<3x2xi32> -> tensor<3x6xf16>
  %20 = hl.scatter_elements %d, %i, %u {axis = 1 : i64, reduction = "add"} : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32> -> tensor<3x4xf32>
  %21 = hl.scatter_nd %d, %i, %w : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3xf32> -> tensor<3x4xf32>
  %22 = hl.cumsum %x {axis = 1 : i64, exclusive = true} : tensor<2x5xf32>
  %23 = hl.cumprod %a {axis = 0 : i64, reverse = true} : tensor<8xi32>
  %24, %25 = hl.topk %x {axis = 1 : i64, k = 3 : i64} : tensor<2x5xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  return %0 : tensor<2x5xf32>
}
