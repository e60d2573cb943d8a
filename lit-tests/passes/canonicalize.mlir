// RUN: %kiln-opt %s --canonicalize | FileCheck %s
// RUN: %kiln-opt %s -p 'builtin.module(func.func(canonicalize))' | FileCheck %s
// RUN: %kiln-opt %s --canonicalize=fold=false | FileCheck %s --check-prefix=NOFOLD
// The generic canonicalize runs the hl patterns (hl/canonicalize.rs), which are exact under
// IEEE semantics, and folds all-constant hl ops. Each function checks what must fold and,
// beside it, the look-alike that must not.

// x + (-0.0), (-0.0) + x and x - (+0.0) are x for every float x (signed zeros included).
// CHECK-LABEL: func.func @add_neg_zero_float(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    return %[[X]], %[[X]], %[[X]]
func.func @add_neg_zero_float(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %nz = hl.constant dense<-0.0> : tensor<4xf32>
  %pz = hl.constant dense<0.0> : tensor<4xf32>
  %0 = hl.add %x, %nz : tensor<4xf32>
  %1 = hl.add %nz, %x : tensor<4xf32>
  %2 = hl.sub %x, %pz : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// x + 0.0 is +0.0 for x = -0.0, and so is x - (-0.0): neither folds; nor does 0.0 + x.
// CHECK-LABEL: func.func @add_pos_zero_float_kept(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-DAG:     %[[PZ:.*]] = hl.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG:     %[[NZ:.*]] = hl.constant dense<-0.000000e+00> : tensor<4xf32>
// CHECK:         %[[A:.*]] = hl.add %[[X]], %[[PZ]]
// CHECK-NEXT:    %[[B:.*]] = hl.add %[[PZ]], %[[X]]
// CHECK-NEXT:    %[[C:.*]] = hl.sub %[[X]], %[[NZ]]
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]]
func.func @add_pos_zero_float_kept(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %pz = hl.constant dense<0.0> : tensor<4xf32>
  %nz = hl.constant dense<-0.0> : tensor<4xf32>
  %0 = hl.add %x, %pz : tensor<4xf32>
  %1 = hl.add %pz, %x : tensor<4xf32>
  %2 = hl.sub %x, %nz : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// The same holds for f16 and bf16.
// CHECK-LABEL: func.func @add_zero_half(
// CHECK-SAME:      %[[H:.*]]: tensor<4xf16>, %[[B:.*]]: tensor<4xbf16>)
// CHECK:         %[[KEPT:.*]] = hl.add %[[B]], %{{.*}} : tensor<4xbf16>
// CHECK-NEXT:    return %[[H]], %[[KEPT]]
func.func @add_zero_half(%h: tensor<4xf16>, %b: tensor<4xbf16>) -> (tensor<4xf16>, tensor<4xbf16>) {
  %hz = hl.constant dense<-0.0> : tensor<4xf16>
  %bz = hl.constant dense<0.0> : tensor<4xbf16>
  %0 = hl.add %h, %hz : tensor<4xf16>
  %1 = hl.add %b, %bz : tensor<4xbf16>
  return %0, %1 : tensor<4xf16>, tensor<4xbf16>
}

// Integers have one zero: x + 0, 0 + x and x - 0 are x; 0 - x is not.
// CHECK-LABEL: func.func @add_zero_int(
// CHECK-SAME:      %[[X:.*]]: tensor<4xi32>, %[[Y:.*]]: tensor<4xi8>)
// CHECK:         %[[NEG:.*]] = hl.sub %{{.*}}, %[[X]] : tensor<4xi32>
// CHECK-NEXT:    return %[[X]], %[[X]], %[[X]], %[[NEG]], %[[Y]]
func.func @add_zero_int(%x: tensor<4xi32>, %y: tensor<4xi8>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi8>) {
  %z = hl.constant dense<0> : tensor<4xi32>
  %z8 = hl.constant dense<0> : tensor<4xi8>
  %0 = hl.add %x, %z : tensor<4xi32>
  %1 = hl.add %z, %x : tensor<4xi32>
  %2 = hl.sub %x, %z : tensor<4xi32>
  %3 = hl.sub %z, %x : tensor<4xi32>
  %4 = hl.add %y, %z8 : tensor<4xi8>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi8>
}

// When the zero broadcasts x to a larger shape the add is not the identity.
// CHECK-LABEL: func.func @add_zero_broadcast_kept(
// CHECK-SAME:      %[[X:.*]]: tensor<1xi32>)
// CHECK:         %[[R:.*]] = hl.add %[[X]], %{{.*}} : tensor<1xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK-NEXT:    return %[[R]]
func.func @add_zero_broadcast_kept(%x: tensor<1xi32>) -> tensor<4xi32> {
  %z = hl.constant dense<0> : tensor<4xi32>
  %0 = hl.add %x, %z : tensor<1xi32>, tensor<4xi32> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @mul_one(
// CHECK-SAME:      %[[F:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi64>)
// CHECK-NEXT:    return %[[F]], %[[I]]
func.func @mul_one(%f: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %one = hl.constant dense<1.0> : tensor<4xf32>
  %ione = hl.constant dense<1> : tensor<4xi64>
  %0 = hl.mul %f, %one : tensor<4xf32>
  %1 = hl.mul %ione, %i : tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// Integer x * 0 is a zero constant of the result type, broadcast included.
// CHECK-LABEL: func.func @mul_zero_int(
// CHECK-NEXT:    %[[Z:.*]] = hl.constant dense<0> : tensor<4xi32>
// CHECK-NEXT:    %[[ZB:.*]] = hl.constant dense<0> : tensor<4x4xi32>
// CHECK-NEXT:    return %[[Z]], %[[ZB]]
func.func @mul_zero_int(%i: tensor<4xi32>) -> (tensor<4xi32>, tensor<4x4xi32>) {
  %z = hl.constant dense<0> : tensor<4xi32>
  %z41 = hl.constant dense<0> : tensor<4x1xi32>
  %0 = hl.mul %z, %i : tensor<4xi32>
  %1 = hl.mul %i, %z41 : tensor<4xi32>, tensor<4x1xi32> -> tensor<4x4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4x4xi32>
}

// Float x * 0.0 is NaN for infinities and NaN and -0.0 for negative x: no fold. A dynamic
// integer result has no static zero constant: no fold either.
// CHECK-LABEL: func.func @mul_zero_kept(
// CHECK-SAME:      %[[F:.*]]: tensor<4xf32>, %[[D:.*]]: tensor<?xi32>)
// CHECK:         %[[A:.*]] = hl.mul %[[F]], %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    %[[B:.*]] = hl.mul %[[D]], %{{.*}} : tensor<?xi32>, tensor<1xi32> -> tensor<?xi32>
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @mul_zero_kept(%f: tensor<4xf32>, %d: tensor<?xi32>) -> (tensor<4xf32>, tensor<?xi32>) {
  %fz = hl.constant dense<0.0> : tensor<4xf32>
  %iz = hl.constant dense<0> : tensor<1xi32>
  %0 = hl.mul %f, %fz : tensor<4xf32>
  %1 = hl.mul %d, %iz : tensor<?xi32>, tensor<1xi32> -> tensor<?xi32>
  return %0, %1 : tensor<4xf32>, tensor<?xi32>
}

// neg and not are involutions; an odd number of negs leaves one.
// CHECK-LABEL: func.func @involutions(
// CHECK-SAME:      %[[F:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xi1>)
// CHECK-NEXT:    %[[N:.*]] = hl.neg %[[F]]
// CHECK-NEXT:    return %[[F]], %[[B]], %[[N]]
func.func @involutions(%f: tensor<4xf32>, %b: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xf32>) {
  %0 = hl.neg %f : tensor<4xf32>
  %1 = hl.neg %0 : tensor<4xf32>
  %2 = hl.not %b : tensor<4xi1>
  %3 = hl.not %2 : tensor<4xi1>
  %4 = hl.neg %1 : tensor<4xf32>
  %5 = hl.neg %4 : tensor<4xf32>
  %6 = hl.neg %5 : tensor<4xf32>
  return %1, %3, %6 : tensor<4xf32>, tensor<4xi1>, tensor<4xf32>
}

// neg of abs is not an involution.
// CHECK-LABEL: func.func @not_involution(
// CHECK-NEXT:    %[[A:.*]] = hl.abs
// CHECK-NEXT:    %[[N:.*]] = hl.neg %[[A]]
// CHECK-NEXT:    %[[M:.*]] = hl.abs %[[N]]
// CHECK-NEXT:    return %[[M]]
func.func @not_involution(%f: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.abs %f : tensor<4xf32>
  %1 = hl.neg %0 : tensor<4xf32>
  %2 = hl.abs %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// reshape(reshape x) is one reshape of x; back to x's type it vanishes.
// CHECK-LABEL: func.func @reshape_chain(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = hl.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
// CHECK-NEXT:    return %[[R]], %[[X]]
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x4xf32>) {
  %0 = hl.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %1 = hl.reshape %0 : tensor<24xf32> -> tensor<6x4xf32>
  %2 = hl.reshape %1 : tensor<6x4xf32> -> tensor<2x3x4xf32>
  return %1, %2 : tensor<6x4xf32>, tensor<2x3x4xf32>
}

// transpose(transpose x) composes the permutations (result dim i = x dim p1[p2[i]]); three
// rotations are the identity.
// CHECK-LABEL: func.func @transpose_chain(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT:    %[[T:.*]] = hl.transpose %[[X]] {perm = [2, 0, 1]} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT:    return %[[T]], %[[X]]
func.func @transpose_chain(%x: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x4xf32>) {
  %0 = hl.transpose %x {perm = [1, 2, 0]} : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %1 = hl.transpose %0 {perm = [1, 2, 0]} : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  %2 = hl.transpose %1 {perm = [1, 2, 0]} : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %1, %2 : tensor<4x2x3xf32>, tensor<2x3x4xf32>
}

// A non-commuting pair: perm [1, 0, 2] after [0, 2, 1] is [2, 0, 1], not [1, 2, 0].
// CHECK-LABEL: func.func @transpose_order(
// CHECK-NEXT:    hl.transpose %{{.*}} {perm = [2, 0, 1]} : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
func.func @transpose_order(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = hl.transpose %x {perm = [0, 2, 1]} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  %1 = hl.transpose %0 {perm = [1, 0, 2]} : tensor<2x4x3xf32> -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// Identity broadcast_to, reshape, cast, dropout and transpose vanish; a reshape that changes
// the type (even only by making a dim static) stays.
// CHECK-LABEL: func.func @identities(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<?x3xf32>)
// CHECK-NEXT:    %[[R:.*]] = hl.reshape %[[Y]] : tensor<?x3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[Y]], %[[R]]
func.func @identities(%x: tensor<2x3xf32>, %y: tensor<?x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>) {
  %0 = hl.broadcast_to %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %1 = hl.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %2 = hl.cast %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = hl.dropout %x {rate = 0.1 : f32} : tensor<2x3xf32>
  %4 = hl.transpose %x {perm = [0, 1]} : tensor<2x3xf32>
  %5 = hl.reshape %y : tensor<?x3xf32> -> tensor<?x3xf32>
  %6 = hl.reshape %y : tensor<?x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>
}

// Between equal dynamic types a reshape is an identity only when it keeps every dim at run
// time: each `?` tied to the same operand dim, or the one untied `?`. Ties that swap dims, or
// two untied `?`, stay; so does reshape(reshape x) when the outer reshape has ties (they name
// dims of the inner result, not of x).
// CHECK-LABEL: func.func @reshape_dynamic_ties(
// CHECK-SAME:      %[[X:.*]]: tensor<?x?xf32>)
// CHECK-NEXT:    %[[S:.*]] = hl.reshape %[[X]] {source_dims = [1, 0]} : tensor<?x?xf32>{{$}}
// CHECK-NEXT:    %[[U:.*]] = hl.reshape %[[X]] : tensor<?x?xf32>{{$}}
// CHECK-NEXT:    %[[F:.*]] = hl.reshape %[[X]] : tensor<?x?xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[T:.*]] = hl.reshape %[[F]] {source_dims = [0, -1]} : tensor<?xf32> -> tensor<?x1xf32>
// CHECK-NEXT:    return %[[X]], %[[S]], %[[U]], %[[T]]
func.func @reshape_dynamic_ties(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x1xf32>) {
  %0 = hl.reshape %x {source_dims = [0, 1]} : tensor<?x?xf32> -> tensor<?x?xf32>
  %1 = hl.reshape %x {source_dims = [1, 0]} : tensor<?x?xf32> -> tensor<?x?xf32>
  %2 = hl.reshape %x : tensor<?x?xf32> -> tensor<?x?xf32>
  %3 = hl.reshape %x : tensor<?x?xf32> -> tensor<?xf32>
  %4 = hl.reshape %3 {source_dims = [0, -1]} : tensor<?xf32> -> tensor<?x1xf32>
  return %0, %1, %2, %4 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x1xf32>
}

// cast(cast x) is one cast when the first is lossless: f16 -> f32, i8 -> i32, i8 -> f16
// (11-bit significand), i1 -> anything.
// CHECK-LABEL: func.func @cast_chain_lossless(
// CHECK-SAME:      %[[H:.*]]: tensor<4xf16>, %[[B:.*]]: tensor<4xi8>, %[[P:.*]]: tensor<4xi1>)
// CHECK-NEXT:    %[[C0:.*]] = hl.cast %[[H]] : tensor<4xf16> -> tensor<4xbf16>
// CHECK-NEXT:    %[[C1:.*]] = hl.cast %[[B]] : tensor<4xi8> -> tensor<4xi64>
// CHECK-NEXT:    %[[C2:.*]] = hl.cast %[[B]] : tensor<4xi8> -> tensor<4xf32>
// CHECK-NEXT:    %[[C3:.*]] = hl.cast %[[P]] : tensor<4xi1> -> tensor<4xf32>
// CHECK-NEXT:    return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[B]]
func.func @cast_chain_lossless(%h: tensor<4xf16>, %b: tensor<4xi8>, %p: tensor<4xi1>) -> (tensor<4xbf16>, tensor<4xi64>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>) {
  %0 = hl.cast %h : tensor<4xf16> -> tensor<4xf32>
  %1 = hl.cast %0 : tensor<4xf32> -> tensor<4xbf16>
  %2 = hl.cast %b : tensor<4xi8> -> tensor<4xi32>
  %3 = hl.cast %2 : tensor<4xi32> -> tensor<4xi64>
  %4 = hl.cast %b : tensor<4xi8> -> tensor<4xf16>
  %5 = hl.cast %4 : tensor<4xf16> -> tensor<4xf32>
  %6 = hl.cast %p : tensor<4xi1> -> tensor<4xi8>
  %7 = hl.cast %6 : tensor<4xi8> -> tensor<4xf32>
  // Round trip through a wider type: the identity.
  %8 = hl.cast %b : tensor<4xi8> -> tensor<4xi32>
  %9 = hl.cast %8 : tensor<4xi32> -> tensor<4xi8>
  return %1, %3, %5, %7, %9 : tensor<4xbf16>, tensor<4xi64>, tensor<4xf32>, tensor<4xf32>, tensor<4xi8>
}

// Lossy first casts stay: f32 -> f16, i32 -> i8 (wraps), i32 -> f32 (24-bit significand),
// f16 -> bf16 (8-bit significand), i32 -> f16.
// CHECK-LABEL: func.func @cast_chain_lossy_kept(
// CHECK-SAME:      %[[F:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>, %[[H:.*]]: tensor<4xf16>)
// CHECK-NEXT:    %[[A0:.*]] = hl.cast %[[F]] : tensor<4xf32> -> tensor<4xf16>
// CHECK-NEXT:    %[[A1:.*]] = hl.cast %[[A0]] : tensor<4xf16> -> tensor<4xf32>
// CHECK-NEXT:    %[[B0:.*]] = hl.cast %[[I]] : tensor<4xi32> -> tensor<4xi8>
// CHECK-NEXT:    %[[B1:.*]] = hl.cast %[[B0]] : tensor<4xi8> -> tensor<4xi32>
// CHECK-NEXT:    %[[C0:.*]] = hl.cast %[[I]] : tensor<4xi32> -> tensor<4xf32>
// CHECK-NEXT:    %[[C1:.*]] = hl.cast %[[C0]] : tensor<4xf32> -> tensor<4xi64>
// CHECK-NEXT:    %[[D0:.*]] = hl.cast %[[H]] : tensor<4xf16> -> tensor<4xbf16>
// CHECK-NEXT:    %[[D1:.*]] = hl.cast %[[D0]] : tensor<4xbf16> -> tensor<4xf32>
// CHECK-NEXT:    %[[E0:.*]] = hl.cast %[[I]] : tensor<4xi32> -> tensor<4xf16>
// CHECK-NEXT:    %[[E1:.*]] = hl.cast %[[E0]] : tensor<4xf16> -> tensor<4xf32>
// CHECK-NEXT:    return %[[A1]], %[[B1]], %[[C1]], %[[D1]], %[[E1]]
func.func @cast_chain_lossy_kept(%f: tensor<4xf32>, %i: tensor<4xi32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xf32>, tensor<4xf32>) {
  %0 = hl.cast %f : tensor<4xf32> -> tensor<4xf16>
  %1 = hl.cast %0 : tensor<4xf16> -> tensor<4xf32>
  %2 = hl.cast %i : tensor<4xi32> -> tensor<4xi8>
  %3 = hl.cast %2 : tensor<4xi8> -> tensor<4xi32>
  %4 = hl.cast %i : tensor<4xi32> -> tensor<4xf32>
  %5 = hl.cast %4 : tensor<4xf32> -> tensor<4xi64>
  %6 = hl.cast %h : tensor<4xf16> -> tensor<4xbf16>
  %7 = hl.cast %6 : tensor<4xbf16> -> tensor<4xf32>
  %8 = hl.cast %i : tensor<4xi32> -> tensor<4xf16>
  %9 = hl.cast %8 : tensor<4xf16> -> tensor<4xf32>
  return %1, %3, %5, %7, %9 : tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xf32>, tensor<4xf32>
}

// All-constant ops fold to constants (the interpreter's value: integer division truncates,
// i8 wraps, f16 rounds); an elementwise op of splats folds to a splat, whatever its size
// (hl-fold-limits.mlir covers the size and work bounds).
// CHECK-LABEL: func.func @fold()
// CHECK-DAG:     %[[A:.*]] = hl.constant dense<3.500000e+00> : tensor<4xf32>
// CHECK-DAG:     %[[B:.*]] = hl.constant dense<[3, -3]> : tensor<2xi32>
// CHECK-DAG:     %[[C:.*]] = hl.constant dense<[true, false]> : tensor<2xi1>
// CHECK-DAG:     %[[D:.*]] = hl.constant dense<[-56, 56]> : tensor<2xi8>
// CHECK-DAG:     %[[E:.*]] = hl.constant dense<[2.718750e+00, 7.390630e+00]> : tensor<2xf16>
// CHECK-DAG:     %[[NEG:.*]] = hl.constant dense<-1.000000e+00> : tensor<300x300xf32>
// CHECK-NOT:     hl.neg
// CHECK:         return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[NEG]]
// NOFOLD-LABEL: func.func @fold()
// NOFOLD:         hl.add
// NOFOLD:         hl.div
// NOFOLD:         hl.cmp
func.func @fold() -> (tensor<4xf32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi8>, tensor<2xf16>, tensor<300x300xf32>) {
  %a = hl.constant dense<1.5> : tensor<4xf32>
  %b = hl.constant dense<2.0> : tensor<4xf32>
  %0 = hl.add %a, %b : tensor<4xf32>
  %c = hl.constant dense<[7, -7]> : tensor<2xi32>
  %d = hl.constant dense<2> : tensor<2xi32>
  %1 = hl.div %c, %d : tensor<2xi32>
  %2 = hl.cmp %c, %d {predicate = #hl.cmp<gt>} : tensor<2xi32>, tensor<2xi32> -> tensor<2xi1>
  %i = hl.constant dense<[100, -100]> : tensor<2xi8>
  %3 = hl.add %i, %i : tensor<2xi8>
  %h = hl.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %4 = hl.exp %h : tensor<2xf16>
  %e = hl.constant dense<1.0> : tensor<300x300xf32>
  %5 = hl.neg %e : tensor<300x300xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi8>, tensor<2xf16>, tensor<300x300xf32>
}

// Dead pure ops go; unused arguments and non-hl ops are untouched.
// CHECK-LABEL: func.func @dead(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    return %[[X]]
func.func @dead(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.exp %x : tensor<4xf32>
  %1 = hl.tanh %0 : tensor<4xf32>
  return %x : tensor<4xf32>
}
