//! Composite `hl` ops, which `hl-decompose` expands into primitives.

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_op, opt};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::eval;

hl_op! {
    /// `hl.softmax`: softmax along an axis.
    ///
    /// `exp(x - max(x)) / sum(exp(x - max(x)))` along `axis` (default -1). `hl-decompose` expands it into reduce_max, sub, exp, reduce_sum, div.
    ///
    /// ```mlir
    /// %1 = hl.softmax %0 {axis = -1 : i64} : tensor<8x128xf32>
    /// %1 = "hl.softmax"(%0) <{axis = -1 : i64}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    /// ```
    SOFTMAX = "hl.softmax", "softmax along an axis",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Float,
    infer: infer::normalization, flops: Flops::PerElement(8), eval: eval::softmax,
    attrs: [opt("axis", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.log_softmax`: log of softmax along an axis.
    ///
    /// `x - max(x) - log(sum(exp(x - max(x))))` along `axis` (default -1).
    ///
    /// ```mlir
    /// %1 = hl.log_softmax %0 {axis = -1 : i64} : tensor<8x128xf32>
    /// %1 = "hl.log_softmax"(%0) <{axis = -1 : i64}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    /// ```
    LOG_SOFTMAX = "hl.log_softmax", "log of softmax along an axis",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Float,
    infer: infer::normalization, flops: Flops::PerElement(8), eval: eval::log_softmax,
    attrs: [opt("axis", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.layer_norm`: layer normalization.
    ///
    /// `(x - mean) / sqrt(var + epsilon) * gamma + beta` with mean and (biased) variance over the last dim; operands `x, gamma, beta` (gamma and beta broadcast against x).
    ///
    /// ```mlir
    /// %3 = hl.layer_norm %0, %1, %2 {epsilon = 9.9999997473787516E-6 : f32} : tensor<8x128xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<8x128xf32>
    /// %3 = "hl.layer_norm"(%0, %1, %2) <{epsilon = 9.9999997473787516E-6 : f32}> : (tensor<8x128xf32>, tensor<128xf32>, tensor<128xf32>) -> tensor<8x128xf32>
    /// ```
    LAYER_NORM = "hl.layer_norm", "layer normalization",
    operands: Arity::Exactly(3), category: Opaque, dtypes: Float,
    infer: infer::normalization, flops: Flops::PerElement(8), eval: eval::layer_norm,
    attrs: [opt("epsilon", AttrConstraint::Float)],
    traits: [],
}

hl_op! {
    /// `hl.rms_norm`: RMS normalization.
    ///
    /// `x / sqrt(mean(x^2) + epsilon) * gamma` over the last dim; operands `x, gamma`.
    ///
    /// ```mlir
    /// %2 = hl.rms_norm %0, %1 {epsilon = 9.9999997473787516E-6 : f32} : tensor<8x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
    /// %2 = "hl.rms_norm"(%0, %1) <{epsilon = 9.9999997473787516E-6 : f32}> : (tensor<8x128xf32>, tensor<128xf32>) -> tensor<8x128xf32>
    /// ```
    RMS_NORM = "hl.rms_norm", "RMS normalization",
    operands: Arity::Exactly(2), category: Opaque, dtypes: Float,
    infer: infer::normalization, flops: Flops::PerElement(8), eval: eval::rms_norm,
    attrs: [opt("epsilon", AttrConstraint::Float)],
    traits: [],
}

hl_op! {
    /// `hl.batch_norm`: batch normalization (inference).
    ///
    /// `(x - mean) / sqrt(var + epsilon) * gamma + beta` with per-channel statistics given as operands `x, mean, var, gamma, beta`, each of shape `[C, 1, 1]` against NCHW `x`.
    ///
    /// ```mlir
    /// %5 = hl.batch_norm %0, %1, %2, %3, %4 : tensor<1x64x56x56xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32> -> tensor<1x64x56x56xf32>
    /// %5 = "hl.batch_norm"(%0, %1, %2, %3, %4) : (tensor<1x64x56x56xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>) -> tensor<1x64x56x56xf32>
    /// ```
    BATCH_NORM = "hl.batch_norm", "batch normalization (inference)",
    operands: Arity::Exactly(5), category: Opaque, dtypes: Float,
    infer: infer::normalization, flops: Flops::PerElement(8), eval: eval::batch_norm,
    attrs: [opt("epsilon", AttrConstraint::Float)],
    traits: [],
}

hl_op! {
    /// `hl.bias_add`: adds a bias along an axis.
    ///
    /// Adds the rank-1 `bias` along `axis` of `x` (default: the last), i.e. a broadcast add.
    ///
    /// ```mlir
    /// %2 = hl.bias_add %0, %1 : tensor<8x128xf32>, tensor<128xf32> -> tensor<8x128xf32>
    /// %2 = "hl.bias_add"(%0, %1) : (tensor<8x128xf32>, tensor<128xf32>) -> tensor<8x128xf32>
    /// ```
    BIAS_ADD = "hl.bias_add", "adds a bias along an axis",
    operands: Arity::Exactly(2), category: Opaque, dtypes: Float,
    infer: infer::bias_add, flops: Flops::PerElement(8), eval: eval::bias_add,
    attrs: [opt("axis", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.dropout`: dropout (inference: identity).
    ///
    /// At inference dropout is the identity; `rate` is kept for the record.
    ///
    /// ```mlir
    /// %1 = hl.dropout %0 {rate = 1.000000e-01 : f32} : tensor<8x128xf32>
    /// %1 = "hl.dropout"(%0) <{rate = 1.000000e-01 : f32}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    /// ```
    DROPOUT = "hl.dropout", "dropout (inference: identity)",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Float,
    infer: infer::same, flops: Flops::PerElement(8), eval: eval::dropout,
    attrs: [opt("rate", AttrConstraint::Float)],
    traits: [],
}

hl_op! {
    /// `hl.swiglu`: SwiGLU gate.
    ///
    /// Splits `axis` (default -1) in halves `a, b` and computes `silu(a) * b`.
    ///
    /// ```mlir
    /// %1 = hl.swiglu %0 : tensor<8x256xf32> -> tensor<8x128xf32>
    /// %1 = "hl.swiglu"(%0) : (tensor<8x256xf32>) -> tensor<8x128xf32>
    /// ```
    SWIGLU = "hl.swiglu", "SwiGLU gate",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Float,
    infer: infer::swiglu, flops: Flops::PerElement(8), eval: eval::swiglu,
    attrs: [opt("axis", AttrConstraint::Integer)],
    traits: [],
}
