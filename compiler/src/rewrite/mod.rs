//! Rewriting: the greedy driver that applies patterns and folders to a fixpoint (MLIR's
//! `applyPatternsGreedily`), with the patterns and the [`Rewriter`] it drives (declared in
//! [`crate::pattern`], below the dialects, and re-exported here).
//!
//! Patterns live apart from drivers: dialects fill a [`PatternSet`] from their ops'
//! `canonicalize` hooks; passes pick a driver (this greedy one, or dialect conversion in
//! [`crate::conversion`]).

mod greedy;

pub use crate::pattern::{root_matches, InsertPoint, Listener, PatternSet, RewritePattern, Rewriter};
pub use greedy::{apply_patterns_greedily, constant_value, is_trivially_dead, GreedyConfig, GreedyStats};
