// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// SSA values: undefined, redefined, used with conflicting types.

// expected-error @+1 {{use of undeclared SSA value name}}
"unk.op"(%x) : (i32) -> ()

// -----

func.func @redefined() {
  // expected-note @+1 {{previously defined here}}
  %0 = "unk.a"() : () -> i32
  // expected-error @+1 {{redefinition of SSA value '%0'}}
  %0 = "unk.b"() : () -> i32
  return
}

// -----

func.func @type_mismatch() {
  // expected-note @+1 {{prior use here}}
  %0 = "unk.a"() : () -> i32
  // expected-error @+1 {{use of value '%0' expects different type than prior uses: 'i64' vs 'i32'}}
  "unk.b"(%0) : (i64) -> ()
  return
}

// -----

func.func @forward_use_never_defined() {
  // expected-error @+1 {{use of undeclared SSA value name}}
  "unk.b"(%1) : (i64) -> ()
  return
}

// -----

"unk.op"() ({
// expected-error @+2 {{redefinition of SSA value '%a'}}
// expected-note @+1 {{previously defined here}}
^bb0(%a: i32, %a: i32):
  "unk.t"() : () -> ()
}) : () -> ()
