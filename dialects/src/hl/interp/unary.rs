//! Unary elementwise ops.
//!
//! Float rule: each op's value is computed in `f64` from the exactly widened operand (using the
//! portable `libm` functions through `kiln_numerics::float`, which the VM calls too, so results
//! are the same bits on every host and on the VM), rounded to `f32`,
//! then rounded to `f16`/`bf16` when that is the operand type: one "compute in `f32`, round to
//! the dtype" step per op, as the device does. For `neg`, `abs`, `floor`, `ceil`, `round`,
//! `sign`, `relu`, `sqrt` and `reciprocal` this is the correctly rounded result; for the
//! transcendental ops (trigonometric and hyperbolic functions included) it is within one ulp
//! of it.
//!
//! Integer rule: `neg` and `abs` wrap (`abs(i8::MIN) == i8::MIN`, as numpy), `relu` is
//! `max(x, 0)`, `sign` is -1/0/1, `floor`/`ceil`/`round` are the identity; every other unary
//! op requires a float operand. No unary op accepts `i1`.
//!
//! [`UnaryOp`] is not the bytecode's `kiln_bytecode::isa::UnaryOp`, though both name their
//! shared ops' element functions from `kiln_numerics`: this one is the set of `hl` ops (with
//! `gelu`, which carries `hl.gelu`'s approximation attribute, and `silu`, both lowered to
//! several vector instructions; `bitwise_not` takes integers only) with their `hl` names, the
//! ISA's is the vector unit's instruction set, whose declaration order is the bytecode encoding
//! (and whose `Not` also negates `i1` masks).

use super::error::{bail, Result};
use super::lanes::Lanes;
use super::tensor::Tensor;
use kiln_numerics::order::{relu, sign};
use kiln_numerics::{float as kf, int};

/// Which formula `gelu` uses: `hl.gelu`'s approximation attribute.
pub use crate::hl::attrs::GeluApproximation as GeluApprox;

/// A unary elementwise op; see the module documentation for the rounding rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`.
    Neg,
    /// `|x|`.
    Abs,
    /// `e^x`.
    Exp,
    /// Natural logarithm (`log(0) = -inf`, `log(x < 0) = NaN`).
    Log,
    /// Square root (`sqrt(x < 0) = NaN`).
    Sqrt,
    /// `1 / sqrt(x)`.
    Rsqrt,
    /// `1 / x`.
    Reciprocal,
    /// Hyperbolic tangent.
    Tanh,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// numpy's `maximum(x, 0)`: NaN stays NaN, `-0.0` stays `-0.0`.
    Relu,
    /// Gaussian error linear unit, exact or tanh-approximated.
    Gelu(GeluApprox),
    /// `x * sigmoid(x)`.
    Silu,
    /// The error function.
    Erf,
    /// Round toward negative infinity.
    Floor,
    /// Round toward positive infinity.
    Ceil,
    /// Round to nearest, ties to even (numpy's `round`/`rint`).
    Round,
    /// numpy's `sign`: 1 for `x > 0`, -1 for `x < 0`, `+0.0` for zeros, NaN for NaN.
    Sign,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Arcsine (NaN outside [-1, 1]).
    Asin,
    /// Arccosine (NaN outside [-1, 1]).
    Acos,
    /// Arctangent.
    Atan,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// Inverse hyperbolic sine.
    Asinh,
    /// Inverse hyperbolic cosine (NaN below 1).
    Acosh,
    /// Inverse hyperbolic tangent (NaN outside [-1, 1]).
    Atanh,
    /// Bitwise complement of an integer (integers only).
    BitNot,
}

