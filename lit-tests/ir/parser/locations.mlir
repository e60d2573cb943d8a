// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Location syntax errors.

// expected-error @+1 {{expected location instance}}
"unk.op"() : () -> () loc(unknownfoo)

// -----

// expected-error @+1 {{expected location instance}}
"unk.op"() : () -> () loc(callsite("a" at))

// -----

// expected-error @+1 {{expected ')' after child location of NameLoc}}
"unk.op"() : () -> () loc("a"("b"

// -----

// expected-error @+1 {{operation location alias was never defined}}
"unk.op"() : () -> () loc(#undefined)
