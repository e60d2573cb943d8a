//! The two arithmetic domains kernels compute in, and the conversions into and out of them.
//!
//! Every float tensor (`f16`, `bf16`, `f32`) is widened exactly to `f32` lanes; every integer
//! tensor to `i64` lanes; `i1` stays boolean. A kernel computes in the domain and packs the
//! result back into the storage type with [`Lanes::pack`], which applies the conversion rules
//! of [`cast`](super::cast) (`kiln_numerics::convert`'s, which the VM follows too):
//!
//! * `f32` to `f16`/`bf16`: round to nearest, ties to even (so an `f16` op is "compute in `f32`,
//!   round to `f16`", as the device does).
//! * `f32` to an integer: truncate toward zero, saturate at the type's bounds, NaN becomes 0.
//! * `i64` to a narrower integer: keep the low bits (two's-complement wrap). Because wrapping
//!   is a ring homomorphism, `i8`/`i32` add, sub, mul, neg and abs computed in `i64` and
//!   wrapped equal the native wrapping operations.
//! * `i64` to a float: round the exact integer to nearest, ties to even, once.
//! * to `i1`: `value != 0` (NaN is `true`, as in numpy); from `i1`: 0 or 1.

use half::{bf16, f16};
use kiln_numerics::convert::{int_to_bf16, int_to_f16};
use kiln_numerics::int::{self, Integer};

use super::tensor::{Tensor, TensorData};
use super::DType;

/// Elements widened to their arithmetic domain.
#[derive(Debug, Clone)]
pub(crate) enum Lanes {
    /// Elements of a float tensor, exactly.
    Float(Vec<f32>),
    /// Elements of an integer tensor, sign-extended.
    Int(Vec<i64>),
    /// Elements of an `i1` tensor.
    Bool(Vec<bool>),
}

impl Lanes {
    /// The elements of `data`, widened.
    pub(crate) fn of(data: &TensorData) -> Lanes {
        match data {
            TensorData::F16(v) => Lanes::Float(v.iter().map(|x| x.to_f32()).collect()),
            TensorData::BF16(v) => Lanes::Float(v.iter().map(|x| x.to_f32()).collect()),
            TensorData::F32(v) => Lanes::Float(v.clone()),
            TensorData::I1(v) => Lanes::Bool(v.clone()),
            TensorData::I8(v) => Lanes::Int(v.iter().map(|&x| i64::from(x)).collect()),
            TensorData::I32(v) => Lanes::Int(v.iter().map(|&x| i64::from(x)).collect()),
            TensorData::I64(v) => Lanes::Int(v.clone()),
        }
    }

    /// The lanes converted to `dtype` by the rules in the module documentation.
    pub(crate) fn pack(self, dtype: DType) -> TensorData {
        match self {
            Lanes::Float(v) => match dtype {
                DType::F16 => TensorData::F16(v.into_iter().map(f16::from_f32).collect()),
                DType::BF16 => TensorData::BF16(v.into_iter().map(bf16::from_f32).collect()),
                DType::F32 => TensorData::F32(v),
                DType::I1 => TensorData::I1(v.into_iter().map(|x| x != 0.0).collect()),
                DType::I8 => TensorData::I8(v.into_iter().map(i8::from_f32).collect()),
                DType::I32 => TensorData::I32(v.into_iter().map(i32::from_f32).collect()),
                DType::I64 => TensorData::I64(v.into_iter().map(i64::from_f32).collect()),
            },
            Lanes::Int(v) => match dtype {
                DType::F16 => TensorData::F16(v.into_iter().map(int_to_f16).collect()),
                DType::BF16 => TensorData::BF16(v.into_iter().map(int_to_bf16).collect()),
                DType::F32 => TensorData::F32(v.into_iter().map(|x| x as f32).collect()),
                DType::I1 => TensorData::I1(v.into_iter().map(|x| x != 0).collect()),
                DType::I8 => TensorData::I8(v.into_iter().map(|x| x as i8).collect()),
                DType::I32 => TensorData::I32(v.into_iter().map(|x| x as i32).collect()),
                DType::I64 => TensorData::I64(v),
            },
            Lanes::Bool(v) => match dtype {
                DType::I1 => TensorData::I1(v),
                _ => Lanes::Int(v.into_iter().map(i64::from).collect()).pack(dtype),
            },
        }
    }
}

/// An accumulator type: `f32` for float tensors, wrapping `i64` for integer tensors.
///
/// Reductions, matmul and conv2d accumulate in it and pack the result once at the end, so
/// `f16`/`bf16` round once, after the last addition.
pub(crate) trait Accum: Copy + PartialOrd {
    /// The additive identity.
    const ZERO: Self;
    /// The multiplicative identity.
    const ONE: Self;
    /// `a + b` (rounded to `f32`, or wrapping).
    fn add(self, other: Self) -> Self;
    /// `a * b` (rounded to `f32`, or wrapping).
    fn mul(self, other: Self) -> Self;
    /// The values packed into `dtype` as [`Lanes::pack`] does.
    fn pack(values: Vec<Self>, dtype: DType) -> TensorData;
    /// The elements of `t` in this domain (exact for tensors of the domain's own types).
    fn widen(t: &Tensor) -> Vec<Self>;
}

impl Accum for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    fn add(self, other: f32) -> f32 {
        self + other
    }
    fn mul(self, other: f32) -> f32 {
        self * other
    }
    fn pack(values: Vec<f32>, dtype: DType) -> TensorData {
        Lanes::Float(values).pack(dtype)
    }
    fn widen(t: &Tensor) -> Vec<f32> {
        match t.lanes() {
            Lanes::Float(v) => v,
            _ => t.to_f64s().into_iter().map(|x| x as f32).collect(),
        }
    }
}

impl Accum for i64 {
    const ZERO: i64 = 0;
    const ONE: i64 = 1;
    fn add(self, other: i64) -> i64 {
        int::add(self, other)
    }
    fn mul(self, other: i64) -> i64 {
        int::mul(self, other)
    }
    fn pack(values: Vec<i64>, dtype: DType) -> TensorData {
        Lanes::Int(values).pack(dtype)
    }
    fn widen(t: &Tensor) -> Vec<i64> {
        match t.lanes() {
            Lanes::Int(v) => v,
            _ => t.to_f64s().into_iter().map(|x| x as i64).collect(),
        }
    }
}
