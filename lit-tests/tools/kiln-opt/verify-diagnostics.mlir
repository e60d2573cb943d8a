// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Every designator form that must match: same line, @+N, @-N, @above, @below, notes,
// -re with {{regex}} pieces, several diagnostics on one line, verifier and parser errors.

"unk.bad"(%x) : (i32) -> () // expected-error {{use of undeclared SSA value name}}

// -----

// expected-error @+2 {{use of undeclared SSA value name}}

"unk.bad"(%x) : (i32) -> ()

// -----

"unk.bad"(%x) : (i32) -> ()
// expected-error @-1 {{undeclared SSA value}}

// -----

"unk.bad"(%x) : (i32) -> ()
// expected-error @above {{undeclared}}

// -----

// @below applies to the next line that is not a designator line (a comment counts).
// expected-error @below {{undeclared}}
"unk.bad"(%x) : (i32) -> ()

// -----

// expected-error-re @+1 {{use of {{[a-z]+}} SSA value name}}
"unk.bad"(%x) : (i32) -> ()

// -----

"func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  // expected-note @+1 {{previously defined here}}
  %0 = "unk.a"() : () -> i32
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = "unk.b"() : () -> i32
  "func.return"() : () -> ()
}) : () -> ()

// -----

"func.func"() <{function_type = () -> i32, sym_name = "g"}> ({
  %0 = "unk.a"() : () -> i64
  // expected-error @+1 {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @g}}
  "func.return"(%0) : (i64) -> ()
}) : () -> ()

// -----

// A chunk without diagnostics is fine too.
"unk.fine"() : () -> ()
