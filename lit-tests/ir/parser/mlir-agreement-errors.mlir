// Inputs mlir-opt 22 refuses, with its messages (`with-mlir/mlir-agreement-errors.mlir` runs
// mlir-opt's --verify-diagnostics on this file): resource blobs that are not hex or whose
// alignment is not a power of two, NUL in an op name, elements literals of unshaped or
// unranked types.
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
