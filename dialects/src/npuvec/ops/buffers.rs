//! Core identity and on-chip buffers: `npuvec.block_idx`, `npuvec.block_num` (pipe S),
//! `npuvec.alloc` (an unplanned buffer) and `npuvec.buffer` (a planned one).

use kiln_compiler::dialect::effects::{EffectDecl, EffectOn, MemoryEffects, Resource};
use kiln_compiler::{Arity, AttrConstraint, AttrSpec, OpDef, Trait, TypeConstraint as C, ValueDef};

use crate::npuvec::interfaces::Instruction;
use crate::npuvec::{syntax, verify::buffers as v};
use kiln_bytecode::opcode::{InstKind, Opcode};

/// Allocates result #0 in its memory space.
static ALLOCATES: MemoryEffects =
    MemoryEffects(&[EffectDecl::allocate(EffectOn::Result(0), Resource::MemorySpace)]);

kiln_compiler::op_def! {
    /// `npuvec.block_idx`: this core's block index, `0 .. block_num` (pipe S, instruction
    /// `BlockIdx`).
    ///
    /// ```mlir
    /// %i = npuvec.block_idx : index
    /// %i = "npuvec.block_idx"() : () -> index
    /// ```
    pub static BLOCK_IDX_OP: OpDef = OpDef {
        name: "npuvec.block_idx",
        summary: "index of the running core",
        results: Arity::Named(&[ValueDef::single("result", C::Index)]),
        traits: &[Trait::Pure],
        syntax: Some(&syntax::RESULT_TYPE_SYNTAX),
        interfaces: &[&Instruction(InstKind::Op(Opcode::BlockIdx))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.block_num`: the number of cores the kernel runs on, its `npuvec.block_dim`
    /// (pipe S, instruction `BlockNum`).
    ///
    /// ```mlir
    /// %n = npuvec.block_num : index
    /// %n = "npuvec.block_num"() : () -> index
    /// ```
    pub static BLOCK_NUM_OP: OpDef = OpDef {
        name: "npuvec.block_num",
        summary: "number of cores of the kernel",
        results: Arity::Named(&[ValueDef::single("result", C::Index)]),
        traits: &[Trait::Pure],
        syntax: Some(&syntax::RESULT_TYPE_SYNTAX),
        interfaces: &[&Instruction(InstKind::Op(Opcode::BlockNum))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.alloc`: an on-chip buffer not yet placed (before `plan-ub` gives it an offset).
    ///
    /// The result is a static 2-D memref in UB, L1, L0A, L0B or L0C. Effect: allocates its
    /// result in that space.
    ///
    /// ```mlir
    /// %b = npuvec.alloc : memref<8x64xf32, #npuvec.space<ub>>
    /// %b = "npuvec.alloc"() : () -> memref<8x64xf32, #npuvec.space<ub>>
    /// ```
    pub static ALLOC_OP: OpDef = OpDef {
        name: "npuvec.alloc",
        summary: "unplanned on-chip buffer",
        results: Arity::Named(&[ValueDef::single("buffer", C::AnyMemRef)]),
        verify: Some(v::verify_alloc),
        syntax: Some(&syntax::RESULT_TYPE_SYNTAX),
        interfaces: &[&ALLOCATES],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.buffer`: a planned on-chip buffer at fixed byte offsets of its space; two
    /// results are the two halves of a double-buffered one.
    ///
    /// `offsets` (`array<i64>`) has one entry per result, each a non-negative multiple of 32;
    /// the results are static 2-D memrefs of one type in a non-GM space. Effect: allocates
    /// its first result (the effects interface names single results only; the second half of a
    /// double buffer is allocated with it).
    ///
    /// ```mlir
    /// %b:2 = npuvec.buffer [0, 2048] : memref<8x64xf32, #npuvec.space<ub>>
    /// %b:2 = "npuvec.buffer"() <{offsets = array<i64: 0, 2048>}> : () -> (memref<8x64xf32, #npuvec.space<ub>>, memref<8x64xf32, #npuvec.space<ub>>)
    /// ```
    pub static BUFFER_OP: OpDef = OpDef {
        name: "npuvec.buffer",
        summary: "planned on-chip buffer",
        results: Arity::Named(&[
            ValueDef::single("ping", C::AnyMemRef),
            ValueDef::optional("pong", C::SameAs("ping")),
        ]),
        attrs: &[AttrSpec { name: "offsets", constraint: AttrConstraint::Any, optional: false }],
        verify: Some(v::verify_buffer),
        syntax: Some(&syntax::BUFFER_SYNTAX),
        interfaces: &[&ALLOCATES],
        ..OpDef::DEFAULT
    };
}
