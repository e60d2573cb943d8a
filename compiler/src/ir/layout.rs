//! Program order, kept apart from entity data (Cranelift's `Layout`): which block an op sits
//! in and its neighbours, which region a block sits in and its neighbours. Inserting, removing
//! and moving are O(1), so rewrites never shift vectors of ops around.

use super::entity::{BlockId, OpId, RegionId, SecondaryMap};

#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<P, S> {
    pub parent: Option<P>,
    pub prev: Option<S>,
    pub next: Option<S>,
}

impl<P, S> Default for Node<P, S> {
    fn default() -> Self {
        Node { parent: None, prev: None, next: None }
    }
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Ends<S> {
    pub first: Option<S>,
    pub last: Option<S>,
}

impl<S> Default for Ends<S> {
    fn default() -> Self {
        Ends { first: None, last: None }
    }
}

/// Doubly linked lists of ops in blocks and of blocks in regions.
#[derive(Debug, Default, Clone)]
pub(crate) struct Layout {
    pub ops: SecondaryMap<OpId, Node<BlockId, OpId>>,
    pub block_ops: SecondaryMap<BlockId, Ends<OpId>>,
    pub blocks: SecondaryMap<BlockId, Node<RegionId, BlockId>>,
    pub region_blocks: SecondaryMap<RegionId, Ends<BlockId>>,
}

/// One list kind: children `S` in parents `P`.
macro_rules! list_ops {
    ($insert:ident, $remove:ident, $nodes:ident, $ends:ident, $P:ty, $S:ty) => {
        /// Links `item` into `parent` before `before` (at the end when `None`).
        pub fn $insert(&mut self, parent: $P, item: $S, before: Option<$S>) {
            let prev = match before {
                Some(b) => self.$nodes.get(b).prev,
                None => self.$ends.get(parent).last,
            };
            self.$nodes.set(item, Node { parent: Some(parent), prev, next: before });
            match prev {
                Some(p) => self.$nodes.get_mut(p).next = Some(item),
                None => self.$ends.get_mut(parent).first = Some(item),
            }
            match before {
                Some(b) => self.$nodes.get_mut(b).prev = Some(item),
                None => self.$ends.get_mut(parent).last = Some(item),
            }
        }

        /// Unlinks `item` from its parent (no-op when detached).
        pub fn $remove(&mut self, item: $S) {
            let Node { parent, prev, next } = *self.$nodes.get(item);
            let Some(parent) = parent else { return };
            match prev {
                Some(p) => self.$nodes.get_mut(p).next = next,
                None => self.$ends.get_mut(parent).first = next,
            }
            match next {
                Some(n) => self.$nodes.get_mut(n).prev = prev,
                None => self.$ends.get_mut(parent).last = prev,
            }
            self.$nodes.set(item, Node::default());
        }
    };
}

impl Layout {
    list_ops!(insert_op, remove_op, ops, block_ops, BlockId, OpId);
    list_ops!(insert_block, remove_block, blocks, region_blocks, RegionId, BlockId);
}
