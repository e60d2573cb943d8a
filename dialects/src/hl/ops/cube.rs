//! Cube-unit `hl` ops: matmul, batch_matmul, conv2d.

use kiln_compiler::{Arity, AttrConstraint, TypeConstraint, ValueDef};

use super::{hl_op, opt};
use crate::hl::infer;
use crate::hl::interfaces::{self, Flops};
use crate::hl::interp::eval;

hl_op! {
    /// `hl.matmul`: matrix multiplication.
    ///
    /// `C[m, n] = sum_k A[m, k] * B[k, n]` on rank-2 operands, with `transpose_a`/`transpose_b` reading an operand transposed. f16/bf16 accumulate in f32 and round once.
    ///
    /// ```mlir
    /// %2 = hl.matmul %0, %1 {transpose_b = true} : tensor<128x64xf16>, tensor<256x64xf16> -> tensor<128x256xf16>
    /// %2 = "hl.matmul"(%0, %1) <{transpose_b = true}> : (tensor<128x64xf16>, tensor<256x64xf16>) -> tensor<128x256xf16>
    /// ```
    MATMUL = "hl.matmul", "matrix multiplication",
    operands: Arity::Exactly(2), category: Cube, dtypes: Numeric,
    infer: infer::matmul, flops: Flops::Contraction(interfaces::matmul_contraction), eval: eval::matmul,
    attrs: [opt("transpose_a", AttrConstraint::Bool), opt("transpose_b", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.batch_matmul`: batched matrix multiplication.
    ///
    /// `matmul` over the last two dims of operands of rank >= 2, at least one of rank >= 3; the leading (batch) dims broadcast with numpy rules (a missing leading dim broadcasts, so `[B, S, K] x [K, N] -> [B, S, N]`). Accumulation as `matmul`.
    ///
    /// ```mlir
    /// %2 = hl.batch_matmul %0, %1 : tensor<8x128x64xf32>, tensor<8x64x32xf32> -> tensor<8x128x32xf32>
    /// %2 = "hl.batch_matmul"(%0, %1) : (tensor<8x128x64xf32>, tensor<8x64x32xf32>) -> tensor<8x128x32xf32>
    /// ```
    BATCH_MATMUL = "hl.batch_matmul", "batched matrix multiplication",
    operands: Arity::Exactly(2), category: Cube, dtypes: Numeric,
    infer: infer::batch_matmul, flops: Flops::Contraction(interfaces::matmul_contraction), eval: eval::batch_matmul,
    attrs: [opt("transpose_a", AttrConstraint::Bool), opt("transpose_b", AttrConstraint::Bool)],
    traits: [],
}

hl_op! {
    /// `hl.conv2d`: 2-D convolution.
    ///
    /// Convolution of an NCHW input with OIHW weights (`I = C / groups`): `strides` and `dilation` (two integers each, default 1), `padding` as `[top, left, bottom, right]` (default 0), `groups` (default 1). f16/bf16 accumulate in f32 and round once. An optional third operand, a bias `[O]`, is then added per output channel, as `hl.bias_add` along dim 1 adds it.
    ///
    /// ```mlir
    /// %2 = hl.conv2d %0, %1 {padding = [1, 1, 1, 1]} : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
    /// %2 = "hl.conv2d"(%0, %1) <{padding = [1, 1, 1, 1]}> : (tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32>
    /// ```
    ///
    /// With a bias:
    ///
    /// ```mlir
    /// %3 = hl.conv2d %0, %1, %2 {strides = [2, 2]} : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x3x3xf32>
    /// %3 = "hl.conv2d"(%0, %1, %2) <{strides = [2, 2]}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
    /// ```
    CONV2D = "hl.conv2d", "2-D convolution",
    operands: Arity::Named(&[
        ValueDef::single("input", TypeConstraint::AnyRankedTensor),
        ValueDef::single("weights", TypeConstraint::AnyRankedTensor),
        ValueDef::optional("bias", TypeConstraint::AnyRankedTensor),
    ]), category: Cube, dtypes: Numeric,
    infer: infer::conv2d, flops: Flops::Contraction(interfaces::conv2d_contraction), eval: eval::conv2d,
    attrs: [opt("strides", AttrConstraint::Array), opt("padding", AttrConstraint::Array), opt("dilation", AttrConstraint::Array), opt("groups", AttrConstraint::Integer)],
    traits: [],
}
