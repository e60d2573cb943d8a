// Designators that do not match what is produced (checked by verify-diagnostics-failures.test).

// expected-error @+1 {{this message is not produced}}
"unk.bad"(%x) : (i32) -> ()

// -----

// expected-warning @+1 {{use of undeclared SSA value name}}
"unk.bad"(%x) : (i32) -> ()

// -----

// expected-error @+1 {{nothing is wrong here}}
"unk.fine"() : () -> ()

// -----

// expected-error-re @+1 {{unterminated {{[a-z}}}
"unk.fine"() : () -> ()

// -----

// expected-error @+1 {{undeclared}} trailing text makes this an ordinary comment
"unk.bad"(%y) : (i32) -> ()
