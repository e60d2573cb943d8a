//! Pooling `hl` ops on NCHW tensors, which `hl-decompose` expands into slices, elementwise
//! ops and a reduction.

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_op, opt, req};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::eval;

hl_op! {
    /// `hl.max_pool2d`: 2-D max pooling (ONNX `MaxPool`).
    ///
    /// The maximum over each `kernel` window of an NCHW input: `strides` and `dilation` (two integers each, default 1), `padding` as `[top, left, bottom, right]` (default 0; padded cells are `-inf`, the lowest integer for integers, so they never win), `ceil_mode` (default false) rounding output sizes up as ONNX does. The taps combine in row-major order as `hl.maximum` (NaN propagates).
    ///
    /// ```mlir
    /// %1 = hl.max_pool2d %0 {dilation = [1, 1], kernel = [3, 3], padding = [1, 1, 1, 1], strides = [2, 2]} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
    /// %1 = "hl.max_pool2d"(%0) <{dilation = [1, 1], kernel = [3, 3], padding = [1, 1, 1, 1], strides = [2, 2]}> : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
    /// ```
    MAX_POOL2D = "hl.max_pool2d", "2-D max pooling",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Numeric,
    infer: infer::pool2d, flops: Flops::PerElement(8), eval: eval::max_pool2d,
    attrs: [req("kernel", AttrConstraint::Array), opt("strides", AttrConstraint::Array), opt("padding", AttrConstraint::Array), opt("dilation", AttrConstraint::Array), opt("ceil_mode", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.avg_pool2d`: 2-D average pooling (ONNX `AveragePool`).
    ///
    /// The attributes of `hl.max_pool2d` plus `count_include_pad` (default false). Each window sums its taps in row-major order as `hl.add` (padded cells add `+0`), then divides (`hl.div`) by the number of taps inside the input, or inside the padded input with `count_include_pad` (cells that only `ceil_mode` adds never count).
    ///
    /// ```mlir
    /// %1 = hl.avg_pool2d %0 {count_include_pad = false, kernel = [2, 2], padding = [0, 0, 0, 0], strides = [2, 2]} : tensor<1x8x16x16xf32> -> tensor<1x8x8x8xf32>
    /// %1 = "hl.avg_pool2d"(%0) <{count_include_pad = false, kernel = [2, 2], padding = [0, 0, 0, 0], strides = [2, 2]}> : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
    /// ```
    AVG_POOL2D = "hl.avg_pool2d", "2-D average pooling",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Float,
    infer: infer::pool2d, flops: Flops::PerElement(8), eval: eval::avg_pool2d,
    attrs: [req("kernel", AttrConstraint::Array), opt("strides", AttrConstraint::Array), opt("padding", AttrConstraint::Array), opt("dilation", AttrConstraint::Array), opt("ceil_mode", AttrConstraint::Bool), opt("count_include_pad", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.global_avg_pool2d`: mean over the spatial dims (ONNX `GlobalAveragePool`).
    ///
    /// The mean over every dim after the first two (H, W of NCHW), kept as size 1: exactly `hl.reduce_mean` over those axes with `keep_dims`.
    ///
    /// ```mlir
    /// %1 = hl.global_avg_pool2d %0 : tensor<1x8x7x7xf32> -> tensor<1x8x1x1xf32>
    /// %1 = "hl.global_avg_pool2d"(%0) : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
    /// ```
    GLOBAL_AVG_POOL2D = "hl.global_avg_pool2d", "mean over the spatial dims",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Float,
    infer: infer::global_pool, flops: Flops::PerElement(8), eval: eval::global_avg_pool2d,
    attrs: [],
    traits: [],
}
