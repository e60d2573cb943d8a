"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x?xf32>, index, tensor<f32>, tensor<*xf32>) -> tensor<?x4xf32>, sym_name = "tensors"}> ({
  ^bb0(%arg0: tensor<4x?xf32>, %arg1: index, %arg2: tensor<f32>, %arg3: tensor<*xf32>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "arith.constant"() <{value = 1 : index}> : () -> index
    %2 = "tensor.dim"(%arg0, %1) : (tensor<4x?xf32>, index) -> index
    %3 = "tensor.empty"(%2) : (index) -> tensor<?x4xf32>
    %4 = "tensor.extract"(%arg0, %0, %1) : (tensor<4x?xf32>, index, index) -> f32
    %5 = "tensor.insert"(%4, %3, %1, %0) : (f32, tensor<?x4xf32>, index, index) -> tensor<?x4xf32>
    %6 = "tensor.extract_slice"(%arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0, 1>, static_sizes = array<i64: 2, -9223372036854775808>, static_strides = array<i64: 1, 1>}> : (tensor<4x?xf32>, index) -> tensor<2x?xf32>
    %7 = "tensor.cast"(%arg0) : (tensor<4x?xf32>) -> tensor<*xf32>
    %8 = "tensor.from_elements"(%4, %4) : (f32, f32) -> tensor<2xf32>
    %9 = "tensor.generate"(%arg1) ({
    ^bb0(%arg5: index, %arg6: index):
      %16 = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      "tensor.yield"(%16) : (f32) -> ()
    }) : (index) -> tensor<?x3xf32>
    %10 = "tensor.collapse_shape"(%6) <{reassociation = [[0, 1]]}> : (tensor<2x?xf32>) -> tensor<?xf32>
    %11 = "tensor.expand_shape"(%8) <{reassociation = [[0, 1]], static_output_shape = array<i64: 1, 2>}> : (tensor<2xf32>) -> tensor<1x2xf32>
    %12 = "tensor.pad"(%8, %arg1) <{operandSegmentSizes = array<i32: 1, 0, 1>, static_high = array<i64: -9223372036854775808>, static_low = array<i64: 1>}> ({
    ^bb0(%arg4: index):
      "tensor.yield"(%4) : (f32) -> ()
    }) : (tensor<2xf32>, index) -> tensor<?xf32>
    %13 = "tensor.insert_slice"(%6, %arg0, %arg1) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 2, -9223372036854775808>, static_strides = array<i64: 1, 1>}> : (tensor<2x?xf32>, tensor<4x?xf32>, index) -> tensor<4x?xf32>
    %14 = "tensor.rank"(%arg3) : (tensor<*xf32>) -> index
    %15 = "tensor.splat"(%4) : (f32) -> tensor<3x3xf32>
    "func.return"(%5) : (tensor<?x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

