//! Elementwise `hl` ops: arithmetic, math functions, comparisons, selection, casts,
//! constants and explicit broadcasts.

use kiln_compiler::{Arity, AttrConstraint, OpDef, Trait};

use super::{hl_op, opt, req};
use crate::hl::attrs::{CMP_PREDICATE, GELU_APPROXIMATION};
use crate::hl::infer;
use crate::hl::interfaces::{DTypes, Flops, FusionCategory, HlOp};

hl_op! {
    /// `hl.add`: elementwise addition.
    ///
    /// Elementwise addition of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.add %0, %1 : tensor<4x?xf16>
    /// %2 = "hl.add"(%0, %1) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    ADD = "hl.add", "elementwise addition",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Numeric,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, Commutative],
}

hl_op! {
    /// `hl.sub`: elementwise subtraction.
    ///
    /// Elementwise subtraction of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.sub %0, %1 : tensor<4x?xf16>
    /// %2 = "hl.sub"(%0, %1) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    SUB = "hl.sub", "elementwise subtraction",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Numeric,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise],
}

hl_op! {
    /// `hl.mul`: elementwise multiplication.
    ///
    /// Elementwise multiplication of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.mul %0, %1 : tensor<4x?xf16>
    /// %2 = "hl.mul"(%0, %1) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    MUL = "hl.mul", "elementwise multiplication",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Numeric,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, Commutative],
}

hl_op! {
    /// `hl.div`: elementwise division.
    ///
    /// Elementwise division (integers truncate toward zero; integer division by zero gives 0) of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.div %0, %1 : tensor<4x?xf16>
    /// %2 = "hl.div"(%0, %1) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    DIV = "hl.div", "elementwise division",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Numeric,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise],
}

hl_op! {
    /// `hl.pow`: elementwise power `lhs ** rhs`.
    ///
    /// Elementwise power `lhs ** rhs` of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.pow %0, %1 : tensor<4x?xf16>
    /// %2 = "hl.pow"(%0, %1) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    POW = "hl.pow", "elementwise power `lhs ** rhs`",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Numeric,
    infer: infer::elementwise, flops: Flops::PerElement(10),
    attrs: [],
    traits: [Elementwise],
}

hl_op! {
    /// `hl.maximum`: elementwise maximum.
    ///
    /// Elementwise maximum (NaN propagates) of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.maximum %0, %1 : tensor<4x?xf16>
    /// %2 = "hl.maximum"(%0, %1) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    MAXIMUM = "hl.maximum", "elementwise maximum",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Numeric,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, Commutative],
}

hl_op! {
    /// `hl.minimum`: elementwise minimum.
    ///
    /// Elementwise minimum (NaN propagates) of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.minimum %0, %1 : tensor<4x?xf16>
    /// %2 = "hl.minimum"(%0, %1) : (tensor<4x?xf16>, tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    MINIMUM = "hl.minimum", "elementwise minimum",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Numeric,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, Commutative],
}

hl_op! {
    /// `hl.and`: elementwise logical and on `i1`.
    ///
    /// Elementwise logical and on `i1` of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.and %0, %1 : tensor<8xi1>
    /// %2 = "hl.and"(%0, %1) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    /// ```
    AND = "hl.and", "elementwise logical and on `i1`",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Bool,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, Commutative],
}

hl_op! {
    /// `hl.or`: elementwise logical or on `i1`.
    ///
    /// Elementwise logical or on `i1` of two tensors of one element type, with numpy broadcasting. f16/bf16 results are computed in f32 and rounded to the element type; integers wrap.
    ///
    /// ```mlir
    /// %2 = hl.or %0, %1 : tensor<8xi1>
    /// %2 = "hl.or"(%0, %1) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
    /// ```
    OR = "hl.or", "elementwise logical or on `i1`",
    operands: Arity::Exactly(2), category: Elementwise, dtypes: Bool,
    infer: infer::elementwise, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, Commutative],
}

