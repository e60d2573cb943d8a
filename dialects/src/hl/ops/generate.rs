//! `hl` ops whose values follow from element indices: `iota` and the triangular mask `trilu`.

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_op, opt, req};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::eval;

hl_op! {
    /// `hl.iota`: each element's index along a dim.
    ///
    /// No operands: element `[i0, i1, ...]` of the (static, integer or float) result type is `i_dimension`, converted to the element type as `hl.cast` converts an `i64`.
    ///
    /// ```mlir
    /// %0 = hl.iota {dimension = 1 : i64} : tensor<4x8xi32>
    /// %0 = "hl.iota"() <{dimension = 1 : i64}> : () -> tensor<4x8xi32>
    /// ```
    IOTA = "hl.iota", "each element's index along a dim",
    operands: Arity::Exactly(0), category: Opaque, dtypes: Numeric,
    infer: infer::iota, flops: Flops::None, eval: eval::iota,
    attrs: [req("dimension", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.trilu`: keeps a triangle of the last two dims (ONNX `Trilu`).
    ///
    /// Element `[..., i, j]` of the operand (rank >= 2) is kept where `j - i <= k` (lower, the default) or `j - i >= k` (`upper = true`), and is zero elsewhere; `k` defaults to 0.
    ///
    /// ```mlir
    /// %1 = hl.trilu %0 {k = 0 : i64, upper = false} : tensor<4x4xf32>
    /// %1 = "hl.trilu"(%0) <{k = 0 : i64, upper = false}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
    /// ```
    TRILU = "hl.trilu", "keeps a triangle of the last two dims",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Any,
    infer: infer::trilu, flops: Flops::None, eval: eval::trilu,
    attrs: [opt("upper", AttrConstraint::Bool), opt("k", AttrConstraint::Integer)],
    traits: [],
}
