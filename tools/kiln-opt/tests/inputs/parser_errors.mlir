// Inputs the parser refuses, one per split: tests/verifier_vs_mlir_opt.rs compares kiln-opt's
// diagnostics with mlir-opt 22's byte for byte (messages and columns). Lexer: suffix-ids,
// `@` identifiers, `.`; result counts; location line and column numbers; inline locations;
// symbol references; element types of memref, tensor, vector and complex; dialect namespaces
// and bodies; integers of strided layouts and affine maps; string escapes, in reading order.

// A numeric suffix-id is all digits.
%0$ = "x.a"() : () -> i32

// -----

%0 = "x.a"() : () -> i32
"x.b"(%0$) : (i32) -> ()

// -----

%0abc = "x.a"() : () -> i32

// -----

"x.a"() ({
^0a:
  "x.b"() : () -> ()
}) : () -> ()

// -----

#0a = 1

// -----

!0a = i32

// -----

#0 = 1
"x.a"() {a = #0foo} : () -> ()

// -----

"x.a"() {a = @0a} : () -> ()

// -----

"x.a"() {a = @a-b} : () -> ()

// -----

"x.a"() {a = [1, .5]} : () -> ()

// -----

"x.a"() .. : () -> ()

// -----

%0:0 = "x.a"() : () -> ()

// -----

%0:0x0 = "x.a"() : () -> ()

// -----

%0:4294967297 = "x.a"() : () -> i32

// -----

%0:2 = "x.a"() : () -> (i32, i32)
"x.b"(%0#0x1) : (i32) -> ()

// -----

"x.a"() : () -> () loc("f.mlir":4294967296:0)

// -----

"x.a"() : () -> () loc("f.mlir":1:0x100000000)

// -----

"x.a"() : () -> () loc("f.mlir":1:2 to 4294967296:1)

// -----

"x.a"() : () -> () loc("f.mlir":0X10:1)

// -----

"x.a"() : () -> () loc("f.mlir":1.5:1)

// -----

"x.a"() {a = loc("f.mlir":0x:1)} : () -> ()

// -----

"x.a"() {a = loc} : () -> ()

// -----

"x.a"() : () -> () loc "f"

// -----

#l = loc(#x)

// -----

#x = 1
"x.a"() {a = loc(#x)} : () -> ()

// -----

"x.a"() {a = @a : i32} : () -> ()


// -----

"x.a"() : () -> memref<4xtensor<2xf32>>

// -----

"x.a"() : () -> memref<4xtuple<i32>>

// -----

"x.a"() : () -> memref<*x!foo.bar>

// -----

"x.a"() : () -> memref<4x!llvm.ptr>

// -----

"x.a"() : () -> tensor<4xmemref<2xf32>>

// -----

"x.a"() : () -> tensor<*xtuple<>>

// -----

"x.a"() : () -> vector<4xtensor<2xf32>>

// -----

"x.a"() : () -> vector<4x!foo.bar>

// -----

"x.a"() : () -> vector<2x0x[0]xf32>

// -----

"x.a"() : () -> vector<0xtensor<f32>>

// -----

"x.a"() : () -> (i1, complex<
  index>)

// -----

"x.a"() {a = #-foo.bar} : () -> ()

// -----

"x.a"() : () -> !foo-<1>

// -----

"x.a"() {a = strided<[-9223372036854775808]>} : () -> ()

// -----

"x.a"() {a = affine_map<(d0) -> (d0 + 0x8000000000000000)>} : () -> ()

// -----

"x.a"() {a = ["x\q", 1 2]} : () -> ()

// -----

"x.a"() {a = [1 2, "x\q"]} : () -> ()

// -----

"x.a"() {a = ["a" "x\q"]} : () -> ()

// -----

"x.a"() : () -> !foo<"x\q">

// -----

"x.a"() {a = "x\
"} : () -> ()

// -----

"x.a"() : () -> !foo<a)>

// -----

"x.a"() : () -> !foo<(a]>

// -----

"x.a"() : () -> !foo<"x" a]>

// -----

"x.a"() : () -> (!foo<a>, !foo<(a]>)

// -----

"x.a"() {a = ( i32 ) - > i32} : () -> ()

// -----

#m = affine_map < ( d0 ) - > ( d0 ) >

// -----

"x.a"() : () -> !foo<a
