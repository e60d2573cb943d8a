//! The `npuvec` op interface: the pipe an op runs on (one op is one instruction, and every
//! instruction runs on one pipe), read by the sync and emission passes from the declaration.

use kiln_compiler::{Ir, OpId};

use super::attrs::Pipe;

/// Where an op's pipe comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PipeOf {
    /// Always this pipe.
    Fixed(Pipe),
    /// The pipe held by this inherent attribute (`dst` of `npuvec.wait_flag`, `pipe` of
    /// `npuvec.barrier`).
    Attr(&'static str),
}

/// The interface of every `npuvec` op that becomes a kernel instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnPipe(pub PipeOf);

/// The pipe `op` runs on, when it is an `npuvec` kernel instruction.
pub fn pipe_of(ir: &Ir<'_>, op: OpId) -> Option<Pipe> {
    match ir.op(op).def?.interface::<OnPipe>()?.0 {
        PipeOf::Fixed(pipe) => Some(pipe),
        PipeOf::Attr(name) => Pipe::of(ir.attr(op, name)?),
    }
}
