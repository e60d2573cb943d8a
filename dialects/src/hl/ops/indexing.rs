//! `hl` ops that pick or write elements at positions an index tensor gives, element by element
//! or by index tuples (ONNX `GatherElements`, `GatherND`, `ScatterElements`, `ScatterND`).

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_op, opt};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::eval;

hl_op! {
    /// `hl.gather_elements`: picks elements along an axis by a same-rank index tensor.
    ///
    /// `result[i][j] = data[indices[i][j]][j]` for `axis = 0` (default; negative counts from the end), `data[i][indices[i][j]]` for `axis = 1`, and so on: the result has the shape of the `i32` or `i64` `indices`, whose dims other than `axis` must not exceed the data's. A negative index counts from the end; an index out of range is an error of the interpreter.
    ///
    /// ```mlir
    /// %2 = hl.gather_elements %0, %1 {axis = 1 : i64} : tensor<3x4xf32>, tensor<3x2xi64> -> tensor<3x2xf32>
    /// %2 = "hl.gather_elements"(%0, %1) <{axis = 1 : i64}> : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
    /// ```
    GATHER_ELEMENTS = "hl.gather_elements", "picks elements along an axis by index",
    operands: Arity::Exactly(2), category: Opaque, dtypes: Any,
    infer: infer::gather_elements, flops: Flops::None, eval: eval::gather_elements,
    attrs: [opt("axis", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.gather_nd`: picks slices by index tuples.
    ///
    /// The last dim of the `i32` or `i64` `indices` holds tuples of `q` indices into the data dims after the first `batch_dims` (default 0), which data and indices share; each tuple picks the slice of the remaining data dims. The result is `indices.shape[:-1] ++ data.shape[batch_dims + q:]`. A negative index counts from the end; an index out of range is an error of the interpreter.
    ///
    /// ```mlir
    /// %2 = hl.gather_nd %0, %1 : tensor<4x5x6xf32>, tensor<3x2xi64> -> tensor<3x6xf32>
    /// %2 = "hl.gather_nd"(%0, %1) : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
    /// ```
    GATHER_ND = "hl.gather_nd", "picks slices by index tuples",
    operands: Arity::Exactly(2), category: Opaque, dtypes: Any,
    infer: infer::gather_nd, flops: Flops::None, eval: eval::gather_nd,
    attrs: [opt("batch_dims", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.scatter_elements`: writes updates along an axis at a same-rank index tensor.
    ///
    /// The result is `data` with `updates[i][j]` written at `[indices[i][j]][j]` for `axis = 0` (default), and so on; `updates` has the shape of the `i32` or `i64` `indices`. `reduction` (`"none"`, the default, `"add"`, `"mul"`, `"max"`, `"min"`) combines an update with the element it lands on instead of replacing it; updates apply in index order (floats accumulate in f32 and round once). An index out of range is an error of the interpreter.
    ///
    /// ```mlir
    /// %3 = hl.scatter_elements %0, %1, %2 {axis = 0 : i64, reduction = "add"} : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32> -> tensor<3x3xf32>
    /// %3 = "hl.scatter_elements"(%0, %1, %2) <{axis = 0 : i64, reduction = "add"}> : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<3x3xf32>
    /// ```
    SCATTER_ELEMENTS = "hl.scatter_elements", "writes updates along an axis by index",
    operands: Arity::Exactly(3), category: Opaque, dtypes: Any,
    infer: infer::scatter_elements, flops: Flops::None, eval: eval::scatter_elements,
    attrs: [opt("axis", AttrConstraint::Integer), opt("reduction", AttrConstraint::String)],
    traits: [],
}

hl_op! {
    /// `hl.scatter_nd`: writes update slices at index tuples.
    ///
    /// The result is `data` with each slice of `updates` written at the data position its index tuple (the last dim of the `i32` or `i64` `indices`) names; `updates` has the shape `indices.shape[:-1] ++ data.shape[q:]`. `reduction` as `hl.scatter_elements`'s.
    ///
    /// ```mlir
    /// %3 = hl.scatter_nd %0, %1, %2 : tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32> -> tensor<4x4xf32>
    /// %3 = "hl.scatter_nd"(%0, %1, %2) : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
    /// ```
    SCATTER_ND = "hl.scatter_nd", "writes update slices at index tuples",
    operands: Arity::Exactly(3), category: Opaque, dtypes: Any,
    infer: infer::scatter_nd, flops: Flops::None, eval: eval::scatter_nd,
    attrs: [opt("reduction", AttrConstraint::String)],
    traits: [],
}
