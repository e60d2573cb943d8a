//! The IR: operations, values, blocks and regions in arenas, named by index handles.
//!
//! [`Ir`] owns everything reachable from the ops it holds. Entity data (what an op *is*) is
//! kept apart from program order (where it *sits*, in a layout side table), and every value
//! keeps the list of its uses, so replace-all-uses and erase are O(uses). All mutation goes
//! through `&mut Ir`; there is no interior mutability.

mod builder;
mod clone;
mod entity;
mod layout;
mod walk;

pub use builder::{InsertPoint, OpBuilder};
pub use clone::Mapping;
pub use entity::{Arena, BlockId, EntityRef, OpId, RegionId, SecondaryMap, ValueId};
pub use walk::{WalkOrder, Walker};

use indexmap::IndexMap;
use smallvec::SmallVec;

use crate::attributes::Attribute;
use crate::dialect::OpDef;
use crate::types::Type;
use layout::Layout;

/// An op's discardable attributes: ordered, with a zero-sized hasher (every op has one).
pub type AttrMap<'c> = IndexMap<&'c str, Attribute<'c>, rustc_hash::FxBuildHasher>;

/// One use of a value: operand `index` of `op`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Use {
    /// The using operation.
    pub op: OpId,
    /// Which operand.
    pub index: u32,
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result {
        /// The defining op.
        op: OpId,
        /// The result number.
        index: u32,
    },
    /// Argument `index` of `block`.
    BlockArg {
        /// The owning block.
        block: BlockId,
        /// The argument number.
        index: u32,
    },
}

/// An SSA value.
#[derive(Clone, Debug)]
pub struct ValueData<'c> {
    /// The value's type.
    pub ty: Type<'c>,
    /// Its definition.
    pub def: ValueDef,
    /// The location of a block argument (op results use their op's location).
    pub loc: Option<Attribute<'c>>,
    uses: SmallVec<[Use; 2]>,
}

/// An operation's data (its position lives in the layout).
#[derive(Clone, Debug)]
pub struct OpData<'c> {
    /// Full name, `dialect.op`.
    pub name: &'c str,
    /// The registered definition, `None` for ops of unregistered dialects.
    pub def: Option<&'static OpDef>,
    /// Source location.
    pub loc: Attribute<'c>,
    operands: SmallVec<[ValueId; 3]>,
    /// For each operand, the position of its [`Use`] in the value's use list, so that dropping
    /// a use is O(1) even for values with thousands of uses (MLIR's intrusive use lists).
    use_pos: SmallVec<[u32; 3]>,
    results: SmallVec<[ValueId; 2]>,
    /// Discardable attributes, kept sorted by name as MLIR's `DictionaryAttr`.
    pub attrs: AttrMap<'c>,
    /// Inherent attributes (`<{...}>` in the generic form): a dictionary attribute.
    pub properties: Option<Attribute<'c>>,
    regions: Vec<RegionId>,
    successors: Vec<BlockId>,
}

impl OpData<'_> {
    /// Whether the op is an instance of `def` (MLIR's `isa<>`): its registered definition is
    /// that static. Ops are identified by definition, never by name.
    pub fn is(&self, def: &'static OpDef) -> bool {
        self.def.is_some_and(|d| std::ptr::eq(d, def))
    }

    /// Whether the op is an instance of one of `defs`.
    pub fn is_any(&self, defs: &[&'static OpDef]) -> bool {
        defs.iter().any(|&d| self.is(d))
    }
}

/// A block: arguments and (through the layout) a list of ops.
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    args: Vec<ValueId>,
}

/// A region: an owning op and (through the layout) a list of blocks.
#[derive(Clone, Debug, Default)]
pub struct RegionData {
    parent: Option<OpId>,
}

/// Everything needed to create an operation.
#[derive(Clone, Debug)]
pub struct OperationState<'c> {
    /// Full name.
    pub name: &'c str,
    /// Registered definition, if any.
    pub def: Option<&'static OpDef>,
    /// Location.
    pub loc: Attribute<'c>,
    /// Operands.
    pub operands: Vec<ValueId>,
    /// Result types.
    pub result_types: Vec<Type<'c>>,
    /// Discardable attributes (any order; sorted on creation).
    pub attrs: Vec<(&'c str, Attribute<'c>)>,
    /// Inherent attributes as a dictionary attribute.
    pub properties: Option<Attribute<'c>>,
    /// Number of (empty) regions to create.
    pub num_regions: usize,
    /// Successor blocks.
    pub successors: Vec<BlockId>,
}

