// RUN: %kiln-opt %s --split-input-file --verify-diagnostics
// RUN: not %kiln-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=ERRS
// The `hl` verifier: one chunk per error path of the declarations (operand/result counts,
// required attributes and their kinds), of verify.rs (element type classes, ranked tensors,
// inferred vs declared result) and of infer.rs (every shape rule).
// Also: invalid-cascade.mlir (one error per op when the declaration fails),
// invalid-result-dtype.mlir (declared result element types), invalid-overflow.mlir (huge
// attribute values and dims), invalid-norm-broadcast.mlir (normalization operands).

// Without --verify-diagnostics each chunk reports and the run fails; a valid chunk between
// invalid ones still prints.
// ERRS: error: 'hl.add' op expected 2 operands, but found 1
// ERRS: error: 'hl.neg' op requires one result
// ERRS-NOT: internal error

//===----------------------------------------------------------------------===//
// Declaration: counts and attributes
//===----------------------------------------------------------------------===//

func.func @operand_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.add' op expected 2 operands, but found 1}}
  %0 = "hl.add"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @operand_count_unary(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.neg' op requires a single operand}}
  %0 = "hl.neg"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @operand_count_select(%c: tensor<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.select' op expected 3 operands, but found 2}}
  %0 = "hl.select"(%c, %a) : (tensor<4xi1>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @constant_operands(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.constant' op requires zero operands}}
  %0 = "hl.constant"(%a) <{value = dense<1.0> : tensor<4xf32>}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @result_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.neg' op requires one result}}
  %0:2 = "hl.neg"(%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @missing_required_attribute(%a: tensor<1x8xf32>) {
  // expected-error @+1 {{'hl.squeeze' op requires attribute 'axes'}}
  %0 = hl.squeeze %a : tensor<1x8xf32>
  return
}

// -----

func.func @string_attribute_kind(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.gelu' op attribute 'approximate' failed to satisfy constraint: GELU approximation `#hl.approx<none|tanh>`}}
  %0 = hl.gelu %a {approximate = 1 : i64} : tensor<4xf32>
  return
}

// -----

func.func @float_attribute_kind(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.clamp' op attribute 'min' failed to satisfy constraint: float attribute}}
  %0 = hl.clamp %a {min = "zero"} : tensor<4xf32>
  return
}

// -----

func.func @float_attribute_kind_epsilon(%a: tensor<4x8xf32>, %g: tensor<8xf32>) {
  // expected-error @+1 {{'hl.rms_norm' op attribute 'epsilon' failed to satisfy constraint: float attribute}}
  %0 = hl.rms_norm %a, %g {epsilon = "small"} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @float_attribute_kind_rate(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.dropout' op attribute 'rate' failed to satisfy constraint: float attribute}}
  %0 = hl.dropout %a {rate = [1]} : tensor<4x8xf32>
  return
}

// -----

func.func @bool_attribute_kind(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.matmul' op attribute 'transpose_a' failed to satisfy constraint: bool attribute}}
  %0 = hl.matmul %a, %a {transpose_a = 1 : i64} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @integer_attribute_kind(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.softmax' op attribute 'axis' failed to satisfy constraint: integer attribute}}
  %0 = hl.softmax %a {axis = "last"} : tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// verify.rs: element type classes, ranked tensors, inferred vs declared
//===----------------------------------------------------------------------===//

func.func @float_op_on_int(%a: tensor<4xi32>) {
  // expected-error @+1 {{'hl.exp' op operand #0 must be ranked tensor of f16, bf16 or f32 values, but got 'tensor<4xi32>'}}
  %0 = hl.exp %a : tensor<4xi32>
  return
}

// -----

func.func @float_op_on_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'hl.sqrt' op operand #0 must be ranked tensor of f16, bf16 or f32 values, but got 'tensor<4xi1>'}}
  %0 = hl.sqrt %a : tensor<4xi1>
  return
}

// -----

func.func @numeric_op_on_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'hl.add' op operand #0 must be ranked tensor of f16, bf16, f32, i8, i32 or i64 values, but got 'tensor<4xi1>'}}
  %0 = hl.add %a, %a : tensor<4xi1>
  return
}

// -----

func.func @bool_op_on_float(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.and' op operand #0 must be ranked tensor of i1 values, but got 'tensor<4xf32>'}}
  %0 = hl.and %a, %a : tensor<4xf32>
  return
}

// -----

func.func @bool_op_on_int(%a: tensor<4xi8>) {
  // expected-error @+1 {{'hl.not' op operand #0 must be ranked tensor of i1 values, but got 'tensor<4xi8>'}}
  %0 = hl.not %a : tensor<4xi8>
  return
}

// -----

func.func @second_operand_class(%a: tensor<4xi1>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'hl.or' op operand #1 must be ranked tensor of i1 values, but got 'tensor<4xi32>'}}
  %0 = hl.or %a, %b : tensor<4xi1>, tensor<4xi32> -> tensor<4xi1>
  return
}

// -----

func.func @mean_of_int(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{'hl.reduce_mean' op operand #0 must be ranked tensor of f16, bf16 or f32 values, but got 'tensor<4x8xi32>'}}
  %0 = hl.reduce_mean %a {axes = [1]} : tensor<4x8xi32> -> tensor<4xi32>
  return
}

// -----

func.func @matmul_of_bool(%a: tensor<4x8xi1>, %b: tensor<8x4xi1>) {
  // expected-error @+1 {{'hl.matmul' op operand #0 must be ranked tensor of f16, bf16, f32, i8, i32 or i64 values, but got 'tensor<4x8xi1>'}}
  %0 = hl.matmul %a, %b : tensor<4x8xi1>, tensor<8x4xi1> -> tensor<4x4xi1>
  return
}

// -----

func.func @f64_is_not_hl(%a: tensor<4xf64>) {
  // expected-error @+1 {{'hl.cast' op operand #0 must be ranked tensor of f16, bf16, f32, i1, i8, i32 or i64 values, but got 'tensor<4xf64>'}}
  %0 = hl.cast %a : tensor<4xf64> -> tensor<4xf32>
  return
}

// -----

func.func @unsigned_is_not_hl(%a: tensor<4xui8>) {
  // expected-error @+1 {{'hl.neg' op operand #0 must be ranked tensor of f16, bf16, f32, i8, i32 or i64 values, but got 'tensor<4xui8>'}}
  %0 = hl.neg %a : tensor<4xui8>
  return
}

// -----

func.func @non_tensor_operand(%a: f32) {
  // expected-error @+1 {{'hl.neg' op operand #0 must be ranked tensor of f16, bf16, f32, i8, i32 or i64 values, but got 'f32'}}
  %0 = hl.neg %a : f32
  return
}

// -----

func.func @unranked_operand(%a: tensor<*xf32>) {
  // expected-error @+1 {{'hl.abs' op operand #0 must be ranked tensor of f16, bf16, f32, i8, i32 or i64 values, but got 'tensor<*xf32>'}}
  %0 = hl.abs %a : tensor<*xf32>
  return
}

// -----

func.func @non_tensor_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.neg' op result #0 must be ranked tensor of f16, bf16, f32, i1, i8, i32 or i64 values, but got 'f32'}}
  %0 = "hl.neg"(%a) : (tensor<4xf32>) -> f32
  return
}

// -----

func.func @vector_constant() {
  // expected-error @+1 {{'hl.constant' op result #0 must be ranked tensor of f16, bf16, f32, i1, i8, i32 or i64 values, but got 'vector<4xf32>'}}
  %0 = hl.constant dense<1.0> : vector<4xf32>
  return
}

// -----

func.func @unary_result_element_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.neg' op inferred type 'tensor<4xf32>' is incompatible with result type 'tensor<4xf16>'}}
  %0 = hl.neg %a : tensor<4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @binary_result_shape(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'hl.add' op inferred type 'tensor<4xf32>' is incompatible with result type 'tensor<5xf32>'}}
  %0 = hl.add %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<5xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise: broadcasting, promotion, cmp, select, clamp, cast, broadcast_to
//===----------------------------------------------------------------------===//

func.func @broadcast_incompatible(%a: tensor<4xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'hl.add' op operands are not broadcast compatible: 'tensor<4xf32>' and 'tensor<5xf32>' (operand #1)}}
  %0 = hl.add %a, %b : tensor<4xf32>, tensor<5xf32> -> tensor<4xf32>
  return
}

// -----

func.func @no_implicit_promotion(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'hl.mul' op operand #1 has element type 'i32', but 'f32' was expected (no implicit promotion)}}
  %0 = hl.mul %a, %b : tensor<4xf32>, tensor<4xi32> -> tensor<4xf32>
  return
}

// -----

func.func @no_implicit_float_widening(%a: tensor<4xf16>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'hl.sub' op operand #1 has element type 'f32', but 'f16' was expected (no implicit promotion)}}
  %0 = hl.sub %a, %b : tensor<4xf16>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_dim_conflict(%a: tensor<4x?xf32>, %b: tensor<5x?xf32>) {
  // expected-error @+1 {{'hl.add' op operands are not broadcast compatible: 'tensor<4x?xf32>' and 'tensor<5x?xf32>' (operand #1)}}
  %0 = hl.add %a, %b : tensor<4x?xf32>, tensor<5x?xf32> -> tensor<4x?xf32>
  return
}

// -----

// `?` broadcast against 8 gives 8, which the declared 9 contradicts.
func.func @dynamic_dim_resolved_conflict(%a: tensor<4x?xf32>, %b: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.add' op inferred type 'tensor<4x8xf32>' is incompatible with result type 'tensor<4x9xf32>'}}
  %0 = hl.add %a, %b : tensor<4x?xf32>, tensor<4x8xf32> -> tensor<4x9xf32>
  return
}

// -----

func.func @dynamic_rank_conflict(%a: tensor<4x?xf32>) {
  // expected-error @+1 {{'hl.maximum' op inferred type 'tensor<4x?xf32>' is incompatible with result type 'tensor<4x?x1xf32>'}}
  %0 = hl.maximum %a, %a : tensor<4x?xf32>, tensor<4x?xf32> -> tensor<4x?x1xf32>
  return
}

// -----

func.func @cmp_string_predicate(%a: tensor<4xf32>) {
  // A string where the enum attribute is required names the expected form.
  // expected-error @+1 {{'hl.cmp' op attribute 'predicate' failed to satisfy constraint: comparison predicate `#hl.cmp<eq|ne|lt|le|gt|ge>`}}
  %0 = hl.cmp %a, %a {predicate = "lt"} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @cmp_bad_predicate(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected hl.cmp to be one of: eq, ne, lt, le, gt, ge}}
  %0 = hl.cmp %a, %a {predicate = #hl.cmp<lte>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @cmp_predicate_no_case(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected '<'}}
  %0 = hl.cmp %a, %a {predicate = #hl.cmp} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @cmp_predicate_two_cases(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected '>'}}
  %0 = "hl.cmp"(%a, %a) <{predicate = #hl.cmp<lt, gt>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @unknown_hl_attr(%a: tensor<4xf32>) {
  // expected-error @+1 {{unknown attribute `cmpx` in dialect `hl`}}
  %0 = hl.cmp %a, %a {predicate = #hl.cmpx<lt>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @cmp_result_not_i1(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.cmp' op inferred type 'tensor<4xi1>' is incompatible with result type 'tensor<4xf32>'}}
  %0 = hl.cmp %a, %a {predicate = #hl.cmp<eq>} : tensor<4xf32>
  return
}

// -----

func.func @cmp_promotion(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{'hl.cmp' op operand #1 has element type 'i32', but 'f32' was expected (no implicit promotion)}}
  %0 = hl.cmp %a, %b {predicate = #hl.cmp<ne>} : tensor<4xf32>, tensor<4xi32> -> tensor<4xi1>
  return
}

// -----

func.func @select_condition_not_i1(%c: tensor<4xi8>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.select' op condition must have element type 'i1', but got 'i8'}}
  %0 = hl.select %c, %a, %a : tensor<4xi8>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @select_branch_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'hl.select' op operand #2 has element type 'f16', but 'f32' was expected (no implicit promotion)}}
  %0 = hl.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

func.func @select_condition_shape(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.select' op operands are not broadcast compatible: 'tensor<3xi1>' and 'tensor<4xf32>' (operand #1)}}
  %0 = hl.select %c, %a, %a : tensor<3xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @clamp_min_above_max(%a: tensor<4xf32>) {
  // expected-error @+1 {{'hl.clamp' op 'min' (6) must not exceed 'max' (0)}}
  %0 = hl.clamp %a {max = 0.0 : f32, min = 6.0 : f32} : tensor<4xf32>
  return
}

// -----

func.func @clamp_of_bool(%a: tensor<4xi1>) {
  // expected-error @+1 {{'hl.clamp' op operand #0 must be ranked tensor of f16, bf16, f32, i8, i32 or i64 values, but got 'tensor<4xi1>'}}
  %0 = hl.clamp %a {min = 0.0 : f32} : tensor<4xi1>
  return
}

// -----

func.func @cast_shape(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{'hl.cast' op result shape must match the operand's: 'tensor<2x4xf32>' vs 'tensor<4x2xf16>'}}
  %0 = hl.cast %a : tensor<2x4xf32> -> tensor<4x2xf16>
  return
}

// -----

func.func @broadcast_to_incompatible(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{'hl.broadcast_to' op operand type 'tensor<2x4xf32>' cannot be broadcast to 'tensor<3x4xf32>'}}
  %0 = hl.broadcast_to %a : tensor<2x4xf32> -> tensor<3x4xf32>
  return
}

// -----

func.func @broadcast_to_lower_rank(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{'hl.broadcast_to' op operand type 'tensor<2x4xf32>' cannot be broadcast to 'tensor<4xf32>'}}
  %0 = hl.broadcast_to %a : tensor<2x4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @broadcast_to_element_type(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{'hl.broadcast_to' op result element type 'f16' must match operand element type 'f32'}}
  %0 = hl.broadcast_to %a : tensor<2x4xf32> -> tensor<2x4xf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// hl.constant
//===----------------------------------------------------------------------===//

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'hl.constant' op value type 'tensor<4xf32>' does not match result type 'tensor<5xf32>'}}
  %0 = "hl.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<5xf32>
  return
}

// -----

func.func @constant_element_type_mismatch() {
  // expected-error @+1 {{'hl.constant' op value type 'tensor<4xi32>' does not match result type 'tensor<4xf32>'}}
  %0 = "hl.constant"() <{value = dense<1> : tensor<4xi32>}> : () -> tensor<4xf32>
  return
}

// -----

func.func @constant_dynamic() {
  // expected-error @+1 {{'hl.constant' op constant must have a static shape, but has type 'tensor<?xf32>'}}
  %0 = "hl.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<?xf32>
  return
}

// -----

func.func @constant_not_dense() {
  // expected-error @+1 {{'hl.constant' op attribute 'value' must be a dense elements or dense resource attribute}}
  %0 = "hl.constant"() <{value = 1.0 : f32}> : () -> tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

func.func @reduce_axis_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reduce_sum' op axis 2 is out of range for rank 2}}
  %0 = hl.reduce_sum %a {axes = [2]} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_negative_axis_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reduce_sum' op axis -3 is out of range for rank 2}}
  %0 = hl.reduce_sum %a {axes = [-3]} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

// 1 and -1 name the same axis of a rank-2 operand.
func.func @reduce_duplicate_axes(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reduce_max' op attribute 'axes' has duplicate axes}}
  %0 = hl.reduce_max %a {axes = [1, -1]} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_no_axes(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reduce_min' op attribute 'axes' must name at least one axis}}
  %0 = hl.reduce_min %a {axes = []} : tensor<4x8xf32>
  return
}

// -----

func.func @reduce_axes_not_integers(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reduce_prod' op expected an integer, but got 1.000000e+00 : f64}}
  %0 = hl.reduce_prod %a {axes = [1.0]} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_keep_dims_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reduce_sum' op inferred type 'tensor<4x1xf32>' is incompatible with result type 'tensor<4xf32>'}}
  %0 = hl.reduce_sum %a {axes = [1], keep_dims = true} : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @argmax_axis_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.argmax' op axis 2 is out of range for rank 2}}
  %0 = hl.argmax %a {axis = 2 : i64} : tensor<4x8xf32> -> tensor<4xi64>
  return
}

// -----

func.func @argmin_result_i64(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.argmin' op inferred type 'tensor<4xi64>' is incompatible with result type 'tensor<4xi32>'}}
  %0 = hl.argmin %a {axis = 1 : i64} : tensor<4x8xf32> -> tensor<4xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// matmul, batch_matmul, conv2d
//===----------------------------------------------------------------------===//

func.func @matmul_contraction(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.matmul' op contraction dims do not match: 'tensor<4x8xf32>' and 'tensor<4x8xf32>' (k = 8 vs 4)}}
  %0 = hl.matmul %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

// transpose_a reads `a` as 8x4, so k is 4.
func.func @matmul_contraction_transposed(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{'hl.matmul' op contraction dims do not match: 'tensor<4x8xf32>' and 'tensor<8x4xf32>' (k = 4 vs 8)}}
  %0 = hl.matmul %a, %b {transpose_a = true} : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_rank(%a: tensor<2x4x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{'hl.matmul' op operands must have rank 2, but got 'tensor<2x4x8xf32>' and 'tensor<8x4xf32>'}}
  %0 = hl.matmul %a, %b : tensor<2x4x8xf32>, tensor<8x4xf32> -> tensor<2x4x4xf32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<4x8xf32>, %b: tensor<8x4xf16>) {
  // expected-error @+1 {{'hl.matmul' op operands must have the same element type, but got 'f32' and 'f16'}}
  %0 = hl.matmul %a, %b : tensor<4x8xf32>, tensor<8x4xf16> -> tensor<4x4xf32>
  return
}

// -----

// A dynamic k matches anything, but the result still follows from m and n.
func.func @matmul_dynamic_result(%a: tensor<4x?xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{'hl.matmul' op inferred type 'tensor<4x4xf32>' is incompatible with result type 'tensor<4x5xf32>'}}
  %0 = hl.matmul %a, %b : tensor<4x?xf32>, tensor<8x4xf32> -> tensor<4x5xf32>
  return
}

// -----

func.func @batch_matmul_rank(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) {
  // expected-error @+1 {{'hl.batch_matmul' op operands must have rank 2 or more, one of them rank 3 or more, but got 'tensor<4x8xf32>' and 'tensor<8x4xf32>'}}
  %0 = hl.batch_matmul %a, %b : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @batch_matmul_batch_broadcast(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) {
  // expected-error @+1 {{'hl.batch_matmul' op batch dims are not broadcast compatible}}
  %0 = hl.batch_matmul %a, %b : tensor<2x4x8xf32>, tensor<3x8x4xf32> -> tensor<2x4x4xf32>
  return
}

// -----

func.func @batch_matmul_contraction(%a: tensor<2x4x8xf32>, %b: tensor<2x7x4xf32>) {
  // expected-error @+1 {{'hl.batch_matmul' op contraction dims do not match: 'tensor<2x4x8xf32>' and 'tensor<2x7x4xf32>' (k = 8 vs 7)}}
  %0 = hl.batch_matmul %a, %b : tensor<2x4x8xf32>, tensor<2x7x4xf32> -> tensor<2x4x4xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x64x8x8xf32>, %w: tensor<64x32x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op weights expect 32 input channels per group, but input has 64 channels for groups = 1}}
  %0 = hl.conv2d %x, %w : tensor<1x64x8x8xf32>, tensor<64x32x3x3xf32> -> tensor<1x64x6x6xf32>
  return
}

// -----

func.func @conv_groups_do_not_divide_channels(%x: tensor<1x64x8x8xf32>, %w: tensor<64x64x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op weights expect 64 input channels per group, but input has 64 channels for groups = 3}}
  %0 = hl.conv2d %x, %w {groups = 3 : i64} : tensor<1x64x8x8xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x6x6xf32>
  return
}

// -----

func.func @conv_groups_output_channels(%x: tensor<1x64x8x8xf32>, %w: tensor<6x16x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op output channels 6 are not divisible by groups 4}}
  %0 = hl.conv2d %x, %w {groups = 4 : i64} : tensor<1x64x8x8xf32>, tensor<6x16x3x3xf32> -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_groups_positive(%x: tensor<1x64x8x8xf32>, %w: tensor<64x64x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op attribute 'groups' must be positive, but got 0}}
  %0 = hl.conv2d %x, %w {groups = 0 : i64} : tensor<1x64x8x8xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x6x6xf32>
  return
}

// -----

func.func @conv_kernel_larger_than_input(%x: tensor<1x4x2x2xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op kernel extent 3 exceeds padded input size 2}}
  %0 = hl.conv2d %x, %w : tensor<1x4x2x2xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x0x0xf32>
  return
}

// -----

// Dilation 3 makes a 3x3 kernel span 7 > 6.
func.func @conv_dilated_kernel_larger_than_input(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op kernel extent 7 exceeds padded input size 6}}
  %0 = hl.conv2d %x, %w {dilation = [3, 3]} : tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op attribute 'strides' must be two positive integers, but got [0, 1]}}
  %0 = hl.conv2d %x, %w {strides = [0, 1]} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilation_length(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op attribute 'dilation' must be two positive integers, but got [1]}}
  %0 = hl.conv2d %x, %w {dilation = [1]} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_padding_length(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op attribute 'padding' must be four non-negative integers, but got [1, 1]}}
  %0 = hl.conv2d %x, %w {padding = [1, 1]} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_padding_negative(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op attribute 'padding' must be four non-negative integers, but got [1, 1, -1, 0]}}
  %0 = hl.conv2d %x, %w {padding = [1, 1, -1, 0]} : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op input and weights must have rank 4 (NCHW and OIHW)}}
  %0 = hl.conv2d %x, %w : tensor<4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_element_types(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf16>) {
  // expected-error @+1 {{'hl.conv2d' op input and weights must have the same element type, but got 'f32' and 'f16'}}
  %0 = hl.conv2d %x, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf16> -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'hl.conv2d' op inferred type 'tensor<1x4x6x6xf32>' is incompatible with result type 'tensor<1x4x8x8xf32>'}}
  %0 = hl.conv2d %x, %w : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32> -> tensor<1x4x8x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

