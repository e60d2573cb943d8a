// RUN: %kiln-opt %s -p fused-outline | FileCheck %s
// RUN: %kiln-opt %s -p fused-outline --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// Round trip: outlining then inlining gives the original module back.
// RUN: %kiln-opt %s > %t.ref
// RUN: %kiln-opt %s -p fused-outline | %kiln-opt -p fused-inline > %t.back
// RUN: diff %t.ref %t.back
// The outlined program computes the same values (kernels run as calls).
// RUN: %kiln-run --interpret %s --entry two_regions --seed 3 > %t.run.ref
// RUN: %kiln-opt %s -p fused-outline | %kiln-run --interpret - --entry two_regions --seed 3 > %t.run.out
// RUN: diff %t.run.ref %t.run.out
// fused-outline moves each fused.region of a function @f into a private kernel function
// @f_kernel<N> placed before @f, marked `fused.kernel` with the region's kind as `fused.kind`,
// and calls it in the region's place.

// STATS: (S) 5 num-outlined

// Kernels come before their function, in region order; the calls take the region's operands
// and their results replace the region's.
// CHECK-LABEL: func.func private @two_regions_kernel0(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {fused.kernel, fused.kind = #fused.kind<vector>} {
// CHECK-NEXT:    %[[ADD:.*]] = hl.add %[[X]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT:    %[[EXP:.*]] = hl.exp %[[ADD]] : tensor<4xf32>
// CHECK-NEXT:    return %[[ADD]], %[[EXP]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-LABEL: func.func private @two_regions_kernel1(
// CHECK-SAME:      attributes {fused.kernel, fused.kind = #fused.kind<vector>}
// CHECK-NEXT:    hl.neg
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @two_regions(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[C:.*]]:2 = call @two_regions_kernel0(%[[A]], %[[B]]) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:    %[[M:.*]] = hl.mul %[[C]]#0, %[[C]]#1 : tensor<4xf32>
// CHECK-NEXT:    %[[D:.*]] = call @two_regions_kernel1(%[[M]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return %[[D]] : tensor<4xf32>
// CHECK-NOT:     fused.region
func.func @two_regions(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = fused.region vector (%x = %a, %y = %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %1 = hl.add %x, %y : tensor<4xf32>
    %2 = hl.exp %1 : tensor<4xf32>
    fused.yield %1, %2 : tensor<4xf32>, tensor<4xf32>
  }
  %3 = hl.mul %0#0, %0#1 : tensor<4xf32>
  %4 = fused.region vector (%x = %3) : (tensor<4xf32>) -> tensor<4xf32> {
    %5 = hl.neg %x : tensor<4xf32>
    fused.yield %5 : tensor<4xf32>
  }
  return %4 : tensor<4xf32>
}

// Names already taken in the module are skipped; numbering is per function.
// CHECK-LABEL: func.func private @clash_kernel0()
// CHECK-LABEL: func.func private @clash_kernel1(
// CHECK-SAME:      attributes {fused.kernel, fused.kind = #fused.kind<mix>}
// CHECK:         hl.matmul
// CHECK:         hl.relu
// CHECK-LABEL: func.func private @clash_kernel2()
// CHECK-SAME:      -> tensor<4x4xf32> attributes {fused.kernel, fused.kind = #fused.kind<vector>}
// CHECK-NEXT:    hl.constant
// CHECK-LABEL: func.func @clash(
// CHECK:         call @clash_kernel1(
// CHECK:         call @clash_kernel2() : () -> tensor<4x4xf32>
func.func private @clash_kernel0()

func.func @clash(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = fused.region mix (%x = %a, %y = %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32> {
    %1 = hl.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
    %2 = hl.relu %1 : tensor<4x4xf32>
    fused.yield %2 : tensor<4x4xf32>
  }
  %c = fused.region vector () : () -> tensor<4x4xf32> {
    %1 = hl.constant dense<2.0> : tensor<4x4xf32>
    fused.yield %1 : tensor<4x4xf32>
  }
  %3 = hl.add %0, %c : tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// A cube region; functions without regions are left alone.
// CHECK-LABEL: func.func private @cube_kernel0(
// CHECK-SAME:      attributes {fused.kernel, fused.kind = #fused.kind<cube>}
// CHECK-LABEL: func.func @cube(
// CHECK-NEXT:    call @cube_kernel0(
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT:    hl.neg
// CHECK-NEXT:    return
func.func @cube(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %0 = fused.region cube (%x = %a, %y = %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32> {
    %1 = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    fused.yield %1 : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

func.func @untouched(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.neg %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
