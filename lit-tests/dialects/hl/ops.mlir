// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %kiln-opt %s | %kiln-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s --check-prefix=CUSTOM
// Round trip of the 57 original `hl` ops (the ops model importers need: ops-model.mlir) through the custom form: custom -> custom,
// custom -> generic -> custom and custom -> custom -> generic. The custom form prints one
// type when every operand and the result share it, else `operand types -> result type`.

// No hl op falls back to the generic form, and a constant's value is not repeated in its
// attribute dictionary.
// CUSTOM-NOT: "hl.
// CUSTOM-NOT: value =

// CHECK-LABEL: func.func @binary_same_type(
// CHECK-SAME:      %[[A:.*]]: tensor<4x?xf16>, %[[B:.*]]: tensor<4x?xf16>)
// CHECK-NEXT:    %[[ADD:.*]] = hl.add %[[A]], %[[B]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[SUB:.*]] = hl.sub %[[ADD]], %[[B]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[MUL:.*]] = hl.mul %[[SUB]], %[[A]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[DIV:.*]] = hl.div %[[MUL]], %[[B]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[POW:.*]] = hl.pow %[[DIV]], %[[A]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[MAX:.*]] = hl.maximum %[[POW]], %[[B]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[MIN:.*]] = hl.minimum %[[MAX]], %[[A]] : tensor<4x?xf16>
// CHECK-NEXT:    return %[[MIN]] : tensor<4x?xf16>
// GENERIC-LABEL: sym_name = "binary_same_type"
// GENERIC:         %[[ADD:.*]] = "hl.add"(%{{.*}}, %{{.*}}) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
// GENERIC-NEXT:    "hl.sub"(%[[ADD]], %{{.*}}) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
func.func @binary_same_type(%a: tensor<4x?xf16>, %b: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %0 = hl.add %a, %b : tensor<4x?xf16>
  %1 = hl.sub %0, %b : tensor<4x?xf16>
  %2 = hl.mul %1, %a : tensor<4x?xf16>
  %3 = hl.div %2, %b : tensor<4x?xf16>
  %4 = hl.pow %3, %a : tensor<4x?xf16>
  %5 = hl.maximum %4, %b : tensor<4x?xf16>
  %6 = hl.minimum %5, %a : tensor<4x?xf16>
  return %6 : tensor<4x?xf16>
}

// Every element type (bf16, f32, i8, i32, i64) and numpy broadcasting, which needs the
// long form. The generic form spells the operand types the same way.
// CHECK-LABEL: func.func @binary_broadcast(
// CHECK-SAME:      %[[A:.*]]: tensor<4x1xf32>, %[[B:.*]]: tensor<1x5xf32>, %[[C:.*]]: tensor<3xbf16>, %[[D:.*]]: tensor<2x3xbf16>, %[[E:.*]]: tensor<?x8xi8>, %[[F:.*]]: tensor<8xi8>, %[[G:.*]]: tensor<i32>, %[[H:.*]]: tensor<2x?xi32>, %[[I:.*]]: tensor<6x1x2xi64>, %[[J:.*]]: tensor<?x2xi64>)
// CHECK-NEXT:    hl.add %[[A]], %[[B]] : tensor<4x1xf32>, tensor<1x5xf32> -> tensor<4x5xf32>
// CHECK-NEXT:    hl.sub %[[C]], %[[D]] : tensor<3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
// CHECK-NEXT:    hl.mul %[[E]], %[[F]] : tensor<?x8xi8>, tensor<8xi8> -> tensor<?x8xi8>
// CHECK-NEXT:    hl.div %[[G]], %[[H]] : tensor<i32>, tensor<2x?xi32> -> tensor<2x?xi32>
// CHECK-NEXT:    hl.maximum %[[I]], %[[J]] : tensor<6x1x2xi64>, tensor<?x2xi64> -> tensor<6x?x2xi64>
// CHECK-NEXT:    hl.minimum %[[J]], %[[J]] : tensor<?x2xi64>
// CHECK-NEXT:    hl.pow %[[A]], %[[A]] : tensor<4x1xf32>
// GENERIC-LABEL: sym_name = "binary_broadcast"
// GENERIC:         "hl.add"(%{{.*}}, %{{.*}}) : (tensor<4x1xf32>, tensor<1x5xf32>) -> tensor<4x5xf32>
func.func @binary_broadcast(%a: tensor<4x1xf32>, %b: tensor<1x5xf32>, %c: tensor<3xbf16>, %d: tensor<2x3xbf16>,
                            %e: tensor<?x8xi8>, %f: tensor<8xi8>, %g: tensor<i32>, %h: tensor<2x?xi32>,
                            %i: tensor<6x1x2xi64>, %j: tensor<?x2xi64>) {
  %0 = hl.add %a, %b : tensor<4x1xf32>, tensor<1x5xf32> -> tensor<4x5xf32>
  %1 = hl.sub %c, %d : tensor<3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  %2 = hl.mul %e, %f : tensor<?x8xi8>, tensor<8xi8> -> tensor<?x8xi8>
  %3 = hl.div %g, %h : tensor<i32>, tensor<2x?xi32> -> tensor<2x?xi32>
  %4 = hl.maximum %i, %j : tensor<6x1x2xi64>, tensor<?x2xi64> -> tensor<6x?x2xi64>
  // The long form with equal types prints in the short form.
  %5 = hl.minimum %j, %j : tensor<?x2xi64>, tensor<?x2xi64> -> tensor<?x2xi64>
  %6 = "hl.pow"(%a, %a) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return
}

