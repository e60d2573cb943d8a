//! The cube ops: `npuvec.mmad` (pipe M) and `npuvec.fixpipe` (pipe FIX).

use kiln_compiler::dialect::effects::MemoryEffects;
use kiln_compiler::{Arity, AttrConstraint, AttrSpec, OpDef, TypeConstraint as C, ValueDef};

use super::{read, write, READ0_WRITE1, SRC_DST};
use crate::npuvec::interfaces::Instruction;
use crate::npuvec::{syntax, verify::cube as v};
use kiln_bytecode::opcode::{InstKind, Opcode};

kiln_compiler::op_def! {
    /// `npuvec.mmad`: `acc (+)= lhs x rhs` on the cube (pipe M, instruction `Mmad`).
    ///
    /// `lhs` is `[m, k]` in L0A, `rhs` `[k, n]` in L0B (one element type), `acc` `[m, n]` of
    /// `f32` in L0C; `m`, `k` and `n` are multiples of the 16x16x16 fractal. With `accumulate`
    /// the product is added to `acc` instead of overwriting it. Effects: reads `lhs`, `rhs`
    /// and `acc`, writes `acc`.
    ///
    /// ```mlir
    /// npuvec.mmad ins(%a, %b : memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>) outs(%c : memref<16x16xf32, #npuvec.space<l0c>>) {accumulate}
    /// "npuvec.mmad"(%a, %b, %c) <{accumulate}> : (memref<16x32xf16, #npuvec.space<l0a>>, memref<32x16xf16, #npuvec.space<l0b>>, memref<16x16xf32, #npuvec.space<l0c>>) -> ()
    /// ```
    pub static MMAD_OP: OpDef = OpDef {
        name: "npuvec.mmad",
        summary: "cube matrix multiply-accumulate",
        operands: Arity::Named(&[
            ValueDef::single("lhs", C::AnyMemRef),
            ValueDef::single("rhs", C::AnyMemRef),
            ValueDef::single("acc", C::AnyMemRef),
        ]),
        attrs: &[AttrSpec { name: "accumulate", constraint: AttrConstraint::Unit, optional: true }],
        verify: Some(v::verify_mmad),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&MemoryEffects(&[read(0), read(1), read(2), write(2)]), &Instruction(InstKind::Op(Opcode::Mmad))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.fixpipe`: L0C -> UB, casting to `dst`'s element type (pipe FIX, instruction
    /// `Fixpipe`).
    ///
    /// `src` (L0C) and `dst` (UB) have one shape; with `relu`, `max(x, 0)` is applied on the
    /// way. Effects: reads `src`, writes `dst`.
    ///
    /// ```mlir
    /// npuvec.fixpipe ins(%c : memref<16x16xf32, #npuvec.space<l0c>>) outs(%u : memref<16x16xf16, #npuvec.space<ub>>) {relu}
    /// "npuvec.fixpipe"(%c, %u) <{relu}> : (memref<16x16xf32, #npuvec.space<l0c>>, memref<16x16xf16, #npuvec.space<ub>>) -> ()
    /// ```
    pub static FIXPIPE_OP: OpDef = OpDef {
        name: "npuvec.fixpipe",
        summary: "L0C to UB transfer with cast and relu",
        operands: Arity::Named(SRC_DST),
        attrs: &[AttrSpec { name: "relu", constraint: AttrConstraint::Unit, optional: true }],
        verify: Some(v::verify_fixpipe),
        syntax: Some(&syntax::DPS_SYNTAX),
        interfaces: &[&READ0_WRITE1, &Instruction(InstKind::Op(Opcode::Fixpipe))],
        ..OpDef::DEFAULT
    };
}