func.func @perm_duplicate(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.transpose' op attribute 'perm' [0, 0] is not a permutation of rank 2}}
  %0 = hl.transpose %a {perm = [0, 0]} : tensor<4x8xf32>
  return
}

// -----

func.func @perm_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.transpose' op attribute 'perm' [1, 2] is not a permutation of rank 2}}
  %0 = hl.transpose %a {perm = [1, 2]} : tensor<4x8xf32>
  return
}

// -----

func.func @perm_negative(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.transpose' op attribute 'perm' [-1, 0] is not a permutation of rank 2}}
  %0 = hl.transpose %a {perm = [-1, 0]} : tensor<4x8xf32>
  return
}

// -----

func.func @perm_length(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.transpose' op attribute 'perm' [0] is not a permutation of rank 2}}
  %0 = hl.transpose %a {perm = [0]} : tensor<4x8xf32>
  return
}

// -----

func.func @transpose_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.transpose' op inferred type 'tensor<8x4xf32>' is incompatible with result type 'tensor<4x8xf32>'}}
  %0 = hl.transpose %a {perm = [1, 0]} : tensor<4x8xf32>
  return
}

// -----

func.func @slice_limit_past_end(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.slice' op invalid slice [0:9:1] of dim #1 (size 8)}}
  %0 = hl.slice %a {limits = [4, 9], starts = [0, 0]} : tensor<4x8xf32> -> tensor<4x9xf32>
  return
}

