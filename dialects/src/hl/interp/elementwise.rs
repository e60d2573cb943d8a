//! Binary and n-ary elementwise ops with numpy broadcasting: arithmetic, comparisons,
//! `select`, logical ops, `clamp` and `cast`.
//!
//! Operands must have the same element type: there is no implicit promotion anywhere, a
//! mismatch is an error. Shapes broadcast as in numpy (see [`broadcast_shapes`]).
//!
//! Float rule: the exact result is computed in `f64` from the widened operands and rounded to
//! `f32`, then to `f16`/`bf16` for those types; for `add`, `sub`, `mul`, `div`, `maximum` and
//! `minimum` this is bit-identical to IEEE `f32` arithmetic followed by one rounding to the
//! dtype; `pow` uses the portable `libm::pow` and is within one ulp. Division by zero and NaN
//! follow IEEE 754. `maximum`/`minimum` propagate NaN like numpy.
//!
//! Integer rule: `add`, `sub`, `mul` and `pow` wrap (two's complement); `div` truncates toward
//! zero, division by zero gives 0 (numpy's result) and `MIN / -1` wraps to `MIN`; `rem` is the
//! remainder of that division (0 for a zero divisor); the bitwise ops and shifts take integers
//! only, and a shift is computed on the sign-extended value, so it is exact in every width; `pow` with a
//! negative exponent gives `1` for base 1, `±1` for base -1 and 0 otherwise (numpy raises).
//! Arithmetic does not accept `i1`.
//!
//! These element rules are `kiln_numerics`' (`int`, `order::nan_max`, `float::pow`, ...), which
//! the VM follows too.

use super::broadcast::{broadcast_indices, broadcast_shapes};
use super::error::{bail, Result};
use super::lanes::Lanes;
use super::tensor::{Tensor, TensorData};
use super::DType;
use kiln_numerics::int;
use kiln_numerics::order::{nan_max, nan_min};

/// A binary arithmetic op; see the module documentation for the rounding rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// `a / b`.
    Div,
    /// `a ^ b`.
    Pow,
    /// numpy's `maximum` (NaN-propagating).
    Maximum,
    /// numpy's `minimum` (NaN-propagating).
    Minimum,
    /// Remainder of truncated division, with the sign of `a` (C's `fmod`; integers: `a % b`,
    /// and 0 for `b == 0`).
    Rem,
    /// Bitwise and (integers only).
    BitAnd,
    /// Bitwise or (integers only).
    BitOr,
    /// Bitwise exclusive or (integers only).
    BitXor,
    /// `a << b` (integers only; 0 when `b` is negative or at least the bit width).
    ShiftLeft,
    /// `a >> b`, sign-propagating (integers only; `b` beyond the bit width gives 0 or -1).
    ShiftRight,
}

impl BinaryOp {
    /// The op's name as in `hl`.
    pub fn name(self) -> &'static str {
        match self {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "sub",
            BinaryOp::Mul => "mul",
            BinaryOp::Div => "div",
            BinaryOp::Pow => "pow",
            BinaryOp::Maximum => "maximum",
            BinaryOp::Minimum => "minimum",
            BinaryOp::Rem => "rem",
            BinaryOp::BitAnd => "bitwise_and",
            BinaryOp::BitOr => "bitwise_or",
            BinaryOp::BitXor => "bitwise_xor",
            BinaryOp::ShiftLeft => "shift_left",
            BinaryOp::ShiftRight => "shift_right",
        }
    }

    /// Whether the op takes integers only.
    fn bitwise(self) -> bool {
        matches!(
            self,
            BinaryOp::BitAnd
                | BinaryOp::BitOr
                | BinaryOp::BitXor
                | BinaryOp::ShiftLeft
                | BinaryOp::ShiftRight
        )
    }

    /// The op on float values: the exact ops in `f64`, rounded to `f32`.
    fn float(self, a: f32, b: f32) -> f32 {
        let (x, y) = (f64::from(a), f64::from(b));
        match self {
            BinaryOp::Add => (x + y) as f32,
            BinaryOp::Sub => (x - y) as f32,
            BinaryOp::Mul => (x * y) as f32,
            BinaryOp::Div => (x / y) as f32,
            BinaryOp::Pow => kiln_numerics::float::pow(a, b),
            BinaryOp::Maximum => nan_max(x, y) as f32,
            BinaryOp::Minimum => nan_min(x, y) as f32,
            BinaryOp::Rem => kiln_numerics::float::fmod(a, b),
            _ => f32::NAN,
        }
    }

    /// The op on integer values (wrapping; narrower types wrap again when packed).
    fn int(self, a: i64, b: i64) -> i64 {
        match self {
            BinaryOp::Add => int::add(a, b),
            BinaryOp::Sub => int::sub(a, b),
            BinaryOp::Mul => int::mul(a, b),
            BinaryOp::Div => int::div(a, b),
            BinaryOp::Pow => int::pow(a, b),
            BinaryOp::Maximum => a.max(b),
            BinaryOp::Minimum => a.min(b),
            BinaryOp::Rem => int::rem(a, b),
            BinaryOp::BitAnd => a & b,
            BinaryOp::BitOr => a | b,
            BinaryOp::BitXor => a ^ b,
            BinaryOp::ShiftLeft => int::shl(a, b),
            BinaryOp::ShiftRight => int::shr(a, b),
        }
    }
}

