//! The ops as methods of [`Tensor`]: each records one `hl` op in the tensor's session (see
//! [`Session::record`](crate::Session::record)); scalars may stand for tensors.

use kiln_bytecode::isa::DType;
use kiln_compiler::OpDef;
use kiln_dialects::hl::attrs::{CmpPredicate, GeluApproximation};
use kiln_dialects::hl::{self as hl};
use smallvec::SmallVec;

use crate::error::Result;
use crate::node::{AttrValue, TensorType};
use crate::tensor::{Arg, Tensor};

fn ints(v: &[i64]) -> AttrValue {
    AttrValue::Ints(SmallVec::from_slice(v))
}

macro_rules! binary {
    ($($(#[doc = $doc:literal])* $name:ident => $def:ident;)*) => {
        impl Tensor {
            $(
                $(#[doc = $doc])*
                pub fn $name<'a>(&self, other: impl Into<Arg<'a>>) -> Result<Tensor> {
                    self.op(&hl::$def, &[Arg::Tensor(self), other.into()], &[], None)
                }
            )*
        }
    };
}

macro_rules! unary {
    ($($(#[doc = $doc:literal])* $name:ident => $def:ident;)*) => {
        impl Tensor {
            $(
                $(#[doc = $doc])*
                pub fn $name(&self) -> Result<Tensor> {
                    self.op(&hl::$def, &[Arg::Tensor(self)], &[], None)
                }
            )*
        }
    };
}

macro_rules! reduce {
    ($($(#[doc = $doc:literal])* $name:ident => $def:ident;)*) => {
        impl Tensor {
            $(
                $(#[doc = $doc])*
                pub fn $name(&self, axes: &[i64], keep_dims: bool) -> Result<Tensor> {
                    self.op(
                        &hl::$def,
                        &[Arg::Tensor(self)],
                        &[("axes", ints(axes)), ("keep_dims", AttrValue::Bool(keep_dims))],
                        None,
                    )
                }
            )*
        }
    };
}

binary! {
    /// `self + other` (`hl.add`).
    add => ADD;
    /// `self - other` (`hl.sub`).
    sub => SUB;
    /// `self * other` (`hl.mul`).
    mul => MUL;
    /// `self / other` (`hl.div`).
    div => DIV;
    /// `self ** other` (`hl.pow`).
    pow => POW;
    /// Elementwise maximum (`hl.maximum`).
    maximum => MAXIMUM;
    /// Elementwise minimum (`hl.minimum`).
    minimum => MINIMUM;
    /// Logical and of `i1` tensors (`hl.and`).
    logical_and => AND;
    /// Logical or of `i1` tensors (`hl.or`).
    logical_or => OR;
}

unary! {
    /// `-self` (`hl.neg`).
    neg => NEG;
    /// `|self|` (`hl.abs`).
    abs => ABS;
    /// `e^self` (`hl.exp`).
    exp => EXP;
    /// Natural logarithm (`hl.log`).
    log => LOG;
    /// Square root (`hl.sqrt`).
    sqrt => SQRT;
    /// `1/sqrt(self)` (`hl.rsqrt`).
    rsqrt => RSQRT;
    /// `1/self` (`hl.reciprocal`).
    reciprocal => RECIPROCAL;
    /// Hyperbolic tangent (`hl.tanh`).
    tanh => TANH;
    /// Logistic sigmoid (`hl.sigmoid`).
    sigmoid => SIGMOID;
    /// `max(self, 0)` (`hl.relu`).
    relu => RELU;
    /// `self * sigmoid(self)` (`hl.silu`).
    silu => SILU;
    /// Error function (`hl.erf`).
    erf => ERF;
    /// Rounding toward -inf (`hl.floor`).
    floor => FLOOR;
    /// Rounding toward +inf (`hl.ceil`).
    ceil => CEIL;
    /// Rounding to nearest even (`hl.round`).
    round => ROUND;
    /// Sign, -1, 0 or 1 (`hl.sign`).
    sign => SIGN;
    /// Logical not of an `i1` tensor (`hl.not`).
    logical_not => NOT;
}

reduce! {
    /// Sum over `axes` (`hl.reduce_sum`).
    sum => REDUCE_SUM;
    /// Maximum over `axes` (`hl.reduce_max`).
    max => REDUCE_MAX;
    /// Minimum over `axes` (`hl.reduce_min`).
    min => REDUCE_MIN;
    /// Product over `axes` (`hl.reduce_prod`).
    prod => REDUCE_PROD;
    /// Mean over `axes` (`hl.reduce_mean`).
    mean => REDUCE_MEAN;
}

impl Tensor {
    /// Records `def` in this tensor's session.
    #[inline(always)]
    pub fn op(
        &self,
        def: &'static OpDef,
        args: &[Arg<'_>],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<TensorType>,
    ) -> Result<Tensor> {
        let inner = self.session.upgrade().ok_or_else(crate::tensor::dropped)?;
        crate::session::record_in(&inner, def, args, attrs, declared)
    }

    /// Elementwise comparison `self <predicate> other` (`hl.cmp`), an `i1` tensor.
    pub fn cmp<'a>(&self, predicate: CmpPredicate, other: impl Into<Arg<'a>>) -> Result<Tensor> {
        self.op(
            &hl::CMP,
            &[Arg::Tensor(self), other.into()],
            &[("predicate", AttrValue::Cmp(predicate))],
            None,
        )
    }

    /// `where(self, a, b)` for an `i1` condition `self` (`hl.select`).
    pub fn select<'a, 'b>(&self, a: impl Into<Arg<'a>>, b: impl Into<Arg<'b>>) -> Result<Tensor> {
        self.op(&hl::SELECT, &[Arg::Tensor(self), a.into(), b.into()], &[], None)
    }

    /// Conversion to element type `dtype` (`hl.cast`).
    pub fn cast(&self, dtype: DType) -> Result<Tensor> {
        let to = TensorType { dtype, shape: self.ty.shape.clone() };
        self.op(&hl::CAST, &[Arg::Tensor(self)], &[], Some(to))
    }

    /// `min(max(self, min), max)` (`hl.clamp`; either bound optional).
    pub fn clamp(&self, min: Option<f32>, max: Option<f32>) -> Result<Tensor> {
        let mut attrs = Vec::new();
        if let Some(v) = min {
            attrs.push(("min", AttrValue::F32(v.to_bits())));
        }
        if let Some(v) = max {
            attrs.push(("max", AttrValue::F32(v.to_bits())));
        }
        self.op(&hl::CLAMP, &[Arg::Tensor(self)], &attrs, None)
    }

    /// GELU (`hl.gelu`), exact or with the tanh approximation.
    pub fn gelu(&self, approximate: GeluApproximation) -> Result<Tensor> {
        self.op(&hl::GELU, &[Arg::Tensor(self)], &[("approximate", AttrValue::Gelu(approximate))], None)
    }

    /// Broadcast to `shape` (`hl.broadcast_to`).
    pub fn broadcast_to(&self, shape: &[i64]) -> Result<Tensor> {
        self.op(&hl::BROADCAST_TO, &[Arg::Tensor(self)], &[], Some(TensorType::new(self.ty.dtype, shape)))
    }

    /// The same elements in `shape` (`hl.reshape`).
    pub fn reshape(&self, shape: &[i64]) -> Result<Tensor> {
        self.op(&hl::RESHAPE, &[Arg::Tensor(self)], &[], Some(TensorType::new(self.ty.dtype, shape)))
    }

    /// Dims permuted by `perm` (`hl.transpose`).
    pub fn transpose(&self, perm: &[i64]) -> Result<Tensor> {
        self.op(&hl::TRANSPOSE, &[Arg::Tensor(self)], &[("perm", ints(perm))], None)
    }

    /// The strided part `starts..limits` (`hl.slice`).
    pub fn slice(&self, starts: &[i64], limits: &[i64], strides: &[i64]) -> Result<Tensor> {
        let attrs = [("starts", ints(starts)), ("limits", ints(limits)), ("strides", ints(strides))];
        self.op(&hl::SLICE, &[Arg::Tensor(self)], &attrs, None)
    }

    /// A unit dim inserted at `axis` (`hl.expand_dims`).
    pub fn expand_dims(&self, axis: i64) -> Result<Tensor> {
        self.op(&hl::EXPAND_DIMS, &[Arg::Tensor(self)], &[("axis", AttrValue::Int(axis))], None)
    }

    /// Unit dims `axes` removed (`hl.squeeze`).
    pub fn squeeze(&self, axes: &[i64]) -> Result<Tensor> {
        self.op(&hl::SQUEEZE, &[Arg::Tensor(self)], &[("axes", ints(axes))], None)
    }

    /// `self` and `others` joined along `axis` (`hl.concat`).
    pub fn concat(&self, others: &[&Tensor], axis: i64) -> Result<Tensor> {
        let args: Vec<Arg<'_>> =
            std::iter::once(self).chain(others.iter().copied()).map(Arg::Tensor).collect();
        self.op(&hl::CONCAT, &args, &[("axis", AttrValue::Int(axis))], None)
    }

    /// Matrix product (`hl.matmul`), optionally of the transposed operands.
    pub fn matmul(&self, other: &Tensor, transpose_a: bool, transpose_b: bool) -> Result<Tensor> {
        let attrs =
            [("transpose_a", AttrValue::Bool(transpose_a)), ("transpose_b", AttrValue::Bool(transpose_b))];
        self.op(&hl::MATMUL, &[Arg::Tensor(self), Arg::Tensor(other)], &attrs, None)
    }

    /// Batched matrix product (`hl.batch_matmul`).
    pub fn batch_matmul(&self, other: &Tensor, transpose_a: bool, transpose_b: bool) -> Result<Tensor> {
        let attrs =
            [("transpose_a", AttrValue::Bool(transpose_a)), ("transpose_b", AttrValue::Bool(transpose_b))];
        self.op(&hl::BATCH_MATMUL, &[Arg::Tensor(self), Arg::Tensor(other)], &attrs, None)
    }

    /// Softmax along `axis` (`hl.softmax`, decomposed when compiled).
    pub fn softmax(&self, axis: i64) -> Result<Tensor> {
        self.op(&hl::SOFTMAX, &[Arg::Tensor(self)], &[("axis", AttrValue::Int(axis))], None)
    }

    /// Layer normalization over the last dim with `gamma` and `beta` (`hl.layer_norm`).
    pub fn layer_norm(&self, gamma: &Tensor, beta: &Tensor, epsilon: f32) -> Result<Tensor> {
        self.op(
            &hl::LAYER_NORM,
            &[Arg::Tensor(self), Arg::Tensor(gamma), Arg::Tensor(beta)],
            &[("epsilon", AttrValue::F32(epsilon.to_bits()))],
            None,
        )
    }
}
