//! Elementwise `hl` ops: arithmetic, math functions, comparisons, selection, casts,
//! constants and explicit broadcasts.

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_binary, hl_op, hl_unary, opt, req};
use crate::hl::attrs::{CMP_PREDICATE, GELU_APPROXIMATION};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::{eval, BinaryOp, LogicOp, UnaryOp};

hl_binary! {
    /// Elementwise addition of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ADD = "hl.add", "elementwise addition", Numeric, flops 1, [Commutative],
    eval: binary(BinaryOp::Add), example: "tensor<4x?xf16>", vector: ADD_OP,
}

hl_binary! {
    /// Elementwise subtraction of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    SUB = "hl.sub", "elementwise subtraction", Numeric, flops 1, [],
    eval: binary(BinaryOp::Sub), example: "tensor<4x?xf16>", vector: SUB_OP,
}

hl_binary! {
    /// Elementwise multiplication of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    MUL = "hl.mul", "elementwise multiplication", Numeric, flops 1, [Commutative],
    eval: binary(BinaryOp::Mul), example: "tensor<4x?xf16>", vector: MUL_OP,
}

hl_binary! {
    /// Elementwise division (integers truncate toward zero; integer division by zero gives 0) of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    DIV = "hl.div", "elementwise division", Numeric, flops 1, [],
    eval: binary(BinaryOp::Div), example: "tensor<4x?xf16>", vector: DIV_OP,
}

hl_binary! {
    /// Elementwise power `lhs ** rhs` of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    POW = "hl.pow", "elementwise power `lhs ** rhs`", Numeric, flops 10, [],
    eval: binary(BinaryOp::Pow), example: "tensor<4x?xf16>", vector: POW_OP,
}

hl_binary! {
    /// Elementwise maximum (NaN propagates) of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    MAXIMUM = "hl.maximum", "elementwise maximum", Numeric, flops 1, [Commutative],
    eval: binary(BinaryOp::Maximum), example: "tensor<4x?xf16>", vector: MAX_OP,
}

hl_binary! {
    /// Elementwise minimum (NaN propagates) of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    MINIMUM = "hl.minimum", "elementwise minimum", Numeric, flops 1, [Commutative],
    eval: binary(BinaryOp::Minimum), example: "tensor<4x?xf16>", vector: MIN_OP,
}

hl_binary! {
    /// Elementwise logical and of two `i1` tensors, with numpy broadcasting.
    AND = "hl.and", "elementwise logical and on `i1`", Bool, flops 1, [Commutative],
    eval: logical(LogicOp::And), example: "tensor<8xi1>", vector: AND_OP,
}

hl_binary! {
    /// Elementwise logical or of two `i1` tensors, with numpy broadcasting.
    OR = "hl.or", "elementwise logical or on `i1`", Bool, flops 1, [Commutative],
    eval: logical(LogicOp::Or), example: "tensor<8xi1>", vector: OR_OP,
}

hl_unary! {
    /// Elementwise negation. f16/bf16 results are computed in f32 and rounded to the element type.
    NEG = "hl.neg", "elementwise negation", Numeric, flops 1,
    eval: unary(UnaryOp::Neg), example: "tensor<4x?xf16>", vector: NEG_OP,
}

hl_unary! {
    /// Elementwise absolute value. f16/bf16 results are computed in f32 and rounded to the element type.
    ABS = "hl.abs", "elementwise absolute value", Numeric, flops 1,
    eval: unary(UnaryOp::Abs), example: "tensor<4x?xf16>", vector: ABS_OP,
}

hl_unary! {
    /// Elementwise `e^x`. f16/bf16 results are computed in f32 and rounded to the element type.
    EXP = "hl.exp", "elementwise `e^x`", Float, flops 4,
    eval: unary(UnaryOp::Exp), example: "tensor<4x?xf16>", vector: EXP_OP,
}

hl_unary! {
    /// Elementwise natural logarithm. f16/bf16 results are computed in f32 and rounded to the element type.
    LOG = "hl.log", "elementwise natural logarithm", Float, flops 4,
    eval: unary(UnaryOp::Log), example: "tensor<4x?xf16>", vector: LOG_OP,
}

hl_unary! {
    /// Elementwise square root. f16/bf16 results are computed in f32 and rounded to the element type.
    SQRT = "hl.sqrt", "elementwise square root", Float, flops 2,
    eval: unary(UnaryOp::Sqrt), example: "tensor<4x?xf16>", vector: SQRT_OP,
}

hl_unary! {
    /// Elementwise reciprocal square root `1/sqrt(x)`. f16/bf16 results are computed in f32 and rounded to the element type.
    RSQRT = "hl.rsqrt", "elementwise reciprocal square root", Float, flops 3,
    eval: unary(UnaryOp::Rsqrt), example: "tensor<4x?xf16>", vector: RSQRT_OP,
}