/// A comparison, `hl.cmp`'s predicate attribute; the result is `i1`. Floats compare as IEEE 754
/// (NaN is unordered: only `ne` is true), `i1` compares `false < true`.
pub use crate::hl::attrs::CmpPredicate as CmpOp;

impl CmpOp {
    fn eval<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// A binary logical op on `i1` operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogicOp {
    /// `a && b`.
    And,
    /// `a || b`.
    Or,
}

/// Operands checked for a common element type and broadcast against each other: the result
/// shape and, per result element, the flat index read from each operand.
struct Broadcast {
    shape: Vec<usize>,
    sources: Vec<Vec<usize>>,
}

/// Checks that all `operands` have the same element type.
fn check_same_dtype(op: &str, operands: &[&Tensor]) -> Result<()> {
    if let Some(other) = operands.iter().find(|t| t.dtype() != operands[0].dtype()) {
        bail!("`{op}` operand types differ: {} vs {}", operands[0].dtype(), other.dtype());
    }
    Ok(())
}

impl Broadcast {
    fn new(op: &str, operands: &[&Tensor]) -> Result<Broadcast> {
        check_same_dtype(op, operands)?;
        let shapes: Vec<&[usize]> = operands.iter().map(|t| t.shape()).collect();
        let shape = broadcast_shapes(op, &shapes)?;
        let sources = shapes.iter().map(|s| broadcast_indices(s, &shape)).collect();
        Ok(Broadcast { shape, sources })
    }

    /// `f` applied to the broadcast pairs of `x` and `y` (the first two operands' lanes).
    fn zip<T: Copy, R>(&self, x: &[T], y: &[T], f: impl Fn(T, T) -> R) -> Vec<R> {
        self.sources[0].iter().zip(&self.sources[1]).map(|(&i, &j)| f(x[i], y[j])).collect()
    }
}

/// `op(a, b)` elementwise with broadcasting; `a` and `b` must have the same element type.
pub fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let cast = Broadcast::new(op.name(), &[a, b])?;
    let lanes = match (a.lanes(), b.lanes()) {
        (Lanes::Float(_), Lanes::Float(_)) if op.bitwise() => {
            bail!("`{}` requires integer operands", op.name())
        }
        (Lanes::Float(x), Lanes::Float(y)) => Lanes::Float(cast.zip(&x, &y, |u, v| op.float(u, v))),
        (Lanes::Int(x), Lanes::Int(y)) => Lanes::Int(cast.zip(&x, &y, |u, v| op.int(u, v))),
        _ => bail!("`{}` does not accept i1 operands", op.name()),
    };
    Ok(Tensor::from_parts(cast.shape, lanes.pack(a.dtype())))
}

