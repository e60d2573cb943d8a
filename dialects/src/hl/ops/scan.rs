//! `hl` ops along one axis whose results depend on the elements before them: running sums and
//! products, and the `k` largest or smallest elements.

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_op, opt, req};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::eval;

hl_op! {
    /// `hl.cumsum`: running sum along an axis.
    ///
    /// Element `i` along `axis` is the sum of elements `0..=i` (`0..i` with `exclusive`, the first then 0; from the end with `reverse`). Floats accumulate in f32, each result rounded once to the element type; integers wrap.
    ///
    /// ```mlir
    /// %1 = hl.cumsum %0 {axis = 1 : i64, exclusive = true} : tensor<2x8xf32>
    /// %1 = "hl.cumsum"(%0) <{axis = 1 : i64, exclusive = true}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
    /// ```
    CUMSUM = "hl.cumsum", "running sum along an axis",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Numeric,
    infer: infer::along_axis, flops: Flops::PerElement(1), eval: eval::cumsum,
    attrs: [req("axis", AttrConstraint::Integer), opt("exclusive", AttrConstraint::Bool), opt("reverse", AttrConstraint::Bool)],
    traits: [SameOperandsAndResultType],
}

hl_op! {
    /// `hl.cumprod`: running product along an axis.
    ///
    /// Element `i` along `axis` is the product of elements `0..=i` (`0..i` with `exclusive`, the first then 1; from the end with `reverse`). Floats accumulate in f32, each result rounded once to the element type; integers wrap.
    ///
    /// ```mlir
    /// %1 = hl.cumprod %0 {axis = 0 : i64, reverse = true} : tensor<2x8xf32>
    /// %1 = "hl.cumprod"(%0) <{axis = 0 : i64, reverse = true}> : (tensor<2x8xf32>) -> tensor<2x8xf32>
    /// ```
    CUMPROD = "hl.cumprod", "running product along an axis",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Numeric,
    infer: infer::along_axis, flops: Flops::PerElement(1), eval: eval::cumprod,
    attrs: [req("axis", AttrConstraint::Integer), opt("exclusive", AttrConstraint::Bool), opt("reverse", AttrConstraint::Bool)],
    traits: [SameOperandsAndResultType],
}

hl_op! {
    /// `hl.topk`: the `k` largest or smallest elements along an axis, with their indices.
    ///
    /// Two results: the `k` largest elements along `axis` (default -1), largest first (`largest = false`: the smallest, smallest first), and their `i64` indices; equal elements keep index order and NaN counts as larger than every number. `k` must not exceed the axis.
    ///
    /// ```mlir
    /// %1, %2 = hl.topk %0 {axis = 1 : i64, k = 3 : i64} : tensor<2x8xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
    /// %1:2 = "hl.topk"(%0) <{axis = 1 : i64, k = 3 : i64}> : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
    /// ```
    TOPK = "hl.topk", "the k largest or smallest elements along an axis",
    operands: Arity::Exactly(1), results: Arity::Exactly(2), category: Opaque, dtypes: Numeric,
    infer: infer::topk, flops: Flops::PerElement(8), eval: eval::topk,
    attrs: [req("k", AttrConstraint::Integer), opt("axis", AttrConstraint::Integer), opt("largest", AttrConstraint::Bool)],
    traits: [],
}
