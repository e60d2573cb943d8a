// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Operations, regions and blocks.

// expected-error @+1 {{expected ')' to end operand list}}
"unk.op"( : () -> ()

// -----

// expected-error @+1 {{expected operation name in quotes}}
"unk.op"() : () -> () -> ()

// -----

// expected-error @+1 {{operation defines 2 results but was provided 1 to bind}}
%0 = "unk.op"() : () -> (i32, i32)

// -----

// expected-error @+1 {{operation defines 2 results but was provided 3 to bind}}
%0:3 = "unk.op"() : () -> (i32, i32)

// -----

"unk.op"() ({
^bb0:
  "unk.t"() : () -> ()
// expected-error @+1 {{redefinition of block '^bb0'}}
^bb0:
  "unk.t"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{reference to an undefined block}}
"unk.op"() [^bb1] : () -> ()

// -----

"unk.op"() ({
  // expected-error @+1 {{reference to an undefined block}}
  "unk.br"() [^missing] : () -> ()
}) : () -> ()

// -----

"unk.op"() ({
// expected-error @+1 {{expected ':' and type for SSA operand}}
^bb0(%a):
  "unk.t"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{custom op 'unknown_custom_op' is unknown}}
unknown_custom_op
