#di_file = #llvm.di_file<"k.c" in "/src">
#map = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0) -> (d0 * 2)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0)>
#set = affine_set<(d0) : (d0 >= 0)>
#set1 = affine_set<(d0)[s0] : (d0 - s0 == 0)>
#sparse = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
"builtin.module"() ({
  %0 = "kiln.a"() {d = {a = 1 : i64, b = "two"}, m = #map, m2 = #map1, s = #set, t = tensor<4x4xf32>} : () -> tensor<4x4xf32>
  %1 = "kiln.b"() {maps = [#map, #map2, #map1], sets = [#set, #set1]} : () -> memref<4x4xf32, #map>
  "kiln.c"() ({
    "kiln.d"() {deep = #map3} : () -> ()
  }) {outer = #map4} : () -> ()
  %2 = "kiln.e"() {file = #di_file, sparse_enc = #sparse} : () -> tensor<4x4xf32, #sparse>
}) : () -> ()

