//! Every instruction's facts, in one table: its encoding byte, its mnemonic, the pipe it runs
//! on and what it does with each of its operands. The IR side (an `npuvec` op names its
//! [`InstKind`]), the emitter, the disassembler, the loader, `kiln-codegen`'s access analysis
//! and `kiln-codegen-insert-sync`, and the VM's access reports all read these facts here.
//!
//! Operands are listed in *assembly order*: the order in which the `npuvec` op of the
//! instruction takes them (`ins(sources) outs(destination)`: `npuvec.load ins(%gm[%offset])
//! outs(%ub)`), and the order of [`Inst::operands`](crate::isa::Inst::operands).

use crate::isa::{BinaryOp, Pipe, ScalarOp, UnaryOp};

/// An instruction's opcode: the first byte of its encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opcode {
    /// `dst = value`.
    Const,
    /// Scalar arithmetic on registers.
    Scalar,
    /// The core's block index.
    BlockIdx,
    /// The kernel's block count.
    BlockNum,
    /// A counted loop over the next instructions.
    For,
    /// A two-way branch over the next instructions.
    If,
    /// DMA GM -> UB or L1.
    Load,
    /// DMA UB -> GM.
    Store,
    /// Indexed DMA GM -> UB.
    Gather,
    /// UB -> UB copy.
    Copy,
    /// An elementwise function.
    Unary,
    /// Elementwise arithmetic of two sources.
    Binary,
    /// An elementwise comparison into a mask.
    Cmp,
    /// An elementwise choice by a mask.
    Select,
    /// A row reduction.
    Reduce,
    /// A broadcast along rows or columns.
    Broadcast,
    /// A fill with one value.
    Fill,
    /// An element type conversion.
    Cast,
    /// A blockwise transpose.
    Transpose,
    /// L1 -> L0A / L0B.
    MoveL1,
    /// A cube multiply-accumulate.
    Mmad,
    /// L0C -> UB.
    Fixpipe,
    /// Signals an event between pipes.
    SetFlag,
    /// Waits for an event.
    WaitFlag,
    /// Orders a pipe (or all).
    Barrier,
}

/// What an instruction does with one operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A buffer it reads, or an immediate.
    Read,
    /// A buffer it writes.
    Write,
    /// A buffer it writes, after reading it when the instruction accumulates (`accumulate`).
    Accumulate,
    /// A GM view it reads (the view's argument; its offset is the next operand).
    GmRead,
    /// A GM view it writes, after reading it when the store is atomic.
    GmWrite,
    /// A scalar: a register it reads (an offset, a bound) or an immediate.
    Scalar,
}

/// Where the pipe of an instruction comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipeRule {
    /// Always this pipe.
    Fixed(Pipe),
    /// The signalling pipe of a `SetFlag`, the waiting pipe of a `WaitFlag`, a `Barrier`'s
    /// own: named by the instruction.
    Named,
}

/// The facts of one opcode.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeInfo {
    /// The opcode.
    pub opcode: Opcode,
    /// The encoding's first byte.
    pub code: u8,
    /// The name in messages and traces.
    pub mnemonic: &'static str,
    /// The pipe it runs on.
    pub pipe: PipeRule,
    /// Its operands in assembly order (scalar-unit instructions, which only touch registers,
    /// list none).
    pub operands: &'static [Role],
}

use PipeRule::{Fixed, Named};
use Role::{Accumulate, GmRead, GmWrite, Read, Scalar as Sc, Write};

const fn info(
    opcode: Opcode,
    code: u8,
    mnemonic: &'static str,
    pipe: PipeRule,
    operands: &'static [Role],
) -> OpcodeInfo {
    OpcodeInfo { opcode, code, mnemonic, pipe, operands }
}

