//! What an `npuvec` op touches and on which pipe it runs: the facts `kiln-codegen-plan-ub`
//! (lifetimes) and `kiln-codegen-insert-sync` (hazards) read. Both come from the instruction
//! the op declares and the ISA's table of instructions (`kiln_bytecode::opcode::OPCODES`): its
//! pipe and what it does with each operand (`sync::role_access`, which the eager direct path
//! reads its instructions with too).

use kiln_bytecode::opcode::{OpcodeInfo, Role};
use kiln_compiler::{Ir, OpId, TypeKind, ValueId};
use kiln_dialects::npuvec::interfaces::instruction;
use kiln_dialects::npuvec::Pipe;

use super::sync::role_access;

/// The instruction facts of `op`, when it is an `npuvec` instruction that touches buffers.
fn facts(ir: &Ir<'_>, op: OpId) -> Option<&'static OpcodeInfo> {
    let info = instruction(ir.op(op).def?)?.opcode().info();
    (!info.operands.is_empty()).then_some(info)
}

/// The pipe an `npuvec` op runs on, or `None` for ops that touch no buffer (scalar, flag and
/// barrier instructions, and the ops that are no instruction).
pub fn pipe_of(ir: &Ir<'_>, op: OpId) -> Option<Pipe> {
    facts(ir, op)?;
    kiln_dialects::npuvec::interfaces::pipe_of(ir, op)
}

/// One buffer operand of an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Touch {
    /// The memref value.
    pub value: ValueId,
    /// Read.
    pub read: bool,
    /// Written.
    pub write: bool,
}

/// The buffer operands of `op` with their roles (empty for ops without a pipe).
pub fn touches(ir: &Ir<'_>, op: OpId) -> Vec<Touch> {
    let Some(info) = facts(ir, op) else { return Vec::new() };
    let accumulate = ir.attr(op, "accumulate").is_some();
    let atomic = ir.attr(op, "atomic").is_some();
    info.operands
        .iter()
        .zip(ir.operands(op))
        .filter(|&(_, &v)| matches!(ir.value_type(v).kind(), TypeKind::MemRef { .. }))
        .filter_map(|(&role, &value)| {
            let reads_destination = match role {
                Role::Accumulate => accumulate,
                _ => atomic,
            };
            let (read, write) = role_access(role, reads_destination)?;
            Some(Touch { value, read, write })
        })
        .collect()
}
