// RUN: %kiln-opt %s --allow-unregistered-dialect --dce | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --dce --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// dce erases pure, region-free, unused ops (whole dead chains); it keeps ops with uses,
// unregistered ops, calls and terminators, and leaves symbols to symbol-dce.

// @dead_chain 3 + @nested 1 + @blocks 2 + @only_dead_users 2.
// STATS: (S) 8 num-erased

// The whole chain exp -> neg -> sqrt dies, though only sqrt is unused to begin with.
// CHECK-LABEL: func.func @dead_chain(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[ABS:.*]] = hl.abs %[[A]]
// CHECK-NEXT:    return %[[ABS]]
// CHECK-NEXT:  }
func.func @dead_chain(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.exp %a : tensor<4xf32>
  %1 = hl.neg %0 : tensor<4xf32>
  %2 = hl.sqrt %1 : tensor<4xf32>
  %3 = hl.abs %a : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// Unregistered ops (maybe effects), calls (not pure) and the ops feeding them stay,
// even when their results are unused.
// CHECK-LABEL: func.func @kept(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %{{.*}} = "test.op"(%[[A]])
// CHECK-NEXT:    %[[R:.*]] = hl.relu %[[A]]
// CHECK-NEXT:    %{{.*}} = call @callee(%[[R]])
// CHECK-NEXT:    %[[C:.*]] = hl.constant dense<1.000000e+00>
// CHECK-NEXT:    "test.sink"(%[[C]])
// CHECK-NEXT:    return
func.func @kept(%a: tensor<4xf32>) {
  %0 = "test.op"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = hl.relu %a : tensor<4xf32>
  %2 = func.call @callee(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = hl.constant dense<1.0> : tensor<4xf32>
  "test.sink"(%3) : (tensor<4xf32>) -> ()
  return
}

// Dead ops inside nested regions die; the region's op (unregistered) stays.
// CHECK-LABEL: func.func @nested(
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:      "test.yield"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return
func.func @nested(%a: tensor<4xf32>) {
  "test.region"() ({
    %0 = hl.tanh %a : tensor<4xf32>
    "test.yield"() : () -> ()
  }) : () -> ()
  return
}

// Every block is swept; a value used in a later block is live.
// CHECK-LABEL: func.func @blocks(
// CHECK-SAME:      %[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = hl.exp %[[A]]
// CHECK-NEXT:    "test.br"()[^bb1]
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return %[[E]]
func.func @blocks(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = hl.exp %a : tensor<4xf32>
  %1 = hl.neg %a : tensor<4xf32>
  "test.br"()[^bb1] : () -> ()
^bb1:
  %2 = hl.log %0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// An op whose only users are dead dies with them, whichever order the worklist meets them.
// CHECK-LABEL: func.func @only_dead_users(
// CHECK-NEXT:    return
func.func @only_dead_users(%a: tensor<4xf32>) {
  %0 = hl.constant dense<2.0> : tensor<4xf32>
  %1 = hl.mul %a, %0 : tensor<4xf32>
  return
}

// Unused private functions are symbols, not dead ops: dce keeps them.
// CHECK-LABEL: func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:  func.func private @unused(tensor<4xf32>)
func.func private @callee(tensor<4xf32>) -> tensor<4xf32>
func.func private @unused(tensor<4xf32>)
