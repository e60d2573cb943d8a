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
    /// Whether `top` is a `builtin.module` the parser created around the file's top-level ops
    /// (mlir-opt's implicit module), not one the file wrote.
    pub implicit: bool,
}

impl Module<'_> {
    /// Undoes the implicit module (mlir-opt's `--no-implicit-module`): the file's single
    /// top-level op becomes the top. Fails with the number of top-level ops when there is not
    /// exactly one; a module the file wrote itself is kept.
    pub fn unwrap_implicit(&mut self) -> Result<(), usize> {
        if !self.implicit {
            return Ok(());
        }
        let block = self.ir.regions(self.top).first().and_then(|&r| self.ir.entry_block(r));
        let ops: Vec<OpId> = block.map(|b| self.ir.block_ops(b).collect()).unwrap_or_default();
        let [only] = ops[..] else { return Err(ops.len()) };
        self.ir.detach_op(only);
        self.ir.erase_op(self.top);
        self.top = only;
        self.implicit = false;
        Ok(())
    }
}
