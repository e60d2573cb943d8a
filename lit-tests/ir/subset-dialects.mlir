// RUN: %kiln-opt --allow-unregistered-dialect %s | FileCheck %s
// RUN: %kiln-opt --allow-unregistered-dialect %s | %kiln-opt --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: not %kiln-opt %s 2>&1 | FileCheck %s --check-prefix=STRICT
// Kiln's dialects are subsets of MLIR's. With unregistered dialects allowed, an op or an
// attribute kind one of them lacks (arith.mulf and #arith.fastmath) is kept as it was written,
// an unregistered op with an opaque attribute; without, the attribute is an error.

// CHECK-LABEL: func.func @f
// CHECK: %0 = "arith.mulf"(%arg0, %arg0) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
// CHECK: %1 = arith.addi %arg1, %arg1 : i32
// GENERIC: "arith.mulf"(%[[A:.*]], %[[A]]) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
// GENERIC: "arith.addi"(%[[I:.*]], %[[I]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// STRICT: error: unknown attribute `fastmath` in dialect `arith`
func.func @f(%a: f32, %i: i32) -> f32 {
  %0 = "arith.mulf"(%a, %a) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
  %1 = arith.addi %i, %i : i32
  return %0 : f32
}

// An scf.yield may end the region of an scf op Kiln does not register (MLIR's list of
// parents).
// CHECK-LABEL: func.func @yield_in_execute_region
// CHECK: "scf.execute_region"() ({
// CHECK-NEXT: scf.yield %arg0 : f32
func.func @yield_in_execute_region(%a: f32) -> f32 {
  %x = "scf.execute_region"() ({
    scf.yield %a : f32
  }) : () -> f32
  return %x : f32
}