// -----

func.func @slice_limit_before_start(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.slice' op invalid slice [3:2:1] of dim #0 (size 4)}}
  %0 = hl.slice %a {limits = [2, 8], starts = [3, 0]} : tensor<4x8xf32> -> tensor<0x8xf32>
  return
}

// -----

func.func @slice_negative_start(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.slice' op invalid slice [-1:2:1] of dim #0 (size 4)}}
  %0 = hl.slice %a {limits = [2, 8], starts = [-1, 0]} : tensor<4x8xf32> -> tensor<3x8xf32>
  return
}

// -----

func.func @slice_zero_stride(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.slice' op invalid slice [0:8:0] of dim #1 (size 8)}}
  %0 = hl.slice %a {limits = [4, 8], starts = [0, 0], strides = [1, 0]} : tensor<4x8xf32>
  return
}

// -----

func.func @slice_entries(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.slice' op 'starts', 'limits' and 'strides' must each have 2 entries}}
  %0 = hl.slice %a {limits = [4], starts = [0]} : tensor<4x8xf32>
  return
}

// -----

// 8 elements with stride 3 are 3 (indices 0, 3, 6), not 2.
func.func @slice_strided_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.slice' op inferred type 'tensor<4x3xf32>' is incompatible with result type 'tensor<4x2xf32>'}}
  %0 = hl.slice %a {limits = [4, 8], starts = [0, 0], strides = [1, 3]} : tensor<4x8xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reshape' op cannot reshape 'tensor<4x8xf32>' (32 elements) to 'tensor<33xf32>' (33 elements)}}
  %0 = hl.reshape %a : tensor<4x8xf32> -> tensor<33xf32>
  return
}

