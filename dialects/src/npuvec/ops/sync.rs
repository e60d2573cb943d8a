//! The sync ops: `npuvec.set_flag` / `npuvec.wait_flag` between two pipes and
//! `npuvec.barrier` within one. They act on the core's flags ([`SYNC_EFFECTS`]), so `dce` and
//! `cse` keep them.

use kiln_compiler::{AttrConstraint, AttrSpec, OpDef};

use super::SYNC_EFFECTS;
use crate::npuvec::attrs::PIPE;
use crate::npuvec::interfaces::Instruction;
use crate::npuvec::{syntax, verify::sync as v};
use kiln_bytecode::opcode::{InstKind, Opcode};

/// `src` and `dst` pipes and an `event` id.
const FLAG_ATTRS: &[AttrSpec] = &[
    AttrSpec { name: "src", constraint: AttrConstraint::DialectAttr(&PIPE), optional: false },
    AttrSpec { name: "dst", constraint: AttrConstraint::DialectAttr(&PIPE), optional: false },
    AttrSpec { name: "event", constraint: AttrConstraint::Integer, optional: false },
];

kiln_compiler::op_def! {
    /// `npuvec.set_flag`: signals event `event` from pipe `src` to pipe `dst` once `src` has
    /// finished everything issued before it (runs on `src`, instruction `SetFlag`).
    ///
    /// `src` and `dst` are different pipes, neither `all`; `event` is in 0..7.
    ///
    /// ```mlir
    /// npuvec.set_flag mte2 -> v event 0
    /// "npuvec.set_flag"() <{dst = #npuvec.pipe<v>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
    /// ```
    pub static SET_FLAG_OP: OpDef = OpDef {
        name: "npuvec.set_flag",
        summary: "signal an event between pipes",
        attrs: FLAG_ATTRS,
        verify: Some(v::verify_flag),
        syntax: Some(&syntax::FLAG_SYNTAX),
        interfaces: &[&SYNC_EFFECTS, &Instruction(InstKind::Op(Opcode::SetFlag))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.wait_flag`: blocks pipe `dst` until event `event` from pipe `src` has been set,
    /// and consumes it (runs on `dst`, instruction `WaitFlag`).
    ///
    /// Operands as `npuvec.set_flag`'s.
    ///
    /// ```mlir
    /// npuvec.wait_flag mte2 -> v event 0
    /// "npuvec.wait_flag"() <{dst = #npuvec.pipe<v>, event = 0 : i64, src = #npuvec.pipe<mte2>}> : () -> ()
    /// ```
    pub static WAIT_FLAG_OP: OpDef = OpDef {
        name: "npuvec.wait_flag",
        summary: "wait for an event between pipes",
        attrs: FLAG_ATTRS,
        verify: Some(v::verify_flag),
        syntax: Some(&syntax::FLAG_SYNTAX),
        interfaces: &[&SYNC_EFFECTS, &Instruction(InstKind::Op(Opcode::WaitFlag))],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.barrier`: orders everything issued on `pipe` (`all`: on every pipe) before what
    /// follows (instruction `Barrier`).
    ///
    /// ```mlir
    /// npuvec.barrier v
    /// "npuvec.barrier"() <{pipe = #npuvec.pipe<v>}> : () -> ()
    /// ```
    pub static BARRIER_OP: OpDef = OpDef {
        name: "npuvec.barrier",
        summary: "barrier within a pipe",
        attrs: &[AttrSpec { name: "pipe", constraint: AttrConstraint::DialectAttr(&PIPE), optional: false }],
        syntax: Some(&syntax::BARRIER_SYNTAX),
        interfaces: &[&SYNC_EFFECTS, &Instruction(InstKind::Op(Opcode::Barrier))],
        ..OpDef::DEFAULT
    };
}
