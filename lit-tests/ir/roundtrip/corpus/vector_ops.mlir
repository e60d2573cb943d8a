#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
"builtin.module"() ({
  "func.func"() <{function_type = (vector<4xf32>, vector<[4]xf32>, memref<?xf32>, f32, vector<[4]xi1>) -> vector<4xf32>, sym_name = "vectors"}> ({
  ^bb0(%arg0: vector<4xf32>, %arg1: vector<[4]xf32>, %arg2: memref<?xf32>, %arg3: f32, %arg4: vector<[4]xi1>):
    %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    %1 = "vector.broadcast"(%arg3) : (f32) -> vector<4xf32>
    %2 = "arith.addf"(%arg0, %1) <{fastmath = #arith.fastmath<none>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %3 = "vector.shuffle"(%arg0, %2) <{mask = array<i64: 0, 4, 1, 5>}> : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %4 = "vector.extract"(%3) <{static_position = array<i64: 2>}> : (vector<4xf32>) -> f32
    %5 = "vector.insert"(%4, %arg0) <{static_position = array<i64: 0>}> : (f32, vector<4xf32>) -> vector<4xf32>
    %6 = "vector.fma"(%arg0, %5, %2) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
    %7 = "vector.reduction"(%6) <{fastmath = #arith.fastmath<none>, kind = #vector.kind<add>}> : (vector<4xf32>) -> f32
    %8 = "vector.load"(%arg2, %0) : (memref<?xf32>, index) -> vector<[4]xf32>
    %9 = "arith.addf"(%8, %arg1) <{fastmath = #arith.fastmath<none>}> : (vector<[4]xf32>, vector<[4]xf32>) -> vector<[4]xf32>
    "vector.store"(%9, %arg2, %0) : (vector<[4]xf32>, memref<?xf32>, index) -> ()
    %10 = "vector.maskedload"(%arg2, %0, %arg4, %arg1) : (memref<?xf32>, index, vector<[4]xi1>, vector<[4]xf32>) -> vector<[4]xf32>
    %11 = "vector.transfer_read"(%arg2, %0, %arg3) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = #map}> : (memref<?xf32>, index, f32) -> vector<4xf32>
    %12 = "vector.broadcast"(%arg3) : (f32) -> vector<2x[8]xf32>
    %13 = "vector.transpose"(%12) <{permutation = array<i64: 1, 0>}> : (vector<2x[8]xf32>) -> vector<[8]x2xf32>
    %14 = "vector.vscale"() : () -> index
    %15 = "vector.create_mask"(%0) : (index) -> vector<[4]xi1>
    %16 = "vector.broadcast"(%arg3) : (f32) -> vector<[2]x[2]xf32>
    %17 = "arith.constant"() <{value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>}> : () -> vector<4xf32>
    %18 = "arith.constant"() <{value = dense<0.000000e+00> : vector<[4]xf32>}> : () -> vector<[4]xf32>
    %19 = "vector.step"() : () -> vector<[4]xindex>
    %20 = "vector.contract"(%arg0, %17, %arg3) <{indexing_maps = [#map, #map, #map1], iterator_types = [#vector.iterator_type<reduction>], kind = #vector.kind<add>}> : (vector<4xf32>, vector<4xf32>, f32) -> f32
    %21 = "vector.extract"(%12) <{static_position = array<i64: 0, 0>}> : (vector<2x[8]xf32>) -> f32
    "func.return"(%11) : (vector<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()

