//! Creating ops from their definitions: [`OperationState::of`] (MLIR's `OperationState` built
//! from an op class), [`Ir::insert_at`] and the [`OpBuilder`] (MLIR's `OpBuilder::create`,
//! Cranelift's `InstBuilder`), which creates ops at an insertion point with one location.
//!
//! An op is named by its `&'static OpDef` (the static its dialect declares, such as
//! `kiln_dialects::hl::ADD`), never by a string: a misspelt op is a compile error, and no
//! registry is searched. Attributes the definition declares become the op's properties (the
//! `<{...}>` of the generic form), the others are discardable.

use crate::dialect::OpDef;
use crate::ir::{BlockId, Ir, OpId, OperationState, ValueId};
use crate::{Attribute, Context, NamedAttr, Type};

/// Where a new op goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InsertPoint {
    /// Just before this op.
    Before(OpId),
    /// Just after this op.
    After(OpId),
    /// First in this block.
    BlockStart(BlockId),
    /// Last in this block.
    BlockEnd(BlockId),
}

impl<'c> OperationState<'c> {
    /// The state of an op of `def` at `loc` with `attrs`: those `def` declares (and its
    /// `operandSegmentSizes`) as properties, the others discardable.
    pub fn of(
        ctx: &Context<'c>,
        def: &'static OpDef,
        loc: Attribute<'c>,
        attrs: &[(&str, Attribute<'c>)],
    ) -> Self {
        let mut state = OperationState::new(def.name, Some(def), loc);
        let mut props = Vec::new();
        for &(name, value) in attrs {
            let name = ctx.intern_str(name);
            if def.attr_spec(name).is_some() || name == "operandSegmentSizes" {
                props.push(NamedAttr { name, value });
            } else {
                state.attrs.push((name, value));
            }
        }
        if !props.is_empty() {
            state.properties = Some(ctx.dict_attr(&props));
        }
        state
    }
}

impl<'c> Ir<'c> {
    /// Links the detached `op` in at `at`.
    pub fn insert_at(&mut self, at: InsertPoint, op: OpId) {
        match at {
            InsertPoint::Before(b) => self.insert_op_before(b, op),
            InsertPoint::After(a) => self.insert_op_after(a, op),
            InsertPoint::BlockEnd(block) => self.append_op(block, op),
            InsertPoint::BlockStart(block) => match self.first_op(block) {
                Some(first) => self.insert_op_before(first, op),
                None => self.append_op(block, op),
            },
        }
    }
}

/// Creates ops at one insertion point with one location. Ops created after an `After` or a
/// `BlockStart` point follow each other in creation order.
pub struct OpBuilder<'a, 'c> {
    /// The context.
    pub ctx: &'a Context<'c>,
    /// The IR.
    pub ir: &'a mut Ir<'c>,
    /// Where the next op goes.
    pub at: InsertPoint,
    /// The location of every op created.
    pub loc: Attribute<'c>,
}

impl<'a, 'c> OpBuilder<'a, 'c> {
    /// A builder at `at`.
    pub fn new(ctx: &'a Context<'c>, ir: &'a mut Ir<'c>, at: InsertPoint, loc: Attribute<'c>) -> Self {
        OpBuilder { ctx, ir, at, loc }
    }

    /// Creates `def(operands) {attrs} : results` with `regions` empty regions at the insertion
    /// point.
    pub fn op(
        &mut self,
        def: &'static OpDef,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        results: &[Type<'c>],
        regions: usize,
    ) -> OpId {
        debug_assert!(
            self.ctx.registry().op(def.name).is_some_and(|d| std::ptr::eq(d, def)),
            "'{}' is not registered in the builder's context",
            def.name
        );
        let mut state = OperationState::of(self.ctx, def, self.loc, attrs);
        state.operands = operands.to_vec();
        state.result_types = results.to_vec();
        state.num_regions = regions;
        let op = self.ir.create_op(state);
        self.ir.insert_at(self.at, op);
        match self.at {
            InsertPoint::After(_) | InsertPoint::BlockStart(_) => self.at = InsertPoint::After(op),
            InsertPoint::Before(_) | InsertPoint::BlockEnd(_) => {}
        }
        op
    }

    /// [`OpBuilder::op`] of an op with one result and no regions; returns the result.
    pub fn value(
        &mut self,
        def: &'static OpDef,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        ty: Type<'c>,
    ) -> ValueId {
        let op = self.op(def, operands, attrs, &[ty], 0);
        self.ir.results(op)[0]
    }

    /// A builder appending to `block`, with the same location (for a region's body).
    pub fn at_end(&mut self, block: BlockId) -> OpBuilder<'_, 'c> {
        OpBuilder { ctx: self.ctx, ir: self.ir, at: InsertPoint::BlockEnd(block), loc: self.loc }
    }
}
