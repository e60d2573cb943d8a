// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// Parse errors where mlir-opt 22 reports a second error after MLIR's words (its attribute
// parser adds "failed to parse Arith_IntegerOverflowAttr parameter ..."); Kiln reports the first.

func.func @overflow_flag(%a: index) {
  // expected-error @+1 {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  %0 = arith.addi %a, %a overflow<nsv> : index
  return
}

// -----

func.func @overflow_attr(%a: index) {
  // expected-error @+1 {{expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw}}
  %0 = "arith.addi"(%a, %a) <{overflowFlags = #arith.overflow<nsv>}> : (index, index) -> index
  return
}