/// `op(a, b)` elementwise with broadcasting, as an `i1` tensor.
pub fn compare(op: CmpOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let cast = Broadcast::new(op.keyword(), &[a, b])?;
    let out = match (a.lanes(), b.lanes()) {
        (Lanes::Float(x), Lanes::Float(y)) => cast.zip(&x, &y, |u, v| op.eval(u, v)),
        (Lanes::Int(x), Lanes::Int(y)) => cast.zip(&x, &y, |u, v| op.eval(u, v)),
        (Lanes::Bool(x), Lanes::Bool(y)) => cast.zip(&x, &y, |u, v| op.eval(u, v)),
        _ => bail!("`{}` operand types differ: {} vs {}", op.keyword(), a.dtype(), b.dtype()),
    };
    Ok(Tensor::from_parts(cast.shape, TensorData::I1(out)))
}

/// Checks that `x` is `i1`.
fn require_bool(op: &str, x: &Tensor) -> Result<()> {
    if x.dtype() != DType::I1 {
        bail!("`{op}` requires i1 operands, got {}", x.dtype());
    }
    Ok(())
}

/// `a && b` or `a || b` elementwise with broadcasting; both operands must be `i1`.
pub fn logical(op: LogicOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let name = match op {
        LogicOp::And => "and",
        LogicOp::Or => "or",
    };
    require_bool(name, a)?;
    let cast = Broadcast::new(name, &[a, b])?;
    let (Lanes::Bool(x), Lanes::Bool(y)) = (a.lanes(), b.lanes()) else {
        bail!("`{name}` requires i1 operands")
    };
    let out = match op {
        LogicOp::And => cast.zip(&x, &y, |u, v| u && v),
        LogicOp::Or => cast.zip(&x, &y, |u, v| u || v),
    };
    Ok(Tensor::from_parts(cast.shape, TensorData::I1(out)))
}

/// `!x` elementwise; `x` must be `i1`.
pub fn logical_not(x: &Tensor) -> Result<Tensor> {
    require_bool("not", x)?;
    let Lanes::Bool(v) = x.lanes() else { bail!("`not` requires i1 operands") };
    Ok(Tensor::from_parts(x.shape().to_vec(), TensorData::I1(v.into_iter().map(|e| !e).collect())))
}

/// `cond ? a : b` elementwise, all three broadcast together; `cond` must be `i1`, `a` and `b`
/// the same type (which is the result's).
pub fn select(cond: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    require_bool("select", cond)?;
    check_same_dtype("select", &[a, b])?;
    let shape = broadcast_shapes("select", &[cond.shape(), a.shape(), b.shape()])?;
    let Lanes::Bool(c) = cond.lanes() else { bail!("`select` requires an i1 condition") };
    let pick = broadcast_indices(cond.shape(), &shape);
    let from_a = broadcast_indices(a.shape(), &shape);
    let from_b = broadcast_indices(b.shape(), &shape);
    let indices: Vec<usize> =
        (0..pick.len()).map(|k| if c[pick[k]] { from_a[k] } else { a.numel() + from_b[k] }).collect();
    let both = TensorData::concat(&[a.data(), b.data()])?;
    Ok(Tensor::from_parts(shape, both.gather(&indices)))
}

/// `minimum(maximum(x, lo), hi)` with broadcasting: NaN in any operand propagates, and when
/// `lo > hi` the result is `hi` (as numpy's `clip`). All three must have the same type.
pub fn clamp(x: &Tensor, lo: &Tensor, hi: &Tensor) -> Result<Tensor> {
    check_same_dtype("clamp", &[x, lo, hi])?;
    broadcast_shapes("clamp", &[x.shape(), lo.shape(), hi.shape()])?;
    binary(BinaryOp::Minimum, &binary(BinaryOp::Maximum, x, lo)?, hi)
}

