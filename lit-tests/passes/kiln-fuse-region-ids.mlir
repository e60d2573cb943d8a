// RUN: %kiln-opt %s --kiln-fuse='opt-level=2 remarks report=%t.json dot=%t.dot' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file %t.remarks
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.json
// RUN: FileCheck %s --check-prefix=DOT --input-file %t.dot
// Nested under func.func, one run numbers across the functions, and its report and DOT file
// cover all of them (not only the last function's).
// RUN: %kiln-opt %s -p 'builtin.module(func.func(kiln-fuse{opt-level=2 remarks report=%t.nested.json dot=%t.nested.dot}))' 2>%t.nested.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file %t.nested.remarks
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t.nested.json
// RUN: FileCheck %s --check-prefix=DOT --input-file %t.nested.dot
// The ids survive outlining (as `fused.id` on the kernel) and come back with fused-inline.
// RUN: %kiln-opt %s --kiln-fuse | %kiln-opt -p fused-outline | FileCheck %s --check-prefix=OUTLINE
// RUN: %kiln-opt %s --kiln-fuse | %kiln-opt -p fused-outline | %kiln-opt -p fused-inline | FileCheck %s
// Every region kiln-fuse forms carries its number as `id`: the number of its remark, of its
// entry in the report and of its DOT cluster, so "region 6" of a report can be found in the
// IR. Numbers continue after the ids already in the module (@earlier holds region 5).

// CHECK-LABEL: func.func @earlier
// CHECK:         fused.region vector {{.*}} attributes {id = 5 : i64} {
func.func @earlier(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = fused.region vector (%x = %a) : (tensor<8x64xf32>) -> tensor<8x64xf32> attributes {id = 5 : i64} {
    %1 = hl.exp %x : tensor<8x64xf32>
    fused.yield %1 : tensor<8x64xf32>
  }
  return %0 : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @f
// CHECK:         fused.region vector {{.*}} attributes {id = 6 : i64} {
// CHECK-NEXT:      hl.add
// CHECK-NEXT:      hl.exp
// REMARK: remark: fused 'hl.add' -> 'hl.exp' into region 6 (vector, 2 ops,
// REPORT:      "id": 6,
// REPORT-NEXT: "function": "f",
// DOT: subgraph cluster_b{{[0-9]+}}_r6 {
// DOT-NEXT: label="region 6 (vector, 2 ops, saves 4096 B)";
// OUTLINE-LABEL: func.func private @f_kernel0(
// OUTLINE-SAME:    attributes {fused.id = 6 : i64, fused.kernel, fused.kind = #fused.kind<vector>}
func.func @f(%a: tensor<8x64xf32>, %b: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.add %a, %b : tensor<8x64xf32>
  %1 = hl.exp %0 : tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @g
// CHECK:         fused.region vector {{.*}} attributes {id = 7 : i64} {
// CHECK-NEXT:      hl.neg
// CHECK-NEXT:      hl.abs
// REMARK: remark: fused 'hl.neg' -> 'hl.abs' into region 7 (vector, 2 ops,
// REPORT:      "id": 7,
// REPORT-NEXT: "function": "g",
// DOT: subgraph cluster_b{{[0-9]+}}_r7 {
// DOT-NEXT: label="region 7 (vector, 2 ops, saves 4096 B)";
// OUTLINE-LABEL: func.func private @g_kernel0(
// OUTLINE-SAME:    attributes {fused.id = 7 : i64, fused.kernel, fused.kind = #fused.kind<vector>}
func.func @g(%a: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = hl.neg %a : tensor<8x64xf32>
  %1 = hl.abs %0 : tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}
