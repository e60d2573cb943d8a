//! Reductions of `hl`: over axes (`reduce_*`) and to indices (`argmax`, `argmin`).

use kiln_compiler::{Arity, AttrConstraint, OpDef, Trait};

use super::{hl_op, opt, req};
use crate::hl::infer;
use crate::hl::interfaces::{DTypes, Flops, FusionCategory, HlOp};

hl_op! {
    /// `hl.reduce_sum`: sum over axes.
    ///
    /// Reduces the operand over `axes` (negative axes count from the end) by sum; with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    ///
    /// ```mlir
    /// %1 = hl.reduce_sum %0 {axes = [1]} : tensor<8x128xf32> -> tensor<8xf32>
    /// %1 = "hl.reduce_sum"(%0) <{axes = [1]}> : (tensor<8x128xf32>) -> tensor<8xf32>
    /// ```
    REDUCE_SUM = "hl.reduce_sum", "sum over axes",
    operands: Arity::Exactly(1), category: Reduce, dtypes: Numeric,
    infer: infer::reduce, flops: Flops::PerElement(1),
    attrs: [req("axes", AttrConstraint::Array), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.reduce_max`: maximum over axes.
    ///
    /// Reduces the operand over `axes` (negative axes count from the end) by maximum (NaN propagates); with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    ///
    /// ```mlir
    /// %1 = hl.reduce_max %0 {axes = [1]} : tensor<8x128xf32> -> tensor<8xf32>
    /// %1 = "hl.reduce_max"(%0) <{axes = [1]}> : (tensor<8x128xf32>) -> tensor<8xf32>
    /// ```
    REDUCE_MAX = "hl.reduce_max", "maximum over axes",
    operands: Arity::Exactly(1), category: Reduce, dtypes: Numeric,
    infer: infer::reduce, flops: Flops::PerElement(1),
    attrs: [req("axes", AttrConstraint::Array), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.reduce_min`: minimum over axes.
    ///
    /// Reduces the operand over `axes` (negative axes count from the end) by minimum (NaN propagates); with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    ///
    /// ```mlir
    /// %1 = hl.reduce_min %0 {axes = [1]} : tensor<8x128xf32> -> tensor<8xf32>
    /// %1 = "hl.reduce_min"(%0) <{axes = [1]}> : (tensor<8x128xf32>) -> tensor<8xf32>
    /// ```
    REDUCE_MIN = "hl.reduce_min", "minimum over axes",
    operands: Arity::Exactly(1), category: Reduce, dtypes: Numeric,
    infer: infer::reduce, flops: Flops::PerElement(1),
    attrs: [req("axes", AttrConstraint::Array), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.reduce_prod`: product over axes.
    ///
    /// Reduces the operand over `axes` (negative axes count from the end) by product; with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    ///
    /// ```mlir
    /// %1 = hl.reduce_prod %0 {axes = [1]} : tensor<8x128xf32> -> tensor<8xf32>
    /// %1 = "hl.reduce_prod"(%0) <{axes = [1]}> : (tensor<8x128xf32>) -> tensor<8xf32>
    /// ```
    REDUCE_PROD = "hl.reduce_prod", "product over axes",
    operands: Arity::Exactly(1), category: Reduce, dtypes: Numeric,
    infer: infer::reduce, flops: Flops::PerElement(1),
    attrs: [req("axes", AttrConstraint::Array), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.reduce_mean`: mean over axes.
    ///
    /// Reduces the operand over `axes` (negative axes count from the end) by mean; with `keep_dims` the reduced dims stay as size 1. f16/bf16 accumulate in f32 and round once at the end; f32 accumulates sequentially in index order; integers wrap.
    ///
    /// ```mlir
    /// %1 = hl.reduce_mean %0 {axes = [1]} : tensor<8x128xf32> -> tensor<8xf32>
    /// %1 = "hl.reduce_mean"(%0) <{axes = [1]}> : (tensor<8x128xf32>) -> tensor<8xf32>
    /// ```
    REDUCE_MEAN = "hl.reduce_mean", "mean over axes",
    operands: Arity::Exactly(1), category: Reduce, dtypes: Float,
    infer: infer::reduce, flops: Flops::PerElement(1),
    attrs: [req("axes", AttrConstraint::Array), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
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
    infer: infer::arg_reduce, flops: Flops::PerElement(1),
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
    infer: infer::arg_reduce, flops: Flops::PerElement(1),
    attrs: [req("axis", AttrConstraint::Integer), opt("keep_dims", AttrConstraint::Bool)],
    traits: [],
}
