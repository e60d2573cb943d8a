// RUN: %kiln-opt --allow-unregistered-dialect --tosa-to-hl --dce %s | FileCheck %s
// TOSA (MLIR 22) as mlir-opt --mlir-print-op-generic prints it: zero points, shifts and
// shape operands are read and dropped; NHWC convolutions get transposes to NCHW.

// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT:    %[[M:.*]] = hl.mul %arg0, %arg1 : tensor<2x3xf32>, tensor<1x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %[[N:.*]] = hl.neg %[[M]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = hl.round %[[N]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = hl.cast %[[R]] : tensor<2x3xf32> -> tensor<2x3xi32>
// CHECK-NEXT:    return %[[C]]

// CHECK-LABEL: func.func @layout(
// CHECK-NEXT:    %[[P:.*]] = hl.pad %arg0 {high = [0, 0], low = [0, 1], value = -1.000000e+00 : f32} : tensor<2x3xf32> -> tensor<2x4xf32>
// CHECK-NEXT:    %[[S:.*]] = hl.reshape %[[P]] : tensor<2x4xf32> -> tensor<1x2x4xf32>
// CHECK-NEXT:    %[[T:.*]] = hl.broadcast_to %[[S]] : tensor<1x2x4xf32> -> tensor<3x2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = hl.reduce_min %[[T]] {axes = [1], keep_dims = true} : tensor<3x2x4xf32> -> tensor<3x1x4xf32>
// CHECK-NEXT:    hl.reshape %[[R]] : tensor<3x1x4xf32> -> tensor<3x4xf32>

// CHECK-LABEL: func.func @gather(
// CHECK-NEXT:    %[[V:.*]] = hl.reshape %arg0 : tensor<2x5x4xf32> -> tensor<10x4xf32>
// CHECK-NEXT:    %[[O:.*]] = hl.constant dense<{{\[\[}}0, 0, 0], [5, 5, 5]]> : tensor<2x3xi32>
// CHECK-NEXT:    %[[I:.*]] = hl.add %arg1, %[[O]] : tensor<2x3xi32>
// CHECK-NEXT:    %[[F:.*]] = hl.reshape %[[I]] : tensor<2x3xi32> -> tensor<6xi32>
// CHECK-NEXT:    %[[G:.*]] = hl.gather %[[V]], %[[F]] {axis = 0 : i64} : tensor<10x4xf32>, tensor<6xi32> -> tensor<6x4xf32>
// CHECK-NEXT:    hl.reshape %[[G]] : tensor<6x4xf32> -> tensor<2x3x4xf32>

// The zero bias is dropped; pads [top, bottom, left, right] become [top, left, bottom, right].
// CHECK-LABEL: func.func @conv(
// CHECK-NEXT:    %[[X:.*]] = hl.transpose %arg0 {perm = [0, 3, 1, 2]} : tensor<1x8x8x3xf32> -> tensor<1x3x8x8xf32>
// CHECK-NEXT:    %[[W:.*]] = hl.transpose %arg1 {perm = [0, 3, 1, 2]} : tensor<4x3x3x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = hl.conv2d %[[X]], %[[W]] {dilation = [1, 1], padding = [0, 0, 1, 1], strides = [2, 3]} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x4x3xf32>
// CHECK-NEXT:    hl.transpose %[[Y]] {perm = [0, 2, 3, 1]} : tensor<1x4x4x3xf32> -> tensor<1x4x3x4xf32>

"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi32>, sym_name = "elementwise"}> ({
  ^bb0(%arg5: tensor<2x3xf32>, %arg6: tensor<1x3xf32>):
    %14 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %15 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %16 = "tosa.mul"(%arg5, %arg6, %14) : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
    %17 = "tosa.negate"(%16, %15, %15) : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    %18 = "tosa.greater_equal"(%17, %arg6) : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
    %19 = "tosa.cast"(%17) : (tensor<2x3xf32>) -> tensor<2x3xi32>
    "func.return"(%19) : (tensor<2x3xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3xf32>) -> tensor<3x4xf32>, sym_name = "layout"}> ({
  ^bb0(%arg4: tensor<2x3xf32>):
    %4 = "tosa.const_shape"() <{values = dense<[0, 0, 1, 0]> : tensor<4xindex>}> : () -> !tosa.shape<4>
    %5 = "tosa.const"() <{values = dense<-1.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %6 = "tosa.pad"(%arg4, %4, %5) : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x4xf32>
    %7 = "tosa.const_shape"() <{values = dense<[1, 2, 4]> : tensor<3xindex>}> : () -> !tosa.shape<3>
    %8 = "tosa.reshape"(%6, %7) : (tensor<2x4xf32>, !tosa.shape<3>) -> tensor<1x2x4xf32>
    %9 = "tosa.const_shape"() <{values = dense<[3, 1, 1]> : tensor<3xindex>}> : () -> !tosa.shape<3>
    %10 = "tosa.tile"(%8, %9) : (tensor<1x2x4xf32>, !tosa.shape<3>) -> tensor<3x2x4xf32>
    %11 = "tosa.reduce_min"(%10) <{axis = 1 : i32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<3x2x4xf32>) -> tensor<3x1x4xf32>
    %12 = "tosa.const_shape"() <{values = dense<[3, 4]> : tensor<2xindex>}> : () -> !tosa.shape<2>
    %13 = "tosa.reshape"(%11, %12) : (tensor<3x1x4xf32>, !tosa.shape<2>) -> tensor<3x4xf32>
    "func.return"(%13) : (tensor<3x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x5x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>, sym_name = "gather"}> ({
  ^bb0(%arg2: tensor<2x5x4xf32>, %arg3: tensor<2x3xi32>):
    %3 = "tosa.gather"(%arg2, %arg3) : (tensor<2x5x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
    "func.return"(%3) : (tensor<2x3x4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x4xf32>, sym_name = "conv"}> ({
  ^bb0(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<4x3x3x3xf32>):
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = "tosa.conv2d"(%arg0, %arg1, %0, %1, %1) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 3>}> : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3x4xf32>
    "func.return"(%2) : (tensor<1x4x3x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()


// `arith` on tensors around the TOSA ops (as exporters write them, and as hl-to-tosa writes
// float division); scalar `arith` stays.
// CHECK-LABEL: func.func @around(
// CHECK-NEXT:    %[[K:.*]] = hl.constant dense<2.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    %[[A:.*]] = hl.add %arg0, %[[K]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[D:.*]] = hl.div %[[A]], %arg0 : tensor<2x3xf32>
// CHECK-NEXT:    %[[N:.*]] = hl.neg %[[D]] : tensor<2x3xf32>
// CHECK-NEXT:    %[[Q:.*]] = hl.div %arg1, %arg1 : tensor<2x3xi32>
// CHECK-NEXT:    %[[I:.*]] = arith.constant 1 : index
// CHECK-NEXT:    return %[[N]], %[[Q]], %[[I]]
func.func @around(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>, index) {
  %k = "arith.constant"() <{value = dense<2.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %0 = "arith.addf"(%a, %k) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "arith.divf"(%0, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "arith.negf"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "tosa.intdiv"(%b, %b) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %i = "arith.constant"() <{value = 1 : index}> : () -> index
  return %2, %3, %i : tensor<2x3xf32>, tensor<2x3xi32>, index
}
