// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// The `fused` verifier: declaration checks (counts, the `kind` attribute, parent, isolation,
// terminator) and every error of fused/verify.rs (kind value, body arguments, yielded values,
// body ops, kind vs body), plus the custom parser's kind keyword.

//===----------------------------------------------------------------------===//
// Declaration
//===----------------------------------------------------------------------===//

func.func @no_results(%a: tensor<4xf32>) {
  // expected-error @+1 {{'fused.region' op expected 1 or more results}}
  "fused.region"(%a) <{kind = #fused.kind<vector>}> ({
  ^bb0(%x: tensor<4xf32>):
    "fused.yield"() : () -> ()
  }) : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @missing_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op requires attribute 'kind'}}
  %0 = "fused.region"(%a) ({
  ^bb0(%x: tensor<4xf32>):
    "fused.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @kind_not_string(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op attribute 'kind' failed to satisfy constraint: fused region kind `#fused.kind<vector|cube|mix|attention>`}}
  %0 = "fused.region"(%a) <{kind = 1 : i64}> ({
  ^bb0(%x: tensor<4xf32>):
    "fused.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_outside(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.yield' op expects parent op 'fused.region'}}
  "fused.yield"(%a) : (tensor<4xf32>) -> ()
}

// -----

// The custom form parses the body in an isolated scope (as MLIR does) ...
func.func @not_isolated(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fused.region vector () : () -> tensor<4xf32> {
    // expected-error @+1 {{use of undeclared SSA value name}}
    %1 = hl.neg %a : tensor<4xf32>
    fused.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// ... while in the generic form the verifier reports the use from above.
func.func @not_isolated_generic(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = "fused.region"() <{kind = #fused.kind<vector>}> ({
    // expected-error @+1 {{using value defined outside the region}}
    %1 = "hl.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    "fused.yield"(%1) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @no_terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{block with no terminator, has %1 = "hl.neg"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>}}
    %1 = hl.neg %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// fused/verify.rs
//===----------------------------------------------------------------------===//

func.func @bad_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op attribute 'kind' failed to satisfy constraint: fused region kind `#fused.kind<vector|cube|mix|attention>`}}
  %0 = "fused.region"(%a) <{kind = "scalar"}> ({
  ^bb0(%x: tensor<4xf32>):
    "fused.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @empty_body(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op expects a non-empty body}}
  %0 = "fused.region"(%a) <{kind = #fused.kind<vector>}> ({
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @argument_count(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op has 2 inputs, but its body takes 1 arguments}}
  %0 = "fused.region"(%a, %b) <{kind = #fused.kind<vector>}> ({
  ^bb0(%x: tensor<4xf32>):
    "fused.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @argument_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'fused.region' op type of body argument #0 ('tensor<4xf16>') doesn't match input #0 ('tensor<4xf32>')}}
  %0 = "fused.region"(%a) <{kind = #fused.kind<vector>}> ({
  ^bb0(%x: tensor<4xf16>):
    "fused.yield"(%x) : (tensor<4xf16>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @yield_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op yields 2 values, but has 1 results}}
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    fused.yield %x, %x : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'fused.region' op type of yielded value #0 ('tensor<4xf32>') doesn't match result #0 ('tensor<4xf16>')}}
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>) -> tensor<4xf16> {
    fused.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf16>
}

// -----

func.func @non_hl_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op body may only hold 'hl' ops and 'fused.yield', but holds 'fused.region'}}
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    %1 = fused.region vector (%y = %x) : (tensor<4xf32>) -> tensor<4xf32> {
      %2 = hl.neg %y : tensor<4xf32>
      fused.yield %2 : tensor<4xf32>
    }
    fused.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @composite(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fused.region' op body cannot hold composite op 'hl.softmax' (it is not fusable)}}
  %0 = fused.region vector (%x = %a) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    %1 = hl.softmax %x {axis = 1 : i64} : tensor<4x8xf32>
    fused.yield %1 : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @vector_with_cube(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'fused.region' op of kind `vector` cannot hold cube op 'hl.matmul'}}
  %0 = fused.region vector (%x = %a, %y = %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32> {
    %1 = hl.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
    %2 = hl.exp %1 : tensor<4x4xf32>
    fused.yield %2 : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

func.func @cube_with_vector_work(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'fused.region' op of kind `cube` may only hold cube, layout and constant ops, but holds 'hl.exp'}}
  %0 = fused.region cube (%x = %a, %y = %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32> {
    %1 = hl.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
    %2 = hl.exp %1 : tensor<4x4xf32>
    fused.yield %2 : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

func.func @cube_without_cube(%a: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'fused.region' op of kind `cube` must hold at least one cube op}}
  %0 = fused.region cube (%x = %a) : (tensor<4x8xf32>) -> tensor<8x4xf32> {
    %1 = hl.transpose %x {perm = [1, 0]} : tensor<4x8xf32> -> tensor<8x4xf32>
    fused.yield %1 : tensor<8x4xf32>
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @mix_without_cube(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op of kind `mix` must hold at least one cube op}}
  %0 = fused.region mix (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    %1 = hl.exp %x : tensor<4xf32>
    fused.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @mix_without_vector_work(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'fused.region' op of kind `mix` must hold at least one elementwise, broadcast or reduce op besides its cube ops}}
  %0 = fused.region mix (%x = %a, %y = %b) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32> {
    %1 = hl.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
    fused.yield %1 : tensor<4x4xf32>
  }
  return %0 : tensor<4x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Custom syntax
//===----------------------------------------------------------------------===//

func.func @bad_kind_keyword(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected region kind 'vector', 'cube', 'mix' or 'attention', but got 'scalar'}}
  %0 = fused.region scalar (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> {
    fused.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @input_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{1 operands present, but expected 2}}
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    fused.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @id_not_an_integer(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op attribute 'id' failed to satisfy constraint: integer attribute}}
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> attributes {id = "three"} {
    fused.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Attention regions
//===----------------------------------------------------------------------===//

// -----

func.func @attention_without_softmax(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fused.region' op of kind `attention` is not an attention: the scores feed 'hl.matmul', not a softmax}}
  %0 = fused.region attention (%x = %q, %y = %k, %z = %v) : (tensor<4x8xf32>, tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    %s = hl.matmul %x, %y : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
    %o = hl.matmul %s, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    fused.yield %o : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_yields_an_intermediate(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
  // expected-error @+1 {{'fused.region' op of kind `attention` is not an attention: a value escapes the region: the result of 'hl.exp' is used outside by 'fused.yield'}}
  %0:2 = fused.region attention (%x = %q, %y = %k, %z = %v) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>) {
    %s = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %d = hl.sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %e = hl.exp %d : tensor<4x4xf32>
    %r = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %p = hl.div %e, %r : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = hl.matmul %p, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    fused.yield %o, %e : tensor<4x8xf32>, tensor<4x4xf32>
  }
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x4xf32>
}

// -----

func.func @attention_with_extra_op(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>, %w: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fused.region' op of kind `attention` holds 'hl.neg', which is not part of its attention}}
  %0 = fused.region attention (%x = %q, %y = %k, %z = %v, %u = %w) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    %n = hl.neg %u : tensor<4x8xf32>
    %s = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %d = hl.sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %e = hl.exp %d : tensor<4x4xf32>
    %r = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %p = hl.div %e, %r : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = hl.matmul %p, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %a = hl.add %o, %n : tensor<4x8xf32>
    fused.yield %a : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @parts_on_a_vector_region(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fused.region' op of kind `vector` cannot have 'parts' (only `attention` regions do)}}
  %0 = fused.region vector (%x = %a) : (tensor<4xf32>) -> tensor<4xf32> attributes {parts = [0]} {
    %1 = hl.exp %x : tensor<4xf32>
    fused.yield %1 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @parts_count(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fused.region' op has 2 'parts' but 7 ops in its body}}
  %0 = fused.region attention (%x = %q, %y = %k, %z = %v) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> attributes {parts = [0, 1]} {
    %s = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %d = hl.sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %e = hl.exp %d : tensor<4x4xf32>
    %r = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %p = hl.div %e, %r : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = hl.matmul %p, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    fused.yield %o : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @parts_below_minus_one(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fused.region' op 'parts' holds -2; a part is -1 (no kernel) or a kernel number from 0}}
  %0 = fused.region attention (%x = %q, %y = %k, %z = %v) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> attributes {parts = [0, 1, 1, 1, 1, -2, 2]} {
    %s = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    %m = hl.reduce_max %s {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %d = hl.sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %e = hl.exp %d : tensor<4x4xf32>
    %r = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %p = hl.div %e, %r : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = hl.matmul %p, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    fused.yield %o : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

// Bad IR inside an attention body is a located error, not a crash of the matcher.
func.func @attention_of_a_malformed_matmul(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fused.region' op of kind `attention` is not an attention: 'hl.matmul' has 0 results, not 1}}
  %0 = fused.region attention (%x = %q, %y = %k) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    "hl.matmul"(%x, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> ()
    fused.yield %x : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}

// -----

func.func @attention_softmax_axis_out_of_range(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'fused.region' op of kind `attention` is not an attention: axis 7 is out of range for rank 2}}
  %0 = fused.region attention (%x = %q, %y = %k, %z = %v) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
    %s = hl.matmul %x, %y {transpose_b = true} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x4xf32>
    %m = "hl.reduce_max"(%s) {axes = [7], keep_dims = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
    %d = hl.sub %s, %m : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %e = hl.exp %d : tensor<4x4xf32>
    %r = hl.reduce_sum %e {axes = [1], keep_dims = true} : tensor<4x4xf32> -> tensor<4x1xf32>
    %p = hl.div %e, %r : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
    %o = hl.matmul %p, %z : tensor<4x4xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    fused.yield %o : tensor<4x8xf32>
  }
  return %0 : tensor<4x8xf32>
}
