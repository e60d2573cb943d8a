// RUN: %kiln-opt %s --allow-unregistered-dialect --cse | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(cse))' | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --cse --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// cse merges identical pure region-free ops where the first dominates the second; it never
// merges across an isolation boundary, into sibling regions or blocks, or side-effecting and
// unregistered ops.

// 9 ops merged in all: @simple 1, @chain 2, @constants 1, @attributes_and_types 1,
// @tensor_discardable 1, @nested_region_sees_outer 1, @merge_in_nested_block 2.
// STATS: (S) 9 num-cse'd

// CHECK-LABEL: func.func @simple(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[ADD:.*]] = hl.add %[[A]], %[[A]]
// CHECK-NEXT:    return %[[ADD]], %[[ADD]]
func.func @simple(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = hl.add %a, %a : tensor<4xf32>
  %1 = hl.add %a, %a : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// Merging the first pair makes the second pair identical too.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = hl.exp %[[A]]
// CHECK-NEXT:    %[[M:.*]] = hl.mul %[[E]], %[[B]]
// CHECK-NEXT:    return %[[M]], %[[M]]
func.func @chain(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = hl.exp %a : tensor<4xf32>
  %1 = hl.exp %a : tensor<4xf32>
  %2 = hl.mul %0, %b : tensor<4xf32>
  %3 = hl.mul %1, %b : tensor<4xf32>
  return %2, %3 : tensor<4xf32>, tensor<4xf32>
}

// Equal constants merge; a different value does not.
// CHECK-LABEL: func.func @constants()
// CHECK-NEXT:    %[[ONE:.*]] = hl.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    %[[TWO:.*]] = hl.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    return %[[ONE]], %[[ONE]], %[[TWO]]
func.func @constants() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = hl.constant dense<1.0> : tensor<4xf32>
  %1 = hl.constant dense<1.0> : tensor<4xf32>
  %2 = hl.constant dense<2.0> : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// func.func is IsolatedFromAbove: @isolated_b keeps its own constant although @constants
// defined the same one first.
// CHECK-LABEL: func.func @isolated_b()
// CHECK-NEXT:    %[[C:.*]] = hl.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    return %[[C]]
func.func @isolated_b() -> tensor<4xf32> {
  %0 = hl.constant dense<1.0> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Ops differing in attributes or result type are not merged.
// CHECK-LABEL: func.func @attributes_and_types(
// CHECK-SAME:      %[[A:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    %[[R0:.*]] = hl.reduce_sum %[[A]] {axes = [0]}
// CHECK-NEXT:    %[[R1:.*]] = hl.reduce_sum %[[A]] {axes = [1]}
// CHECK-NEXT:    %[[K:.*]] = hl.reduce_sum %[[A]] {axes = [1], keep_dims = true}
// CHECK-NEXT:    %[[C16:.*]] = hl.cast %[[A]] : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK-NEXT:    %[[CB:.*]] = hl.cast %[[A]] : tensor<4x8xf32> -> tensor<4x8xbf16>
// CHECK-NEXT:    "test.use"(%[[R0]], %[[R1]], %[[R1]], %[[K]], %[[C16]], %[[CB]])
func.func @attributes_and_types(%a: tensor<4x8xf32>) {
  %0 = hl.reduce_sum %a {axes = [0]} : tensor<4x8xf32> -> tensor<8xf32>
  %1 = hl.reduce_sum %a {axes = [1]} : tensor<4x8xf32> -> tensor<4xf32>
  %2 = hl.reduce_sum %a {axes = [1]} : tensor<4x8xf32> -> tensor<4xf32>
  %3 = hl.reduce_sum %a {axes = [1], keep_dims = true} : tensor<4x8xf32> -> tensor<4x1xf32>
  %4 = hl.cast %a : tensor<4x8xf32> -> tensor<4x8xf16>
  %5 = hl.cast %a : tensor<4x8xf32> -> tensor<4x8xbf16>
  "test.use"(%0, %1, %2, %3, %4, %5) : (tensor<8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x1xf32>, tensor<4x8xf16>, tensor<4x8xbf16>) -> ()
  return
}

// Discardable attributes are part of an op's identity.
// CHECK-LABEL: func.func @tensor_discardable(
// CHECK:         %[[T0:.*]] = hl.neg %{{.*}} {kiln.tag = 1 : i32}
// CHECK-NEXT:    %[[T2:.*]] = hl.neg %{{.*}} {kiln.tag = 2 : i32}
// CHECK-NEXT:    "test.use"(%[[T0]], %[[T0]], %[[T2]])
func.func @tensor_discardable(%a: tensor<4xf32>) {
  %0 = hl.neg %a {kiln.tag = 1 : i32} : tensor<4xf32>
  %1 = hl.neg %a {kiln.tag = 1 : i32} : tensor<4xf32>
  %2 = hl.neg %a {kiln.tag = 2 : i32} : tensor<4xf32>
  "test.use"(%0, %1, %2) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  return
}

// An op in a nested region reuses the dominating op outside it.
// CHECK-LABEL: func.func @nested_region_sees_outer(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = hl.exp %[[A]]
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:      "test.use"(%[[E]])
// CHECK-NOT:     hl.exp
// CHECK:         return %[[E]]
func.func @nested_region_sees_outer(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.exp %a : tensor<4xf32>
  "test.region"() ({
    %1 = hl.exp %a : tensor<4xf32>
    "test.use"(%1) : (tensor<4xf32>) -> ()
    "test.yield"() : () -> ()
  }) : () -> ()
  return %0 : tensor<4xf32>
}

// Two identical ops inside one nested block merge there.
// CHECK-LABEL: func.func @merge_in_nested_block(
// CHECK:           %[[N:.*]] = hl.neg
// CHECK-NEXT:      %[[S:.*]] = hl.sqrt %[[N]]
// CHECK-NEXT:      "test.use"(%[[N]], %[[N]], %[[S]], %[[S]])
func.func @merge_in_nested_block(%a: tensor<4xf32>) {
  "test.region"() ({
    %0 = hl.neg %a : tensor<4xf32>
    %1 = hl.neg %a : tensor<4xf32>
    %2 = hl.sqrt %0 : tensor<4xf32>
    %3 = hl.sqrt %1 : tensor<4xf32>
    "test.use"(%0, %1, %2, %3) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
    "test.yield"() : () -> ()
  }) : () -> ()
  return
}

// An op inside a region does not dominate ops after the region, nor ops in a sibling region.
// CHECK-LABEL: func.func @no_merge_out_of_region(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:      %[[IN1:.*]] = hl.neg %[[A]]
// CHECK-NEXT:      "test.use"(%[[IN1]])
// CHECK:         }, {
// CHECK-NEXT:      %[[IN2:.*]] = hl.neg %[[A]]
// CHECK-NEXT:      "test.use"(%[[IN2]])
// CHECK:         })
// CHECK-NEXT:    %[[OUT:.*]] = hl.neg %[[A]]
// CHECK-NEXT:    return %[[OUT]]
func.func @no_merge_out_of_region(%a: tensor<4xf32>) -> tensor<4xf32> {
  "test.region"() ({
    %0 = hl.neg %a : tensor<4xf32>
    "test.use"(%0) : (tensor<4xf32>) -> ()
    "test.yield"() : () -> ()
  }, {
    %1 = hl.neg %a : tensor<4xf32>
    "test.use"(%1) : (tensor<4xf32>) -> ()
    "test.yield"() : () -> ()
  }) : () -> ()
  %2 = hl.neg %a : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// ^bb1 does not dominate ^bb2 (both follow the entry): each keeps its op.
// CHECK-LABEL: func.func @no_merge_across_sibling_blocks(
// CHECK:       ^bb1:
// CHECK-NEXT:    %[[X:.*]] = hl.neg
// CHECK-NEXT:    "test.use"(%[[X]])
// CHECK:       ^bb2:
// CHECK-NEXT:    %[[Y:.*]] = hl.neg
// CHECK-NEXT:    "test.use"(%[[Y]])
func.func @no_merge_across_sibling_blocks(%a: tensor<4xf32>) {
  "test.cond_br"()[^bb1, ^bb2] : () -> ()
^bb1:
  %0 = hl.neg %a : tensor<4xf32>
  "test.use"(%0) : (tensor<4xf32>) -> ()
  return
^bb2:
  %1 = hl.neg %a : tensor<4xf32>
  "test.use"(%1) : (tensor<4xf32>) -> ()
  return
}

// Unregistered ops may have side effects, and func.call is not pure: neither merges.
// CHECK-LABEL: func.func @no_merge_effects(
// CHECK-NEXT:    %[[U0:.*]] = "test.op"
// CHECK-NEXT:    %[[U1:.*]] = "test.op"
// CHECK-NEXT:    %[[C0:.*]] = call @callee
// CHECK-NEXT:    %[[C1:.*]] = call @callee
// CHECK-NEXT:    "test.use"(%[[U0]], %[[U1]], %[[C0]], %[[C1]])
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func @no_merge_effects(%a: tensor<4xf32>) {
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = func.call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = func.call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  "test.use"(%0, %1, %2, %3) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  return
}
