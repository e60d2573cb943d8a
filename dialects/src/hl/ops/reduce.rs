//! Reductions of `hl`: over axes (`reduce_*`) and to indices (`argmax`, `argmin`).

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_op, hl_reduce, opt, req};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::{eval, ReduceOp};

hl_reduce! {
    /// Reduces the operand over `axes` (negative axes count from the end) by sum; with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    REDUCE_SUM = "hl.reduce_sum", "sum over axes", Numeric, eval: ReduceOp::Sum,
}

hl_reduce! {
    /// Reduces the operand over `axes` (negative axes count from the end) by maximum (NaN propagates); with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    REDUCE_MAX = "hl.reduce_max", "maximum over axes", Numeric, eval: ReduceOp::Max,
}

hl_reduce! {
    /// Reduces the operand over `axes` (negative axes count from the end) by minimum (NaN propagates); with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    REDUCE_MIN = "hl.reduce_min", "minimum over axes", Numeric, eval: ReduceOp::Min,
}

hl_reduce! {
    /// Reduces the operand over `axes` (negative axes count from the end) by product; with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    REDUCE_PROD = "hl.reduce_prod", "product over axes", Numeric, eval: ReduceOp::Prod,
}

hl_reduce! {
    /// Reduces the operand over `axes` (negative axes count from the end) by mean; with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    REDUCE_MEAN = "hl.reduce_mean", "mean over axes", Float, eval: ReduceOp::Mean,
}

hl_op! {
    /// `hl.argmax`: index of the largest element along an axis.
    ///
    /// Returns, as `i64`, the index of the largest element along `axis` (the first on ties; NaN counts as largest); `keep_dims` keeps the axis as size 1.
    ///
    /// ```mlir
    /// %1 = hl.argmax %0 {axis = 1 : i64} : tensor<8x128xf32> -> tensor<8xi64>
    /// %1 = "hl.argmax"(%0) <{axis = 1 : i64}> : (tensor<8x128xf32>) -> tensor<8xi64>
    /// ```
    ARGMAX = "hl.argmax", "index of the largest element along an axis",
    operands: Arity::Exactly(1), category: Reduce, dtypes: Numeric,
    infer: infer::arg_reduce, flops: Flops::PerElement(1), eval: eval::argmax,
    attrs: [req("axis", AttrConstraint::Integer), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.argmin`: index of the smallest element along an axis.
    ///
    /// Returns, as `i64`, the index of the smallest element along `axis` (the first on ties; NaN counts as smallest); `keep_dims` keeps the axis as size 1.
    ///
    /// ```mlir
    /// %1 = hl.argmin %0 {axis = 1 : i64} : tensor<8x128xf32> -> tensor<8xi64>
    /// %1 = "hl.argmin"(%0) <{axis = 1 : i64}> : (tensor<8x128xf32>) -> tensor<8xi64>
    /// ```
    ARGMIN = "hl.argmin", "index of the smallest element along an axis",
    operands: Arity::Exactly(1), category: Reduce, dtypes: Numeric,
    infer: infer::arg_reduce, flops: Flops::PerElement(1), eval: eval::argmin,
    attrs: [req("axis", AttrConstraint::Integer), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
}
