// RUN: %kiln-opt %s --hl-canonicalize | FileCheck %s
// RUN: %kiln-opt %s -p 'builtin.module(func.func(hl-canonicalize))' | FileCheck %s
// RUN: %kiln-opt %s --hl-canonicalize --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// hl-canonicalize runs the hl patterns and folds all-constant hl ops (canonicalize.mlir
// covers each pattern in detail); here: one of each kind, with what must stay.

// STATS: HlCanonicalize
// STATS: (S) 1 num-folded

// CHECK-LABEL: func.func @patterns(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>)
// CHECK-NOT:     hl.neg
// CHECK-DAG:     %[[PZ:.*]] = hl.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK-DAG:     %[[IZ:.*]] = hl.constant dense<0> : tensor<4xi32>
// CHECK-DAG:     %[[KEPT_ADD:.*]] = hl.add %[[X]], %[[PZ]]
// CHECK-DAG:     %[[KEPT_MUL:.*]] = hl.mul %[[X]], %[[PZ]]
// CHECK-NOT:     hl.neg
// CHECK:         return %[[X]], %[[KEPT_ADD]], %[[X]], %[[IZ]], %[[KEPT_MUL]], %[[X]]
func.func @patterns(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
  %nz = hl.constant dense<-0.0> : tensor<4xf32>
  %pz = hl.constant dense<0.0> : tensor<4xf32>
  %one = hl.constant dense<1.0> : tensor<4xf32>
  %iz = hl.constant dense<0> : tensor<4xi32>
  // x + (-0.0) -> x; x + 0.0 stays.
  %0 = hl.add %x, %nz : tensor<4xf32>
  %1 = hl.add %x, %pz : tensor<4xf32>
  // x * 1 -> x; integer x * 0 -> 0; float x * 0 stays.
  %2 = hl.mul %x, %one : tensor<4xf32>
  %3 = hl.mul %i, %iz : tensor<4xi32>
  %4 = hl.mul %x, %pz : tensor<4xf32>
  // neg(neg x) -> x.
  %5 = hl.neg %x : tensor<4xf32>
  %6 = hl.neg %5 : tensor<4xf32>
  return %0, %1, %2, %3, %4, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @layout_and_casts(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3xf16>)
// CHECK-NEXT:    %[[R:.*]] = hl.reshape %[[X]] : tensor<2x3xf16> -> tensor<3x2xf16>
// CHECK-NEXT:    %[[C:.*]] = hl.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xbf16>
// CHECK-NEXT:    %[[L0:.*]] = hl.cast %[[X]] : tensor<2x3xf16> -> tensor<2x3xi8>
// CHECK-NEXT:    %[[L1:.*]] = hl.cast %[[L0]] : tensor<2x3xi8> -> tensor<2x3xf32>
// CHECK-NEXT:    return %[[R]], %[[X]], %[[C]], %[[L1]]
func.func @layout_and_casts(%x: tensor<2x3xf16>) -> (tensor<3x2xf16>, tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xf32>) {
  %0 = hl.reshape %x : tensor<2x3xf16> -> tensor<6xf16>
  %1 = hl.reshape %0 : tensor<6xf16> -> tensor<3x2xf16>
  %2 = hl.transpose %x {perm = [1, 0]} : tensor<2x3xf16> -> tensor<3x2xf16>
  %3 = hl.transpose %2 {perm = [1, 0]} : tensor<3x2xf16> -> tensor<2x3xf16>
  %4 = hl.cast %x : tensor<2x3xf16> -> tensor<2x3xf32>
  %5 = hl.cast %4 : tensor<2x3xf32> -> tensor<2x3xbf16>
  // f16 -> i8 truncates: the chain stays.
  %6 = hl.cast %x : tensor<2x3xf16> -> tensor<2x3xi8>
  %7 = hl.cast %6 : tensor<2x3xi8> -> tensor<2x3xf32>
  return %1, %3, %5, %7 : tensor<3x2xf16>, tensor<2x3xf16>, tensor<2x3xbf16>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @fold()
// CHECK-NEXT:    %[[C:.*]] = hl.constant dense<[1.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    return %[[C]]
func.func @fold() -> tensor<2xf32> {
  %a = hl.constant dense<[-1.0, 2.0]> : tensor<2xf32>
  %0 = hl.mul %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Non-hl ops and values that only look foldable stay.
// CHECK-LABEL: func.func @untouched(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = hl.exp %[[X]]
// CHECK-NEXT:    %[[R:.*]] = call @callee(%[[E]])
// CHECK-NEXT:    return %[[R]]
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @untouched(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.exp %x : tensor<4xf32>
  %1 = func.call @callee(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
