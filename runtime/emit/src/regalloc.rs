//! Register allocation for a kernel's scalar values: linear scan over live intervals.
//!
//! Ops are numbered in pre-order (the order their instructions are emitted in). A value is
//! live from its definition to its last use, where a use inside an `scf.for` that does not
//! contain the definition counts as a use at the end of that loop (the value is read on every
//! iteration), the bounds of a loop are live to its end, and an induction variable is live for
//! its whole loop. At each definition the intervals that ended before it are freed and the
//! lowest free register is taken, so the allocation is deterministic. A value whose defining op
//! carries `npuvec.reg = N` gets register `N` (the disassembler writes it, so that a round
//! trip re-emits the same registers); it is an error when `N` is still held by a live value.

use kiln_dialects::scf;
use std::collections::{BTreeSet, HashMap};

use kiln_bytecode::isa::{Reg, NUM_REGS};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::{Diagnostic, Ir, OpId, ValueId};

use crate::read::Res;

/// The pre-order numbering of a kernel's ops and the last position inside each op.
pub struct Positions {
    pos: HashMap<OpId, usize>,
    end: HashMap<OpId, usize>,
}

impl Positions {
    /// Numbers the ops of `func` (itself included) in pre-order.
    pub fn new(ir: &Ir<'_>, func: OpId) -> Self {
        let order: Vec<OpId> = ir.walk(func, WalkOrder::PreOrder).collect();
        let pos: HashMap<OpId, usize> = order.iter().enumerate().map(|(i, &op)| (op, i)).collect();
        let mut end: HashMap<OpId, usize> = HashMap::new();
        for (i, &op) in order.iter().enumerate() {
            let mut at = Some(op);
            while let Some(a) = at {
                let e = end.entry(a).or_insert(i);
                *e = (*e).max(i);
                at = if a == func { None } else { ir.parent_op(a) };
            }
        }
        Positions { pos, end }
    }

    /// The position of `op`.
    pub fn of(&self, op: OpId) -> usize {
        self.pos.get(&op).copied().unwrap_or(0)
    }

    /// The last position inside `op` (its own when it has no regions).
    pub fn end_of(&self, op: OpId) -> usize {
        self.end.get(&op).copied().unwrap_or_else(|| self.of(op))
    }
}

/// A value that needs a register, defined by `op` at its position.
pub struct Def {
    /// The value.
    pub value: ValueId,
    /// The op that writes it (an `scf.for` for an induction variable).
    pub op: OpId,
    /// The register `npuvec.reg` asks for (for a launch parameter: its register).
    pub fixed: Option<u8>,
}

/// The position after which `def` is dead.
fn live_end(ir: &Ir<'_>, func: OpId, at: &Positions, def: &Def) -> usize {
    let start = at.of(def.op);
    let is_iv = ir.is(def.op, &scf::FOR_OP) && !ir.results(def.op).contains(&def.value);
    let mut end = if is_iv { at.end_of(def.op) } else { start };
    for user in ir.uses(def.value).iter().map(|u| u.op).collect::<Vec<_>>() {
        let mut p = if ir.is(user, &scf::FOR_OP) { at.end_of(user) } else { at.of(user) };
        let mut a = ir.parent_op(user);
        while let Some(anc) = a.filter(|&a| a != func) {
            if ir.is(anc, &scf::FOR_OP) && at.of(anc) > start {
                p = p.max(at.end_of(anc));
            }
            a = ir.parent_op(anc);
        }
        end = end.max(p);
    }
    end
}

/// Assigns a register to every def (given in program order).
pub fn allocate<'c>(ir: &Ir<'c>, func: OpId, at: &Positions, defs: &[Def]) -> Res<'c, HashMap<ValueId, Reg>> {
    let mut out = HashMap::new();
    let mut free: BTreeSet<u8> = (0..NUM_REGS as u8).collect();
    // Live intervals as (end, register), ended ones freed before each definition.
    let mut live: Vec<(usize, u8, ValueId)> = Vec::new();
    for def in defs {
        let start = at.of(def.op);
        live.retain(|&(end, r, _)| {
            let keep = end >= start;
            if !keep {
                free.insert(r);
            }
            keep
        });
        let reg = match def.fixed {
            Some(r) if !free.contains(&r) => {
                let holder = live.iter().find(|l| l.1 == r).map(|l| l.2);
                let msg = format!("asks for register r{r} (`npuvec.reg`), which another live value holds");
                let mut d = Diagnostic::op_error(ir, def.op, msg);
                if let Some(op) = holder.and_then(|v| ir.defining_op(v)) {
                    d = d.with_note(ir.op(op).loc, "the value in that register is defined here");
                }
                return Err(d);
            }
            Some(r) => r,
            None => match free.first() {
                Some(&r) => r,
                None => {
                    return Err(Diagnostic::op_error(
                        ir,
                        def.op,
                        format!("needs a register, but all {NUM_REGS} registers hold live values"),
                    ))
                }
            },
        };
        free.remove(&reg);
        live.push((live_end(ir, func, at, def), reg, def.value));
        out.insert(def.value, Reg(reg));
    }
    Ok(out)
}
