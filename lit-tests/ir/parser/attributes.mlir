// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Attribute syntax errors, including out-of-range integer literals.

// expected-error @+1 {{integer constant out of range for attribute}}
"unk.op"() {a = 300 : i8} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
"unk.op"() {a = 99999999999999999999999999999999999999999999 : i64} : () -> ()

// -----

// expected-error @+1 {{negative integer literal not valid for unsigned integer type}}
"unk.op"() {a = -1 : ui8} : () -> ()

// -----

// expected-error @+1 {{floating point value not valid for specified type}}
"unk.op"() {a = 1.0 : i32} : () -> ()

// -----

// expected-error @+1 {{expected ',' or ']'}}
"unk.op"() {a = [1, 2} : () -> ()

// -----

// expected-error @+1 {{duplicate key 'a' in dictionary attribute}}
"unk.op"() {a = "x", a = "y"} : () -> ()

// -----

// expected-error @+1 {{expected attribute value}}
"unk.op"() {a = {b = }} : () -> ()

// -----

// expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([3])}}
"unk.op"() {a = dense<[1, 2]> : tensor<3xi32>} : () -> ()

// -----

// expected-error @+1 {{tensor literal is invalid; ranks are not consistent between elements}}
"unk.op"() {a = dense<[[1], [2, 3]]> : tensor<2x2xi32>} : () -> ()

// -----

// expected-error @+1 {{expected integer literal}}
"unk.op"() {a = array<i32: 1, x>} : () -> ()

// -----

// expected-error @+1 {{undefined symbol alias id 'undef'}}
"unk.op"() {x = #undef} : () -> ()