impl<'c> OperationState<'c> {
    /// A state with only a name and location.
    pub fn new(name: &'c str, def: Option<&'static OpDef>, loc: Attribute<'c>) -> Self {
        OperationState {
            name,
            def,
            loc,
            operands: Vec::new(),
            result_types: Vec::new(),
            attrs: Vec::new(),
            properties: None,
            num_regions: 0,
            successors: Vec::new(),
        }
    }
}

/// The IR store: arenas of ops, values, blocks, regions, and their layout.
#[derive(Clone, Debug, Default)]
pub struct Ir<'c> {
    ops: Arena<OpId, OpData<'c>>,
    values: Arena<ValueId, ValueData<'c>>,
    blocks: Arena<BlockId, BlockData>,
    regions: Arena<RegionId, RegionData>,
    layout: Layout,
}

impl<'c> Ir<'c> {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with room for about `ops` ops (and as many values, and a block and a
    /// region per 16 ops), so that building large IR does not copy growing arenas.
    pub fn with_capacity(ops: usize) -> Self {
        let mut ir = Self::default();
        ir.ops.reserve(ops);
        ir.values.reserve(ops);
        ir.blocks.reserve(ops / 16);
        ir.regions.reserve(ops / 16);
        ir.layout.ops.reserve(ops);
        ir.layout.blocks.reserve(ops / 16);
        ir
    }

    // ----- reading -----

    /// An op's data.
    pub fn op(&self, op: OpId) -> &OpData<'c> {
        &self.ops[op]
    }

    /// Whether `op` is an instance of `def` (see [`OpData::is`]).
    pub fn is(&self, op: OpId, def: &'static OpDef) -> bool {
        self.ops[op].is(def)
    }

    /// Whether `op` is an instance of one of `defs`.
    pub fn is_any(&self, op: OpId, defs: &[&'static OpDef]) -> bool {
        self.ops[op].is_any(defs)
    }

    /// An op's data, mutably (attributes, location; structure changes go through methods).
    pub fn op_mut(&mut self, op: OpId) -> &mut OpData<'c> {
        &mut self.ops[op]
    }

    /// Whether `op` is live.
    pub fn contains_op(&self, op: OpId) -> bool {
        self.ops.contains(op)
    }

    /// Number of live ops.
    pub fn num_ops(&self) -> usize {
        self.ops.len()
    }

    /// One past the largest op index (size of a dense side table over ops).
    pub fn op_capacity(&self) -> usize {
        self.ops.capacity()
    }

