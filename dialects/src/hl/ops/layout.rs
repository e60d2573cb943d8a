//! Layout `hl` ops: data movement without arithmetic.

use kiln_compiler::{Arity, AttrConstraint};

use super::{hl_op, opt, req};
use crate::hl::infer;
use crate::hl::interfaces::Flops;
use crate::hl::interp::eval;

hl_op! {
    /// `hl.reshape`: new shape, same elements.
    ///
    /// Reinterprets the elements (row-major order) with the result's shape; element counts must agree.
    ///
    /// A dynamic (`?`) result dim is the operand dim `source_dims` ties it to (entry `i`: the
    /// operand dim whose size result dim `i` has, `-1` for none; each operand dim at most once),
    /// or, for the one untied `?` a reshape may have, what the element count leaves. The ties
    /// say what the types cannot: `{source_dims = [0, 1, -1, -1]}` on
    /// `tensor<?x?x32xf32> -> tensor<?x?x4x8xf32>` keeps the two leading dims.
    ///
    /// ```mlir
    /// %1 = hl.reshape %0 : tensor<8x128xf32> -> tensor<1024xf32>
    /// %1 = "hl.reshape"(%0) : (tensor<8x128xf32>) -> tensor<1024xf32>
    /// ```
    RESHAPE = "hl.reshape", "new shape, same elements",
    operands: Arity::Exactly(1), category: Layout(View), dtypes: Any,
    infer: infer::reshape, flops: Flops::None, eval: eval::reshape,
    attrs: [opt("source_dims", AttrConstraint::Array)],
    traits: [],
}

hl_op! {
    /// `hl.transpose`: permutes dims.
    ///
    /// Result dim `i` is operand dim `perm[i]`.
    ///
    /// ```mlir
    /// %1 = hl.transpose %0 {perm = [1, 0]} : tensor<8x128xf32> -> tensor<128x8xf32>
    /// %1 = "hl.transpose"(%0) <{perm = [1, 0]}> : (tensor<8x128xf32>) -> tensor<128x8xf32>
    /// ```
    TRANSPOSE = "hl.transpose", "permutes dims",
    operands: Arity::Exactly(1), category: Layout(Transpose), dtypes: Any,
    infer: infer::transpose, flops: Flops::None, eval: eval::transpose,
    attrs: [req("perm", AttrConstraint::Array)],
    traits: [],
}

hl_op! {
    /// `hl.slice`: strided sub-tensor.
    ///
    /// Takes `[starts[i], limits[i])` with step `strides[i]` (default 1) along every dim.
    ///
    /// ```mlir
    /// %1 = hl.slice %0 {limits = [8, 64], starts = [0, 0]} : tensor<8x128xf32> -> tensor<8x64xf32>
    /// %1 = "hl.slice"(%0) <{limits = [8, 64], starts = [0, 0]}> : (tensor<8x128xf32>) -> tensor<8x64xf32>
    /// ```
    SLICE = "hl.slice", "strided sub-tensor",
    operands: Arity::Exactly(1), category: Layout(Copy), dtypes: Any,
    infer: infer::slice, flops: Flops::None, eval: eval::slice,
    attrs: [req("starts", AttrConstraint::Array), req("limits", AttrConstraint::Array), opt("strides", AttrConstraint::Array)],
    traits: [],
}

