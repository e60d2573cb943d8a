// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Type syntax errors.

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
"unk.op"() : () -> i16777216

// -----

// expected-error @+1 {{expected '>' in tensor type}}
"unk.op"() : () -> tensor<4x?xf32

// -----

// expected-error @+1 {{expected non-function type}}
"unk.op"() : () -> tensor<4xbogus>

// -----

// expected-error @+1 {{expected non-function type}}
"unk.op"() : () -> tensor<-1xf32>

// -----

// expected-error @+1 {{expected non-function type}}
"unk.op"() : () -> memref<4x>

// -----

// expected-error @+1 {{expected non-function type}}
"unk.op"() : () -> f33

// -----

// expected-error @+1 {{expected non-function type}}
"unk.op"() : () -> tensor<*x*xf32>

// -----

// expected-error @+1 {{expected ')'}}
"unk.op"() : () -> (i32

// -----

// expected-error @+1 {{expected function type}}
"unk.op"() : i32

// -----

// expected-error @+1 {{undefined symbol alias id 'unk'}}
"unk.op"() : () -> !unk
