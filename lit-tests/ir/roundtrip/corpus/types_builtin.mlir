#map = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0) -> (d0 + 4)>
"builtin.module"() ({
  %0:14 = "kiln.ints"() : () -> (i1, i2, i8, i16, i32, i64, i128, i1024, si8, si32, ui1, ui64, index, none)
  %1:18 = "kiln.floats"() : () -> (f16, bf16, f32, f64, f80, f128, tf32, f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ, f8E4M3, f8E3M4, f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E8M0FNU)
  %2:6 = "kiln.compound"() : () -> (complex<f32>, complex<i8>, complex<f64>, tuple<>, tuple<i32>, tuple<i32, tuple<f32, none>>)
  %3:10 = "kiln.tensors"() : () -> (tensor<f32>, tensor<4xf32>, tensor<?x4x?xi8>, tensor<*xf32>, tensor<0xf32>, tensor<4x4xf32, "enc">, tensor<4xf32, #kiln.enc<1>>, tensor<1x2x3x4xcomplex<f64>>, tensor<2xvector<4xf32>>, tensor<*x!kiln.elt>)
  %4:17 = "kiln.memrefs"() : () -> (memref<f32>, memref<4xf32>, memref<?x4xf32, 1>, memref<4xf32, "gpu">, memref<*xf32>, memref<*xf32, 3>, memref<4x4xf32, strided<[4, 1], offset: ?>>, memref<4x4xf32, strided<[?, 1]>>, memref<4x4xf32, strided<[4, 1]>>, memref<4x4xf32, #map>, memref<4x4xf32>, memref<4x?xf32, strided<[?, ?], offset: 5>, 2>, memref<4xvector<4xf32>>, memref<2xi32, #gpu.address_space<private>>, memref<*xi8, #gpu.address_space<global>>, memref<8xf32, #map1, 7>, memref<4xf32>)
  %5:7 = "kiln.vectors"() : () -> (vector<4xf32>, vector<[4]xf32>, vector<2x[4]xf32>, vector<[2]x[4]xi1>, vector<1x2x3xindex>, vector<4x[8]x2xbf16>, vector<16xi1>)
  %6:6 = "kiln.functions"() : () -> (() -> (), (i32) -> i32, (i32, i32) -> (i32, i32), () -> (() -> ()), (() -> ()) -> ((i32) -> i32), (i1) -> ((i32) -> i32, i1))
  %7:9 = "kiln.opaque"() : () -> (!kiln.t, !kiln.t<1, "x">, !kiln<"quoted body">, !kiln.simple, !kiln.t<[1, 2]>, !kiln.x<{a = 1}>, !kiln<"with \"escape\"">, !kiln.a.b, !kiln.p<!kiln.q<i32>>)
  "kiln.typed_operands"(%8#0, %8#13) : (i1, none) -> ()
  %8:14 = "kiln.ints2"() : () -> (i1, i2, i8, i16, i32, i64, i128, i1024, si8, si32, ui1, ui64, index, none)
}) : () -> ()

