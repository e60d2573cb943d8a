"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x4x4x2xi8>) -> tensor<2x3xf32>, sym_name = "tosa"}> ({
  ^bb0(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<1x4x4x2xi8>):
    %0 = "tosa.add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = "tosa.mul"(%0, %arg1, %1) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
    %3 = "tosa.clamp"(%2) <{max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32, nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "tosa.exp"(%3) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "tosa.reduce_sum"(%4) <{axis = 1 : i32}> : (tensor<2x3xf32>) -> tensor<2x1xf32>
    %6 = "tosa.const"() <{values = dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %7 = "tosa.sub"(%4, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "tosa.transpose"(%7) <{perms = array<i32: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %9 = "tosa.abs"(%7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "tosa.cast"(%9) : (tensor<2x3xf32>) -> tensor<2x3xf16>
    "func.return"(%9) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) : () -> ()

