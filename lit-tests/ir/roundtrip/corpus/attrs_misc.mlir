#distinct = distinct[0]<"payload">
#loc = loc("attr.mlir":3:4)
#map = affine_map<() -> ()>
#map1 = affine_map<()[s0, s1] -> (s0 * s1, s0 mod 7)>
#map2 = affine_map<(d0) -> (d0)>
#set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>
#set1 = affine_set<() : (0 == 0)>
"builtin.module"() ({
  "kiln.misc"() {amap_empty = #map, amap_sym = #map1, arr = [1, 2 : i32, 3.000000e+00, 4.000000e+00 : f16, "s", @s, unit, [], [[1]], {k = 1 : i64}, i8, #map2, true], darr_empty = array<i32>, darr_empty_f = array<f64>, darr_f32 = array<f32: 1.000000e+00, 1.000000e-01, -0.000000e+00>, darr_f64 = array<f64: 1.000000e+300, 5.000000e-01>, darr_i1 = array<i1: true, false, true>, darr_i16 = array<i16: 1, -1>, darr_i32 = array<i32: 1, 2, 3>, darr_i64 = array<i64: -9223372036854775808, 9223372036854775807>, darr_i8 = array<i8: -128, 127, 0>, dict = {a = "x", m = {inner = [1, 2]}, "quoted key", z = 1 : i64}, distinct1 = #distinct, distinct2 = distinct[1]<>, empty_arr = [], empty_dict = {}, explicit_unit, int_set = #set, int_set_empty = #set1, loc_attr = #loc, nested_sym = @a::@b::@c, none_type = none, opaque1 = #kiln.attr, opaque2 = #kiln.attr<1, [2, 3], "four">, opaque3 = #kiln<"raw data here">, opaque4 = #kiln.attr, opaque5 = #kiln.a.b.c, opaque6 = #kiln<"9starts_with_digit">, strided1 = strided<[4, 1]>, strided2 = strided<[?, 1], offset: ?>, strided3 = strided<[1], offset: 7>, sym = @top, type_fn = (i32, f32) -> index, type_i32 = i32, type_opaque = !kiln.opaque<"x">, type_tensor = tensor<?x4xf32>, unit_attr} : () -> ()
}) : () -> ()