hl_op! {
    /// `hl.neg`: elementwise negation.
    ///
    /// Elementwise negation. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.neg %0 : tensor<4x?xf16>
    /// %1 = "hl.neg"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    NEG = "hl.neg", "elementwise negation",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Numeric,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.abs`: elementwise absolute value.
    ///
    /// Elementwise absolute value. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.abs %0 : tensor<4x?xf16>
    /// %1 = "hl.abs"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    ABS = "hl.abs", "elementwise absolute value",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Numeric,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.exp`: elementwise `e^x`.
    ///
    /// Elementwise `e^x`. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.exp %0 : tensor<4x?xf16>
    /// %1 = "hl.exp"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    EXP = "hl.exp", "elementwise `e^x`",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(4),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.log`: elementwise natural logarithm.
    ///
    /// Elementwise natural logarithm. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.log %0 : tensor<4x?xf16>
    /// %1 = "hl.log"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    LOG = "hl.log", "elementwise natural logarithm",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(4),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.sqrt`: elementwise square root.
    ///
    /// Elementwise square root. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.sqrt %0 : tensor<4x?xf16>
    /// %1 = "hl.sqrt"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    SQRT = "hl.sqrt", "elementwise square root",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(2),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.rsqrt`: elementwise reciprocal square root.
    ///
    /// Elementwise reciprocal square root `1/sqrt(x)`. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.rsqrt %0 : tensor<4x?xf16>
    /// %1 = "hl.rsqrt"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    RSQRT = "hl.rsqrt", "elementwise reciprocal square root",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(3),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.reciprocal`: elementwise reciprocal.
    ///
    /// Elementwise reciprocal `1/x`. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.reciprocal %0 : tensor<4x?xf16>
    /// %1 = "hl.reciprocal"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    RECIPROCAL = "hl.reciprocal", "elementwise reciprocal",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.tanh`: elementwise hyperbolic tangent.
    ///
    /// Elementwise hyperbolic tangent. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.tanh %0 : tensor<4x?xf16>
    /// %1 = "hl.tanh"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    TANH = "hl.tanh", "elementwise hyperbolic tangent",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(6),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.sigmoid`: elementwise logistic sigmoid.
    ///
    /// Elementwise logistic sigmoid `1/(1+e^-x)`. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.sigmoid %0 : tensor<4x?xf16>
    /// %1 = "hl.sigmoid"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    SIGMOID = "hl.sigmoid", "elementwise logistic sigmoid",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(6),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.relu`: elementwise rectified linear unit.
    ///
    /// Elementwise rectified linear unit `max(x, 0)`. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.relu %0 : tensor<4x?xf16>
    /// %1 = "hl.relu"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    RELU = "hl.relu", "elementwise rectified linear unit",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Numeric,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.silu`: elementwise SiLU.
    ///
    /// Elementwise SiLU `x * sigmoid(x)`. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.silu %0 : tensor<4x?xf16>
    /// %1 = "hl.silu"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    SILU = "hl.silu", "elementwise SiLU",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(7),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.erf`: elementwise error function.
    ///
    /// Elementwise error function. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.erf %0 : tensor<4x?xf16>
    /// %1 = "hl.erf"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    ERF = "hl.erf", "elementwise error function",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(8),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.floor`: elementwise rounding toward -inf.
    ///
    /// Elementwise rounding toward -inf. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.floor %0 : tensor<4x?xf16>
    /// %1 = "hl.floor"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    FLOOR = "hl.floor", "elementwise rounding toward -inf",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.ceil`: elementwise rounding toward +inf.
    ///
    /// Elementwise rounding toward +inf. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.ceil %0 : tensor<4x?xf16>
    /// %1 = "hl.ceil"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    CEIL = "hl.ceil", "elementwise rounding toward +inf",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.round`: elementwise rounding to nearest, ties to even.
    ///
    /// Elementwise rounding to nearest, ties to even (numpy's `round`). f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.round %0 : tensor<4x?xf16>
    /// %1 = "hl.round"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    ROUND = "hl.round", "elementwise rounding to nearest, ties to even",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.sign`: elementwise sign: -1, 0 or 1.
    ///
    /// Elementwise sign: -1, 0 or 1 (NaN stays NaN). f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.sign %0 : tensor<4x?xf16>
    /// %1 = "hl.sign"(%0) : (tensor<4x?xf16>) -> tensor<4x?xf16>
    /// ```
    SIGN = "hl.sign", "elementwise sign: -1, 0 or 1",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Numeric,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
}

hl_op! {
    /// `hl.not`: elementwise logical not on.
    ///
    /// Elementwise logical not on `i1`. f16/bf16 results are computed in f32 and rounded to the element type.
    ///
    /// ```mlir
    /// %1 = hl.not %0 : tensor<8xi1>
    /// %1 = "hl.not"(%0) : (tensor<8xi1>) -> tensor<8xi1>
    /// ```
    NOT = "hl.not", "elementwise logical not on",
    operands: Arity::Exactly(1), category: Elementwise, dtypes: Bool,
    infer: infer::same, flops: Flops::PerElement(1),
    attrs: [],
    traits: [Elementwise, SameOperandsAndResultType],
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
    infer: infer::same, flops: Flops::PerElement(12),
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
    infer: infer::cast, flops: Flops::PerElement(1),
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
    infer: infer::compare, flops: Flops::PerElement(1),
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
    infer: infer::select, flops: Flops::PerElement(1),
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
    infer: infer::clamp, flops: Flops::PerElement(2),
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
    infer: infer::broadcast_to, flops: Flops::None,
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
    infer: infer::constant, flops: Flops::None,
    attrs: [req("value", AttrConstraint::Any)],
    traits: [ConstantLike],
}
