//! The DMA ops: `npuvec.load` (GM -> UB or L1, pipe MTE2), `npuvec.gather` (GM rows picked by
//! GM indices -> UB, pipe MTE2), `npuvec.store` (UB -> GM, pipe MTE3) and `npuvec.move` (L1 ->
//! L0A or L0B, pipe MTE1).
//!
//! A load's or store's view may have *extents* (a shape class's, see `docs/backend.md`,
//! "Dynamic shapes"): trailing `index` operands, one per dim that `extent_dims` names, whose
//! run-time values are those dims' sizes; `sizes` holds each dim's maximum.

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

/// The view dims whose sizes the `extents` operands give (strictly increasing).
const EXTENT_DIMS: AttrSpec =
    AttrSpec { name: "extent_dims", constraint: AttrConstraint::Any, optional: true };

/// The run-time sizes of the view dims `extent_dims` names, one `index` each.
const EXTENTS: ValueDef = ValueDef::variadic("extents", C::Index);

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
    /// The trailing `extents` (`index`, optional) make the view's size dynamic: dim
    /// `extent_dims[i]` (strictly increasing dims of `sizes`, one per extent) has `extents[i]`
    /// elements at run time, `1 <= extents[i] <= sizes[extent_dims[i]]`; the elements moved
    /// land where they are in the full view (a tail tile of 3 rows fills the first 3 rows of
    /// `dst`). `source` may then have `?` dims.
    ///
    /// ```mlir
    /// npuvec.load ins(%x[%off] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : memref<8x64xf32, #npuvec.space<ub>>) sizes [8, 64] strides [64, 1]
    /// "npuvec.load"(%x, %off, %b) <{sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<16x64xf32, #npuvec.space<gm>>, index, memref<8x64xf32, #npuvec.space<ub>>) -> ()
    /// npuvec.load ins(%g[%off] : memref<?x16xf32, #npuvec.space<gm>>) outs(%t : memref<4x16xf32, #npuvec.space<ub>>) sizes [4, 16] strides [16, 1] extents [%rows] dims [0]
    /// "npuvec.load"(%g, %off, %t, %rows) <{extent_dims = array<i64: 0>, sizes = array<i64: 4, 16>, strides = array<i64: 16, 1>}> : (memref<?x16xf32, #npuvec.space<gm>>, index, memref<4x16xf32, #npuvec.space<ub>>, index) -> ()
    /// ```
    pub static LOAD_OP: OpDef = OpDef {
        name: "npuvec.load",
        summary: "GM to UB or L1 DMA",
        operands: Arity::Named(&[
            ValueDef::single("source", C::AnyMemRef),
            ValueDef::single("offset", C::Index),
            ValueDef::single("dst", C::AnyMemRef),
            EXTENTS,
        ]),
        attrs: &[
            VIEW[0],
            VIEW[1],
            AttrSpec { name: "zero_pad", constraint: AttrConstraint::Unit, optional: true },
            EXTENT_DIMS,
        ],
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
    /// The view is written as `npuvec.load`'s (`offset`, `sizes`, `strides`, and optionally
    /// `extents` with `extent_dims`: the elements stored are those of the dynamic view, taken
    /// from their place in the full `src`); `src` and `dst` have one element type. With
    /// `atomic` (`#npuvec.atomic<add|max|min>`) the store is a read-modify-write of GM.
    /// Effects: reads `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.store ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
    /// npuvec.store add ins(%b : memref<8x64xf32, #npuvec.space<ub>>) outs(%y[%off] : memref<16x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1]
    /// "npuvec.store"(%b, %y, %off) <{atomic = #npuvec.atomic<add>, sizes = array<i64: 8, 64>, strides = array<i64: 64, 1>}> : (memref<8x64xf32, #npuvec.space<ub>>, memref<16x64xf32, #npuvec.space<gm>>, index) -> ()
    /// npuvec.store ins(%t : memref<4x16xf32, #npuvec.space<ub>>) outs(%g[%off] : memref<?x16xf32, #npuvec.space<gm>>) sizes [4, 16] strides [16, 1] extents [%rows] dims [0]
    /// "npuvec.store"(%t, %g, %off, %rows) <{extent_dims = array<i64: 0>, sizes = array<i64: 4, 16>, strides = array<i64: 16, 1>}> : (memref<4x16xf32, #npuvec.space<ub>>, memref<?x16xf32, #npuvec.space<gm>>, index, index) -> ()
    /// ```
    pub static STORE_OP: OpDef = OpDef {
        name: "npuvec.store",
        summary: "UB to GM DMA",
        operands: Arity::Named(&[
            ValueDef::single("src", C::AnyMemRef),
            ValueDef::single("dst", C::AnyMemRef),
            ValueDef::single("offset", C::Index),
            EXTENTS,
        ]),
        attrs: &[
            VIEW[0],
            VIEW[1],
            AttrSpec { name: "atomic", constraint: AttrConstraint::DialectAttr(&ATOMIC_KIND), optional: true },
            EXTENT_DIMS,
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
