//! Iterative walks over nested ops (an explicit stack, so 10,000-deep nesting cannot overflow
//! the call stack).

use super::{BlockId, Ir, OpId};

/// Whether a walk yields an op before (pre-order) or after (post-order) what it contains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WalkOrder {
    /// Parents before children.
    PreOrder,
    /// Children before parents.
    PostOrder,
}

struct Frame {
    op: OpId,
    region: usize,
    block: Option<BlockId>,
    next: Option<OpId>,
}

impl Frame {
    fn new(op: OpId) -> Self {
        Frame { op, region: 0, block: None, next: None }
    }

    /// The next op directly nested in `self.op`, in region, block, op order.
    fn advance(&mut self, ir: &Ir<'_>) -> Option<OpId> {
        loop {
            if let Some(n) = self.next {
                self.next = ir.next_op(n);
                return Some(n);
            }
            self.block = match self.block {
                Some(b) => ir.next_block(b),
                None => {
                    let regions = ir.regions(self.op);
                    let r = *regions.get(self.region)?;
                    self.region += 1;
                    ir.entry_block(r)
                }
            };
            if let Some(b) = self.block {
                self.next = ir.first_op(b);
            }
        }
    }
}

/// An iterator over an op and everything nested in it.
pub struct Walker<'a, 'c> {
    ir: &'a Ir<'c>,
    order: WalkOrder,
    pending_root: Option<OpId>,
    stack: Vec<Frame>,
}

impl<'a, 'c> Walker<'a, 'c> {
    pub(crate) fn new(ir: &'a Ir<'c>, root: OpId, order: WalkOrder) -> Self {
        match order {
            WalkOrder::PreOrder => Walker { ir, order, pending_root: Some(root), stack: Vec::new() },
            WalkOrder::PostOrder => Walker { ir, order, pending_root: None, stack: vec![Frame::new(root)] },
        }
    }
}

impl Iterator for Walker<'_, '_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        match self.order {
            WalkOrder::PreOrder => {
                if let Some(root) = self.pending_root.take() {
                    self.stack.push(Frame::new(root));
                    return Some(root);
                }
                loop {
                    let top = self.stack.last_mut()?;
                    if let Some(child) = top.advance(self.ir) {
                        self.stack.push(Frame::new(child));
                        return Some(child);
                    }
                    self.stack.pop();
                }
            }
            WalkOrder::PostOrder => loop {
                let top = self.stack.last_mut()?;
                match top.advance(self.ir) {
                    Some(child) => self.stack.push(Frame::new(child)),
                    None => return self.stack.pop().map(|f| f.op),
                }
            },
        }
    }
}
