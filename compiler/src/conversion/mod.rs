//! Dialect conversion, as MLIR's `DialectConversion`: rewrite the ops a [`ConversionTarget`]
//! calls illegal with [`ConversionPattern`]s that receive their operands already converted, and
//! change value types with a [`TypeConverter`] whose materializations bridge converted and
//! unconverted values.
//!
//! - **Partial conversion** ([`apply_partial_conversion`]) must legalize every op the target
//!   marks illegal (explicitly, or dynamically); ops the target says nothing about are
//!   converted when a pattern applies and left alone otherwise.
//! - **Full conversion** ([`apply_full_conversion`]) must leave every op legal: an op the target
//!   says nothing about is illegal too (unless [`ConversionTarget::mark_unknown_op_dynamically_legal`]
//!   decides it).
//!
//! An op that stays illegal is a located error (`failed to legalize operation 'hl.exp'`) with
//! a note naming the patterns tried and one per pattern that declined with a reason
//! ([`ConversionRewriter::notify_match_failure`]). With the `dialect-conversion` debug type on
//! ([`Context::set_debug`](crate::Context::set_debug), `kiln-opt --debug-only=dialect-conversion`)
//! the driver prints every op it legalizes and every pattern it tries, with the reasons, to
//! stderr. **On failure the input IR is unchanged**: the driver
//! converts a clone of the IR store and commits it (replacing the caller's store) only when
//! every op was legalized; on failure the clone is dropped. This costs one copy of the store
//! per conversion, and in exchange patterns need no rollback journal and may use the whole
//! [`Rewriter`](crate::rewrite::Rewriter) API. Handles into the store stay valid across the
//! commit (the clone has the same slots); handles to ops a pattern erased become stale.
//!
//! Values change type 1:1. When a pattern replaces a result by a value of the converted type,
//! the remaining users of the old result get a *source materialization* (converted ->
//! original type); when a pattern's operand still has an unconverted type, it gets a *target
//! materialization* (original -> converted). Both default to `builtin.unrealized_conversion_cast`
//! ([`UNREALIZED_CONVERSION_CAST`]); a type converter may build other ops instead. When the
//! conversion ends, materializations without users and round trips (`A -> B -> A`) are
//! folded away; the ones still needed stay in the IR, as MLIR leaves them for a later pass.

mod cast;
mod driver;
mod pattern;
mod target;
mod type_converter;

pub use driver::{apply_full_conversion, apply_partial_conversion, DEBUG_TYPE};
pub use pattern::{ConversionPattern, ConversionPatternSet, ConversionRewriter, Root};
pub use target::ConversionTarget;
pub use type_converter::{Materialization, TypeConverter};

pub use cast::UNREALIZED_CONVERSION_CAST;