hl_op! {
    /// `hl.expand_dims`: inserts a unit dim.
    ///
    /// Inserts a dim of size 1 at `axis` (`0..=rank`, negative counts from the end).
    ///
    /// ```mlir
    /// %1 = hl.expand_dims %0 {axis = 0 : i64} : tensor<128xf32> -> tensor<1x128xf32>
    /// %1 = "hl.expand_dims"(%0) <{axis = 0 : i64}> : (tensor<128xf32>) -> tensor<1x128xf32>
    /// ```
    EXPAND_DIMS = "hl.expand_dims", "inserts a unit dim",
    operands: Arity::Exactly(1), category: Layout(View), dtypes: Any,
    infer: infer::expand_dims, flops: Flops::None, eval: eval::expand_dims,
    attrs: [req("axis", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.squeeze`: removes unit dims.
    ///
    /// Removes the dims listed in `axes`, each of size 1.
    ///
    /// ```mlir
    /// %1 = hl.squeeze %0 {axes = [0]} : tensor<1x128xf32> -> tensor<128xf32>
    /// %1 = "hl.squeeze"(%0) <{axes = [0]}> : (tensor<1x128xf32>) -> tensor<128xf32>
    /// ```
    SQUEEZE = "hl.squeeze", "removes unit dims",
    operands: Arity::Exactly(1), category: Layout(View), dtypes: Any,
    infer: infer::squeeze, flops: Flops::None, eval: eval::squeeze,
    attrs: [req("axes", AttrConstraint::Array)],
    traits: [],
}

hl_op! {
    /// `hl.concat`: joins tensors along an axis.
    ///
    /// Concatenates the operands (one element type, equal dims except `axis`) along `axis`.
    ///
    /// ```mlir
    /// %2 = hl.concat %0, %1 {axis = 1 : i64} : tensor<8x64xf32>, tensor<8x64xf32> -> tensor<8x128xf32>
    /// %2 = "hl.concat"(%0, %1) <{axis = 1 : i64}> : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x128xf32>
    /// ```
    CONCAT = "hl.concat", "joins tensors along an axis",
    operands: Arity::AtLeast(1), category: Layout(Copy), dtypes: Any,
    infer: infer::concat, flops: Flops::None, eval: eval::concat,
    attrs: [req("axis", AttrConstraint::Integer)],
    traits: [],
}

hl_op! {
    /// `hl.split`: cuts a tensor into parts along an axis.
    ///
    /// One result per entry of `sizes`, which add up to dim `axis` (default 0; negative counts from the end): result `i` holds the `sizes[i]` slices that follow those of the results before it.
    ///
    /// ```mlir
    /// %1, %2 = hl.split %0 {axis = 1 : i64, sizes = [4, 12]} : tensor<2x16xf32> -> tensor<2x4xf32>, tensor<2x12xf32>
    /// %1:2 = "hl.split"(%0) <{axis = 1 : i64, sizes = [4, 12]}> : (tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x12xf32>)
    /// ```
    SPLIT = "hl.split", "cuts a tensor into parts along an axis",
    operands: Arity::Exactly(1), results: Arity::AtLeast(1), category: Layout(Copy), dtypes: Any,
    infer: infer::split, flops: Flops::None, eval: eval::split,
    attrs: [opt("axis", AttrConstraint::Integer), req("sizes", AttrConstraint::Array)],
    traits: [],
}

hl_op! {
    /// `hl.pad`: constant padding.
    ///
    /// Puts `low[d]` elements of `value` before and `high[d]` after the operand along every dim `d` (each >= 0); `value` (default 0) is a number typed as the element type.
    ///
    /// ```mlir
    /// %1 = hl.pad %0 {high = [2, 0], low = [0, 1], value = 0.000000e+00 : f32} : tensor<2x3xf32> -> tensor<4x4xf32>
    /// %1 = "hl.pad"(%0) <{high = [2, 0], low = [0, 1], value = 0.000000e+00 : f32}> : (tensor<2x3xf32>) -> tensor<4x4xf32>
    /// ```
    PAD = "hl.pad", "constant padding",
    operands: Arity::Exactly(1), category: Opaque, dtypes: Any,
    infer: infer::pad, flops: Flops::None, eval: eval::pad,
    attrs: [req("low", AttrConstraint::Array), req("high", AttrConstraint::Array), opt("value", AttrConstraint::Any)],
    traits: [],
}

hl_op! {
    /// `hl.gather`: picks slices along an axis by index (ONNX `Gather`).
    ///
    /// The result is `data.shape[:axis] ++ indices.shape ++ data.shape[axis + 1:]` (`axis` default 0): the slice of `data` at each index of the `i32` or `i64` `indices`; a negative index counts from the end, and an index out of range is an error of the interpreter. Not fused: it has its own kernel.
    ///
    /// ```mlir
    /// %2 = hl.gather %0, %1 {axis = 0 : i64} : tensor<50x16xf32>, tensor<2x7xi32> -> tensor<2x7x16xf32>
    /// %2 = "hl.gather"(%0, %1) <{axis = 0 : i64}> : (tensor<50x16xf32>, tensor<2x7xi32>) -> tensor<2x7x16xf32>
    /// ```
    GATHER = "hl.gather", "picks slices along an axis by index",
    operands: Arity::Exactly(2), category: Opaque, dtypes: Any,
    infer: infer::gather, flops: Flops::None, eval: eval::gather,
    attrs: [opt("axis", AttrConstraint::Integer)],
    traits: [],
}
