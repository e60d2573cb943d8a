//! The `hl` dialect: high-level tensor operators with value semantics, as an eager framework
//! dispatches them (elementwise with numpy broadcasting, reductions, matmul/conv, layout ops and
//! composites). Every op carries an [`interfaces::HlOp`] interface (fusion category, element
//! types, result type inference, cost) and a reference semantics in [`interp`].
//!
//! Types are ranked tensors of `f16`, `bf16`, `f32`, `i1`, `i8`, `i32`, `i64` with static or
//! dynamic dims. There is no implicit type promotion anywhere: `hl.cast` is explicit.

pub mod accessors;
pub mod attrs;
pub mod builder;
pub mod canonicalize;
mod fold;
pub mod infer;
pub mod interfaces;
pub mod interp;

mod ops;
mod syntax;
pub mod verify;

pub use ops::*;

use kiln_compiler::Dialect;

/// The `hl` dialect.
pub static HL: Dialect = Dialect {
    name: "hl",
    summary: "high-level tensor operators with value semantics",
    ops: ops::ALL,
    attrs: &[&attrs::CMP_PREDICATE, &attrs::GELU_APPROXIMATION],
    types: &[],
    materialize_constant: Some(fold::materialize),
    canonicalize: Some(canonicalize::populate),
    verify_op_attr: None,
};
