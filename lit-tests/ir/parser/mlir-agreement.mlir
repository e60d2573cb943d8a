// Inputs mlir-opt 22 accepts that Kiln once refused (`with-mlir/mlir-agreement.mlir` checks
// that both print them alike): elements attributes typed as memrefs, an alias definition
// directly followed by a quoted op name, NUL bytes between tokens (skipped as whitespace).
// RUN: %kiln-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: echo -e '\x00"x.nul"()\x00 {a = [1,\x00 2]\x00, b = "s\x00t"}\x00 : () -> (tensor<4x\x00f32>)\x00' > %t.nul.mlir
// RUN: %kiln-opt --allow-unregistered-dialect %t.nul.mlir | FileCheck %s --check-prefix=NUL

// CHECK-LABEL: "x.r"() {a = [1]} : () -> ()
#x = [1]"x.r"() {a = #x} : () -> ()
// CHECK: "x.s"() {a = #map} : () -> ()
#y = affine_map<(d0) -> (d0)>"x.s"() {a = #y} : () -> ()
// CHECK: "x.t"() {a = 7 : i64} : () -> ()
#z = 7"x.t"() {a = #z} : () -> ()
// CHECK: "x.u"() {a = {b}} : () -> ()
#w = {b}"x.u"() {a = #w} : () -> ()

// CHECK: "x.memref"() {a = dense<[1, 2]> : memref<2xi32>, b = dense<1.000000e+00> : memref<2x2xf32>,
// CHECK-SAME: c = dense_resource<blob1> : memref<4xf32>, d = sparse<0, 5> : memref<3xi32>,
// CHECK-SAME: e = dense<> : memref<0xi8>, f = dense_resource<b2> : memref<?xf32>,
// CHECK-SAME: g = dense_resource<b3> : tensor<*xi8>, h = dense<1> : memref<2xi32, 1>,
// CHECK-SAME: i = dense_resource<b4> : memref<*xf16, 2>} : () -> ()
"x.memref"() {a = dense<[1, 2]> : memref<2xi32>, b = dense<1.0> : memref<2x2xf32>,
              c = dense_resource<blob1> : memref<4xf32>, d = sparse<[[0]], [5]> : memref<3xi32>,
              e = dense<> : memref<0xi8>, f = dense_resource<b2> : memref<?xf32>,
              g = dense_resource<b3> : tensor<*xi8>, h = dense<1> : memref<2xi32, 1>,
              i = dense_resource<b4> : memref<*xf16, 2>} : () -> ()

// NUL: %0 = "x.nul"() {a = [1, 2], b = "s\00t"} : () -> tensor<4xf32>
