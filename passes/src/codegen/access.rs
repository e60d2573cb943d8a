//! What an `npuvec` op touches and on which pipe it runs: the facts `kiln-codegen-plan-ub`
//! (lifetimes) and `kiln-codegen-insert-sync` (hazards) read. Destination style: of an op's
//! memref operands the last is written (and read too with `accumulate`), the others are read.

use kiln_compiler::{Ir, OpId, TypeKind, ValueId};
use kiln_dialects::npuvec::Pipe;

/// The pipe an `npuvec` op runs on, or `None` for ops that touch no buffer.
pub fn pipe_of(ir: &Ir<'_>, op: OpId) -> Option<Pipe> {
    let name = ir.op(op).name.strip_prefix("npuvec.")?;
    Some(match name {
        "load" | "gather" => Pipe::Mte2,
        "store" => Pipe::Mte3,
        "move" => Pipe::Mte1,
        "mmad" => Pipe::M,
        "fixpipe" => Pipe::Fix,
        "alloc" | "buffer" | "block_idx" | "block_num" | "set_flag" | "wait_flag" | "barrier" | "launch"
        | "reshape" | "constant" => return None,
        _ => Pipe::V,
    })
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
    if pipe_of(ir, op).is_none() {
        return Vec::new();
    }
    let memrefs: Vec<ValueId> = ir
        .operands(op)
        .iter()
        .copied()
        .filter(|&v| matches!(ir.value_type(v).kind(), TypeKind::MemRef { .. }))
        .collect();
    let accumulate = ir.attr(op, "accumulate").is_some();
    let n = memrefs.len();
    memrefs
        .into_iter()
        .enumerate()
        .map(|(i, value)| {
            let last = i + 1 == n;
            Touch { value, read: !last || accumulate, write: last }
        })
        .collect()
}
