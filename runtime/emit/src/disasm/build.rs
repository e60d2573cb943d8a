//! Building the disassembly: ops appended to a block by name (attributes the registered op
//! declares go into its properties), and the types and attributes `npuvec` IR is written with.

use std::sync::OnceLock;

use kiln_bytecode::isa::{DType, Space};
use kiln_compiler::{
    AttrKind, Attribute, BlockId, Context, DialectRegistry, FloatKind, Ir, NamedAttr, OpId, OperationState,
    Type, TypeKind, ValueId,
};

/// The registry of every Kiln dialect, built once, to find op definitions by name.
pub fn registry() -> &'static DialectRegistry {
    static REGISTRY: OnceLock<DialectRegistry> = OnceLock::new();
    REGISTRY.get_or_init(kiln_dialects::all_dialects)
}

/// Appends ops to one block.
pub struct Builder<'a, 'c> {
    /// The context.
    pub ctx: &'a Context<'c>,
    /// The IR.
    pub ir: &'a mut Ir<'c>,
}

impl<'c> Builder<'_, 'c> {
    /// Appends `name(operands) {attrs} : results` with `regions` empty regions to `block`.
    /// Attributes a registered op declares (and its `operandSegmentSizes`) are properties.
    pub fn op(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        results: &[Type<'c>],
        regions: usize,
    ) -> OpId {
        let def = registry().op(name);
        let mut state = OperationState::new(self.ctx.intern_str(name), def, self.ctx.unknown_loc());
        state.operands = operands.to_vec();
        state.result_types = results.to_vec();
        state.num_regions = regions;
        let mut props = Vec::new();
        for &(n, v) in attrs {
            if def.is_some_and(|d| d.attr_spec(n).is_some() || n == "operandSegmentSizes") {
                props.push(NamedAttr { name: self.ctx.intern_str(n), value: v });
            } else {
                state.attrs.push((self.ctx.intern_str(n), v));
            }
        }
        if !props.is_empty() {
            state.properties = Some(self.ctx.dict_attr(&props));
        }
        let op = self.ir.create_op(state);
        self.ir.append_op(block, op);
        op
    }

    /// Like [`Builder::op`] with one result and no regions; returns the result.
    pub fn value(
        &mut self,
        block: BlockId,
        name: &str,
        operands: &[ValueId],
        attrs: &[(&str, Attribute<'c>)],
        ty: Type<'c>,
    ) -> ValueId {
        let op = self.op(block, name, operands, attrs, &[ty], 0);
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

    /// `#npuvec.<family><keyword>`, spelled opaquely (it reparses as the registered attribute
    /// once the dialect knows it).
    pub fn npuvec_enum(&self, family: &str, keyword: &str) -> Attribute<'c> {
        let body = self.ctx.intern_str(&format!("{family}<{keyword}>"));
        self.ctx.attr(AttrKind::Opaque { dialect: self.ctx.intern_str("npuvec"), body, ty: None })
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
        let memory_space = Some(self.npuvec_enum("space", space.name()));
        self.ctx.ty(TypeKind::MemRef { shape, elem: self.elem(dtype), layout: None, memory_space })
    }
}
