//! The `hl` ops, declared once each with the `hl_op!` macro: an `OpDef` whose verifier is
//! the shared `hl` verifier and whose interfaces carry the fusion category, allowed element
//! types, result type inference and cost.

mod composite;
mod cube;
mod elementwise;
mod layout;
mod reduce;

pub use composite::*;
pub use cube::*;
pub use elementwise::*;
pub use layout::*;
pub use reduce::*;

use kiln_compiler::{AttrConstraint, AttrSpec, OpDef};

/// Declares one `hl` op: a `pub static` `OpDef` with one result, `Pure` plus the listed
/// traits, the shared verifier, and an [`HlOp`](crate::hl::interfaces::HlOp) interface.
macro_rules! hl_op {
    (
        $(#[doc = $doc:literal])*
        $ident:ident = $name:literal, $summary:literal,
        operands: $operands:expr, category: $cat:ident, dtypes: $dt:ident,
        infer: $infer:path, flops: $flops:expr,
        attrs: [$($attr:expr),*],
        traits: [$($tr:ident),*],
    ) => {
        $(#[doc = $doc])*
        pub static $ident: OpDef = OpDef {
            name: $name,
            summary: $summary,
            operands: $operands,
            results: Arity::Exactly(1),
            attrs: &[$($attr),*],
            traits: &[Trait::Pure, $(Trait::$tr),*],
            verify: Some(crate::hl::verify::verify_hl),
            syntax: Some(&crate::hl::syntax::HL_SYNTAX),
            fold: Some(crate::hl::fold::fold_hl),
            interfaces: &[&HlOp {
                category: FusionCategory::$cat,
                dtypes: DTypes::$dt,
                infer: $infer,
                flops: $flops,
            }],
            ..OpDef::DEFAULT
        };
    };
}
pub(crate) use hl_op;

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
    &composite::SOFTMAX,
    &composite::LOG_SOFTMAX,
    &composite::LAYER_NORM,
    &composite::RMS_NORM,
    &composite::BATCH_NORM,
    &composite::BIAS_ADD,
    &composite::DROPOUT,
    &composite::SWIGLU,
];
