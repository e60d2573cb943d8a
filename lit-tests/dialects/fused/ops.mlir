// RUN: %kiln-opt %s | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s --check-prefix=CUSTOM
// Round trip of `fused.region` / `fused.yield`: custom -> custom, custom -> generic -> custom
// and generic -> generic. The custom form binds each body argument to its input
// (`%arg = %input`), prints the kind as a keyword and keeps the `fused.` prefix inside.

// No fused op falls back to the generic form, and the kind is not repeated in a dictionary.
// CUSTOM-NOT: "fused.
// CUSTOM-NOT: kind =

// CHECK-LABEL: func.func @vector_two_results(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[R:.*]]:2 = fused.region vector (%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]]) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:      %[[ADD:.*]] = hl.add %[[X]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT:      %[[EXP:.*]] = hl.exp %[[ADD]] : tensor<4xf32>
// CHECK-NEXT:      fused.yield %[[ADD]], %[[EXP]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[MUL:.*]] = hl.mul %[[R]]#0, %[[R]]#1 : tensor<4xf32>
// CHECK-NEXT:    return %[[MUL]] : tensor<4xf32>
// GENERIC-LABEL: sym_name = "vector_two_results"
// GENERIC:         %[[R:.*]]:2 = "fused.region"(%{{.*}}, %{{.*}}) <{kind = #fused.kind<vector>}> ({
// GENERIC-NEXT:    ^bb0(%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>):
// GENERIC-NEXT:      %[[ADD:.*]] = "hl.add"(%[[X]], %[[Y]])
// GENERIC-NEXT:      %[[EXP:.*]] = "hl.exp"(%[[ADD]])
// GENERIC-NEXT:      "fused.yield"(%[[ADD]], %[[EXP]]) : (tensor<4xf32>, tensor<4xf32>) -> ()
// GENERIC-NEXT:    }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func @vector_two_results(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = fused.region vector (%x = %a, %y = %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %1 = hl.add %x, %y : tensor<4xf32>
    %2 = hl.exp %1 : tensor<4xf32>
    fused.yield %1, %2 : tensor<4xf32>, tensor<4xf32>
  }
  %3 = hl.mul %0#0, %0#1 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// A region without inputs (constants only), and reductions with broadcasts.