impl UnaryOp {
    /// The op's name as in `hl` (`rsqrt`, `gelu`, ...).
    pub fn name(self) -> &'static str {
        match self {
            UnaryOp::Neg => "neg",
            UnaryOp::Abs => "abs",
            UnaryOp::Exp => "exp",
            UnaryOp::Log => "log",
            UnaryOp::Sqrt => "sqrt",
            UnaryOp::Rsqrt => "rsqrt",
            UnaryOp::Reciprocal => "reciprocal",
            UnaryOp::Tanh => "tanh",
            UnaryOp::Sigmoid => "sigmoid",
            UnaryOp::Relu => "relu",
            UnaryOp::Gelu(_) => "gelu",
            UnaryOp::Silu => "silu",
            UnaryOp::Erf => "erf",
            UnaryOp::Floor => "floor",
            UnaryOp::Ceil => "ceil",
            UnaryOp::Round => "round",
            UnaryOp::Sign => "sign",
            UnaryOp::Sin => "sin",
            UnaryOp::Cos => "cos",
            UnaryOp::Tan => "tan",
            UnaryOp::Asin => "asin",
            UnaryOp::Acos => "acos",
            UnaryOp::Atan => "atan",
            UnaryOp::Sinh => "sinh",
            UnaryOp::Cosh => "cosh",
            UnaryOp::Asinh => "asinh",
            UnaryOp::Acosh => "acosh",
            UnaryOp::Atanh => "atanh",
            UnaryOp::BitNot => "bitwise_not",
        }
    }

    /// The op applied to a float value: the ops that are exact in `f64` (and `gelu`, `silu`)
    /// computed on the widened value and rounded to `f32`, the others by `kiln_numerics`.
    fn float(self, x: f32) -> f32 {
        let wide = f64::from(x);
        match self {
            UnaryOp::Neg => (-wide) as f32,
            UnaryOp::Abs => wide.abs() as f32,
            UnaryOp::Sqrt => wide.sqrt() as f32,
            UnaryOp::Reciprocal => (1.0 / wide) as f32,
            UnaryOp::Relu => relu(wide) as f32,
            UnaryOp::Gelu(approx) => gelu(wide, approx) as f32,
            UnaryOp::Silu => (wide * kf::sigmoid_f64(wide)) as f32,
            UnaryOp::Floor => wide.floor() as f32,
            UnaryOp::Ceil => wide.ceil() as f32,
            UnaryOp::Round => wide.round_ties_even() as f32,
            UnaryOp::Sign => sign(wide) as f32,
            UnaryOp::BitNot => f32::NAN,
            UnaryOp::Exp => kf::exp(x),
            UnaryOp::Log => kf::log(x),
            UnaryOp::Rsqrt => kf::rsqrt(x),
            UnaryOp::Tanh => kf::tanh(x),
            UnaryOp::Sigmoid => kf::sigmoid(x),
            UnaryOp::Erf => kf::erf(x),
            UnaryOp::Sin => kf::sin(x),
            UnaryOp::Cos => kf::cos(x),
            UnaryOp::Tan => kf::tan(x),
            UnaryOp::Asin => kf::asin(x),
            UnaryOp::Acos => kf::acos(x),
            UnaryOp::Atan => kf::atan(x),
            UnaryOp::Sinh => kf::sinh(x),
            UnaryOp::Cosh => kf::cosh(x),
            UnaryOp::Asinh => kf::asinh(x),
            UnaryOp::Acosh => kf::acosh(x),
            UnaryOp::Atanh => kf::atanh(x),
        }
    }

    /// The op on integer values, or `None` when it requires a float operand.
    fn int(self) -> Option<fn(i64) -> i64> {
        match self {
            UnaryOp::Neg => Some(int::neg),
            UnaryOp::Abs => Some(int::abs),
            UnaryOp::Relu => Some(relu),
            UnaryOp::Sign => Some(sign),
            UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Round => Some(|x| x),
            UnaryOp::BitNot => Some(|x| !x),
            _ => None,
        }
    }
}

/// `gelu(x)` in `f64` with the given formula.
fn gelu(x: f64, approx: GeluApprox) -> f64 {
    match approx {
        GeluApprox::None => 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2)),
        GeluApprox::Tanh => {
            let k = (2.0 / std::f64::consts::PI).sqrt();
            0.5 * x * (1.0 + libm::tanh(k * (x + 0.044715 * x * x * x)))
        }
    }
}

/// `op` applied to every element of `x`; the result has `x`'s type and shape.
pub fn unary(op: UnaryOp, x: &Tensor) -> Result<Tensor> {
    let lanes = match x.lanes() {
        Lanes::Float(_) if op == UnaryOp::BitNot => bail!("`bitwise_not` requires an integer operand"),
        Lanes::Float(v) => Lanes::Float(v.into_iter().map(|e| op.float(e)).collect()),
        Lanes::Int(v) => match op.int() {
            Some(f) => Lanes::Int(v.into_iter().map(f).collect()),
            None => bail!("`{}` requires a float operand, got {}", op.name(), x.dtype()),
        },
        Lanes::Bool(_) => bail!("`{}` does not accept i1 operands", op.name()),
    };
    Ok(Tensor::from_parts(x.shape().to_vec(), lanes.pack(x.dtype())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    fn t(dtype: DType, values: &[f64]) -> Tensor {
        Tensor::from_f64s(dtype, vec![values.len()], values).unwrap()
    }

    #[test]
    fn integer_rules() {
        let x = Tensor::from_i64s(DType::I8, vec![3], &[-128, -3, 5]).unwrap();
        assert_eq!(unary(UnaryOp::Abs, &x).unwrap().to_f64s(), vec![-128., 3., 5.]);
        assert_eq!(unary(UnaryOp::Neg, &x).unwrap().to_f64s(), vec![-128., 3., -5.]);
        assert_eq!(unary(UnaryOp::Sign, &x).unwrap().to_f64s(), vec![-1., -1., 1.]);
        let err = unary(UnaryOp::Exp, &x).unwrap_err();
        assert_eq!(err.message(), "`exp` requires a float operand, got i8");
        let b = Tensor::from_i64s(DType::I1, vec![1], &[1]).unwrap();
        assert!(unary(UnaryOp::Neg, &b).unwrap_err().message().contains("i1"));
    }

    #[test]
    fn float_rules() {
        let x = t(DType::F32, &[-2.5, -0.5, 0.5, 1.5, 2.5]);
        assert_eq!(unary(UnaryOp::Round, &x).unwrap().to_f64s(), vec![-2., -0., 0., 2., 2.]);
        let s = unary(UnaryOp::Sign, &t(DType::F32, &[-0.0, f64::NAN, -3.0])).unwrap().to_f64s();
        assert!(s[0] == 0.0 && s[0].is_sign_positive() && s[1].is_nan() && s[2] == -1.0);
        let e = unary(UnaryOp::Erf, &t(DType::F32, &[0.5])).unwrap().to_f64s();
        assert_eq!(e[0] as f32, 0.520_499_9_f32);
        // f16 rounds after the op: exp(1) = 2.71828... -> 2.71875 in f16.
        assert_eq!(unary(UnaryOp::Exp, &t(DType::F16, &[1.0])).unwrap().to_f64s(), vec![2.71875]);
    }
}