/// `x` converted to `to`, elementwise (an explicit conversion; nothing converts implicitly).
///
/// * float to float: round to nearest, ties to even;
/// * float to integer: truncate toward zero and saturate at the type's bounds; NaN gives 0
///   (numpy leaves out-of-range conversions undefined; we pick saturation);
/// * integer to integer: keep the low bits (two's-complement wrap, as numpy);
/// * integer to float: the exact integer rounded once to nearest, ties to even;
/// * to `i1`: `x != 0` (NaN gives `true`); from `i1`: 0 or 1.
pub fn cast(x: &Tensor, to: DType) -> Tensor {
    Tensor::from_parts(x.shape().to_vec(), x.lanes().pack(to))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(dtype: DType, shape: &[usize], values: &[i64]) -> Tensor {
        Tensor::from_i64s(dtype, shape.to_vec(), values).unwrap()
    }

    #[test]
    fn integer_division_and_wrapping() {
        let a = ints(DType::I8, &[4], &[-128, 7, -7, 100]);
        let b = ints(DType::I8, &[4], &[-1, 0, 2, 2]);
        assert_eq!(binary(BinaryOp::Div, &a, &b).unwrap().to_f64s(), vec![-128., 0., -3., 50.]);
        assert_eq!(binary(BinaryOp::Mul, &a, &b).unwrap().to_f64s(), vec![-128., 0., -14., -56.]);
        let e = ints(DType::I32, &[4], &[2, 1, -1, 3]);
        let p = ints(DType::I32, &[4], &[-1, -5, -3, 31]);
        assert_eq!(binary(BinaryOp::Pow, &e, &p).unwrap().to_f64s(), vec![0., 1., -1., 1264544299.]);
    }

    #[test]
    fn nan_propagates_through_max_and_clamp() {
        let a = Tensor::from_f64s(DType::F32, vec![3], &[f64::NAN, 1.0, 5.0]).unwrap();
        let b = Tensor::from_f64s(DType::F32, vec![3], &[0.0, f64::NAN, 2.0]).unwrap();
        let m = binary(BinaryOp::Maximum, &a, &b).unwrap().to_f64s();
        assert!(m[0].is_nan() && m[1].is_nan() && m[2] == 5.0);
        let lo = Tensor::scalar(DType::F32, 0.0);
        let hi = Tensor::scalar(DType::F32, 2.0);
        let c = clamp(&a, &lo, &hi).unwrap().to_f64s();
        assert!(c[0].is_nan() && c[1] == 1.0 && c[2] == 2.0);
    }

    #[test]
    fn errors() {
        let f = Tensor::zeros(DType::F32, vec![2, 3]);
        let h = Tensor::zeros(DType::F16, vec![2, 3]);
        let g = Tensor::zeros(DType::F32, vec![4]);
        let b = Tensor::zeros(DType::I1, vec![3]);
        let err = binary(BinaryOp::Add, &f, &h).unwrap_err();
        assert_eq!(err.message(), "`add` operand types differ: f32 vs f16");
        assert!(binary(BinaryOp::Add, &f, &g).unwrap_err().message().contains("broadcast"));
        assert!(binary(BinaryOp::Add, &b, &b).unwrap_err().message().contains("i1"));
        assert!(compare(CmpOp::Lt, &f, &h).is_err());
        assert!(select(&f, &f, &f).unwrap_err().message().contains("i1"));
        assert!(select(&b, &f, &h).is_err());
        assert!(select(&Tensor::zeros(DType::I1, vec![5]), &f, &f).is_err());
        assert!(logical(LogicOp::And, &b, &f).is_err());
        assert!(logical_not(&f).is_err());
        assert!(clamp(&f, &g, &f).is_err());
    }

    #[test]
    fn select_and_casts() {
        let c = Tensor::from_i64s(DType::I1, vec![2, 1], &[1, 0]).unwrap();
        let a = ints(DType::I32, &[3], &[1, 2, 3]);
        let b = ints(DType::I32, &[], &[9]);
        assert_eq!(select(&c, &a, &b).unwrap().to_f64s(), vec![1., 2., 3., 9., 9., 9.]);
        let x = Tensor::from_f64s(DType::F32, vec![4], &[f64::NAN, 300.0, -2.7, 1e10]).unwrap();
        assert_eq!(cast(&x, DType::I8).to_f64s(), vec![0., 127., -2., 127.]);
        assert_eq!(cast(&ints(DType::I32, &[1], &[300]), DType::I8).to_f64s(), vec![44.]);
        assert_eq!(cast(&ints(DType::I32, &[1], &[70000]), DType::F16).to_f64s(), vec![f64::INFINITY]);
    }
}