/// The table, in encoding order.
pub const OPCODES: [OpcodeInfo; 25] = [
    info(Opcode::Const, 0x01, "const", Fixed(Pipe::S), &[]),
    info(Opcode::Scalar, 0x02, "scalar", Fixed(Pipe::S), &[]),
    info(Opcode::BlockIdx, 0x03, "block_idx", Fixed(Pipe::S), &[]),
    info(Opcode::BlockNum, 0x04, "block_num", Fixed(Pipe::S), &[]),
    info(Opcode::For, 0x05, "for", Fixed(Pipe::S), &[]),
    info(Opcode::If, 0x06, "if", Fixed(Pipe::S), &[]),
    info(Opcode::Load, 0x10, "load", Fixed(Pipe::Mte2), &[GmRead, Sc, Write]),
    info(Opcode::Store, 0x11, "store", Fixed(Pipe::Mte3), &[Read, GmWrite, Sc]),
    info(Opcode::Gather, 0x12, "gather", Fixed(Pipe::Mte2), &[GmRead, Sc, GmRead, Sc, Write]),
    info(Opcode::Copy, 0x20, "copy", Fixed(Pipe::V), &[Read, Write]),
    info(Opcode::Unary, 0x21, "unary", Fixed(Pipe::V), &[Read, Write]),
    info(Opcode::Binary, 0x22, "binary", Fixed(Pipe::V), &[Read, Read, Write]),
    info(Opcode::Cmp, 0x23, "cmp", Fixed(Pipe::V), &[Read, Read, Write]),
    info(Opcode::Select, 0x24, "select", Fixed(Pipe::V), &[Read, Read, Read, Write]),
    info(Opcode::Reduce, 0x25, "reduce", Fixed(Pipe::V), &[Read, Accumulate]),
    info(Opcode::Broadcast, 0x26, "broadcast", Fixed(Pipe::V), &[Read, Write]),
    info(Opcode::Fill, 0x27, "fill", Fixed(Pipe::V), &[Sc, Write]),
    info(Opcode::Cast, 0x28, "cast", Fixed(Pipe::V), &[Read, Write]),
    info(Opcode::Transpose, 0x29, "transpose", Fixed(Pipe::V), &[Read, Write]),
    info(Opcode::MoveL1, 0x30, "move_l1", Fixed(Pipe::Mte1), &[Read, Write]),
    info(Opcode::Mmad, 0x31, "mmad", Fixed(Pipe::M), &[Read, Read, Accumulate]),
    info(Opcode::Fixpipe, 0x32, "fixpipe", Fixed(Pipe::Fix), &[Read, Write]),
    info(Opcode::SetFlag, 0x40, "set_flag", Named, &[]),
    info(Opcode::WaitFlag, 0x41, "wait_flag", Named, &[]),
    info(Opcode::Barrier, 0x42, "barrier", Named, &[]),
];

impl Opcode {
    /// The opcode's facts.
    pub fn info(self) -> &'static OpcodeInfo {
        &OPCODES[self as usize]
    }

    /// The opcode encoded as `code`.
    pub fn of_code(code: u8) -> Option<Opcode> {
        OPCODES.iter().find(|i| i.code == code).map(|i| i.opcode)
    }
}

/// What an `npuvec` op becomes: an opcode and, for the unary, binary and scalar families, the
/// member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// An instruction that is not a family member.
    Op(Opcode),
    /// A member of the unary family.
    Unary(UnaryOp),
    /// A member of the binary family.
    Binary(BinaryOp),
    /// A member of the scalar family.
    Scalar(ScalarOp),
}

impl InstKind {
    /// The opcode.
    pub fn opcode(self) -> Opcode {
        match self {
            InstKind::Op(op) => op,
            InstKind::Unary(_) => Opcode::Unary,
            InstKind::Binary(_) => Opcode::Binary,
            InstKind::Scalar(_) => Opcode::Scalar,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_opcode_order_with_distinct_codes() {
        for (i, info) in OPCODES.iter().enumerate() {
            assert_eq!(info.opcode as usize, i, "{:?} out of place", info.opcode);
            assert_eq!(Opcode::of_code(info.code), Some(info.opcode));
        }
        let mut codes: Vec<u8> = OPCODES.iter().map(|i| i.code).collect();
        codes.dedup();
        assert_eq!(codes.len(), OPCODES.len());
    }
}
