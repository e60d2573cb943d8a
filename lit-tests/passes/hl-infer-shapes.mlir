// RUN: %kiln-opt %s --allow-unregistered-dialect --hl-infer-shapes | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect -p 'builtin.module(func.func(hl-infer-shapes))' | FileCheck %s
// RUN: %kiln-opt %s --allow-unregistered-dialect --hl-infer-shapes --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// hl-infer-shapes replaces `?` result dims of hl ops by the static sizes their operands
// determine, in program order so refinements propagate; results used by non-hl ops
// (func.return, calls, unregistered ops) keep their declared types.

// @propagate 4 + @broadcast_dynamic 2 + @declared_result_ops 8 (4 ops and their negs) +
// @non_hl_users 2 (the exp and its neg).
// STATS: (S) 16 num-refined

// Refinements flow forward along the chain; the value returned keeps its `?` type, so the
// signature does not change.
// CHECK-LABEL: func.func @propagate(
// CHECK-SAME:      %[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>, %[[W:.*]]: tensor<8x16xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:    %[[ADD:.*]] = hl.add %[[A]], %[[B]] : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[EXP:.*]] = hl.exp %[[ADD]] : tensor<4x8xf32>
// CHECK-NEXT:    %[[MM:.*]] = hl.matmul %[[EXP]], %[[W]] : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT:    %[[RS:.*]] = hl.reduce_sum %[[MM]] {axes = [1], keep_dims = true} : tensor<4x16xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    %[[MUL:.*]] = hl.mul %[[MM]], %[[RS]] : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<?x?xf32>
// CHECK-NEXT:    return %[[MUL]] : tensor<?x?xf32>
func.func @propagate(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %w: tensor<8x16xf32>) -> tensor<?x?xf32> {
  %0 = hl.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
  %1 = hl.exp %0 : tensor<?x8xf32>
  %2 = hl.matmul %1, %w : tensor<?x8xf32>, tensor<8x16xf32> -> tensor<?x?xf32>
  %3 = hl.reduce_sum %2 {axes = [1], keep_dims = true} : tensor<?x?xf32> -> tensor<?x1xf32>
  %4 = hl.mul %2, %3 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// `?` broadcast against 4 is 4; against 1 (or another `?`) it stays `?`. Unused results
// (no user at all) are refined too, and so are their hl users.
// CHECK-LABEL: func.func @broadcast_dynamic(
// CHECK-NEXT:    %[[R4:.*]] = hl.add %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[R1:.*]] = hl.add %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<1x8xf32> -> tensor<?x8xf32>
// CHECK-NEXT:    %[[RQ:.*]] = hl.add %{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<?x1xf32> -> tensor<?x8xf32>
// CHECK-NEXT:    hl.neg %[[R4]] : tensor<4x8xf32>
// CHECK-NEXT:    hl.neg %[[R1]] : tensor<?x8xf32>
// CHECK-NEXT:    hl.neg %[[RQ]] : tensor<?x8xf32>
func.func @broadcast_dynamic(%a: tensor<?x8xf32>, %b: tensor<4x1xf32>, %c: tensor<1x8xf32>, %d: tensor<?x1xf32>) {
  %0 = hl.add %a, %b : tensor<?x8xf32>, tensor<4x1xf32> -> tensor<?x8xf32>
  %1 = hl.add %a, %c : tensor<?x8xf32>, tensor<1x8xf32> -> tensor<?x8xf32>
  %2 = hl.add %a, %d : tensor<?x8xf32>, tensor<?x1xf32> -> tensor<?x8xf32>
  %3 = hl.neg %0 : tensor<?x8xf32>
  %4 = hl.neg %1 : tensor<?x8xf32>
  %5 = hl.neg %2 : tensor<?x8xf32>
  return
}

// Ops whose result type is declared, not derived (reshape, broadcast_to, cast), refine it as
// far as the operand determines it: a reshape's single `?` from the element count (or from
// the operand dim `source_dims` ties it to), a cast's dims from the operand's, a
// broadcast_to's `?` from an operand dim other than 1. A `?` broadcast from 1, and a cast of
// a `?` dim, stay dynamic.
// CHECK-LABEL: func.func @declared_result_ops(
// CHECK-NEXT:    %[[R:.*]] = hl.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
// CHECK-NEXT:    hl.broadcast_to %{{.*}} : tensor<1x8xf32> -> tensor<?x8xf32>
// CHECK-NEXT:    hl.cast %{{.*}} : tensor<?x8xf32> -> tensor<?x8xf16>
// CHECK-NEXT:    hl.exp %{{.*}} : tensor<?x8xf32>
// CHECK-NEXT:    hl.neg %[[R]] : tensor<32xf32>
// CHECK:         hl.cast %{{.*}} : tensor<4x8xf32> -> tensor<4x8xf16>
// CHECK-NEXT:    hl.broadcast_to %{{.*}} : tensor<4x8xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT:    hl.reshape %{{.*}} {source_dims = [0, -1, -1]} : tensor<?x8xf32> -> tensor<?x2x4xf32>
// CHECK-NEXT:    hl.reshape %{{.*}} {source_dims = [-1, 0, -1]} : tensor<4x8xf32> -> tensor<2x4x4xf32>
func.func @declared_result_ops(%a: tensor<4x8xf32>, %c: tensor<1x8xf32>, %d: tensor<?x8xf32>) {
  %0 = hl.reshape %a : tensor<4x8xf32> -> tensor<?xf32>
  %1 = hl.broadcast_to %c : tensor<1x8xf32> -> tensor<?x8xf32>
  %2 = hl.cast %d : tensor<?x8xf32> -> tensor<?x8xf16>
  %3 = hl.exp %d : tensor<?x8xf32>
  %4 = hl.neg %0 : tensor<?xf32>
  %5 = hl.neg %1 : tensor<?x8xf32>
  %6 = hl.neg %2 : tensor<?x8xf16>
  %7 = hl.neg %3 : tensor<?x8xf32>
  %8 = hl.cast %a : tensor<4x8xf32> -> tensor<?x?xf16>
  %9 = hl.broadcast_to %a : tensor<4x8xf32> -> tensor<2x?x8xf32>
  %10 = hl.reshape %d {source_dims = [0, -1, -1]} : tensor<?x8xf32> -> tensor<?x2x4xf32>
  %11 = hl.reshape %a {source_dims = [-1, 0, -1]} : tensor<4x8xf32> -> tensor<?x?x4xf32>
  %12 = hl.neg %8 : tensor<?x?xf16>
  %13 = hl.neg %9 : tensor<2x?x8xf32>
  %14 = hl.neg %10 : tensor<?x2x4xf32>
  %15 = hl.neg %11 : tensor<?x?x4xf32>
  return
}

// A result with any non-hl user keeps its type (return, call, unregistered op), even when
// hl users exist too; one used only by hl ops is refined.
// CHECK-LABEL: func.func @non_hl_users(
// CHECK-NEXT:    %[[R:.*]] = hl.exp %{{.*}} : tensor<4xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[C:.*]] = hl.exp %{{.*}} : tensor<4xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[U:.*]] = hl.exp %{{.*}} : tensor<4xf32> -> tensor<?xf32>
// CHECK-NEXT:    %[[H:.*]] = hl.exp %{{.*}} : tensor<4xf32>
// CHECK-NEXT:    hl.neg %[[R]] : tensor<?xf32>
// CHECK-NEXT:    hl.neg %[[H]] : tensor<4xf32>
// CHECK-NEXT:    call @callee(%[[C]])
// CHECK-NEXT:    "test.use"(%[[U]])
// CHECK-NEXT:    return %[[R]]
func.func private @callee(tensor<?xf32>)
func.func @non_hl_users(%x: tensor<4xf32>) -> tensor<?xf32> {
  %0 = hl.exp %x : tensor<4xf32> -> tensor<?xf32>
  %1 = hl.exp %x : tensor<4xf32> -> tensor<?xf32>
  %2 = hl.exp %x : tensor<4xf32> -> tensor<?xf32>
  %3 = hl.exp %x : tensor<4xf32> -> tensor<?xf32>
  %4 = hl.neg %0 : tensor<?xf32>
  %5 = hl.neg %3 : tensor<?xf32>
  func.call @callee(%1) : (tensor<?xf32>) -> ()
  "test.use"(%2) : (tensor<?xf32>) -> ()
  return %0 : tensor<?xf32>
}
