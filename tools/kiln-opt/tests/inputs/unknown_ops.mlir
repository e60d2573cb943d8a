// Inputs that fail verification without --allow-unregistered-dialect, one per split (see
// tests/verifier_vs_mlir_opt.rs).

// An unknown op of a known dialect.
func.func @unknown_scf_op() {
  "scf.execute"() : () -> ()
  return
}

// -----

// The first error of the function is the unknown op nested before the bad addi.
func.func @unknown_after_error(%c: i1, %a: i32, %b: f32) {
  "scf.if"(%c) ({
    "scf.frobnicate"() : () -> ()
    "scf.yield"() : () -> ()
  }, {
  }) : (i1) -> ()
  %0 = "arith.addi"(%a, %b) : (i32, f32) -> i32
  return
}
