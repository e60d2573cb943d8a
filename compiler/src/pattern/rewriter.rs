//! The [`Rewriter`]: the only way a pattern mutates IR. Patterns read the IR through
//! [`Rewriter::ir`] and change it through the methods here, each of which tells the
//! [`Listener`] (when there is one) what it did, so that a driver can revisit exactly what
//! changed (MLIR's `RewriterBase` and `RewriterBase::Listener`).

use crate::context::Context;
pub use crate::ir::InsertPoint;
use crate::ir::{BlockId, Ir, OpData, OpId, OperationState, RegionId, ValueId, WalkOrder};
use crate::types::Type;

/// Told by a [`Rewriter`] about every change it makes. Every method has an empty default.
pub trait Listener<'c> {
    /// `op` was created and inserted (or an existing detached op was inserted).
    fn notify_inserted(&mut self, _ir: &Ir<'c>, _op: OpId) {}
    /// `op` was changed in place: operands, attributes, location or regions.
    fn notify_modified(&mut self, _ir: &Ir<'c>, _op: OpId) {}
    /// The results of `op` are about to be replaced by `with` (before `op` is erased).
    fn notify_replaced(&mut self, _ir: &Ir<'c>, _op: OpId, _with: &[ValueId]) {}
    /// `op` is about to be erased (called for nested ops first, then for `op`).
    fn notify_erased(&mut self, _ir: &Ir<'c>, _op: OpId) {}
}

/// Mutates the IR on behalf of patterns, telling its listener what changed.
pub struct Rewriter<'a, 'c> {
    /// The context (interning types and attributes is not an IR mutation).
    pub ctx: &'a Context<'c>,
    pub(crate) ir: &'a mut Ir<'c>,
    listener: Option<&'a mut dyn Listener<'c>>,
}

impl<'a, 'c> Rewriter<'a, 'c> {
    /// A rewriter over `ir` that tells no one.
    pub fn new(ctx: &'a Context<'c>, ir: &'a mut Ir<'c>) -> Self {
        Rewriter { ctx, ir, listener: None }
    }

    /// A rewriter over `ir` that tells `listener` about every change.
    pub fn with_listener(
        ctx: &'a Context<'c>,
        ir: &'a mut Ir<'c>,
        listener: &'a mut dyn Listener<'c>,
    ) -> Self {
        Rewriter { ctx, ir, listener: Some(listener) }
    }

    /// The IR, for reading.
    pub fn ir(&self) -> &Ir<'c> {
        self.ir
    }

    fn tell(&mut self, f: impl FnOnce(&mut dyn Listener<'c>, &Ir<'c>)) {
        if let Some(l) = self.listener.as_deref_mut() {
            f(l, self.ir);
        }
    }

    // ----- creating and moving -----

    /// Creates an op and inserts it at `at`.
    pub fn create(&mut self, at: InsertPoint, state: OperationState<'c>) -> OpId {
        let op = self.ir.create_op(state);
        self.insert(at, op);
        op
    }

    /// Creates an op and inserts it before `before`.
    pub fn create_before(&mut self, before: OpId, state: OperationState<'c>) -> OpId {
        self.create(InsertPoint::Before(before), state)
    }

    /// Inserts a detached op (one a dialect hook built, such as a materialized constant) at
    /// `at`.
    pub fn insert(&mut self, at: InsertPoint, op: OpId) {
        self.link(at, op);
        self.tell(|l, ir| l.notify_inserted(ir, op));
    }

    fn link(&mut self, at: InsertPoint, op: OpId) {
        self.ir.insert_at(at, op);
    }

    /// Moves `op` (with everything nested in it) to `at`.
    pub fn move_op(&mut self, op: OpId, at: InsertPoint) {
        self.ir.detach_op(op);
        self.link(at, op);
        self.tell(|l, ir| l.notify_modified(ir, op));
    }

    /// Moves every block of `from` to the end of `to` (MLIR's `inlineRegionBefore` at the end).
    pub fn take_region_body(&mut self, to: RegionId, from: RegionId) {
        self.ir.take_region_body(to, from);
        for owner in [self.ir.region_owner(from), self.ir.region_owner(to)].into_iter().flatten() {
            self.tell(|l, ir| l.notify_modified(ir, owner));
        }
    }

    /// Moves the ops of `block` before `before`, replacing its arguments by `args`, and erases
    /// the emptied block (MLIR's `inlineBlockBefore`). Returns the ops moved, in order.
    pub fn inline_block_before(&mut self, block: BlockId, before: OpId, args: &[ValueId]) -> Vec<OpId> {
        let block_args = self.ir.block_args(block).to_vec();
        for (&a, &v) in block_args.iter().zip(args) {
            self.replace_all_uses(a, v);
        }
        let ops = self.ir.inline_block_before(block, before, &[]);
        for &o in &ops {
            self.tell(|l, ir| l.notify_modified(ir, o));
        }
        self.ir.erase_block(block);
        ops
    }

    // ----- changing in place -----

    /// Replaces every use of `from` by `to`; each user is reported modified.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        let users: Vec<OpId> = self.ir.uses(from).iter().map(|u| u.op).collect();
        self.ir.replace_all_uses(from, to);
        for u in users {
            self.tell(|l, ir| l.notify_modified(ir, u));
        }
    }

    /// Sets operand `index` of `op` to `value`.
    pub fn set_operand(&mut self, op: OpId, index: usize, value: ValueId) {
        self.ir.set_operand(op, index, value);
        self.tell(|l, ir| l.notify_modified(ir, op));
    }

    /// Replaces the operand list of `op`.
    pub fn set_operands(&mut self, op: OpId, operands: &[ValueId]) {
        self.ir.set_operands(op, operands);
        self.tell(|l, ir| l.notify_modified(ir, op));
    }

    /// Changes the type of a block argument (the caller keeps its users' types consistent; the
    /// conversion driver does, with materializations).
    pub fn set_block_arg_type(&mut self, arg: ValueId, ty: Type<'c>) {
        self.ir.set_value_type(arg, ty);
        let users: Vec<OpId> = self.ir.uses(arg).iter().map(|u| u.op).collect();
        for u in users {
            self.tell(|l, ir| l.notify_modified(ir, u));
        }
    }

    /// Changes `op`'s attributes, properties or location in place (MLIR's `modifyOpInPlace`).
    pub fn modify_op(&mut self, op: OpId, f: impl FnOnce(&mut OpData<'c>)) {
        f(self.ir.op_mut(op));
        self.tell(|l, ir| l.notify_modified(ir, op));
    }

    /// Rewrites what `op` holds (its regions, their blocks and ops) in place, with direct
    /// access to the store: MLIR's `modifyOpInPlace` around a rewrite of nested IR. The
    /// listener hears of one modification of `op`, not of each op created, moved or erased
    /// inside it, so a driver does not revisit those: use it when everything `f` makes is
    /// final (a kernel body lowered in one piece), and match first, since `f` cannot be
    /// undone by the pattern.
    pub fn rewrite_in_place<R>(&mut self, op: OpId, f: impl FnOnce(&mut Ir<'c>) -> R) -> R {
        let result = f(self.ir);
        self.tell(|l, ir| l.notify_modified(ir, op));
        result
    }

    // ----- replacing and erasing -----

    /// Replaces the results of `op` by `values` and erases `op`. Returns `false`, changing
    /// nothing, when that is impossible: a replacement value is defined by `op` itself or
    /// inside it (an op using its own result in a graph region, `%0 = hl.neg %0`, cannot be
    /// forwarded to that result).
    #[must_use]
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) -> bool {
        if values.iter().any(|&v| self.defined_within(v, op)) {
            return false;
        }
        self.tell(|l, ir| l.notify_replaced(ir, op, values));
        let results = self.ir.results(op).to_vec();
        for (r, &v) in results.into_iter().zip(values) {
            self.replace_all_uses(r, v);
        }
        self.erase_op(op);
        true
    }

    /// Whether `v` is a result of `op` or of an op nested in it, or an argument of a block in
    /// its regions.
    fn defined_within(&self, v: ValueId, op: OpId) -> bool {
        let mut at = match self.ir.value(v).def {
            crate::ir::ValueDef::Result { op: d, .. } => Some(d),
            crate::ir::ValueDef::BlockArg { block, .. } => {
                self.ir.parent_region(block).and_then(|r| self.ir.region_owner(r))
            }
        };
        while let Some(o) = at {
            if o == op {
                return true;
            }
            at = self.ir.parent_op(o);
        }
        false
    }

    /// Erases `op` with everything nested in it; the listener hears of nested ops first.
    ///
    /// # Panics
    /// As [`Ir::erase_op`], when a result of `op` is still used outside it.
    pub fn erase_op(&mut self, op: OpId) {
        if self.listener.is_some() {
            let nested: Vec<OpId> = self.ir.walk(op, WalkOrder::PostOrder).collect();
            for o in nested {
                self.tell(|l, ir| l.notify_erased(ir, o));
            }
        }
        self.ir.erase_op(op);
    }
}
