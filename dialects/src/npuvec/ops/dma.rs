//! The DMA ops: `npuvec.load` (GM -> UB or L1, pipe MTE2), `npuvec.gather` (GM rows picked by
//! GM indices -> UB, pipe MTE2), `npuvec.store` (UB -> GM, pipe MTE3) and `npuvec.move` (L1 ->
//! L0A or L0B, pipe MTE1).

use kiln_compiler::dialect::effects::MemoryEffects;
use kiln_compiler::{Arity, AttrConstraint, AttrSpec, OpDef, TypeConstraint as C, ValueDef};

use super::{read, write, READ0_WRITE1, SRC_DST};
use crate::npuvec::attrs::ATOMIC_KIND;
use crate::npuvec::interfaces::Instruction;
use crate::npuvec::{syntax, verify::dma as v};
use kiln_bytecode::opcode::{InstKind, Opcode};

/// The view of a GM operand: `sizes` and `strides`, in elements.
const VIEW: [AttrSpec; 2] = [
    AttrSpec { name: "sizes", constraint: AttrConstraint::Any, optional: false },
    AttrSpec { name: "strides", constraint: AttrConstraint::Any, optional: false },
];

kiln_compiler::op_def! {
    /// `npuvec.load`: DMA from a strided view of a GM buffer into a UB or L1 buffer (pipe
    /// MTE2, instruction `Load`).
    ///
    /// The view starts at element `offset` of `source` (an `index`; static when it is an
    /// `arith.constant`) and has `sizes` / `strides` (`array<i64>`, 1 to 4 dims, in elements,
    /// stride 0 broadcasts). Its elements in row-major order fill `dst` in row-major order, so
    /// `product(sizes)` equals `dst`'s `R * C`; `source` and `dst` have one element type. With
    /// `zero_pad`, `dst`'s padded rows are zeroed first. Effects: reads `source`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.load ins(%x[%off] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
    /// "npuvec.load"(%x, %off, %b) <{sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<16x64xf32, #npuvec.space<gm>>, index, memref<8x64xf32, #npuvec.space<ub>>) -> ()
    /// ```
    pub static LOAD_OP: OpDef = OpDef {
        name: "npuvec.load",
        summary: "GM to UB or L1 DMA",
        operands: Arity::Named(&[
            ValueDef::single("source", C::AnyMemRef),
            ValueDef::single("offset", C::Index),
            ValueDef::single("dst", C::AnyMemRef),
        ]),
        attrs: &[VIEW[0], VIEW[1], AttrSpec { name: "zero_pad", constraint: AttrConstraint::Unit, optional: true }],
        verify: Some(v::verify_load),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&MemoryEffects(&[read(0), write(2)]), &Instruction(InstKind::Op(Opcode::Load))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.gather`: indexed DMA: rows of a GM table picked by indices in GM, into a UB
    /// buffer (pipe MTE2, instruction `Gather`), the tile of an embedding lookup.
    ///
    /// `table` is viewed from element `offset` with `sizes` / `strides` (as `npuvec.load`'s
    /// view): its first dim is the indexed one (its size is the bound), the others are one
    /// slice, `dst`'s `C` elements in row-major order. `indices` (`i32` or `i64`) is viewed
    /// from element `index_offset` with `index_sizes` / `index_strides`: `dst`'s `R` indices.
    /// Row `r` of `dst` is the slice at index `indices[r]`; a negative index counts from the
    /// end (`i + sizes[0]`), one outside `[-sizes[0], sizes[0])` is a run-time error. The
    /// indices are data: the row addresses are computed when the kernel runs. `table` and
    /// `dst` have one element type. Effects: reads `table` and `indices`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.gather ins(%table[%off], %ids[%ioff] : memref<50x16xf32, #npuvec.space<gm>>, memref<14xi64, #npuvec.space<gm>>) outs(%b : memref<8x16xf32, #npuvec.space<ub>>) sizes [50, 16] strides [16, 1] {index_sizes = array<i64: 8>, index_strides = array<i64: 1>}
    /// "npuvec.gather"(%table, %off, %ids, %ioff, %b) <{index_sizes = array<i64: 8>, index_strides = array<i64: 1>, sizes = array<i64: 50, 16>, strides = array<i64: 16, 1>}> : (memref<50x16xf32, #npuvec.space<gm>>, index, memref<14xi64, #npuvec.space<gm>>, index, memref<8x16xf32, #npuvec.space<ub>>) -> ()
    /// ```
    pub static GATHER_OP: OpDef = OpDef {
        name: "npuvec.gather",
        summary: "indexed GM to UB DMA (rows picked by indices)",
        operands: Arity::Named(&[
            ValueDef::single("table", C::AnyMemRef),
            ValueDef::single("offset", C::Index),
            ValueDef::single("indices", C::AnyMemRef),
            ValueDef::single("index_offset", C::Index),
            ValueDef::single("dst", C::AnyMemRef),
        ]),
        attrs: &[
            VIEW[0],
            VIEW[1],
            AttrSpec { name: "index_sizes", constraint: AttrConstraint::Any, optional: false },
            AttrSpec { name: "index_strides", constraint: AttrConstraint::Any, optional: false },
        ],
        verify: Some(v::verify_gather),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&MemoryEffects(&[read(0), read(2), write(4)]), &Instruction(InstKind::Op(Opcode::Gather))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.store`: DMA from a UB buffer into a strided view of a GM buffer (pipe MTE3,
    /// instruction `Store`).
    ///
    /// The view is written as `npuvec.load`'s (`offset`, `sizes`, `strides`); `src` and `dst`
    /// have one element type. With `atomic` (`#npuvec.atomic<add|max|min>`) the store is a
    /// read-modify-write of GM. Effects: reads `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
    /// npuvec.store add ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
    /// "npuvec.store"(%b, %y, %off) <{atomic = #npuvec.atomic<add>, sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<8x64xf32, #npuvec.space<ub>>, memref<16x64xf32, #npuvec.space<gm>>, index) -> ()
    /// ```
    pub static STORE_OP: OpDef = OpDef {
        name: "npuvec.store",
        summary: "UB to GM DMA",
        operands: Arity::Named(&[
            ValueDef::single("src", C::AnyMemRef),
            ValueDef::single("dst", C::AnyMemRef),
            ValueDef::single("offset", C::Index),
        ]),
        attrs: &[
            VIEW[0],
            VIEW[1],
            AttrSpec { name: "atomic", constraint: AttrConstraint::DialectAttr(&ATOMIC_KIND), optional: true },
        ],
        verify: Some(v::verify_store),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Op(Opcode::Store))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.move`: moves an L1 tile into L0A or L0B (pipe MTE1, instruction `MoveL1`).
    ///
    /// `src` (L1) and `dst` (L0A or L0B) have one shape and element type. Effects: reads `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.move ins(%l1 : memref<16x16xf16, #npuvec.space<l1>>) outs(%a : memref<16x16xf16, #npuvec.space<l0a>>)
    /// "npuvec.move"(%l1, %a) : (memref<16x16xf16, #npuvec.space<l1>>, memref<16x16xf16, #npuvec.space<l0a>>) -> ()
    /// ```
    pub static MOVE_OP: OpDef = OpDef {
        name: "npuvec.move",
        summary: "L1 to L0A or L0B move",
        operands: Arity::Named(SRC_DST),
        verify: Some(v::verify_move),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Op(Opcode::MoveL1))],
        ..OpDef::DEFAULT
    };
}
