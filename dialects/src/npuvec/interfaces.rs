//! The `npuvec` op interface: which kernel instruction an op is (one op is one instruction).
//! The instruction's facts (pipe, operand roles, mnemonic, encoding) are the ISA's, in
//! [`kiln_bytecode::opcode::OPCODES`]; the back end's passes, the emitter and the disassembler
//! read them through this declaration.

use kiln_bytecode::isa::{self, CmpPred, Pipe as IsaPipe, ReduceOp, Round, Space as IsaSpace};
use kiln_bytecode::module::Core as ModuleCore;
use kiln_bytecode::opcode::{InstKind, Opcode, PipeRule};
use kiln_compiler::{Ir, OpDef, OpId};

use super::attrs::{AtomicKind, CmpPredicate, Core, Pipe, ReduceKind, RoundMode, Space};

/// The interface of every `npuvec` op that becomes a kernel instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instruction(pub InstKind);

/// The instruction `def` is, when it is an `npuvec` kernel instruction.
pub fn instruction(def: &OpDef) -> Option<InstKind> {
    def.interface::<Instruction>().map(|i| i.0)
}

/// The `npuvec` op of instruction `kind`, when there is one (the disassembler's way back).
pub fn op_of(kind: InstKind) -> Option<&'static OpDef> {
    super::NPUVEC.ops.iter().copied().find(|&d| instruction(d) == Some(kind))
}

/// Conversions both ways between an `npuvec` enum attribute and the ISA enum of the same cases
/// (the attribute is the instruction field's spelling in IR).
macro_rules! same_cases {
    ($attr:ident, $isa:ident, [$($case:ident),+]) => {
        impl From<$isa> for $attr {
            fn from(v: $isa) -> $attr {
                match v { $($isa::$case => $attr::$case),+ }
            }
        }
        impl From<$attr> for $isa {
            fn from(v: $attr) -> $isa {
                match v { $($attr::$case => $isa::$case),+ }
            }
        }
    };
}

same_cases!(Pipe, IsaPipe, [S, V, Mte1, Mte2, Mte3, M, Fix, All]);
same_cases!(Space, IsaSpace, [Gm, Ub, L1, L0a, L0b, L0c]);
same_cases!(CmpPredicate, CmpPred, [Eq, Ne, Lt, Le, Gt, Ge]);
same_cases!(ReduceKind, ReduceOp, [Sum, Max, Min, Prod]);
same_cases!(RoundMode, Round, [Rint, Trunc, Floor, Ceil]);
same_cases!(Core, ModuleCore, [Aiv, Aic, Mix]);

impl From<AtomicKind> for isa::Atomic {
    fn from(v: AtomicKind) -> isa::Atomic {
        match v {
            AtomicKind::Add => isa::Atomic::Add,
            AtomicKind::Max => isa::Atomic::Max,
            AtomicKind::Min => isa::Atomic::Min,
        }
    }
}

impl AtomicKind {
    /// The attribute of an atomic store's read-modify-write (`None` for a plain store).
    pub fn of_isa(v: isa::Atomic) -> Option<AtomicKind> {
        match v {
            isa::Atomic::None => None,
            isa::Atomic::Add => Some(AtomicKind::Add),
            isa::Atomic::Max => Some(AtomicKind::Max),
            isa::Atomic::Min => Some(AtomicKind::Min),
        }
    }
}

/// The pipe `op` runs on, when it is an `npuvec` kernel instruction: the opcode's, or for a
/// flag or barrier the one it names (`src` of `set_flag`, `dst` of `wait_flag`, `pipe`).
pub fn pipe_of(ir: &Ir<'_>, op: OpId) -> Option<Pipe> {
    let opcode = instruction(ir.op(op).def?)?.opcode();
    match opcode.info().pipe {
        PipeRule::Fixed(pipe) => Some(pipe.into()),
        PipeRule::Named => {
            let attr = match opcode {
                Opcode::SetFlag => "src",
                Opcode::WaitFlag => "dst",
                _ => "pipe",
            };
            Pipe::of(ir.attr(op, attr)?)
        }
    }
}