// -----

// One dynamic dim: the static count must be a multiple of the other side's known dims.
func.func @reshape_count_dynamic(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reshape' op cannot reshape 'tensor<4x8xf32>' (32 elements) to 'tensor<?x5xf32>' (a multiple of 5 elements)}}
  %0 = hl.reshape %a : tensor<4x8xf32> -> tensor<?x5xf32>
  return
}

// -----

// Tied dims cancel out of the count: 32 against 4 * 4.
func.func @reshape_count_tied(%a: tensor<?x?x32xf32>) {
  // expected-error @+1 {{'hl.reshape' op cannot reshape 'tensor<?x?x32xf32>' (32 elements) to 'tensor<?x?x4x4xf32>' (16 elements)}}
  %0 = hl.reshape %a {source_dims = [0, 1, -1, -1]} : tensor<?x?x32xf32> -> tensor<?x?x4x4xf32>
  return
}

// -----

func.func @reshape_source_dims_length(%a: tensor<?x32xf32>) {
  // expected-error @+1 {{'hl.reshape' op attribute 'source_dims' must have one entry per result dim (3), but has 2}}
  %0 = hl.reshape %a {source_dims = [0, -1]} : tensor<?x32xf32> -> tensor<?x4x8xf32>
  return
}

// -----

func.func @reshape_source_dims_range(%a: tensor<?x32xf32>) {
  // expected-error @+1 {{'hl.reshape' op attribute 'source_dims' entry 2 is not an operand dim (rank 2) or -1}}
  %0 = hl.reshape %a {source_dims = [2, -1, -1]} : tensor<?x32xf32> -> tensor<?x4x8xf32>
  return
}

