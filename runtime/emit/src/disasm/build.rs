//! Building the disassembly: ops appended to a block from their definitions, and the types
//! and attributes `npuvec` IR is written with.

use kiln_bytecode::isa::{DType, Space};
use kiln_compiler::{
    AttrKind, Attribute, BlockId, Context, FloatKind, InsertPoint, Ir, OpBuilder, OpDef, OpId, Type,
    TypeKind, ValueId,
};
use kiln_dialects::npuvec::Space as NpuSpace;

/// Appends ops to one block.
pub struct Builder<'a, 'c> {
    /// The context.
    pub ctx: &'a Context<'c>,
    /// The IR.
    pub ir: &'a mut Ir<'c>,
}

impl<'c> Builder<'_, 'c> {
    /// Appends `def(operands) {attrs} : results` with `regions` empty regions to `block`.
    pub fn op(
        &mut self,
        block: BlockId,
        def: &'static OpDef,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        results: &[Type<'c>],
        regions: usize,
    ) -> OpId {
        let mut builder =
            OpBuilder::new(self.ctx, self.ir, InsertPoint::BlockEnd(block), self.ctx.unknown_loc());
        builder.op(def, operands, attrs, results, regions)
    }

    /// Like [`Builder::op`] with one result and no regions; returns the result.
    pub fn value(
        &mut self,
        block: BlockId,
        def: &'static OpDef,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        ty: Type<'c>,
    ) -> ValueId {
        let op = self.op(block, def, operands, attrs, &[ty], 0);
        self.ir.results(op)[0]
    }

    /// A new block appended to region `i` of `op`.
    pub fn block_in(&mut self, op: OpId, i: usize) -> BlockId {
        let block = self.ir.create_block();
        self.ir.append_block(self.ir.regions(op)[i], block);
        block
    }

    /// `N : i64`.
    pub fn i64(&self, v: i64) -> Attribute<'c> {
        self.ctx.int_attr(v as i128, self.ctx.int_type(64))
    }

    /// `array<i64: ...>`.
    pub fn i64_array(&self, values: &[i64]) -> Attribute<'c> {
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let bytes = self.ctx.alloc_bytes(&bytes);
        self.ctx.attr(AttrKind::DenseArray { elem: self.ctx.int_type(64), len: values.len(), bytes })
    }

    /// The MLIR element type of `dtype`.
    pub fn elem(&self, dtype: DType) -> Type<'c> {
        match dtype {
            DType::F32 => self.ctx.float_type(FloatKind::F32),
            DType::F16 => self.ctx.float_type(FloatKind::F16),
            DType::BF16 => self.ctx.float_type(FloatKind::BF16),
            DType::I32 => self.ctx.int_type(32),
            DType::I8 => self.ctx.int_type(8),
            DType::I1 => self.ctx.int_type(1),
            DType::I64 => self.ctx.int_type(64),
        }
    }

    /// `memref<shape x elem, #npuvec.space<space>>` (a dim of `None` is dynamic).
    pub fn memref(&self, shape: &[Option<u64>], dtype: DType, space: Space) -> Type<'c> {
        let dims: Vec<i64> = shape.iter().map(|d| d.map_or(kiln_compiler::DYNAMIC, |d| d as i64)).collect();
        let shape = self.ctx.alloc_slice(&dims);
        let memory_space = Some(NpuSpace::from(space).attr(self.ctx));
        self.ctx.ty(TypeKind::MemRef { shape, elem: self.elem(dtype), layout: None, memory_space })
    }
}
