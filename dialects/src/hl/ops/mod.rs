//! The `hl` ops, declared once each with the `hl_op!` macro (or a family macro built on it:
//! `hl_binary!`, `hl_unary!`, `hl_reduce!`): an `OpDef` whose verifier is the shared `hl`
//! verifier and whose interfaces carry the fusion category, allowed element types, result type
//! inference, cost and evaluation.

mod composite;
mod cube;
mod elementwise;
mod generate;
mod indexing;
mod layout;
mod pool;
mod reduce;
mod scan;

pub use composite::*;
pub use cube::*;
pub use elementwise::*;
pub use generate::*;
pub use indexing::*;
pub use layout::*;
pub use pool::*;
pub use reduce::*;
pub use scan::*;

use kiln_compiler::{AttrConstraint, AttrSpec, OpDef};

/// Declares one `hl` op (through [`op_def!`](kiln_compiler::op_def), so the doc comment is
/// also the op's `description`): a `pub static` `OpDef` with one result (or `results: arity`,
/// whose `infer` and `eval` then give every result), `Pure` plus the listed traits, the shared
/// verifier, folder and custom syntax, and an [`HlOp`](crate::hl::interfaces::HlOp) interface
/// (fusion category, element types, result type inference, cost and evaluation).
macro_rules! hl_op {
    (@results) => { ::kiln_compiler::Arity::Exactly(1) };
    (@results $results:expr) => { $results };
    (@infer ; $infer:path) => { $crate::hl::interfaces::Infer::One($infer) };
    (@infer $results:expr ; $infer:path) => { $crate::hl::interfaces::Infer::Many($infer) };
    (@eval ; $eval:expr) => { $crate::hl::interfaces::Eval::One($eval) };
    (@eval $results:expr ; $eval:expr) => { $crate::hl::interfaces::Eval::Many($eval) };
    (@vector) => { None };
    (@vector $vector:path) => { Some(&$vector) };
    (
        $(#[doc = $doc:expr])*
        $ident:ident = $name:literal, $summary:literal,
        operands: $operands:expr, $(results: $results:expr,)?
        category: $cat:ident $(($movement:ident))?, dtypes: $dt:ident,
        infer: $infer:path, flops: $flops:expr, eval: $eval:expr, $(vector: $vector:path,)?
        attrs: [$($attr:expr),*],
        traits: [$($tr:ident),*],
    ) => {
        ::kiln_compiler::op_def! {
            $(#[doc = $doc])*
            pub static $ident: ::kiln_compiler::OpDef = kiln_compiler::OpDef {
                name: $name,
                summary: $summary,
                operands: $operands,
                results: $crate::hl::ops::hl_op!(@results $($results)?),
                attrs: &[$($attr),*],
                traits: &[::kiln_compiler::Trait::Pure, $(::kiln_compiler::Trait::$tr),*],
                verify: Some($crate::hl::verify::verify_hl),
                syntax: Some(&$crate::hl::syntax::HL_SYNTAX),
                fold: Some($crate::hl::fold::fold_hl),
                interfaces: &[&$crate::hl::interfaces::HlOp {
                    category: $crate::hl::interfaces::FusionCategory::$cat
                        $(($crate::hl::interfaces::Movement::$movement))?,
                    dtypes: $crate::hl::interfaces::DTypes::$dt,
                    infer: $crate::hl::ops::hl_op!(@infer $($results)? ; $infer),
                    flops: $flops,
                    eval: $crate::hl::ops::hl_op!(@eval $($results)? ; $eval),
                    vector: $crate::hl::ops::hl_op!(@vector $($vector)?),
                }],
                ..::kiln_compiler::OpDef::DEFAULT
            };
        }
    };
}
pub(crate) use hl_op;

/// Declares a binary elementwise `hl` op (as MLIR's `Arith_BinaryOp`): two operands of one
/// element type with numpy broadcasting, `Elementwise` plus the listed traits, `flops` per
/// result element, evaluated by `eval: kernel(operator)` of
/// [`interp::eval`](crate::hl::interp::eval). The doc comment gives the semantics; the summary
/// line and the example (custom and generic form, on operands of type `example`) are
/// generated. `vector: OP` names the `npuvec` op it lowers to on a tile.
macro_rules! hl_binary {
    (
        $(#[doc = $doc:literal])*
        $ident:ident = $name:literal, $summary:literal, $dt:ident, flops $flops:literal,
        [$($tr:ident),*], eval: $kernel:ident($operator:expr), example: $ty:literal
        $(, vector: $vector:ident)? $(,)?
    ) => {
        $crate::hl::ops::hl_op! {
            #[doc = concat!("`", $name, "`: ", $summary, ".")]
            #[doc = ""]
            $(#[doc = $doc])*
            #[doc = ""]
            #[doc = "```mlir"]
            #[doc = concat!("%2 = ", $name, " %0, %1 : ", $ty)]
            #[doc = concat!("%2 = \"", $name, "\"(%0, %1) : (", $ty, ", ", $ty, ") -> ", $ty)]
            #[doc = "```"]
            $ident = $name, $summary,
            operands: ::kiln_compiler::Arity::Exactly(2), category: Elementwise, dtypes: $dt,
            infer: $crate::hl::infer::elementwise,
            flops: $crate::hl::interfaces::Flops::PerElement($flops),
            eval: |x| $crate::hl::interp::eval::$kernel($operator, x),
            $(vector: $crate::npuvec::$vector,)?
            attrs: [],
            traits: [Elementwise $(, $tr)*],
        }
    };
}
pub(crate) use hl_binary;

/// Declares a unary elementwise `hl` op: one operand, the result of its type, `flops` per
/// element, evaluated by `eval: kernel(operator)` (or `eval: kernel` when the kernel takes no
/// operator) of [`interp::eval`](crate::hl::interp::eval). The doc comment gives the
/// semantics; the summary line and the example (on an operand of type `example`) are
/// generated. `vector: OP` names the `npuvec` op it lowers to on a tile.
macro_rules! hl_unary {
    (
        $(#[doc = $doc:literal])*
        $ident:ident = $name:literal, $summary:literal, $dt:ident, flops $flops:literal,
        eval: $kernel:ident $(($operator:expr))?, example: $ty:literal
        $(, vector: $vector:ident)? $(,)?
    ) => {
        $crate::hl::ops::hl_op! {
            #[doc = concat!("`", $name, "`: ", $summary, ".")]
            #[doc = ""]
            $(#[doc = $doc])*
            #[doc = ""]
            #[doc = "```mlir"]
            #[doc = concat!("%1 = ", $name, " %0 : ", $ty)]
            #[doc = concat!("%1 = \"", $name, "\"(%0) : (", $ty, ") -> ", $ty)]
            #[doc = "```"]
            $ident = $name, $summary,
            operands: ::kiln_compiler::Arity::Exactly(1), category: Elementwise, dtypes: $dt,
            infer: $crate::hl::infer::same,
            flops: $crate::hl::interfaces::Flops::PerElement($flops),
            eval: |x| $crate::hl::interp::eval::$kernel($($operator,)? x),
            $(vector: $crate::npuvec::$vector,)?
            attrs: [],
            traits: [Elementwise, SameOperandsAndResultType],
        }
    };
}
pub(crate) use hl_unary;

/// Declares a reduction over `axes` (`keep_dims` optional), evaluated with `operator`. The
/// doc comment gives the semantics; the summary line and the example are generated.
macro_rules! hl_reduce {
    (
        $(#[doc = $doc:literal])*
        $ident:ident = $name:literal, $summary:literal, $dt:ident, eval: $operator:expr $(,)?
    ) => {
        $crate::hl::ops::hl_op! {
            #[doc = concat!("`", $name, "`: ", $summary, ".")]
            #[doc = ""]
            $(#[doc = $doc])*
            #[doc = ""]
            #[doc = "```mlir"]
            #[doc = concat!("%1 = ", $name, " %0 {axes = [1]} : tensor<8x128xf32> -> tensor<8xf32>")]
            #[doc = concat!("%1 = \"", $name, "\"(%0) <{axes = [1]}> : (tensor<8x128xf32>) -> tensor<8xf32>")]
            #[doc = "```"]
            $ident = $name, $summary,
            operands: ::kiln_compiler::Arity::Exactly(1), category: Reduce, dtypes: $dt,
            infer: $crate::hl::infer::reduce,
            flops: $crate::hl::interfaces::Flops::PerElement(1),
            eval: |x| $crate::hl::interp::eval::reduce($operator, x),
            attrs: [
                $crate::hl::ops::req("axes", ::kiln_compiler::AttrConstraint::Array),
                $crate::hl::ops::opt("keep_dims", ::kiln_compiler::AttrConstraint::Bool)
            ],
            traits: [],
        }
    };
}
pub(crate) use hl_reduce;

/// A required inherent attribute.
const fn req(name: &'static str, constraint: AttrConstraint) -> AttrSpec {
    AttrSpec { name, constraint, optional: false }
}

/// An optional inherent attribute.
const fn opt(name: &'static str, constraint: AttrConstraint) -> AttrSpec {
    AttrSpec { name, constraint, optional: true }
}

/// Every `hl` op.
pub static ALL: &[&OpDef] = &[
    &elementwise::ADD,
    &elementwise::SUB,
    &elementwise::MUL,
    &elementwise::DIV,
    &elementwise::POW,
    &elementwise::MAXIMUM,
    &elementwise::MINIMUM,
    &elementwise::AND,
    &elementwise::OR,
    &elementwise::NEG,
    &elementwise::ABS,
    &elementwise::EXP,
    &elementwise::LOG,
    &elementwise::SQRT,
    &elementwise::RSQRT,
    &elementwise::RECIPROCAL,
    &elementwise::TANH,
    &elementwise::SIGMOID,
    &elementwise::RELU,
    &elementwise::SILU,
    &elementwise::ERF,
    &elementwise::FLOOR,
    &elementwise::CEIL,
    &elementwise::ROUND,
    &elementwise::SIGN,
    &elementwise::NOT,
    &elementwise::SIN,
    &elementwise::COS,
    &elementwise::TAN,
    &elementwise::ASIN,
    &elementwise::ACOS,
    &elementwise::ATAN,
    &elementwise::SINH,
    &elementwise::COSH,
    &elementwise::ASINH,
    &elementwise::ACOSH,
    &elementwise::ATANH,
    &elementwise::BITWISE_NOT,
    &elementwise::REM,
    &elementwise::BITWISE_AND,
    &elementwise::BITWISE_OR,
    &elementwise::BITWISE_XOR,
    &elementwise::SHIFT_LEFT,
    &elementwise::SHIFT_RIGHT,
    &elementwise::GELU,
    &elementwise::CAST,
    &elementwise::CMP,
    &elementwise::SELECT,
    &elementwise::CLAMP,
    &elementwise::BROADCAST_TO,
    &elementwise::CONSTANT,
    &reduce::REDUCE_SUM,
    &reduce::REDUCE_MAX,
    &reduce::REDUCE_MIN,
    &reduce::REDUCE_PROD,
    &reduce::REDUCE_MEAN,
    &reduce::ARGMAX,
    &reduce::ARGMIN,
    &cube::MATMUL,
    &cube::BATCH_MATMUL,
    &cube::CONV2D,
    &layout::RESHAPE,
    &layout::TRANSPOSE,
    &layout::SLICE,
    &layout::EXPAND_DIMS,
    &layout::SQUEEZE,
    &layout::CONCAT,
    &layout::SPLIT,
    &layout::PAD,
    &layout::GATHER,
    &indexing::GATHER_ELEMENTS,
    &indexing::GATHER_ND,
    &indexing::SCATTER_ELEMENTS,
    &indexing::SCATTER_ND,
    &scan::CUMSUM,
    &scan::CUMPROD,
    &scan::TOPK,
    &generate::IOTA,
    &generate::TRILU,
    &pool::MAX_POOL2D,
    &pool::AVG_POOL2D,
    &pool::GLOBAL_AVG_POOL2D,
    &composite::SOFTMAX,
    &composite::LOG_SOFTMAX,
    &composite::LAYER_NORM,
    &composite::RMS_NORM,
    &composite::BATCH_NORM,
    &composite::BIAS_ADD,
    &composite::DROPOUT,
    &composite::SWIGLU,
];
