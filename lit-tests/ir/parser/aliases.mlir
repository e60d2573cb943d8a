// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Type and attribute aliases.

#a = 1 : i32
// expected-error @+1 {{redefinition of attribute alias id 'a'}}
#a = 2 : i32

// -----

!t = i32
// expected-error @+1 {{redefinition of type alias id 't'}}
!t = i64

// -----

// expected-error @+1 {{expected attribute value}}
#a = 

// -----

// expected-error @+1 {{expected non-function type}}
!t = tensor<>

// -----

// expected-error @+1 {{attribute names with a '.' are reserved for dialect-defined names}}
#a.b = 1