// -----

func.func @reshape_source_dims_twice(%a: tensor<?x32xf32>) {
  // expected-error @+1 {{'hl.reshape' op attribute 'source_dims' names operand dim 0 twice}}
  %0 = hl.reshape %a {source_dims = [0, 0, -1]} : tensor<?x32xf32> -> tensor<?x?x32xf32>
  return
}

// -----

func.func @reshape_source_dims_size(%a: tensor<4x32xf32>) {
  // expected-error @+1 {{'hl.reshape' op result dim #0 of size 2 is tied to operand dim #0 of size 4}}
  %0 = hl.reshape %a {source_dims = [0, -1, -1]} : tensor<4x32xf32> -> tensor<2x8x8xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.reshape' op result element type 'f16' must match operand element type 'f32'}}
  %0 = hl.reshape %a : tensor<4x8xf32> -> tensor<32xf16>
  return
}

// -----

func.func @concat_dim(%a: tensor<4x8xf32>, %b: tensor<5x8xf32>) {
  // expected-error @+1 {{'hl.concat' op operand #1 has dim #0 of size 5, but 4 was expected}}
  %0 = hl.concat %a, %b {axis = 1 : i64} : tensor<4x8xf32>, tensor<5x8xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'hl.concat' op operand #1 has rank 1, but operand #0 has rank 2}}
  %0 = hl.concat %a, %b {axis = 0 : i64} : tensor<4x8xf32>, tensor<8xf32> -> tensor<5x8xf32>
  return
}

