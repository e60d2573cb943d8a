// RUN: %kiln-opt %s | FileCheck %s
// RUN: %kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %kiln-opt %s --mlir-print-op-generic | %kiln-opt | FileCheck %s
// The enum attributes of hl (`#hl.cmp<...>`, `#hl.approx<...>`) and fused
// (`#fused.kind<...>`): pretty, angle-bracket and aliased spellings read as the same value,
// which prints in the pretty form in both the custom and the generic form.

#lt = #hl.cmp<lt>

// CHECK-LABEL: func.func @enum_attrs
// CHECK-NEXT:    hl.cmp %{{.*}}, %{{.*}} {predicate = #hl.cmp<lt>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:    hl.cmp %{{.*}}, %{{.*}} {predicate = #hl.cmp<ge>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:    hl.gelu %{{.*}} {approximate = #hl.approx<none>} : tensor<4xf32>
// CHECK-NEXT:    fused.region mix (%{{.*}} = %{{.*}}) : (tensor<4x4xf32>) -> tensor<4x4xf32> attributes {tag = [#hl.cmp<eq>, #fused.kind<cube>]} {
// GENERIC-LABEL: "func.func"
// GENERIC:         "hl.cmp"(%{{.*}}, %{{.*}}) <{predicate = #hl.cmp<lt>}>
// GENERIC:         "hl.cmp"(%{{.*}}, %{{.*}}) <{predicate = #hl.cmp<ge>}>
// GENERIC:         "hl.gelu"(%{{.*}}) <{approximate = #hl.approx<none>}>
// GENERIC:         "fused.region"(%{{.*}}) <{kind = #fused.kind<mix>}> ({
// GENERIC:         }) {tag = [#hl.cmp<eq>, #fused.kind<cube>]} : (tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @enum_attrs(%a: tensor<4xf32>, %m: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = hl.cmp %a, %a {predicate = #lt} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %1 = "hl.cmp"(%a, %a) <{predicate = #hl<cmp<ge>>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = hl.gelu %a {approximate = #hl.approx<none>} : tensor<4xf32>
  %3 = fused.region mix (%x = %m) : (tensor<4x4xf32>) -> tensor<4x4xf32> attributes {tag = [#hl.cmp<eq>, #fused.kind<cube>]} {
    %4 = hl.matmul %x, %x : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
    %5 = hl.exp %4 : tensor<4x4xf32>
    fused.yield %5 : tensor<4x4xf32>
  }
  return %3 : tensor<4x4xf32>
}
