// Inputs mlir-opt 22 refuses, with its messages (`with-mlir/mlir-agreement.mlir` runs
// mlir-opt's --verify-diagnostics on this file): resource blobs that are not hex or whose
// alignment is not a power of two, NUL in an op name, elements literals of unshaped or
// unranked types; a `suffix-id` that is a number followed by more; out-of-range location
// numbers; element types memref, tensor, vector and complex refuse; invalid dialect
// namespaces; escapes in dialect bodies. (tools/kiln-opt/tests/verifier_vs_mlir_opt.rs compares
// more parser errors byte for byte, columns included.)
// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// An alignment of 0 (mlir-opt 22 aborts on it: out of memory) is not a power of two either:
// RUN: echo '{-# dialect_resources: { builtin: { b: "0x0000000011" } } #-}' > %t.zero.mlir
// RUN: not %kiln-opt %t.zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: expected hex string blob for key 'b' to encode alignment in first 4 bytes, but got non-power-of-2 value: 0

{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'b' to encode alignment in first 4 bytes, but got non-power-of-2 value: 3}}
      b: "0x0300000011"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    test: {
      // expected-error @+1 {{expected hex string blob for key 'b' to encode alignment in first 4 bytes, but got non-power-of-2 value: 12}}
      b: "0x0C000000"
    }
  }
#-}

// -----

{-#
  external_resources: {
    tool: {
      // expected-error @+1 {{expected hex string blob for key 'b' to encode alignment in first 4 bytes}}
      b: "0x010000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'b'}}
      b: "0x0100000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'b'}}
      b: "0x01000000zz"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'b'}}
      b: true
    }
  }
#-}

// -----

// expected-error @+1 {{null character not allowed in operation name}}
"x.a\00b"() : () -> ()

// -----

// expected-error @+1 {{null character not allowed in operation name}}
%0 = "x\00"() : () -> i32

// -----

// expected-error @+1 {{elements literal must be a shaped type}}
"x.a"() {a = dense<1> : i32} : () -> ()

// -----

// expected-error @+1 {{elements literal type must have static shape}}
"x.a"() {a = dense<1> : memref<*xi32>} : () -> ()

// -----

// expected-error @+1 {{elements literal type must have static shape}}
"x.a"() {a = sparse<0, 1> : memref<?xi32>} : () -> ()

// -----

// expected-error @+1 {{`dense_resource` expected a shaped type}}
"x.a"() {a = dense_resource<b> : i32} : () -> ()

// -----

// A numeric suffix-id is all digits: `%0$` is `%0` and a stray `$`.
// expected-error @+1 {{unexpected character}}
%0$ = "x.a"() : () -> i32

// -----

// expected-error @+1 {{expected '=' in type alias definition}}
!0a = i32

// -----

// expected-error @+1 {{expected named operation to have at least 1 result}}
%0:0x0 = "x.a"() : () -> ()

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
"x.a"() : () -> () loc("f.mlir":0x100000000:1)

// -----

// expected-error @+1 {{expected integer column number in FileLineColRange}}
"x.a"() : () -> () loc("f.mlir":1:4294967296)

// -----

// expected-error @+1 {{expected ')' in inline location}}
"x.a"() {a = loc("f.mlir":0X10:1)} : () -> ()

// -----

// expected-error @+1 {{invalid memref element type}}
"x.a"() : () -> memref<4xtensor<2xf32>>

// -----

// expected-error @+1 {{invalid memref element type}}
"x.a"() : () -> memref<4xtuple<i32>>

// -----

// An unregistered dialect's type implements no element type interface.
// expected-error @+1 {{invalid memref element type}}
"x.a"() : () -> memref<*x!foo.bar>

// -----

// expected-error @+1 {{invalid tensor element type}}
"x.a"() : () -> tensor<4xmemref<2xf32>>

// -----

// expected-error @+1 {{invalid tensor element type}}
"x.a"() : () -> tensor<*xtuple<>>

// -----

// expected-error @+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
"x.a"() : () -> vector<4xtensor<2xf32>>

// -----

// expected-error @+1 {{failed to verify 'elementType': VectorElementTypeInterface instance}}
"x.a"() : () -> vector<4x!foo.bar>

// -----

// expected-error @+1 {{vector types must have positive constant sizes but got 2, 0, 0}}
"x.a"() : () -> vector<2x0x[0]xf32>

// -----

// expected-error @+1 {{invalid element type for complex}}
"x.a"() : () -> complex<index>

// -----

// expected-error @+1 {{invalid dialect namespace '"f-oo"'}}
"x.a"() {a = #f-oo.bar} : () -> ()

// -----

// expected-error @+1 {{unknown escape in string literal}}
"x.a"() : () -> !foo<"x\q">

// -----

// expected-error @+1 {{unbalanced '(' character in pretty dialect name}}
"x.a"() : () -> !foo<(a]>
