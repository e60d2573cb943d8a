// RUN: %kiln-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Structural verifier errors: dominance (with MLIR's note at the definition), terminators,
// isolation, parents. (Under --verify-diagnostics, as in mlir-opt, errors about an op carry
// no "see current operation" note; verifier_notes.mlir checks them without it.)

func.func @use_before_def() {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "unk.use"(%0) : (i32) -> ()
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %0 = "unk.def"() : () -> i32
  return
}

// -----

func.func @def_in_other_branch(%c: i1) {
  "unk.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %0 = "unk.def"() : () -> i32
  "unk.br"() [^bb3] : () -> ()
^bb2:
  "unk.br"() [^bb3] : () -> ()
^bb3:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "unk.use"(%0) : (i32) -> ()
  return
}

// -----

func.func @return_not_last() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  return
  "unk.after"() : () -> ()
}

// -----

func.func @no_terminator() {
  %0 = "unk.def"() : () -> i32
  // expected-error @+1 {{block with no terminator, has "func.call"() <{callee = @no_terminator}> : () -> ()}}
  func.call @no_terminator() : () -> ()
}

// -----

func.func @isolation(%arg0: i32) {
  // expected-note @+1 {{required by region isolation constraints}}
  "builtin.module"() ({
    // expected-error @+1 {{using value defined outside the region}}
    "unk.use"(%arg0) : (i32) -> ()
  }) : () -> ()
  return
}

// -----

// expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
"func.return"() : () -> ()

// -----

// An unregistered op's single-block region may be a graph region, but MLIR takes a
// multi-block region to have SSA dominance whatever its owner.
"test.cfg"() ({
  "test.br"()[^bb1] : () -> ()
^bb1:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "test.use"(%w) : (i8) -> ()
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %w = "test.def"() : () -> i8
  "test.end"() : () -> ()
}) : () -> ()

// -----

// A block argument of a block that does not dominate the use: the note is at the op owning
// the region.
// expected-note @+1 {{operand defined as a block argument (block #1 in the same region)}}
func.func @block_arg_elsewhere(%c: i1) {
  "unk.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1(%x: i32):
  "unk.br"() [^bb2] : () -> ()
^bb2:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "unk.use"(%x) : (i32) -> ()
  return
}