    /// A value's data.
    pub fn value(&self, v: ValueId) -> &ValueData<'c> {
        &self.values[v]
    }

    /// A value's type.
    pub fn value_type(&self, v: ValueId) -> Type<'c> {
        self.values[v].ty
    }

    /// Changes a value's type (callers keep the IR consistent).
    pub fn set_value_type(&mut self, v: ValueId, ty: Type<'c>) {
        self.values[v].ty = ty;
    }

    /// Sets the location of a block argument.
    pub fn set_value_loc(&mut self, v: ValueId, loc: Attribute<'c>) {
        self.values[v].loc = Some(loc);
    }

    /// The uses of a value.
    pub fn uses(&self, v: ValueId) -> &[Use] {
        &self.values[v].uses
    }

    /// The op defining `v`, if it is a result.
    pub fn defining_op(&self, v: ValueId) -> Option<OpId> {
        match self.values[v].def {
            ValueDef::Result { op, .. } => Some(op),
            ValueDef::BlockArg { .. } => None,
        }
    }

    /// The operands of an op.
    pub fn operands(&self, op: OpId) -> &[ValueId] {
        &self.ops[op].operands
    }

    /// The results of an op.
    pub fn results(&self, op: OpId) -> &[ValueId] {
        &self.ops[op].results
    }

    /// The regions of an op.
    pub fn regions(&self, op: OpId) -> &[RegionId] {
        &self.ops[op].regions
    }

    /// The successors of an op.
    pub fn successors(&self, op: OpId) -> &[BlockId] {
        &self.ops[op].successors
    }

    /// Looks an attribute up among the properties, then the discardable attributes.
    pub fn attr(&self, op: OpId, name: &str) -> Option<Attribute<'c>> {
        let data = &self.ops[op];
        data.properties.and_then(|p| p.dict_get(name)).or_else(|| data.attrs.get(name).copied())
    }

    /// The arguments of a block.
    pub fn block_args(&self, block: BlockId) -> &[ValueId] {
        &self.blocks[block].args
    }

    /// The block containing `op`.
    pub fn parent_block(&self, op: OpId) -> Option<BlockId> {
        self.layout.ops.get(op).parent
    }

    /// The region containing `block`.
    pub fn parent_region(&self, block: BlockId) -> Option<RegionId> {
        self.layout.blocks.get(block).parent
    }

    /// The op owning `region`.
    pub fn region_owner(&self, region: RegionId) -> Option<OpId> {
        self.regions[region].parent
    }

    /// The op whose region contains `op`.
    pub fn parent_op(&self, op: OpId) -> Option<OpId> {
        let block = self.parent_block(op)?;
        self.region_owner(self.parent_region(block)?)
    }

    /// The ops of a block, in order.
    pub fn block_ops(&self, block: BlockId) -> OpIter<'_> {
        OpIter { layout: &self.layout, next: self.layout.block_ops.get(block).first }
    }

    /// First op of a block.
    pub fn first_op(&self, block: BlockId) -> Option<OpId> {
        self.layout.block_ops.get(block).first
    }

    /// Last op of a block (its terminator in a well-formed block).
    pub fn last_op(&self, block: BlockId) -> Option<OpId> {
        self.layout.block_ops.get(block).last
    }

    /// The op after `op` in its block.
    pub fn next_op(&self, op: OpId) -> Option<OpId> {
        self.layout.ops.get(op).next
    }

    /// The op before `op` in its block.
    pub fn prev_op(&self, op: OpId) -> Option<OpId> {
        self.layout.ops.get(op).prev
    }

    /// The blocks of a region, in order.
    pub fn region_blocks(&self, region: RegionId) -> BlockIter<'_> {
        BlockIter { layout: &self.layout, next: self.layout.region_blocks.get(region).first }
    }

    /// The entry block of a region.
    pub fn entry_block(&self, region: RegionId) -> Option<BlockId> {
        self.layout.region_blocks.get(region).first
    }

    /// The block after `block` in its region.
    pub fn next_block(&self, block: BlockId) -> Option<BlockId> {
        self.layout.blocks.get(block).next
    }

    // ----- creating -----

    /// Creates a detached op with fresh results and empty regions.
    pub fn create_op(&mut self, state: OperationState<'c>) -> OpId {
        let mut attrs: AttrMap<'c> = state.attrs.into_iter().collect();
        attrs.sort_keys();
        let op = self.ops.alloc(OpData {
            name: state.name,
            def: state.def,
            loc: state.loc,
            operands: SmallVec::new(),
            use_pos: SmallVec::new(),
            results: SmallVec::with_capacity(state.result_types.len()),
            attrs,
            properties: state.properties,
            regions: Vec::with_capacity(state.num_regions),
            successors: state.successors,
        });
        for (index, ty) in state.result_types.into_iter().enumerate() {
            let def = ValueDef::Result { op, index: index as u32 };
            let v = self.values.alloc(ValueData { ty, def, loc: None, uses: SmallVec::new() });
            self.ops[op].results.push(v);
        }
        for _ in 0..state.num_regions {
            let r = self.regions.alloc(RegionData { parent: Some(op) });
            self.ops[op].regions.push(r);
        }
        self.set_operands(op, &state.operands);
        op
    }

    /// Replaces the operand list of `op`, keeping use lists right.
    pub fn set_operands(&mut self, op: OpId, operands: &[ValueId]) {
        // Drop the old uses one by one, with the op's positions in place: dropping one may move
        // another use of this very op.
        for i in (0..self.ops[op].operands.len()).rev() {
            let (v, pos) = (self.ops[op].operands[i], self.ops[op].use_pos[i]);
            self.remove_use(v, pos);
        }
        let mut positions = SmallVec::with_capacity(operands.len());
        for (i, &v) in operands.iter().enumerate() {
            positions.push(self.add_use(v, Use { op, index: i as u32 }));
        }
        let data = &mut self.ops[op];
        data.operands = SmallVec::from_slice(operands);
        data.use_pos = positions;
    }

    /// Sets operand `index` of `op` to `value`.
    pub fn set_operand(&mut self, op: OpId, index: usize, value: ValueId) {
        let old = self.ops[op].operands[index];
        self.remove_use(old, self.ops[op].use_pos[index]);
        let pos = self.add_use(value, Use { op, index: index as u32 });
        let data = &mut self.ops[op];
        data.operands[index] = value;
        data.use_pos[index] = pos;
    }

    /// Replaces the successor list of `op`.
    pub fn set_successors(&mut self, op: OpId, successors: &[BlockId]) {
        self.ops[op].successors = successors.to_vec();
    }

    /// Appends `u` to the uses of `v`; returns its position there.
    fn add_use(&mut self, v: ValueId, u: Use) -> u32 {
        let uses = &mut self.values[v].uses;
        uses.push(u);
        (uses.len() - 1) as u32
    }

    /// Drops the use at `pos` of `v` in O(1): the last use takes its place and its operand
    /// learns its new position.
    fn remove_use(&mut self, v: ValueId, pos: u32) {
        let uses = &mut self.values[v].uses;
        let pos = pos as usize;
        uses.swap_remove(pos);
        if let Some(&moved) = uses.get(pos) {
            self.ops[moved.op].use_pos[moved.index as usize] = pos as u32;
        }
    }

    /// Creates a detached, empty block.
    pub fn create_block(&mut self) -> BlockId {
        self.blocks.alloc(BlockData::default())
    }

    /// Adds an argument of type `ty` to `block`.
    pub fn add_block_arg(&mut self, block: BlockId, ty: Type<'c>, loc: Option<Attribute<'c>>) -> ValueId {
        let index = self.blocks[block].args.len() as u32;
        let v = self.values.alloc(ValueData {
            ty,
            def: ValueDef::BlockArg { block, index },
            loc,
            uses: SmallVec::new(),
        });
        self.blocks[block].args.push(v);
        v
    }

    /// Appends `block` to `region`.
    pub fn append_block(&mut self, region: RegionId, block: BlockId) {
        self.layout.insert_block(region, block, None);
    }

    /// Appends a detached `op` to `block`.
    pub fn append_op(&mut self, block: BlockId, op: OpId) {
        self.layout.insert_op(block, op, None);
    }

    /// Inserts a detached `op` before `before`.
    pub fn insert_op_before(&mut self, before: OpId, op: OpId) {
        let block = self.parent_block(before).expect("insertion point is not in a block");
        self.layout.insert_op(block, op, Some(before));
    }

    /// Inserts a detached `op` after `after`.
    pub fn insert_op_after(&mut self, after: OpId, op: OpId) {
        let block = self.parent_block(after).expect("insertion point is not in a block");
        let next = self.next_op(after);
        self.layout.insert_op(block, op, next);
    }

    /// Unlinks `op` from its block without destroying it.
    pub fn detach_op(&mut self, op: OpId) {
        self.layout.remove_op(op);
    }

    /// Moves `op` (attached or not) to just before `before`.
    pub fn move_op_before(&mut self, op: OpId, before: OpId) {
        self.detach_op(op);
        self.insert_op_before(before, op);
    }

    // ----- rewriting -----

    /// Points every use of `from` at `to`.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        if from == to {
            return;
        }
        let uses = std::mem::take(&mut self.values[from].uses);
        for u in uses {
            let pos = self.add_use(to, u);
            let data = &mut self.ops[u.op];
            data.operands[u.index as usize] = to;
            data.use_pos[u.index as usize] = pos;
        }
    }

    /// Replaces each result of `op` by the matching value of `with`.
    pub fn replace_op_uses(&mut self, op: OpId, with: &[ValueId]) {
        let results = self.ops[op].results.clone();
        for (r, w) in results.into_iter().zip(with.iter().copied()) {
            self.replace_all_uses(r, w);
        }
    }

    /// Erases `op` with everything nested in it.
    ///
    /// # Panics
    /// When a result of `op`, or a value defined inside it, is still used by an op that is not
    /// erased along with it: the message names the op and that user. This is MLIR's
    /// `use_empty` assertion: erasing a used op is a bug in the caller (replace the uses
    /// first), never a consequence of bad input, and failing here keeps a stale operand from
    /// silently naming whatever is created in the freed slot next.
    pub fn erase_op(&mut self, op: OpId) {
        let ops = self.nested_ops(vec![op]);
        self.check_unused_outside(&ops, &[]);
        self.detach_op(op);
        self.free_ops(&ops);
    }

    /// Erases `block` (detaching it from its region) with its ops and arguments.
    ///
    /// # Panics
    /// As [`Ir::erase_op`], when an argument of `block` or a value defined in it is still used
    /// outside it.
    pub fn erase_block(&mut self, block: BlockId) {
        let ops = self.nested_ops(self.block_ops(block).collect());
        self.check_unused_outside(&ops, &[block]);
        self.layout.remove_block(block);
        self.free_ops(&ops);
        self.free_block(block);
    }

    /// `roots` and every op nested in them, parents before children (iterative).
    fn nested_ops(&self, mut all: Vec<OpId>) -> Vec<OpId> {
        let mut i = 0;
        while i < all.len() {
            let cur = all[i];
            for &r in &self.ops[cur].regions {
                for b in self.region_blocks(r) {
                    all.extend(self.block_ops(b));
                }
            }
            i += 1;
        }
        all
    }

    /// Panics when a value defined by `ops` (results, arguments of their blocks) or an argument
    /// of `blocks` is used by an op outside `ops`.
    fn check_unused_outside(&self, ops: &[OpId], blocks: &[BlockId]) {
        // The common case, one op without regions, needs no set.
        let inside: rustc_hash::FxHashSet<OpId> =
            if ops.len() > 1 { ops.iter().copied().collect() } else { Default::default() };
        let is_inside = |o: OpId| if ops.len() > 1 { inside.contains(&o) } else { ops.first() == Some(&o) };
        let check = |v: ValueId, what: &dyn Fn() -> String| {
            if let Some(u) = self.values[v].uses.iter().find(|u| !is_inside(u.op)) {
                panic!(
                    "erasing {} whose {} is still used by '{}' ({:?}) as operand #{}",
                    what(),
                    self.describe_value(v),
                    self.ops[u.op].name,
                    u.op,
                    u.index
                );
            }
        };
        let erased = |o: OpId| format!("'{}' ({o:?})", self.ops[o].name);
        for &o in ops {
            for &r in &self.ops[o].results {
                check(r, &|| erased(o));
            }
            for &region in &self.ops[o].regions {
                for b in self.region_blocks(region) {
                    for &a in &self.blocks[b].args {
                        check(a, &|| erased(o));
                    }
                }
            }
        }
        for &b in blocks {
            for &a in &self.blocks[b].args {
                check(a, &|| format!("block {b:?}"));
            }
        }
    }

    /// "result #1 of 'hl.add' (op3)" or "argument #0 of bb2", for messages.
    fn describe_value(&self, v: ValueId) -> String {
        match self.values[v].def {
            ValueDef::Result { op, index } => format!("result #{index} ({v:?}) of '{}'", self.ops[op].name),
            ValueDef::BlockArg { block, index } => format!("argument #{index} ({v:?}) of {block:?}"),
        }
    }

    /// Frees `ops` (already checked and detached from the outside), children after parents.
    fn free_ops(&mut self, ops: &[OpId]) {
        for &o in ops {
            self.set_operands(o, &[]);
        }
        for &o in ops.iter().rev() {
            let data = self.ops.free(o);
            self.layout.ops.set(o, Default::default());
            for r in data.results {
                self.values.free(r);
            }
            for r in data.regions {
                let blocks: Vec<BlockId> = self.region_blocks(r).collect();
                for b in blocks {
                    self.free_block(b);
                }
                self.layout.region_blocks.set(r, Default::default());
                self.regions.free(r);
            }
        }
    }

    /// Frees a block whose ops are already freed, with its arguments.
    fn free_block(&mut self, b: BlockId) {
        let bd = self.blocks.free(b);
        for a in bd.args {
            self.values.free(a);
        }
        self.layout.block_ops.set(b, Default::default());
        self.layout.blocks.set(b, Default::default());
    }

    /// Moves all blocks of `from` to the end of `to`.
    pub fn take_region_body(&mut self, to: RegionId, from: RegionId) {
        let blocks: Vec<BlockId> = self.region_blocks(from).collect();
        for b in blocks {
            self.layout.remove_block(b);
            self.layout.insert_block(to, b, None);
        }
    }

    /// Inlines the single block of `region` before `before`, replacing its arguments by `args`.
    /// Returns the ops moved, in order. The region is left empty.
    pub fn inline_block_before(&mut self, block: BlockId, before: OpId, args: &[ValueId]) -> Vec<OpId> {
        let block_args = self.blocks[block].args.clone();
        for (a, v) in block_args.iter().zip(args) {
            self.replace_all_uses(*a, *v);
        }
        let ops: Vec<OpId> = self.block_ops(block).collect();
        for &o in &ops {
            self.move_op_before(o, before);
        }
        ops
    }

    /// Walks `root` and everything nested in it (see [`Walker`]).
    pub fn walk(&self, root: OpId, order: WalkOrder) -> Walker<'_, 'c> {
        Walker::new(self, root, order)
    }
}

/// The ops of a block in order.
pub struct OpIter<'a> {
    layout: &'a Layout,
    next: Option<OpId>,
}

impl Iterator for OpIter<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let cur = self.next?;
        self.next = self.layout.ops.get(cur).next;
        Some(cur)
    }
}

/// The blocks of a region in order.
pub struct BlockIter<'a> {
    layout: &'a Layout,
    next: Option<BlockId>,
}

impl Iterator for BlockIter<'_> {
    type Item = BlockId;
    fn next(&mut self) -> Option<BlockId> {
        let cur = self.next?;
        self.next = self.layout.blocks.get(cur).next;
        Some(cur)
    }
}