// -----

func.func @concat_element_type(%a: tensor<4x8xf32>, %b: tensor<4x8xf16>) {
  // expected-error @+1 {{'hl.concat' op operand #1 has element type 'f16', but 'f32' was expected (no implicit promotion)}}
  %0 = hl.concat %a, %b {axis = 0 : i64} : tensor<4x8xf32>, tensor<4x8xf16> -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.concat' op axis 2 is out of range for rank 2}}
  %0 = hl.concat %a, %a {axis = 2 : i64} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @concat_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.concat' op inferred type 'tensor<8x8xf32>' is incompatible with result type 'tensor<9x8xf32>'}}
  %0 = hl.concat %a, %a {axis = 0 : i64} : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<9x8xf32>
  return
}

// -----

func.func @squeeze_non_unit(%a: tensor<1x8xf32>) {
  // expected-error @+1 {{'hl.squeeze' op cannot squeeze dim #1 of size 8}}
  %0 = hl.squeeze %a {axes = [1]} : tensor<1x8xf32> -> tensor<1xf32>
  return
}

// -----

func.func @squeeze_duplicate_axes(%a: tensor<1x8xf32>) {
  // expected-error @+1 {{'hl.squeeze' op attribute 'axes' has duplicate axes}}
  %0 = hl.squeeze %a {axes = [0, 0]} : tensor<1x8xf32> -> tensor<8xf32>
  return
}

// -----

// expand_dims takes axes 0..=rank.
func.func @expand_dims_axis(%a: tensor<1x8xf32>) {
  // expected-error @+1 {{'hl.expand_dims' op axis 3 is out of range for rank 3}}
  %0 = hl.expand_dims %a {axis = 3 : i64} : tensor<1x8xf32> -> tensor<1x8x1xf32>
  return
}

// -----

func.func @expand_dims_result(%a: tensor<1x8xf32>) {
  // expected-error @+1 {{'hl.expand_dims' op inferred type 'tensor<1x8x1xf32>' is incompatible with result type 'tensor<1x1x8xf32>'}}
  %0 = hl.expand_dims %a {axis = 2 : i64} : tensor<1x8xf32> -> tensor<1x1x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Composites
//===----------------------------------------------------------------------===//

func.func @softmax_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.softmax' op axis 2 is out of range for rank 2}}
  %0 = hl.softmax %a {axis = 2 : i64} : tensor<4x8xf32>
  return
}

// -----

func.func @softmax_of_int(%a: tensor<4x8xi32>) {
  // expected-error @+1 {{'hl.softmax' op operand #0 must be ranked tensor of f16, bf16 or f32 values, but got 'tensor<4x8xi32>'}}
  %0 = hl.softmax %a : tensor<4x8xi32>
  return
}

// -----