hl_unary! {
    /// Elementwise reciprocal `1/x`. f16/bf16 results are computed in f32 and rounded to the element type.
    RECIPROCAL = "hl.reciprocal", "elementwise reciprocal", Float, flops 1,
    eval: unary(UnaryOp::Reciprocal), example: "tensor<4x?xf16>", vector: RECIP_OP,
}

hl_unary! {
    /// Elementwise hyperbolic tangent. f16/bf16 results are computed in f32 and rounded to the element type.
    TANH = "hl.tanh", "elementwise hyperbolic tangent", Float, flops 6,
    eval: unary(UnaryOp::Tanh), example: "tensor<4x?xf16>", vector: TANH_OP,
}

hl_unary! {
    /// Elementwise logistic sigmoid `1/(1+e^-x)`. f16/bf16 results are computed in f32 and rounded to the element type.
    SIGMOID = "hl.sigmoid", "elementwise logistic sigmoid", Float, flops 6,
    eval: unary(UnaryOp::Sigmoid), example: "tensor<4x?xf16>", vector: SIGMOID_OP,
}

hl_unary! {
    /// Elementwise rectified linear unit `max(x, 0)`. f16/bf16 results are computed in f32 and rounded to the element type.
    RELU = "hl.relu", "elementwise rectified linear unit", Numeric, flops 1,
    eval: unary(UnaryOp::Relu), example: "tensor<4x?xf16>", vector: RELU_OP,
}

hl_unary! {
    /// Elementwise SiLU `x * sigmoid(x)`. f16/bf16 results are computed in f32 and rounded to the element type.
    SILU = "hl.silu", "elementwise SiLU", Float, flops 7,
    eval: unary(UnaryOp::Silu), example: "tensor<4x?xf16>",
}

hl_unary! {
    /// Elementwise error function. f16/bf16 results are computed in f32 and rounded to the element type.
    ERF = "hl.erf", "elementwise error function", Float, flops 8,
    eval: unary(UnaryOp::Erf), example: "tensor<4x?xf16>", vector: ERF_OP,
}

hl_unary! {
    /// Elementwise rounding toward -inf. f16/bf16 results are computed in f32 and rounded to the element type.
    FLOOR = "hl.floor", "elementwise rounding toward -inf", Float, flops 1,
    eval: unary(UnaryOp::Floor), example: "tensor<4x?xf16>", vector: FLOOR_OP,
}

hl_unary! {
    /// Elementwise rounding toward +inf. f16/bf16 results are computed in f32 and rounded to the element type.
    CEIL = "hl.ceil", "elementwise rounding toward +inf", Float, flops 1,
    eval: unary(UnaryOp::Ceil), example: "tensor<4x?xf16>", vector: CEIL_OP,
}

hl_unary! {
    /// Elementwise rounding to nearest, ties to even (numpy's `round`). f16/bf16 results are computed in f32 and rounded to the element type.
    ROUND = "hl.round", "elementwise rounding to nearest, ties to even", Float, flops 1,
    eval: unary(UnaryOp::Round), example: "tensor<4x?xf16>", vector: ROUND_OP,
}

hl_unary! {
    /// Elementwise sign: -1, 0 or 1 (NaN stays NaN). f16/bf16 results are computed in f32 and rounded to the element type.
    SIGN = "hl.sign", "elementwise sign: -1, 0 or 1", Numeric, flops 1,
    eval: unary(UnaryOp::Sign), example: "tensor<4x?xf16>", vector: SIGN_OP,
}

hl_unary! {
    /// Elementwise logical not of an `i1` tensor.
    NOT = "hl.not", "elementwise logical not on `i1`", Bool, flops 1,
    eval: logical_not, example: "tensor<8xi1>", vector: NOT_OP,
}

hl_unary! {
    /// Elementwise sine, of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    SIN = "hl.sin", "elementwise sine", Float, flops 8,
    eval: unary(UnaryOp::Sin), example: "tensor<4x?xf16>", vector: SIN_OP,
}

hl_unary! {
    /// Elementwise cosine, of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    COS = "hl.cos", "elementwise cosine", Float, flops 8,
    eval: unary(UnaryOp::Cos), example: "tensor<4x?xf16>", vector: COS_OP,
}

hl_unary! {
    /// Elementwise tangent, of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    TAN = "hl.tan", "elementwise tangent", Float, flops 8,
    eval: unary(UnaryOp::Tan), example: "tensor<4x?xf16>", vector: TAN_OP,
}

hl_unary! {
    /// Elementwise arcsine (NaN outside [-1, 1]), of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    ASIN = "hl.asin", "elementwise arcsine", Float, flops 8,
    eval: unary(UnaryOp::Asin), example: "tensor<4x?xf16>", vector: ASIN_OP,
}

