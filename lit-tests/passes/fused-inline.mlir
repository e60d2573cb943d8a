// RUN: %kiln-opt %s --allow-unregistered-dialect -p fused-inline | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect -p fused-inline --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// RUN: %kiln-opt %s --allow-unregistered-dialect -p fused-inline 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// Inlining then outlining gives the outlined form back (kernels are named as fused-outline
// names them here).
// RUN: %kiln-opt %s --allow-unregistered-dialect -p fused-inline,fused-outline | FileCheck %s --check-prefix=BACK
// The inlined program computes the same values.
// RUN: %kiln-run --interpret %s --allow-unregistered-dialect --entry f --seed 5 > %t.ref
// RUN: %kiln-opt %s --allow-unregistered-dialect -p fused-inline | %kiln-run --interpret - --allow-unregistered-dialect --entry f --seed 5 > %t.out
// RUN: diff %t.ref %t.out
// fused-inline turns each call to a function marked `fused.kernel` into a fused.region holding
// a copy of the kernel's body (kind from `fused.kind`, else from the body), and erases private
// kernels nothing references any more.

// STATS: (S) 6 num-inlined
// STATS: (S) 3 num-kernels-erased

// The kernel is called twice: two regions, then the kernel is erased.
// CHECK-NOT:     func.func private @f_kernel0
// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[R:.*]]:2 = fused.region vector (%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]]) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:      %[[ADD:.*]] = hl.add %[[X]], %[[Y]] : tensor<4xf32>
// CHECK-NEXT:      %[[EXP:.*]] = hl.exp %[[ADD]] : tensor<4xf32>
// CHECK-NEXT:      fused.yield %[[ADD]], %[[EXP]] : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[S:.*]]:2 = fused.region vector (%{{.*}} = %[[R]]#1, %{{.*}} = %[[R]]#0)
// CHECK:         %[[M:.*]] = hl.mul %[[S]]#0, %[[S]]#1 : tensor<4xf32>
// CHECK-NEXT:    return %[[M]] : tensor<4xf32>
// BACK-LABEL: func.func private @f_kernel0(
// BACK-SAME:      attributes {fused.kernel, fused.kind = #fused.kind<vector>}
// BACK-LABEL: func.func private @f_kernel1(
// BACK-SAME:      attributes {fused.kernel, fused.kind = #fused.kind<vector>}
// BACK-LABEL: func.func @f(
// BACK-NEXT:    call @f_kernel0(
// BACK-NEXT:    call @f_kernel1(
func.func private @f_kernel0(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {fused.kernel, fused.kind = #fused.kind<vector>} {
  %0 = hl.add %x, %y : tensor<4xf32>
  %1 = hl.exp %0 : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = call @f_kernel0(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %1:2 = call @f_kernel0(%0#1, %0#0) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %2 = hl.mul %1#0, %1#1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// Without a valid `fused.kind` that agrees with the body, the kind comes from the body.
// CHECK-NOT:     @guess_kernel
// CHECK-NOT:     @guess_missing_kernel
// CHECK-LABEL: func.func @guess(
// CHECK-NEXT:    fused.region mix
// CHECK:         fused.region cube
// CHECK-LABEL: func.func @guess_missing(
// CHECK-NEXT:    fused.region vector
func.func private @guess_kernel0(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {fused.kernel, fused.kind = #fused.kind<vector>} {
  %0 = hl.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %1 = hl.relu %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

func.func @guess(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %0 = call @guess_kernel0(%a, %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = call @public_kernel(%a, %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %2 = hl.add %0, %1 : tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

func.func private @guess_missing_kernel0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {fused.kernel} {
  %0 = hl.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @guess_missing(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @guess_missing_kernel0(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Public kernels, and kernels referenced other than by the inlined calls, stay.
// CHECK-LABEL: func.func @public_kernel(
// CHECK-SAME:      attributes {fused.kernel, fused.kind = "bogus"}
// CHECK-LABEL: func.func private @referenced_kernel(
// CHECK-LABEL: func.func @keep(
// CHECK-NEXT:    fused.region vector
// CHECK:         "test.ref"() {target = @referenced_kernel}
func.func @public_kernel(%x: tensor<4x8xf32>, %y: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {fused.kernel, fused.kind = "bogus"} {
  %0 = hl.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

func.func private @referenced_kernel(%x: tensor<4xf32>) -> tensor<4xf32> attributes {fused.kernel, fused.kind = #fused.kind<vector>} {
  %0 = hl.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @keep(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @referenced_kernel(%a) : (tensor<4xf32>) -> tensor<4xf32>
  "test.ref"() {target = @referenced_kernel} : () -> ()
  return %0 : tensor<4xf32>
}

// Calls to unmarked functions stay, and so do calls to kernels whose body cannot form a
// region (with a warning).
// WARN: warning: kernel @bad_kernel is not inlined: body may only hold 'hl' ops and 'fused.yield', but holds 'func.call'
// CHECK-LABEL: func.func private @plain(
// CHECK-LABEL: func.func private @bad_kernel(
// CHECK-LABEL: func.func @calls(
// CHECK-NEXT:    call @plain(
// CHECK-NEXT:    call @bad_kernel(
func.func private @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.abs %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func private @bad_kernel(%x: tensor<4xf32>) -> tensor<4xf32> attributes {fused.kernel, fused.kind = #fused.kind<vector>} {
  %0 = call @plain(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @calls(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @plain(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = call @bad_kernel(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
