//! A parsed file: the IR, its top-level op, and the resource blobs that came with it.

use indexmap::IndexMap;

use crate::ir::{Ir, OpId};

/// The `{-# ... #-}` file metadata: section (`dialect_resources`, `external_resources`) ->
/// dialect or group -> key -> value, each value kept exactly as written (`"0x0400..."`,
/// `true`, ...), in file order.
pub type Resources = IndexMap<String, IndexMap<String, IndexMap<String, String>>>;

/// A top-level op (normally `builtin.module`) with the IR that holds it.
#[derive(Clone, Debug)]
pub struct Module<'c> {
    /// The IR store.
    pub ir: Ir<'c>,
    /// The top-level op.
    pub top: OpId,
    /// File metadata resources.
    pub resources: Resources,
}