hl_unary! {
    /// Elementwise arccosine (NaN outside [-1, 1]), of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    ACOS = "hl.acos", "elementwise arccosine", Float, flops 8,
    eval: unary(UnaryOp::Acos), example: "tensor<4x?xf16>", vector: ACOS_OP,
}

hl_unary! {
    /// Elementwise arctangent, of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    ATAN = "hl.atan", "elementwise arctangent", Float, flops 8,
    eval: unary(UnaryOp::Atan), example: "tensor<4x?xf16>", vector: ATAN_OP,
}

hl_unary! {
    /// Elementwise hyperbolic sine, of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    SINH = "hl.sinh", "elementwise hyperbolic sine", Float, flops 8,
    eval: unary(UnaryOp::Sinh), example: "tensor<4x?xf16>", vector: SINH_OP,
}

hl_unary! {
    /// Elementwise hyperbolic cosine, of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    COSH = "hl.cosh", "elementwise hyperbolic cosine", Float, flops 8,
    eval: unary(UnaryOp::Cosh), example: "tensor<4x?xf16>", vector: COSH_OP,
}

hl_unary! {
    /// Elementwise inverse hyperbolic sine, of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    ASINH = "hl.asinh", "elementwise inverse hyperbolic sine", Float, flops 8,
    eval: unary(UnaryOp::Asinh), example: "tensor<4x?xf16>", vector: ASINH_OP,
}

hl_unary! {
    /// Elementwise inverse hyperbolic cosine (NaN below 1), of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    ACOSH = "hl.acosh", "elementwise inverse hyperbolic cosine", Float, flops 8,
    eval: unary(UnaryOp::Acosh), example: "tensor<4x?xf16>", vector: ACOSH_OP,
}

hl_unary! {
    /// Elementwise inverse hyperbolic tangent (NaN outside [-1, 1]), of the operand in radians for the trigonometric functions. f16/bf16 results are computed in f32 and rounded to the element type.
    ATANH = "hl.atanh", "elementwise inverse hyperbolic tangent", Float, flops 8,
    eval: unary(UnaryOp::Atanh), example: "tensor<4x?xf16>", vector: ATANH_OP,
}

hl_unary! {
    /// Elementwise bitwise complement of an integer tensor.
    BITWISE_NOT = "hl.bitwise_not", "elementwise bitwise complement", Integer, flops 1,
    eval: unary(UnaryOp::BitNot), example: "tensor<8xi32>", vector: NOT_OP,
}

hl_binary! {
    /// Elementwise remainder of truncated division, with the sign of the dividend (C's `fmod` for floats; integers: `lhs % rhs`, 0 for a zero divisor), with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type.
    REM = "hl.rem", "elementwise remainder of truncated division", Numeric, flops 2, [],
    eval: binary(BinaryOp::Rem), example: "tensor<4x?xf16>", vector: REM_OP,
}

hl_binary! {
    /// Elementwise bitwise and of two integer tensors, with numpy broadcasting.
    BITWISE_AND = "hl.bitwise_and", "elementwise bitwise and", Integer, flops 1, [Commutative],
    eval: binary(BinaryOp::BitAnd), example: "tensor<8xi32>", vector: AND_OP,
}

hl_binary! {
    /// Elementwise bitwise or of two integer tensors, with numpy broadcasting.
    BITWISE_OR = "hl.bitwise_or", "elementwise bitwise or", Integer, flops 1, [Commutative],
    eval: binary(BinaryOp::BitOr), example: "tensor<8xi32>", vector: OR_OP,
}

hl_binary! {
    /// Elementwise bitwise exclusive or of two integer tensors, with numpy broadcasting.
    BITWISE_XOR = "hl.bitwise_xor", "elementwise bitwise exclusive or", Integer, flops 1, [Commutative],
    eval: binary(BinaryOp::BitXor), example: "tensor<8xi32>", vector: XOR_OP,
}

hl_binary! {
    /// Elementwise `lhs << rhs` of two integer tensors, with numpy broadcasting; a shift by a negative amount or by the bit width or more gives 0.
    SHIFT_LEFT = "hl.shift_left", "elementwise left shift", Integer, flops 1, [],
    eval: binary(BinaryOp::ShiftLeft), example: "tensor<8xi32>", vector: SHL_OP,
}

hl_binary! {
    /// Elementwise sign-propagating `lhs >> rhs` of two integer tensors, with numpy broadcasting; a shift by the bit width or more gives 0 or -1, by a negative amount 0.
    SHIFT_RIGHT = "hl.shift_right", "elementwise arithmetic right shift", Integer, flops 1, [],
    eval: binary(BinaryOp::ShiftRight), example: "tensor<8xi32>", vector: SHR_OP,
}

