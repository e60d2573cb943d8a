// RUN: %kiln-opt %s --allow-unregistered-dialect --kiln-fuse | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --kiln-fuse=opt-level=2 | FileCheck %s
// A graph region may use a value before its definition (`%1 = hl.neg %2`, `%2 = hl.neg %1`)
// or an op its own result. A fused region would move such ops to its last member, where
// they no longer dominate their uses: kiln-fuse leaves such a block alone (found by the
// fusion_pipeline fuzz target). An SSA block beside it still fuses.

// CHECK-LABEL: func.func @cycle(
// CHECK:         "test.graph"() ({
// CHECK-NEXT:      %[[A:.*]] = hl.neg %[[B:.*]] : tensor<4xf32>
// CHECK-NEXT:      %[[B]] = hl.neg %[[A]] : tensor<4xf32>
// CHECK-NEXT:      %[[C:.*]] = hl.exp %[[B]] : tensor<4xf32>
// CHECK-NEXT:      %[[S:.*]] = hl.add %[[S]], %[[C]] : tensor<4xf32>
// CHECK-NEXT:      "test.use"(%[[S]]) :
// CHECK-NOT:     fused.region
func.func @cycle() {
  "test.graph"() ({
    %1 = hl.neg %2 : tensor<4xf32>
    %2 = hl.neg %1 : tensor<4xf32>
    %3 = hl.exp %2 : tensor<4xf32>
    %4 = hl.add %4, %3 : tensor<4xf32>
    "test.use"(%4) : (tensor<4xf32>) -> ()
  }) : () -> ()
  return
}

// CHECK-LABEL: func.func @ssa(
// CHECK:         fused.region
func.func @ssa(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.neg %x : tensor<4xf32>
  %1 = hl.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
