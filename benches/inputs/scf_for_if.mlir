func.func @loops(%lb: index, %ub: index, %step: index, %init: f32, %cond: i1) -> f32 {
  %sum = scf.for %iv = %lb to %ub step %step iter_args(%acc = %init) -> (f32) {
    %c = arith.index_cast %iv : index to i64
    %f = arith.sitofp %c : i64 to f32
    %n = arith.addf %acc, %f : f32
    scf.yield %n : f32
  }
  scf.for %i = %lb to %ub step %step {
    scf.for %j = %i to %ub step %step {
      "kiln.use"(%i, %j) : (index, index) -> ()
    }
  }
  %r:2 = scf.if %cond -> (f32, index) {
    scf.yield %sum, %lb : f32, index
  } else {
    %z = arith.constant 0.0 : f32
    scf.yield %z, %ub : f32, index
  }
  scf.if %cond {
    "kiln.side_effect"() : () -> ()
  }
  %p = scf.parallel (%a, %b) = (%lb, %lb) to (%ub, %ub) step (%step, %step) init (%init) -> f32 {
    %one = arith.constant 1.0 : f32
    scf.reduce(%one : f32) {
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      scf.reduce.return %s : f32
    }
  }
  %x = scf.execute_region -> f32 {
    scf.yield %p : f32
  }
  %idx = scf.index_switch %lb -> f32
  case 2 {
    scf.yield %x : f32
  }
  case 5 {
    scf.yield %r#0 : f32
  }
  default {
    scf.yield %init : f32
  }
  return %idx : f32
}