func.func @log_softmax_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.log_softmax' op inferred type 'tensor<4x8xf32>' is incompatible with result type 'tensor<4xf32>'}}
  %0 = hl.log_softmax %a : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @layer_norm_gamma_shape(%a: tensor<4x8xf32>, %g: tensor<7xf32>) {
  // expected-error @+1 {{'hl.layer_norm' op operand #1 of type 'tensor<7xf32>' does not broadcast to 'tensor<4x8xf32>'}}
  %0 = hl.layer_norm %a, %g, %g : tensor<4x8xf32>, tensor<7xf32>, tensor<7xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @rms_norm_element_type(%a: tensor<4x8xf32>, %g: tensor<8xf16>) {
  // expected-error @+1 {{'hl.rms_norm' op operand #1 has element type 'f16', but 'f32' was expected (no implicit promotion)}}
  %0 = hl.rms_norm %a, %g : tensor<4x8xf32>, tensor<8xf16> -> tensor<4x8xf32>
  return
}

// -----

func.func @batch_norm_statistics(%x: tensor<1x64x7x7xf32>, %s: tensor<64x1x1xf32>, %t: tensor<32x1x1xf32>) {
  // expected-error @+1 {{'hl.batch_norm' op operand #4 of type 'tensor<32x1x1xf32>' does not broadcast to 'tensor<1x64x7x7xf32>'}}
  %0 = hl.batch_norm %x, %s, %s, %s, %t : tensor<1x64x7x7xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>, tensor<32x1x1xf32> -> tensor<1x64x7x7xf32>
  return
}

// -----

func.func @swiglu_odd(%a: tensor<4x7xf32>) {
  // expected-error @+1 {{'hl.swiglu' op dim #1 of size 7 cannot be split in halves}}
  %0 = hl.swiglu %a : tensor<4x7xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @swiglu_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.swiglu' op axis 2 is out of range for rank 2}}
  %0 = hl.swiglu %a {axis = 2 : i64} : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @swiglu_result(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'hl.swiglu' op inferred type 'tensor<4x4xf32>' is incompatible with result type 'tensor<4x8xf32>'}}
  %0 = hl.swiglu %a : tensor<4x8xf32>
  return
}

// -----

func.func @bias_length(%a: tensor<4x8xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'hl.bias_add' op bias 'tensor<4xf32>' must be rank 1 with the size of dim #1 of 'tensor<4x8xf32>'}}
  %0 = hl.bias_add %a, %b : tensor<4x8xf32>, tensor<4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @bias_rank(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+1 {{'hl.bias_add' op bias 'tensor<1x8xf32>' must be rank 1 with the size of dim #1 of 'tensor<4x8xf32>'}}
  %0 = hl.bias_add %a, %b : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return
}

// -----

// With axis 0 the bias must have dim 0's size.
func.func @bias_length_axis(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'hl.bias_add' op bias 'tensor<8xf32>' must be rank 1 with the size of dim #0 of 'tensor<4x8xf32>'}}
  %0 = hl.bias_add %a, %b {axis = 0 : i64} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @bias_element_type(%a: tensor<4x8xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{'hl.bias_add' op operand #1 has element type 'f16', but 'f32' was expected (no implicit promotion)}}
  %0 = hl.bias_add %a, %b : tensor<4x8xf32>, tensor<8xf16> -> tensor<4x8xf32>
  return
}

// -----

func.func @bias_axis(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'hl.bias_add' op axis 2 is out of range for rank 2}}
  %0 = hl.bias_add %a, %b {axis = 2 : i64} : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Custom syntax
//===----------------------------------------------------------------------===//

func.func @two_types_without_arrow(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{expected one type, or operand types followed by '->' and the result type}}
  %0 = hl.add %a, %a : tensor<4x8xf32>, tensor<4x8xf32>
  return
}

// -----

func.func @constant_not_dense_custom() {
  // expected-error @+1 {{expected a dense elements or dense resource attribute}}
  %0 = hl.constant 1.0 : f32
  return
}

//===----------------------------------------------------------------------===//
// The ops model importers need (infer/data.rs, infer/pool.rs)
//===----------------------------------------------------------------------===//

// -----

func.func @gather_float_indices(%d: tensor<5x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{'hl.gather' op operand #1 must be ranked tensor of i32 or i64 values, but got 'tensor<2xf32>'}}
  %0 = hl.gather %d, %i : tensor<5x3xf32>, tensor<2xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_axis(%d: tensor<5x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'hl.gather' op axis 2 is out of range for rank 2}}
  %0 = hl.gather %d, %i {axis = 2 : i64} : tensor<5x3xf32>, tensor<2xi64> -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_shape(%d: tensor<5x3xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'hl.gather' op inferred type 'tensor<5x2xf32>' is incompatible with result type 'tensor<2x3xf32>'}}
  %0 = hl.gather %d, %i {axis = -1 : i64} : tensor<5x3xf32>, tensor<2xi64> -> tensor<2x3xf32>
  return
}

// -----

func.func @split_sizes(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'hl.split' op attribute 'sizes' [4, 10] adds up to 14, but dim #1 has size 16}}
  %0:2 = hl.split %x {axis = 1 : i64, sizes = [4, 10]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x10xf32>
  return
}

// -----

func.func @split_negative(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'hl.split' op attribute 'sizes' must be one or more non-negative integers, but got [-4, 20]}}
  %0:2 = hl.split %x {axis = 1 : i64, sizes = [-4, 20]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x12xf32>
  return
}

// -----

func.func @split_count(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'hl.split' op requires 2 results, but has 3}}
  %0:3 = hl.split %x {axis = 1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x12xf32>, tensor<2x12xf32>
  return
}

// -----

func.func @split_result_type(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'hl.split' op inferred type 'tensor<2x12xf32>' is incompatible with result #1 type 'tensor<2x11xf32>'}}
  %0:2 = hl.split %x {axis = -1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x11xf32>
  return
}

// -----

func.func @split_sizes_required(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{'hl.split' op requires attribute 'sizes'}}
  %0 = "hl.split"(%x) <{axis = 1 : i64}> : (tensor<2x16xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @pad_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hl.pad' op attribute 'low' must be 2 non-negative integers, but got [1]}}
  %0 = hl.pad %x {low = [1], high = [0, 0]} : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hl.pad' op attribute 'high' must be 2 non-negative integers, but got [0, -1]}}
  %0 = hl.pad %x {low = [0, 0], high = [0, -1]} : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @pad_value_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hl.pad' op attribute 'value' must be a 'f32' number, but got 0.000000e+00 : f16}}
  %0 = hl.pad %x {low = [0, 0], high = [0, 1], value = 0.0 : f16} : tensor<2x3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @pad_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'hl.pad' op inferred type 'tensor<2x4xf32>' is incompatible with result type 'tensor<2x5xf32>'}}
  %0 = hl.pad %x {low = [0, 0], high = [0, 1]} : tensor<2x3xf32> -> tensor<2x5xf32>
  return
}

