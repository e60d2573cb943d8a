// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Lexer errors: stray characters, strings, numbers, identifiers, comments.

func.func @stray_backtick() {
  // expected-error @+1 {{unexpected character}}
  `
}

// -----

// expected-error @+1 {{expected '"' in string literal}}
"unk.op"() {s = "abc} : () -> ()

// -----

// expected-error @+1 {{unknown escape in string literal}}
"unk.op"() {s = "a\q"} : () -> ()

// -----

// A hex literal needs digits: `0x` lexes as `0` then the identifier `x`.
// expected-error @+1 {{expected '}' in attribute dictionary}}
"unk.op"() {a = 0x} : () -> ()

// -----

// expected-error @+1 {{expected '}' in attribute dictionary}}
"unk.op"() {a = 1.5e} : () -> ()

// -----

// expected-error @+1 {{invalid SSA name}}
%0 = "unk.op"() : () -> i32 %

// -----

// `/* */` is not a comment in MLIR; `/` cannot start an operation.
// expected-error @+1 {{expected operation name in quotes}}
"unk.op"() : () -> () /* c */

// -----

// expected-error @+1 {{invalid attribute name}}
"unk.op"() {a = #} : () -> ()

// -----

// expected-error @+1 {{@ identifier expected to start with letter or '_'}}
"unk.op"() {a = @} : () -> ()
