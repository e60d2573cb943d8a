// Inputs mlir-opt 22 accepts that Kiln once refused (`with-mlir/mlir-agreement.mlir` checks
// that both print them alike): elements attributes typed as memrefs, an alias definition
// directly followed by a quoted op name, NUL bytes between tokens (skipped as whitespace),
// carriage returns (whitespace, and the end of a comment), whitespace between tokens MLIR
// lexes apart, hexadecimal integers where MLIR reads unsigned ones, element types, dialect
// names.
// RUN: %kiln-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: echo -e '\x00"x.nul"()\x00 {a = [1,\x00 2]\x00, b = "s\x00t"}\x00 : () -> (tensor<4x\x00f32>)\x00' > %t.nul.mlir
// RUN: %kiln-opt --allow-unregistered-dialect %t.nul.mlir | FileCheck %s --check-prefix=NUL
// RUN: echo -e '"x.cr"() : () -> () loc\r("f.mlir":0x1:0x2)\r// c\r"x.cr2"() {a = tensor\r<4xf32>, b = "s\rt"} : () -> ()' > %t.cr.mlir
// RUN: %kiln-opt --allow-unregistered-dialect --mlir-print-debuginfo %t.cr.mlir | FileCheck %s --check-prefix=CR

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

// CR: "x.cr"() : () -> () loc(#loc1)
// CR-NEXT: "x.cr2"() {a = tensor<4xf32>, b = "s\0Dt"} : () -> () loc(#loc2)
// CR: #loc1 = loc("f.mlir":1:2)
// CR-NEXT: #loc2 = loc("{{.*}}":1:49)

// Tokens as MLIR's lexer reads them: whitespace between a keyword and its bracket, between `-`
// and its number, around the `::` of a symbol reference and before a result number; hex line
// and column numbers (printed in decimal), result counts, distinct IDs, strides and affine
// constants.
// CHECK: %[[R:.*]]:2 = "x.ws"() {a = tensor<4xf32>, b = dense<[1, 2]> : tensor<2xi32>, c = -1 : i64,
// CHECK-SAME: d = -1.500000e+00 : f64, e = @a::@b, f = [@c::@d::@e], g = #[[HEX:loc[0-9]*]], h = #distinct,
// CHECK-SAME: i = strided<[4, -1], offset: 16>, j = #[[MAP:map[0-9]*]], k = #{{loc[0-9]*}}, l = #[[HEX]], m = #{{loc[0-9]*}}, n = #{{loc[0-9]*}}}
// CHECK-NEXT: "x.use"(%[[R]]#1, %[[R]]#0) : (i32, i32) -> ()
%r:0x2 = "x.ws"() {a = tensor <4xf32>, b = dense <[1, 2]> : tensor<2xi32>, c = - 1, d = -
  1.5, e = @a :: @b, f = [@c : : @d::@e], g = loc ("f.mlir":0x10:0x2), h = distinct[0x0]<0x1>,
  i = strided<[0x4, -0x1], offset: 0x10>, j = affine_map<(d0) -> (d0 * 0x2 + 0x10)>,
  k = loc(callsite("a"("f":0x1:0x2) at fused["f":0xA:0xB, "g":0x3])), l = loc("f.mlir":16:2),
  m = loc("f":1:2 to 0x3:0x4), n = loc("f":1:2 to :0x9)} : () -> (i32, i32) loc ("f.mlir":1:1)
"x.use"(%r #1, %r
  #0) : (i32, i32) -> ()

// Element types MLIR takes: memrefs of memrefs, vectors and complex numbers; vectors of
// `!llvm.ptr`; `!llvm.ppc_fp128` as a float; `!ptr.ptr` (memref and vector elements).
// CHECK: "x.elem"() : () -> (memref<4xmemref<2xf32>>, memref<4xmemref<*xf32>>, memref<*xvector<2xf32>>,
// CHECK-SAME: memref<4xcomplex<f32>>, tensor<4xvector<2xf32>>, tensor<4x!foo.bar>, vector<4x!llvm.ptr<1>>,
// CHECK-SAME: memref<4x!llvm.ppc_fp128>, complex<!llvm.ppc_fp128>, memref<4x!ptr.ptr<#ptr.generic_space>>)
"x.elem"() : () -> (memref<4xmemref<2xf32>>, memref<4xmemref<*xf32>>, memref<*xvector<2xf32>>,
  memref<4xcomplex<f32>>, tensor<4xvector<2xf32>>, tensor<4x!foo.bar>, vector<4x!llvm.ptr<1>>,
  memref<4x!llvm.ppc_fp128>, complex<!llvm.ppc_fp128>, memref<4x!ptr.ptr<#ptr.generic_space>>)

// Dialect names: `-` and `$` in pretty names, an empty one; a pretty name MLIR would not print
// as one prints in brackets.
// CHECK: "x.names"() {a = #foo<b-ar>, b = #foo<b-ar<1>>, c = #foo<b$ar>, d = !foo<0bar>, e = !foo<>, f = #foo<bar.baz-1>} : () -> ()
"x.names"() {a = #foo.b-ar, b = #foo.b-ar<1>, c = #foo.b$ar, d = !foo.0bar, e = !foo., f = #foo.bar.baz-1} : () -> ()
