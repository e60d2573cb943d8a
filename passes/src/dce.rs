//! `dce`: dead code elimination.
//!
//! Rewrites: erases every op that has no regions, is not a terminator, whose results are all
//! unused, and whose memory effects are known and at most reads (or allocations of its own
//! results) — `Pure` ops, loads — repeatedly, so whole dead chains disappear (a worklist over
//! operand definitions, not recursion).
//! Assumes: verified IR. Ops with write or free effects, ops with unknown effects and ops of
//! unregistered dialects (which may have any effect) are kept.
//! Guarantees: only unobservable ops are removed; the IR still verifies.

use kiln_compiler::rewrite::is_trivially_dead;
use kiln_compiler::{ir::WalkOrder, OpId};

kiln_compiler::declare_pass! {
    struct Dce;
    name: "dce",
    summary: "Erase unused operations whose effects are unobservable",
    description: "Removes ops without uses that at most read memory, iterating over dead chains.",

    fn run(&mut self, cx, root) {
        let n = erase_dead(cx.ir, root);
        cx.add_statistic("num-erased", "Number of dead operations erased", n);
        Ok(())
    }
}

/// Erases dead ops nested in `root`; returns how many.
pub fn erase_dead(ir: &mut kiln_compiler::Ir<'_>, root: OpId) -> u64 {
    let mut worklist: Vec<OpId> = ir.walk(root, WalkOrder::PreOrder).filter(|&o| o != root).collect();
    let mut erased = 0;
    while let Some(op) = worklist.pop() {
        if !ir.contains_op(op) || !is_trivially_dead(ir, op) {
            continue;
        }
        worklist.extend(ir.operands(op).iter().filter_map(|&v| ir.defining_op(v)));
        ir.erase_op(op);
        erased += 1;
    }
    erased
}