// CHECK-LABEL: func.func @logical(
// CHECK-SAME:      %[[P:.*]]: tensor<8xi1>, %[[Q:.*]]: tensor<1xi1>)
// CHECK-NEXT:    %[[AND:.*]] = hl.and %[[P]], %[[P]] : tensor<8xi1>
// CHECK-NEXT:    %[[OR:.*]] = hl.or %[[AND]], %[[Q]] : tensor<8xi1>, tensor<1xi1> -> tensor<8xi1>
// CHECK-NEXT:    %[[NOT:.*]] = hl.not %[[OR]] : tensor<8xi1>
// CHECK-NEXT:    return %[[NOT]]
func.func @logical(%p: tensor<8xi1>, %q: tensor<1xi1>) -> tensor<8xi1> {
  %0 = hl.and %p, %p : tensor<8xi1>
  %1 = hl.or %0, %q : tensor<8xi1>, tensor<1xi1> -> tensor<8xi1>
  %2 = hl.not %1 : tensor<8xi1>
  return %2 : tensor<8xi1>
}

// CHECK-LABEL: func.func @unary_float(
// CHECK-SAME:      %[[X:.*]]: tensor<4x?xf16>)
// CHECK-NEXT:    %[[V0:.*]] = hl.neg %[[X]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V1:.*]] = hl.abs %[[V0]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V2:.*]] = hl.exp %[[V1]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V3:.*]] = hl.log %[[V2]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V4:.*]] = hl.sqrt %[[V3]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V5:.*]] = hl.rsqrt %[[V4]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V6:.*]] = hl.reciprocal %[[V5]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V7:.*]] = hl.tanh %[[V6]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V8:.*]] = hl.sigmoid %[[V7]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V9:.*]] = hl.relu %[[V8]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V10:.*]] = hl.silu %[[V9]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V11:.*]] = hl.erf %[[V10]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V12:.*]] = hl.floor %[[V11]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V13:.*]] = hl.ceil %[[V12]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V14:.*]] = hl.round %[[V13]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V15:.*]] = hl.sign %[[V14]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V16:.*]] = hl.gelu %[[V15]] : tensor<4x?xf16>
// CHECK-NEXT:    %[[V17:.*]] = hl.gelu %[[V16]] {approximate = #hl.approx<tanh>} : tensor<4x?xf16>
// CHECK-NEXT:    return %[[V17]] : tensor<4x?xf16>
// GENERIC-LABEL: sym_name = "unary_float"
// GENERIC:         "hl.gelu"(%{{.*}}) <{approximate = #hl.approx<tanh>}> : (tensor<4x?xf16>) -> tensor<4x?xf16>
func.func @unary_float(%x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %0 = hl.neg %x : tensor<4x?xf16>
  %1 = hl.abs %0 : tensor<4x?xf16>
  %2 = hl.exp %1 : tensor<4x?xf16>
  %3 = hl.log %2 : tensor<4x?xf16>
  %4 = hl.sqrt %3 : tensor<4x?xf16>
  %5 = hl.rsqrt %4 : tensor<4x?xf16>
  %6 = hl.reciprocal %5 : tensor<4x?xf16>
  %7 = hl.tanh %6 : tensor<4x?xf16>
  %8 = hl.sigmoid %7 : tensor<4x?xf16>
  %9 = hl.relu %8 : tensor<4x?xf16>
  %10 = hl.silu %9 : tensor<4x?xf16>
  %11 = hl.erf %10 : tensor<4x?xf16>
  %12 = hl.floor %11 : tensor<4x?xf16>
  %13 = hl.ceil %12 : tensor<4x?xf16>
  %14 = hl.round %13 : tensor<4x?xf16>
  %15 = hl.sign %14 : tensor<4x?xf16>
  %16 = hl.gelu %15 : tensor<4x?xf16>
  %17 = hl.gelu %16 {approximate = #hl.approx<tanh>} : tensor<4x?xf16>
  return %17 : tensor<4x?xf16>
}

// The numeric unary ops also take integers.
// CHECK-LABEL: func.func @unary_int(
// CHECK-SAME:      %[[X:.*]]: tensor<16xi32>)
// CHECK-NEXT:    %[[V0:.*]] = hl.neg %[[X]] : tensor<16xi32>
// CHECK-NEXT:    %[[V1:.*]] = hl.abs %[[V0]] : tensor<16xi32>
// CHECK-NEXT:    %[[V2:.*]] = hl.relu %[[V1]] : tensor<16xi32>
// CHECK-NEXT:    %[[V3:.*]] = hl.sign %[[V2]] : tensor<16xi32>
// CHECK-NEXT:    return %[[V3]]
func.func @unary_int(%x: tensor<16xi32>) -> tensor<16xi32> {
  %0 = hl.neg %x : tensor<16xi32>
  %1 = hl.abs %0 : tensor<16xi32>
  %2 = hl.relu %1 : tensor<16xi32>
  %3 = hl.sign %2 : tensor<16xi32>
  return %3 : tensor<16xi32>
}

// CHECK-LABEL: func.func @cast_cmp_select(
// CHECK-SAME:      %[[X:.*]]: tensor<4x?xf16>, %[[Y:.*]]: tensor<4xf32>, %[[Z:.*]]: tensor<1xf32>, %[[I:.*]]: tensor<4xi64>)
// CHECK-NEXT:    %[[C:.*]] = hl.cast %[[X]] : tensor<4x?xf16> -> tensor<4x?xf32>
// CHECK-NEXT:    hl.cast %[[I]] : tensor<4xi64> -> tensor<4xi1>
// CHECK-NEXT:    hl.cast %[[Y]] : tensor<4xf32> -> tensor<4xi8>
// CHECK-NEXT:    %[[LT:.*]] = hl.cmp %[[Y]], %[[Z]] {predicate = #hl.cmp<lt>} : tensor<4xf32>, tensor<1xf32> -> tensor<4xi1>
// CHECK-NEXT:    hl.cmp %[[I]], %[[I]] {predicate = #hl.cmp<eq>} : tensor<4xi64>, tensor<4xi64> -> tensor<4xi1>
// CHECK-NEXT:    %[[S:.*]] = hl.select %[[LT]], %[[Y]], %[[Z]] : tensor<4xi1>, tensor<4xf32>, tensor<1xf32> -> tensor<4xf32>
// CHECK-NEXT:    return %[[S]] : tensor<4xf32>
// GENERIC-LABEL: sym_name = "cast_cmp_select"
// GENERIC:         "hl.cast"(%{{.*}}) : (tensor<4x?xf16>) -> tensor<4x?xf32>
// GENERIC:         "hl.cmp"(%{{.*}}, %{{.*}}) <{predicate = #hl.cmp<lt>}> : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
// GENERIC:         "hl.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4xi1>, tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
func.func @cast_cmp_select(%x: tensor<4x?xf16>, %y: tensor<4xf32>, %z: tensor<1xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  %0 = hl.cast %x : tensor<4x?xf16> -> tensor<4x?xf32>
  %1 = hl.cast %i : tensor<4xi64> -> tensor<4xi1>
  %2 = hl.cast %y : tensor<4xf32> -> tensor<4xi8>
  %3 = hl.cmp %y, %z {predicate = #hl.cmp<lt>} : tensor<4xf32>, tensor<1xf32> -> tensor<4xi1>
  %4 = hl.cmp %i, %i {predicate = #hl.cmp<eq>} : tensor<4xi64>, tensor<4xi64> -> tensor<4xi1>
  %5 = hl.select %3, %y, %z : tensor<4xi1>, tensor<4xf32>, tensor<1xf32> -> tensor<4xf32>
  return %5 : tensor<4xf32>
}

// CHECK-LABEL: func.func @clamp_broadcast_to(
// CHECK-SAME:      %[[X:.*]]: tensor<4x?xbf16>, %[[Y:.*]]: tensor<1x128xf32>, %[[N:.*]]: tensor<3xi8>)
// CHECK-NEXT:    hl.clamp %[[X]] {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<4x?xbf16>
// CHECK-NEXT:    hl.clamp %[[X]] {min = -1.000000e+00 : f32} : tensor<4x?xbf16>
// CHECK-NEXT:    hl.clamp %[[N]] {max = 1.000000e+01 : f32} : tensor<3xi8>
// CHECK-NEXT:    hl.broadcast_to %[[Y]] : tensor<1x128xf32> -> tensor<8x128xf32>
// CHECK-NEXT:    hl.broadcast_to %[[Y]] : tensor<1x128xf32> -> tensor<2x?x128xf32>
// GENERIC-LABEL: sym_name = "clamp_broadcast_to"
// GENERIC:         "hl.clamp"(%{{.*}}) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<4x?xbf16>) -> tensor<4x?xbf16>
// GENERIC:         "hl.broadcast_to"(%{{.*}}) : (tensor<1x128xf32>) -> tensor<8x128xf32>
func.func @clamp_broadcast_to(%x: tensor<4x?xbf16>, %y: tensor<1x128xf32>, %n: tensor<3xi8>) {
  %0 = hl.clamp %x {max = 6.0 : f32, min = 0.0 : f32} : tensor<4x?xbf16>
  %1 = hl.clamp %x {min = -1.0 : f32} : tensor<4x?xbf16>
  %2 = hl.clamp %n {max = 10.0 : f32} : tensor<3xi8>
  %3 = hl.broadcast_to %y : tensor<1x128xf32> -> tensor<8x128xf32>
  %4 = hl.broadcast_to %y : tensor<1x128xf32> -> tensor<2x?x128xf32>
  return
}

// The type of a constant is its value's; extra attributes follow the value.
// CHECK-LABEL: func.func @constants()
// CHECK-NEXT:    hl.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    hl.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK-NEXT:    hl.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    hl.constant dense<-5> : tensor<2x2xi8>
// CHECK-NEXT:    hl.constant dense<7> : tensor<i64>
// CHECK-NEXT:    hl.constant dense<5.000000e-01> : tensor<2xf16>
// CHECK-NEXT:    hl.constant dense<-2.500000e+00> : tensor<1xbf16>
// CHECK-NEXT:    hl.constant dense<0.000000e+00> : tensor<3xf32> {kiln.tag}
// GENERIC-LABEL: sym_name = "constants"
// GENERIC:         "hl.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
// GENERIC:         "hl.constant"() <{value = dense<0.000000e+00> : tensor<3xf32>}> {kiln.tag} : () -> tensor<3xf32>
func.func @constants() {
  %0 = hl.constant dense<1.0> : tensor<4xf32>
  %1 = hl.constant dense<[1, 2, 3]> : tensor<3xi32>
  %2 = hl.constant dense<[true, false]> : tensor<2xi1>
  %3 = hl.constant dense<-5> : tensor<2x2xi8>
  %4 = hl.constant dense<7> : tensor<i64>
  %5 = hl.constant dense<0.5> : tensor<2xf16>
  %6 = hl.constant dense<-2.5> : tensor<1xbf16>
  %7 = hl.constant dense<0.0> : tensor<3xf32> {kiln.tag}
  return
}

// CHECK-LABEL: func.func @reductions(
// CHECK-SAME:      %[[X:.*]]: tensor<8x?x128xf32>, %[[I:.*]]: tensor<4x6xi32>)
// CHECK-NEXT:    hl.reduce_sum %[[X]] {axes = [2]} : tensor<8x?x128xf32> -> tensor<8x?xf32>
// CHECK-NEXT:    hl.reduce_max %[[X]] {axes = [-1], keep_dims = true} : tensor<8x?x128xf32> -> tensor<8x?x1xf32>
// CHECK-NEXT:    hl.reduce_min %[[X]] {axes = [0, 2]} : tensor<8x?x128xf32> -> tensor<?xf32>
// CHECK-NEXT:    hl.reduce_prod %[[I]] {axes = [0, 1]} : tensor<4x6xi32> -> tensor<i32>
// CHECK-NEXT:    hl.reduce_mean %[[X]] {axes = [1], keep_dims = false} : tensor<8x?x128xf32> -> tensor<8x128xf32>
// CHECK-NEXT:    hl.argmax %[[X]] {axis = 2 : i64} : tensor<8x?x128xf32> -> tensor<8x?xi64>
// CHECK-NEXT:    hl.argmin %[[I]] {axis = -2 : i64, keep_dims = true} : tensor<4x6xi32> -> tensor<1x6xi64>
// GENERIC-LABEL: sym_name = "reductions"
// GENERIC:         "hl.reduce_sum"(%{{.*}}) <{axes = [2]}> : (tensor<8x?x128xf32>) -> tensor<8x?xf32>
// GENERIC:         "hl.reduce_max"(%{{.*}}) <{axes = [-1], keep_dims = true}> : (tensor<8x?x128xf32>) -> tensor<8x?x1xf32>
func.func @reductions(%x: tensor<8x?x128xf32>, %i: tensor<4x6xi32>) {
  %0 = hl.reduce_sum %x {axes = [2]} : tensor<8x?x128xf32> -> tensor<8x?xf32>
  %1 = hl.reduce_max %x {axes = [-1], keep_dims = true} : tensor<8x?x128xf32> -> tensor<8x?x1xf32>
  %2 = hl.reduce_min %x {axes = [0, 2]} : tensor<8x?x128xf32> -> tensor<?xf32>
  %3 = hl.reduce_prod %i {axes = [0, 1]} : tensor<4x6xi32> -> tensor<i32>
  %4 = hl.reduce_mean %x {axes = [1], keep_dims = false} : tensor<8x?x128xf32> -> tensor<8x128xf32>
  %5 = hl.argmax %x {axis = 2 : i64} : tensor<8x?x128xf32> -> tensor<8x?xi64>
  %6 = hl.argmin %i {axis = -2 : i64, keep_dims = true} : tensor<4x6xi32> -> tensor<1x6xi64>
  return
}

// CHECK-LABEL: func.func @cube(
// CHECK-SAME:      %[[A:.*]]: tensor<128x64xf16>, %[[B:.*]]: tensor<256x64xf16>, %[[C:.*]]: tensor<64x?xf16>, %[[D:.*]]: tensor<8x1x16x32xbf16>, %[[E:.*]]: tensor<5x32x4xbf16>, %[[X:.*]]: tensor<1x64x56x56xf32>, %[[W:.*]]: tensor<64x64x3x3xf32>, %[[G:.*]]: tensor<32x16x3x3xf32>, %[[Q:.*]]: tensor<2x8x?xi8>)
// CHECK-NEXT:    hl.matmul %[[A]], %[[B]] {transpose_b = true} : tensor<128x64xf16>, tensor<256x64xf16> -> tensor<128x256xf16>
// CHECK-NEXT:    hl.matmul %[[A]], %[[C]] : tensor<128x64xf16>, tensor<64x?xf16> -> tensor<128x?xf16>
// CHECK-NEXT:    hl.matmul %[[C]], %[[A]] {transpose_a = true, transpose_b = true} : tensor<64x?xf16>, tensor<128x64xf16> -> tensor<?x128xf16>
// CHECK-NEXT:    hl.batch_matmul %[[D]], %[[E]] : tensor<8x1x16x32xbf16>, tensor<5x32x4xbf16> -> tensor<8x5x16x4xbf16>
// CHECK-NEXT:    hl.batch_matmul %[[Q]], %[[Q]] {transpose_a = true} : tensor<2x8x?xi8>, tensor<2x8x?xi8> -> tensor<2x?x?xi8>
// CHECK-NEXT:    hl.conv2d %[[X]], %[[W]] {padding = [1, 1, 1, 1]} : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
// CHECK-NEXT:    hl.conv2d %[[X]], %[[W]] : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x54x54xf32>
// CHECK-NEXT:    hl.conv2d %[[X]], %[[G]] {dilation = [2, 2], groups = 4 : i64, padding = [0, 1, 2, 3], strides = [2, 1]} : tensor<1x64x56x56xf32>, tensor<32x16x3x3xf32> -> tensor<1x32x27x56xf32>
// GENERIC-LABEL: sym_name = "cube"
// GENERIC:         "hl.matmul"(%{{.*}}, %{{.*}}) <{transpose_b = true}> : (tensor<128x64xf16>, tensor<256x64xf16>) -> tensor<128x256xf16>
// GENERIC:         "hl.conv2d"(%{{.*}}, %{{.*}}) <{dilation = [2, 2], groups = 4 : i64, padding = [0, 1, 2, 3], strides = [2, 1]}>
func.func @cube(%a: tensor<128x64xf16>, %b: tensor<256x64xf16>, %c: tensor<64x?xf16>,
                %d: tensor<8x1x16x32xbf16>, %e: tensor<5x32x4xbf16>,
                %x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>, %g: tensor<32x16x3x3xf32>,
                %q: tensor<2x8x?xi8>) {
  %0 = hl.matmul %a, %b {transpose_b = true} : tensor<128x64xf16>, tensor<256x64xf16> -> tensor<128x256xf16>
  %1 = hl.matmul %a, %c : tensor<128x64xf16>, tensor<64x?xf16> -> tensor<128x?xf16>
  %2 = hl.matmul %c, %a {transpose_a = true, transpose_b = true} : tensor<64x?xf16>, tensor<128x64xf16> -> tensor<?x128xf16>
  %3 = hl.batch_matmul %d, %e : tensor<8x1x16x32xbf16>, tensor<5x32x4xbf16> -> tensor<8x5x16x4xbf16>
  %4 = hl.batch_matmul %q, %q {transpose_a = true} : tensor<2x8x?xi8>, tensor<2x8x?xi8> -> tensor<2x?x?xi8>
  %5 = hl.conv2d %x, %w {padding = [1, 1, 1, 1]} : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  %6 = hl.conv2d %x, %w : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x54x54xf32>
  %7 = hl.conv2d %x, %g {dilation = [2, 2], groups = 4 : i64, padding = [0, 1, 2, 3], strides = [2, 1]} : tensor<1x64x56x56xf32>, tensor<32x16x3x3xf32> -> tensor<1x32x27x56xf32>
  return
}

// CHECK-LABEL: func.func @layout(
// CHECK-SAME:      %[[X:.*]]: tensor<8x128xf32>, %[[Y:.*]]: tensor<8x?xf32>, %[[Z:.*]]: tensor<1x?x1xi64>, %[[B:.*]]: tensor<8x3xi1>)
// CHECK-NEXT:    hl.reshape %[[X]] : tensor<8x128xf32> -> tensor<1024xf32>
// CHECK-NEXT:    hl.reshape %[[Y]] : tensor<8x?xf32> -> tensor<?x4x2xf32>
// CHECK-NEXT:    hl.transpose %[[X]] {perm = [1, 0]} : tensor<8x128xf32> -> tensor<128x8xf32>
// CHECK-NEXT:    hl.transpose %[[Z]] {perm = [2, 0, 1]} : tensor<1x?x1xi64> -> tensor<1x1x?xi64>
// CHECK-NEXT:    hl.slice %[[X]] {limits = [8, 64], starts = [0, 0]} : tensor<8x128xf32> -> tensor<8x64xf32>
// CHECK-NEXT:    hl.slice %[[X]] {limits = [7, 128], starts = [1, 3], strides = [2, 5]} : tensor<8x128xf32> -> tensor<3x25xf32>
// CHECK-NEXT:    hl.expand_dims %[[X]] {axis = 0 : i64} : tensor<8x128xf32> -> tensor<1x8x128xf32>
// CHECK-NEXT:    hl.expand_dims %[[X]] {axis = -1 : i64} : tensor<8x128xf32> -> tensor<8x128x1xf32>
// CHECK-NEXT:    hl.squeeze %[[Z]] {axes = [0, 2]} : tensor<1x?x1xi64> -> tensor<?xi64>
// CHECK-NEXT:    hl.concat %[[X]], %[[Y]], %[[X]] {axis = 1 : i64} : tensor<8x128xf32>, tensor<8x?xf32>, tensor<8x128xf32> -> tensor<8x?xf32>
// CHECK-NEXT:    hl.concat %[[B]], %[[B]] {axis = -2 : i64} : tensor<8x3xi1>, tensor<8x3xi1> -> tensor<16x3xi1>
// CHECK-NEXT:    hl.concat %[[B]] {axis = 0 : i64} : tensor<8x3xi1>
// GENERIC-LABEL: sym_name = "layout"
// GENERIC:         "hl.reshape"(%{{.*}}) : (tensor<8x128xf32>) -> tensor<1024xf32>
// GENERIC:         "hl.slice"(%{{.*}}) <{limits = [7, 128], starts = [1, 3], strides = [2, 5]}> : (tensor<8x128xf32>) -> tensor<3x25xf32>
// GENERIC:         "hl.concat"(%{{.*}}, %{{.*}}, %{{.*}}) <{axis = 1 : i64}> : (tensor<8x128xf32>, tensor<8x?xf32>, tensor<8x128xf32>) -> tensor<8x?xf32>
func.func @layout(%x: tensor<8x128xf32>, %y: tensor<8x?xf32>, %z: tensor<1x?x1xi64>, %b: tensor<8x3xi1>) {
  %0 = hl.reshape %x : tensor<8x128xf32> -> tensor<1024xf32>
  %1 = hl.reshape %y : tensor<8x?xf32> -> tensor<?x4x2xf32>
  %2 = hl.transpose %x {perm = [1, 0]} : tensor<8x128xf32> -> tensor<128x8xf32>
  %3 = hl.transpose %z {perm = [2, 0, 1]} : tensor<1x?x1xi64> -> tensor<1x1x?xi64>
  %4 = hl.slice %x {limits = [8, 64], starts = [0, 0]} : tensor<8x128xf32> -> tensor<8x64xf32>
  %5 = hl.slice %x {limits = [7, 128], starts = [1, 3], strides = [2, 5]} : tensor<8x128xf32> -> tensor<3x25xf32>
  %6 = hl.expand_dims %x {axis = 0 : i64} : tensor<8x128xf32> -> tensor<1x8x128xf32>
  %7 = hl.expand_dims %x {axis = -1 : i64} : tensor<8x128xf32> -> tensor<8x128x1xf32>
  %8 = hl.squeeze %z {axes = [0, 2]} : tensor<1x?x1xi64> -> tensor<?xi64>
  %9 = hl.concat %x, %y, %x {axis = 1 : i64} : tensor<8x128xf32>, tensor<8x?xf32>, tensor<8x128xf32> -> tensor<8x?xf32>
  %10 = hl.concat %b, %b {axis = -2 : i64} : tensor<8x3xi1>, tensor<8x3xi1> -> tensor<16x3xi1>
  %11 = hl.concat %b {axis = 0 : i64} : tensor<8x3xi1>
  return
}

// CHECK-LABEL: func.func @composites(
// CHECK-SAME:      %[[X:.*]]: tensor<8x128xf32>, %[[G:.*]]: tensor<128xf32>, %[[I:.*]]: tensor<1x64x7x7xbf16>, %[[S:.*]]: tensor<64x1x1xbf16>, %[[H:.*]]: tensor<2x?x256xf16>, %[[C:.*]]: tensor<8xf32>)
// CHECK-NEXT:    hl.softmax %[[X]] {axis = -1 : i64} : tensor<8x128xf32>
// CHECK-NEXT:    hl.softmax %[[X]] : tensor<8x128xf32>
// CHECK-NEXT:    hl.log_softmax %[[X]] {axis = 0 : i64} : tensor<8x128xf32>
// CHECK-NEXT:    hl.layer_norm %[[X]], %[[G]], %[[G]] {epsilon = 9.99999974E-6 : f32} : tensor<8x128xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<8x128xf32>
// CHECK-NEXT:    hl.rms_norm %[[X]], %[[G]] : tensor<8x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
// CHECK-NEXT:    hl.batch_norm %[[I]], %[[S]], %[[S]], %[[S]], %[[S]] {epsilon = 1.000000e-03 : f32} : tensor<1x64x7x7xbf16>, tensor<64x1x1xbf16>, tensor<64x1x1xbf16>, tensor<64x1x1xbf16>, tensor<64x1x1xbf16> -> tensor<1x64x7x7xbf16>
// CHECK-NEXT:    hl.bias_add %[[X]], %[[G]] : tensor<8x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
// CHECK-NEXT:    hl.bias_add %[[X]], %[[C]] {axis = 0 : i64} : tensor<8x128xf32>, tensor<8xf32> -> tensor<8x128xf32>
// CHECK-NEXT:    hl.dropout %[[X]] {rate = 1.000000e-01 : f32} : tensor<8x128xf32>
// CHECK-NEXT:    hl.swiglu %[[H]] : tensor<2x?x256xf16> -> tensor<2x?x128xf16>
// CHECK-NEXT:    hl.swiglu %[[H]] {axis = 1 : i64} : tensor<2x?x256xf16>
// GENERIC-LABEL: sym_name = "composites"
// GENERIC:         "hl.softmax"(%{{.*}}) <{axis = -1 : i64}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
// GENERIC:         "hl.batch_norm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{epsilon = 1.000000e-03 : f32}>
// GENERIC:         "hl.swiglu"(%{{.*}}) : (tensor<2x?x256xf16>) -> tensor<2x?x128xf16>
func.func @composites(%x: tensor<8x128xf32>, %g: tensor<128xf32>, %i: tensor<1x64x7x7xbf16>, %s: tensor<64x1x1xbf16>,
                      %h: tensor<2x?x256xf16>, %c: tensor<8xf32>) {
  %0 = hl.softmax %x {axis = -1 : i64} : tensor<8x128xf32>
  %1 = hl.softmax %x : tensor<8x128xf32>
  %2 = hl.log_softmax %x {axis = 0 : i64} : tensor<8x128xf32>
  %3 = hl.layer_norm %x, %g, %g {epsilon = 1.0e-5 : f32} : tensor<8x128xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<8x128xf32>
  %4 = hl.rms_norm %x, %g : tensor<8x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
  %5 = hl.batch_norm %i, %s, %s, %s, %s {epsilon = 1.0e-3 : f32} : tensor<1x64x7x7xbf16>, tensor<64x1x1xbf16>, tensor<64x1x1xbf16>, tensor<64x1x1xbf16>, tensor<64x1x1xbf16> -> tensor<1x64x7x7xbf16>
  %6 = hl.bias_add %x, %g : tensor<8x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
  %7 = hl.bias_add %x, %c {axis = 0 : i64} : tensor<8x128xf32>, tensor<8xf32> -> tensor<8x128xf32>
  %8 = hl.dropout %x {rate = 0.1 : f32} : tensor<8x128xf32>
  %9 = hl.swiglu %h : tensor<2x?x256xf16> -> tensor<2x?x128xf16>
  // A dynamic split axis stays dynamic.
  %10 = hl.swiglu %h {axis = 1 : i64} : tensor<2x?x256xf16>
  return
}
