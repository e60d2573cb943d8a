// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Syntax errors in types, attributes and locations: mlir-opt 22's message for each grammar point.

// expected-error @+1 {{expected ',' or ']'}}
"u.op"() {a = [1, 2 3]} : () -> ()

// -----

// expected-error @+1 {{expected attribute value}}
"u.op"() {a = [1, ]} : () -> ()

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
"u.op"() {a = {b = 1 c = 2}} : () -> ()

// -----

// expected-error @+1 {{expected attribute name}}
"u.op"() {a = {b = 1, = 2}} : () -> ()

// -----

// expected-error @+1 {{expected attribute name}}
"u.op"() {a = 1, = 2} : () -> ()

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
"u.op"() {a = 1 b = 2} : () -> ()

// -----

// expected-error @+1 {{expected '->' in function type}}
!t = (i32)

// -----

// expected-error @+1 {{expected non-function type}}
!t = (i32) -> 

// -----

// expected-error @+1 {{expected ',' or '>' in memref type}}
!t = memref<4xf32 3>

// -----

// expected-error @+1 {{expected '>' in vector type}}
!t = vector<4xf32 3>

// -----

// expected-error @+1 {{expected '>' in complex type}}
!t = complex<f32 3>

// -----

// expected-error @+1 {{expected '>' in tuple type}}
!t = tuple<f32 3>

// -----

// expected-error @+1 {{expected '>' in tensor type}}
!t = tensor<4xf32 3>

// -----

// expected-error @+1 {{missing ']' closing scalable dimension}}
!t = vector<4x[4>

// -----

// expected-error @+1 {{expected non-function type}}
!t = vector<>

// -----

// expected-error @+1 {{expected non-function type}}
!t = tuple<3>

// -----

// expected-error @+1 {{expected non-function type}}
!t = complex<>

// -----

// expected-error @+1 {{expected 'at' in callsite location}}
"u.op"() : () -> () loc(callsite("a" foo))

// -----

// expected-error @+1 {{expected ')' in location}}
"u.op"() : () -> () loc(callsite("a" at "b")

// -----

// expected-error @+1 {{expected ']' in fused location}}
"u.op"() : () -> () loc(fused[ "a" "b"])

// -----

// expected-error @+1 {{expected attribute value}}
"u.op"() : () -> () loc(fused<>["a"])

// -----

// expected-error @+1 {{expected integer column number in FileLineColRange}}
"u.op"() : () -> () loc("a":1:x)

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
"u.op"() : () -> () loc("a":x)

// -----

// expected-error @+1 {{expected ')' in location}}
"u.op"() : () -> () loc("a" x)

// -----

// expected-error @+1 {{expected ')' in location}}
"u.op"() : () -> () loc(unknown x)

// -----

// expected-error @+1 {{expected '>' to close an array attribute}}
"u.op"() {a = array<i32: 1 2>} : () -> ()

// -----

// expected-error @+1 {{expected floating point literal}}
"u.op"() {a = array<f32: x>} : () -> ()

// -----

// expected-error @+1 {{expected ':' after dense array type}}
"u.op"() {a = array<i32 1>} : () -> ()

// -----

// expected-error @+1 {{expected ']'}}
"u.op"() {a = dense<[1, 2> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected ':'}}
"u.op"() {a = dense<1> tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected element literal of primitive type}}
"u.op"() {a = dense<x> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{missing right operand of binary operator}}
"u.op"() {a = affine_map<(d0) -> (d0 +)>} : () -> ()

// -----

// expected-error @+1 {{expected '->' or ':'}}
"u.op"() {a = affine_map<(d0) (d0)>} : () -> ()

// -----

// expected-error @+1 {{expected a 64-bit signed integer or '?'}}
"u.op"() {a = strided<[1, x]>} : () -> ()

// -----

// expected-error @+1 {{expected non-function type}}
"u.op"() {a = 1 : } : () -> ()

// -----

// expected-error @+1 {{expected nested symbol reference identifier}}
"u.op"() {a = @foo::} : () -> ()

// -----

// expected-error @+1 {{expected identifier key for 'resource' entry}}
"u.op"() {a = dense_resource<> : tensor<2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected ',' or '>'}}
"u.op"() : () -> memref<4xf32, 3

// -----

// expected-error @+1 {{expected non-function type}}
"u.op"() : (i32, ) -> ()

// -----

// expected-error @+1 {{expected ')'}}
"u.op"() : (i32 i32) -> ()

// -----

// expected-error @+1 {{expected '>' in tuple type}}
"u.op"() : () -> tuple<i32

// -----

// expected-error @+1 {{expected ',' or ']'}}
"u.op"() {a = [1, 2} : () -> ()

// -----

// expected-error @+1 {{expected attribute value}}
"u.op"() {a = {"b" = } } : () -> ()

// -----

// expected-error @+1 {{expected ',' or ']'}}
"u.op"() {a = [[1, 2], [3} : () -> ()

// -----

// expected-error @+1 {{missing right operand of binary operator}}
"u.op"() {a = affine_map<(d0) -> (d0 * )>} : () -> ()

// -----

// expected-error @+1 {{expected non-function type}}
"u.op"() {a = dense<[1, 2]> : } : () -> ()

// -----

// expected-error @+1 {{expected integer literal}}
"u.op"() {a = array<i32: 1,>} : () -> ()

// -----

// expected-error @+1 {{expected non-function type}}
"u.op"() : () -> vector<[4]x>

// -----

// expected-error @+1 {{expected '>' in complex type}}
"u.op"() : () -> complex<f32

// -----

// expected-error @+1 {{expected ']' in fused location}}
"u.op"() : () -> () loc(fused<"x">["a" 1])

// -----

// expected-error @+1 {{expected either integer or `:` post `to` in FileLineColRange}}
"u.op"() : () -> () loc("a":1:2 to 3)

// -----

// expected-error @+1 {{expected ')' in location}}
"u.op"() : () -> () loc(callsite(unknown at unknown)

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
"u.op"() {a = unit b = 1} : () -> ()

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
"u.op"() {a = true : i1} : () -> ()

// -----

// expected-error @+1 {{expected ':' after 'offset'}}
"u.op"() {a = strided<[1], offset 3>} : () -> ()

// -----

// expected-error @+1 {{expected non-function type}}
"u.op"() {a = "x" : } : () -> ()

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
"u.op"() {a = #foo.bar<"x"} : () -> ()

// -----

// expected-error @+1 {{invalid SSA name}}
"u.op"(%) : () -> ()

// -----

// expected-error @+1 {{expected non-function type}}
"u.op"() : ( -> ()

// -----

// expected-error @+1 {{expected distinct ID}}
"u.op"() {a = distinct[0]<unit>, b = distinct[x]<unit>} : () -> ()

// -----

// expected-error @+1 {{expected '>' to close distinct attribute}}
"u.op"() {a = distinct[0]<unit} : () -> ()

// -----

// expected-error @+1 {{expected '[' after 'distinct'}}
"u.op"() {a = distinct(0)<unit>} : () -> ()

// -----

// expected-error @+1 {{expected '<' after distinct ID}}
"u.op"() {a = distinct[0]} : () -> ()

// -----

// expected-error @+1 {{expected ']' to close distinct ID}}
"u.op"() {a = distinct[0 <unit>} : () -> ()

// -----

#a = distinct[0]<"x">
// expected-error @+1 {{referenced attribute does not match previous definition: "x"}}
#b = distinct[0]<"y">
"u.op"() {a = #a, b = #b} : () -> ()
