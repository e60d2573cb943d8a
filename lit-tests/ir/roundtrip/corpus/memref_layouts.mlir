#map = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>
#map1 = affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<16x16xf32, strided<[16, 1], offset: ?>>, index, memref<*xf32, 3>) -> (), sym_name = "memrefs"}> ({
  ^bb0(%arg0: memref<16x16xf32, strided<[16, 1], offset: ?>>, %arg1: index, %arg2: memref<*xf32, 3>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "memref.alloc"(%arg1) <{alignment = 64 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?x8xf32, 1>
    %2 = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xi32, #gpu.address_space<workgroup>>
    %3 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<16x16xf32, #map>
    %4 = "memref.alloc"(%arg1) <{operandSegmentSizes = array<i32: 0, 1>}> : (index) -> memref<4x4xf32, #map1>
    %5 = "memref.load"(%arg0, %0, %0) : (memref<16x16xf32, strided<[16, 1], offset: ?>>, index, index) -> f32
    "memref.store"(%5, %1, %0, %0) : (f32, memref<?x8xf32, 1>, index, index) -> ()
    %6 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 1, 1>}> : (memref<16x16xf32, strided<[16, 1], offset: ?>>) -> memref<4x4xf32, strided<[16, 1], offset: ?>>
    %7 = "memref.cast"(%1) : (memref<?x8xf32, 1>) -> memref<?x?xf32, 1>
    %8 = "memref.reinterpret_cast"(%1, %arg1) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808, 8>, static_strides = array<i64: 8, 1>}> : (memref<?x8xf32, 1>, index) -> memref<?x8xf32, strided<[8, 1]>, 1>
    %9 = "memref.dim"(%1, %0) : (memref<?x8xf32, 1>, index) -> index
    %10 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2x3xf32, strided<[3, 1]>>
    %11 = "memref.get_global"() <{name = @gv}> : () -> memref<2xf32>
    "memref.copy"(%11, %11) : (memref<2xf32>, memref<2xf32>) -> ()
    "memref.dealloc"(%1) : (memref<?x8xf32, 1>) -> ()
    %12 = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xvector<4xf32>, "private">
    "func.return"() : () -> ()
  }) : () -> ()
  "memref.global"() <{constant, initial_value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, sym_name = "gv", sym_visibility = "private", type = memref<2xf32>}> : () -> ()
  "memref.global"() <{initial_value, sym_name = "uninit", type = memref<3xi8>}> : () -> ()
}) : () -> ()