// -----

func.func @iota_dimension() {
  // expected-error @+1 {{'hl.iota' op attribute 'dimension' 2 is out of range for rank 2}}
  %0 = hl.iota {dimension = 2 : i64} : tensor<4x8xi32>
  return
}

// -----

func.func @iota_bool() {
  // expected-error @+1 {{'hl.iota' op result must have integer or float elements, but has type 'tensor<4xi1>'}}
  %0 = hl.iota {dimension = 0 : i64} : tensor<4xi1>
  return
}

// -----

func.func @iota_operands(%x: tensor<4xi32>) {
  // expected-error @+1 {{'hl.iota' op requires zero operands}}
  %0 = "hl.iota"(%x) <{dimension = 0 : i64}> : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @trilu_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'hl.trilu' op operand must have rank 2 or more, but got 'tensor<4xf32>'}}
  %0 = hl.trilu %x : tensor<4xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<8x16x16xf32>) {
  // expected-error @+1 {{'hl.max_pool2d' op operand must have rank 4 (NCHW), but got 'tensor<8x16x16xf32>'}}
  %0 = hl.max_pool2d %x {kernel = [2, 2]} : tensor<8x16x16xf32> -> tensor<8x8x8xf32>
  return
}

// -----

func.func @pool_kernel_required(%x: tensor<1x8x16x16xf32>) {
  // expected-error @+1 {{'hl.avg_pool2d' op requires attribute 'kernel'}}
  %0 = "hl.avg_pool2d"(%x) : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  return
}

// -----

func.func @pool_kernel(%x: tensor<1x8x16x16xf32>) {
  // expected-error @+1 {{'hl.max_pool2d' op attribute 'kernel' must be 2 positive integers, but got [0, 2]}}
  %0 = hl.max_pool2d %x {kernel = [0, 2]} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x8x16x16xf32>) {
  // expected-error @+1 {{'hl.max_pool2d' op attribute 'padding' must be 4 non-negative integers, but got [1, 1]}}
  %0 = hl.max_pool2d %x {kernel = [2, 2], padding = [1, 1]} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @pool_window(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'hl.avg_pool2d' op pooling window extent 5 exceeds padded input size 4}}
  %0 = hl.avg_pool2d %x {kernel = [3, 3], dilation = [2, 2], padding = [1, 1, 1, 1]} : tensor<1x8x2x2xf32> -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @pool_result(%x: tensor<1x8x16x16xf32>) {
  // expected-error @+1 {{'hl.max_pool2d' op inferred type 'tensor<1x8x8x8xf32>' is incompatible with result type 'tensor<1x8x7x7xf32>'}}
  %0 = hl.max_pool2d %x {kernel = [2, 2], strides = [2, 2]} : tensor<1x8x16x16xf32> -> tensor<1x8x7x7xf32>
  return
}

// -----

func.func @avg_pool_int(%x: tensor<1x8x16x16xi32>) {
  // expected-error @+1 {{'hl.avg_pool2d' op operand #0 must be ranked tensor of f16, bf16 or f32 values, but got 'tensor<1x8x16x16xi32>'}}
  %0 = hl.avg_pool2d %x {kernel = [2, 2]} : tensor<1x8x16x16xi32> -> tensor<1x8x15x15xi32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'hl.global_avg_pool2d' op operand must have rank 3 or more, but got 'tensor<8x16xf32>'}}
  %0 = hl.global_avg_pool2d %x : tensor<8x16xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x8x16x16xf32>, %w: tensor<4x8x3x3xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'hl.conv2d' op bias 'tensor<8xf32>' must be rank 1 with the output channels of weights 'tensor<4x8x3x3xf32>'}}
  %0 = hl.conv2d %x, %w, %b : tensor<1x8x16x16xf32>, tensor<4x8x3x3xf32>, tensor<8xf32> -> tensor<1x4x14x14xf32>
  return
}

// -----

func.func @conv_operands(%x: tensor<1x8x16x16xf32>, %w: tensor<4x8x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'hl.conv2d' op operand group starting at #2 requires 0 or 1 element, but found 2}}
  %0 = "hl.conv2d"(%x, %w, %b, %b) : (tensor<1x8x16x16xf32>, tensor<4x8x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x14x14xf32>
  return
}