hl_op! {
    /// `hl.gelu`: elementwise GELU.
    ///
    /// Gaussian error linear unit. `approximate = #hl.approx<none>` (default): `0.5*x*(1+erf(x/sqrt(2)))`; `#hl.approx<tanh>`: `0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))`. Computed in f32 for f16/bf16, rounded once.
    ///
    /// ```mlir
    /// %1 = hl.gelu %0 {approximate = #hl.approx<tanh>} : tensor<4x?xf16>
    /// %1 = "hl.gelu"(%0) <{approximate = #hl.approx<tanh>}> : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    GELU = "hl.gelu", "elementwise GELU",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(12), eval: eval::gelu,
    attrs: [opt("approximate", AttrConstraint::DialectAttr(&GELU_APPROXIMATION))],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.cast`: explicit element type conversion.
    ///
    /// Converts each element to the result's element type (the only way types change in `hl`: no implicit promotion). Floats round to nearest even; float to integer truncates toward zero and saturates, NaN gives 0; integers wrap when narrowed; to `i1` means `!= 0`.
    ///
    /// ```mlir
    /// %1 = hl.cast %0 : tensor<4x?xf16> -> tensor<4x?xf32>
    /// %1 = "hl.cast"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf32>
    /// ```
    CAST = "hl.cast", "explicit element type conversion",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Any,
    infer: infer::cast, flops: Flops::PerElement(1), eval: eval::cast,
    attrs: [],
    traits: [Elementwise],
}

hl_op! {
    /// `hl.cmp`: elementwise comparison.
    ///
    /// Compares two tensors of one element type with numpy broadcasting; `predicate` is a `#hl.cmp<eq|ne|lt|le|gt|ge>`; the result is `i1`. Comparisons with NaN are false except `ne`.
    ///
    /// ```mlir
    /// %2 = hl.cmp %0, %1 {predicate = #hl.cmp<lt>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
    /// %2 = "hl.cmp"(%0, %1) <{predicate = #hl.cmp<lt>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    /// ```
    CMP = "hl.cmp", "elementwise comparison",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Any,
    infer: infer::compare, flops: Flops::PerElement(1), eval: eval::compare,
    attrs: [req("predicate", AttrConstraint::DialectAttr(&CMP_PREDICATE))],
    traits: [Elementwise],
}

hl_op! {
    /// `hl.select`: elementwise choice.
    ///
    /// `select(cond, a, b)` takes `a` where `cond` (an `i1` tensor) is true and `b` elsewhere, with numpy broadcasting of all three.
    ///
    /// ```mlir
    /// %3 = hl.select %0, %1, %2 : tensor<4xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    /// %3 = "hl.select"(%0, %1, %2) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    /// ```
    SELECT = "hl.select", "elementwise choice",
    operands: Arity::Exactly(3), category: Elementwise, dtypes: Any,
    infer: infer::select, flops: Flops::PerElement(1), eval: eval::select,
    attrs: [],
    traits: [Elementwise],
}

hl_op! {
    /// `hl.clamp`: elementwise clamp.
    ///
    /// `min(max(x, min), max)` with float bounds `min` and `max` (each optional); NaN propagates.
    ///
    /// ```mlir
    /// %1 = hl.clamp %0 {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<4x?xf16>
    /// %1 = "hl.clamp"(%0) <{max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}> : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    CLAMP = "hl.clamp", "elementwise clamp",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Numeric,
    infer: infer::clamp, flops: Flops::PerElement(2), eval: eval::clamp,
    attrs: [opt("min", AttrConstraint::Float), opt("max", AttrConstraint::Float)],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.broadcast_to`: explicit broadcast.
    ///
    /// Broadcasts the operand to the result shape with numpy rules (the operand's rank may be lower).
    ///
    /// ```mlir
    /// %1 = hl.broadcast_to %0 : tensor<1x128xf32> -> tensor<8x128xf32>
    /// %1 = "hl.broadcast_to"(%0) : (tensor<1x128xf32>) -> tensor<8x128xf32>
    /// ```
    BROADCAST_TO = "hl.broadcast_to", "explicit broadcast",
    operands: Arity::Exactly(1), category: Broadcast, dtypes: Any,
    infer: infer::broadcast_to, flops: Flops::None, eval: eval::broadcast_to,
    attrs: [],
    traits: [],
}

hl_op! {
    /// `hl.constant`: constant tensor.
    ///
    /// A tensor whose elements are given by the dense `value` attribute (a splat or a full list); its type is the result type.
    ///
    /// ```mlir
    /// %0 = hl.constant dense<1.000000e+00> : tensor<4xf32>
    /// %0 = "hl.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>
    /// ```
    CONSTANT = "hl.constant", "constant tensor",
    operands: Arity::Exactly(0), category: Opaque, dtypes: Any,
    infer: infer::constant, flops: Flops::None, eval: eval::constant,
    attrs: [req("value", AttrConstraint::Any)],
    traits: [ConstantLike],
}
