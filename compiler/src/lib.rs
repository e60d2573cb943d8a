//! Kiln's IR infrastructure, after MLIR: operations with regions of blocks, SSA values with use
//! lists, interned types and attributes, declaratively defined ops in dialects, MLIR's textual
//! format (parser and printer), a verifier, rewriting, and a pass manager.
//!
//! The crate never panics on bad input: the parser, verifier and passes report located
//! [`Diagnostic`]s instead.
#![deny(missing_docs)]

pub mod affine;
pub mod asm;
pub mod attributes;
pub mod context;
pub mod conversion;
pub mod diagnostics;
pub mod dialect;
pub mod dialect_attrs;
pub mod ir;
pub mod module;
pub mod owned_context;
pub mod pass;
pub mod pattern;
pub mod rewrite;
pub mod symbol_table;
pub mod syntax;
pub mod types;
pub mod verifier;

pub use attributes::{AttrKind, Attribute, DenseData, NamedAttr};
pub use context::Context;
pub use diagnostics::{Diagnostic, Severity, SourceMgr};
pub use dialect::{
    Arity, AttrConstraint, AttrSpec, DefaultAttrFn, Dialect, DialectRegistry, OpDef, Trait, TypeConstraint,
    ValueDef,
};
pub use dialect_attrs::{AttrDef, ParamSyntax, TypeDef};
pub use ir::{BlockId, InsertPoint, Ir, OpBuilder, OpId, OperationState, RegionId, ValueId};
pub use module::Module;
pub use owned_context::OwnedContext;
pub use types::{FloatKind, Signedness, Type, TypeKind, DYNAMIC};
