#map = affine_map<(d0, d1) -> (d0, d1 + 1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0 * 2 + d1 floordiv 3)>
#map3 = affine_map<(d0)[s0] -> (d0 + s0, 100)>
#map4 = affine_map<() -> (0)>
#map5 = affine_map<() -> (100)>
#map6 = affine_map<(d0)[s0] -> (d0 + s0)>
#map7 = affine_map<() -> (10)>
#map8 = affine_map<(d0) -> (d0, 50)>
#map9 = affine_map<(d0)[s0] -> (d0 - s0, 0)>
#map10 = affine_map<() -> (0, 0)>
#map11 = affine_map<() -> (10, 20)>
#set = affine_set<(d0, d1)[s0] : (d0 - 10 >= 0, -d0 + s0 - 9 >= 0, d1 == 0)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<100x100xf32>, index) -> (), sym_name = "affine"}> ({
  ^bb0(%arg0: memref<100x100xf32>, %arg1: index):
    "affine.for"() <{lowerBoundMap = #map4, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = #map5}> ({
    ^bb0(%arg6: index):
      "affine.for"(%arg6, %arg1, %arg6, %arg1) <{lowerBoundMap = #map3, operandSegmentSizes = array<i32: 2, 2, 0>, step = 4 : index, upperBoundMap = #map3}> ({
      ^bb0(%arg7: index):
        %5 = "affine.load"(%arg0, %arg6, %arg7) <{map = #map}> : (memref<100x100xf32>, index, index) -> f32
        "affine.if"(%arg6, %arg7, %arg1) <{condition = #set}> ({
          "affine.store"(%5, %arg0, %arg7, %arg6) <{map = #map1}> : (f32, memref<100x100xf32>, index, index) -> ()
          "affine.yield"() : () -> ()
        }, {
          %6 = "affine.apply"(%arg6, %arg7) <{map = #map2}> : (index, index) -> index
          "affine.yield"() : () -> ()
        }) : (index, index, index) -> ()
        "affine.yield"() : () -> ()
      }) : (index, index, index, index) -> ()
      "affine.yield"() : () -> ()
    }) : () -> ()
    %0 = "affine.for"(%arg1) <{lowerBoundMap = #map4, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = #map7}> ({
    ^bb0(%arg4: index, %arg5: index):
      %4 = "affine.apply"(%arg4, %arg5) <{map = #map6}> : (index, index) -> index
      "affine.yield"(%4) : (index) -> ()
    }) : (index) -> index
    %1 = "affine.min"(%0) <{map = #map8}> : (index) -> index
    %2 = "affine.max"(%1, %arg1) <{map = #map9}> : (index, index) -> index
    "affine.parallel"() <{lowerBoundsGroups = dense<1> : tensor<2xi32>, lowerBoundsMap = #map10, reductions = [], steps = [1, 1], upperBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = #map11}> ({
    ^bb0(%arg2: index, %arg3: index):
      %3 = "affine.load"(%arg0, %arg2, %arg3) <{map = #map1}> : (memref<100x100xf32>, index, index) -> f32
      "affine.yield"() : () -> ()
    }) : () -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()