// CHECK-LABEL: func.func @no_inputs_and_reduce(
// CHECK:         fused.region vector () : () -> tensor<4xf32> {
// CHECK-NEXT:      hl.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK:         fused.region vector (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<4x8xf16>, tensor<4xf32>) -> tensor<4xf32> {
// CHECK:           hl.reduce_sum %{{.*}} {axes = [1]} : tensor<4x8xf32> -> tensor<4xf32>
// GENERIC-LABEL: sym_name = "no_inputs_and_reduce"
// GENERIC:         "fused.region"() <{kind = #fused.kind<vector>}> ({
// GENERIC-NEXT:      "hl.constant"()
func.func @no_inputs_and_reduce(%a: tensor<4x8xf16>) -> tensor<4xf32> {
  %c = fused.region vector () : () -> tensor<4xf32> {
    %0 = hl.constant dense<1.0> : tensor<4xf32>
    fused.yield %0 : tensor<4xf32>
  }
  %r = fused.region vector (%x = %a, %y = %c) : (tensor<4x8xf16>, tensor<4xf32>) -> tensor<4xf32> {
    %0 = hl.cast %x : tensor<4x8xf16> -> tensor<4x8xf32>
    %1 = hl.reduce_sum %0 {axes = [1]} : tensor<4x8xf32> -> tensor<4xf32>
    %2 = hl.add %1, %y : tensor<4xf32>
    fused.yield %2 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Cube regions hold cube ops with layout ops and constants; mix regions add vector work.
// CHECK-LABEL: func.func @cube_and_mix(
// CHECK:         %[[C:.*]] = fused.region cube (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<8x16xf16>, tensor<32x16xf16>) -> tensor<8x32xf16> {
// CHECK-NEXT:      hl.transpose
// CHECK-NEXT:      hl.matmul
// CHECK-NEXT:      fused.yield
// CHECK:         fused.region mix (%{{.*}} = %[[C]], %{{.*}} = %{{.*}}) : (tensor<8x32xf16>, tensor<32x32xf16>) -> tensor<8x32xf16> {
// CHECK-NEXT:      hl.matmul
// CHECK-NEXT:      hl.relu
// CHECK-NEXT:      fused.yield
// GENERIC-LABEL: sym_name = "cube_and_mix"
// GENERIC:         "fused.region"(%{{.*}}, %{{.*}}) <{kind = #fused.kind<cube>}>
// GENERIC:         "fused.region"(%{{.*}}, %{{.*}}) <{kind = #fused.kind<mix>}>
func.func @cube_and_mix(%a: tensor<8x16xf16>, %b: tensor<32x16xf16>, %w: tensor<32x32xf16>) -> tensor<8x32xf16> {
  %0 = fused.region cube (%x = %a, %y = %b) : (tensor<8x16xf16>, tensor<32x16xf16>) -> tensor<8x32xf16> {
    %t = hl.transpose %y {perm = [1, 0]} : tensor<32x16xf16> -> tensor<16x32xf16>
    %m = hl.matmul %x, %t : tensor<8x16xf16>, tensor<16x32xf16> -> tensor<8x32xf16>
    fused.yield %m : tensor<8x32xf16>
  }
  %1 = fused.region mix (%x = %0, %y = %w) : (tensor<8x32xf16>, tensor<32x32xf16>) -> tensor<8x32xf16> {
    %m = hl.matmul %x, %y : tensor<8x32xf16>, tensor<32x32xf16> -> tensor<8x32xf16>
    %r = hl.relu %m : tensor<8x32xf16>
    fused.yield %r : tensor<8x32xf16>
  }
  return %1 : tensor<8x32xf16>
}

// Other attributes follow `attributes`; the yield prints its own dictionary.
// CHECK-LABEL: func.func @attributes(
// CHECK:         fused.region vector (%{{.*}} = %{{.*}}) : (tensor<?xf32>) -> tensor<?xf32> attributes {fused.note = "hot", tile = 64 : i64} {
// CHECK:           fused.yield {tag} %{{.*}} : tensor<?xf32>
// GENERIC-LABEL: sym_name = "attributes"
// GENERIC:         "fused.region"(%{{.*}}) <{kind = #fused.kind<vector>}> ({
// GENERIC:         }) {fused.note = "hot", tile = 64 : i64} : (tensor<?xf32>) -> tensor<?xf32>
func.func @attributes(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fused.region vector (%x = %a) : (tensor<?xf32>) -> tensor<?xf32> attributes {tile = 64 : i64, fused.note = "hot"} {
    %1 = hl.sqrt %x : tensor<?xf32>
    fused.yield {tag} %1 : tensor<?xf32>
  }
  return %0 : tensor<?xf32>
}

// The generic form is accepted as input too.
// CHECK-LABEL: func.func @from_generic(
// CHECK:         fused.region vector (%{{.*}} = %{{.*}}) : (tensor<2xi32>) -> tensor<2xi32> {
// CHECK-NEXT:      hl.neg
// CHECK-NEXT:      fused.yield
func.func @from_generic(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = "fused.region"(%a) <{kind = #fused.kind<vector>}> ({
  ^bb0(%x: tensor<2xi32>):
    %1 = "hl.neg"(%x) : (tensor<2xi32>) -> tensor<2xi32>
    "fused.yield"(%1) : (tensor<2xi32>) -> ()
  }) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// The region's number from kiln-fuse (`id`, an inherent attribute) prints with the others
// after `attributes` and goes into the properties of the generic form.
// CHECK-LABEL: func.func @with_id(
// CHECK:         fused.region vector (%{{.*}} = %{{.*}}) : (tensor<4xf32>) -> tensor<4xf32> attributes {id = 3 : i64, tile = 8 : i64} {
// GENERIC-LABEL: sym_name = "with_id"
// GENERIC:         "fused.region"(%{{.*}}) <{id = 3 : i64, kind = #fused.kind<vector>}> ({
// GENERIC:         }) {tile = 8 : i64} : (tensor<4xf32>) -> tensor<4xf32>
func.func @with_id(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> attributes {tile = 8 : i64, id = 3 : i64} {
    %1 = hl.exp %x : tensor<4xf32>
    fused.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// An attention region (issue 42): its kind keyword, and its `parts` (the fallback kernel of
// each body op) with the other inherent attributes.
// CHECK-LABEL: func.func @attention(
// CHECK:         fused.region attention (%{{.*}}) : {{.*}} attributes {parts = [0, 1, 1, 1, 1, 1, 2]} {
// CHECK-NEXT:      hl.matmul %{{.*}}, %{{.*}} {transpose_b = true}
// GENERIC-LABEL: sym_name = "attention"
// GENERIC:         "fused.region"(%{{.*}}, %{{.*}}, %{{.*}}) <{kind = #fused.kind<attention>, parts = [0, 1, 1, 1, 1, 1, 2]}> ({
func.func @attention(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fused.region attention (%x = %q, %y = %k, %z = %v) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> attributes {parts = [0, 1, 1, 1, 1, 1, 2]} {
    %s = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %d = hl.sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %e = hl.exp %d : tensor<4x4xf32>
    %r = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %p = hl.div %e, %r : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = hl.matmul %p, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    fused.yield %o : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
