// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// A loop body without the induction variable: mlir-opt 22 reports it as "different number of
// inits and region iter_args: 0 != 18446744073709551615" (an unsigned underflow); Kiln says
// what is missing.

func.func @for_no_iv(%a: index) {
  // expected-error @+1 {{'scf.for' op expected the body to have the induction variable as its first argument}}
  "scf.for"(%a, %a, %a) ({
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

// The custom form adds the implicit `scf.yield` only where the body has no terminator.
func.func @for_other_terminator(%a: index) {
  scf.for %i = %a to %a step %a {
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return
  }
  return
}
