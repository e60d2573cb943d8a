//! `kiln-codegen-insert-sync`: orders the pipes of each kernel with flags and barriers.
//!
//! The pipes (MTE2 loads, V vector, MTE3 stores, MTE1 moves, M cube, FIX fixpipe) run in
//! parallel; program order binds only ops of one pipe. Two accesses conflict when they touch
//! overlapping planned byte ranges of one memory (a GM buffer counts whole) and one of them
//! writes. For each op, in program order, every earlier conflicting access not yet ordered
//! before it gets:
//! - on another pipe `p`: `npuvec.set_flag {src = p, dst = q, event}` and
//!   `npuvec.wait_flag` of the same triple just before the op (the set signals once `p` has done
//!   everything issued before it, so the pair orders all of it, and can never deadlock);
//! - on the op's own pipe, when that is V (the vector pipe overlaps dependent ops; DMA, cube
//!   and fixpipe queues keep their order): `npuvec.barrier {pipe = v}` just before it.
//!
//! Bookkeeping per pipe pair (a vector clock, with what a waited-for pipe had itself waited
//! for) drops requests already implied by earlier pairs. Loops are walked twice, so that
//! accesses at the end of an iteration order the start of the next; both branches of an
//! `scf.if` start from the state before it and are joined after. A loop whose bounds do not
//! prove an iteration (a tile loop from `block_idx`: a core past the last tile runs none) is
//! joined after with the state before it, so that what follows it (the next tile loop of a
//! layout kernel) is not ordered by flags inside it. A kernel ends with
//! `npuvec.barrier {pipe = all}`.
//!
//! Loop-carried pairs (ping-pong flags): when the conflicts of an op on pipe `p` end at an op
//! *later in the same block* (so from the previous iteration of the loop around it), the pair
//! is split so that the waiting pipe is held no longer than needed: `set_flag` right after
//! that producer (at the tail), `wait_flag` before the consumer (at the head), one `set_flag`
//! before the loop and one `wait_flag` after it (the drain), so that sets and waits balance on
//! every path. In a double-buffered loop this is what lets the loads of one copy run while the
//! other is computed and stored. Event ids: 0 for the adjacent pairs (consumed where they are
//! set), 1 to 7 for the loop-carried pairs of each pipe pair (beyond 7, adjacent pairs).
//!
//! The rules above live without IR in `codegen/sync.rs`: the pass reads each kernel off the IR
//! (its `scf.for` and `scf.if` ops, its pipe ops with the planned ranges they touch, from
//! `codegen/access.rs`), takes where each pair and barrier goes from `sync::plan` and inserts
//! the ops. The eager direct path (`kiln-eager`'s `direct.rs`) takes its flags from the same
//! rules on its bytecode.
//!
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-plan-ub` ran (offsets are planned).
//! Guarantees: every cross-pipe conflict of the kernel is ordered by a flag pair, every
//! same-pipe one on V by a barrier (the VM's sync checker verifies the first claim on every run
//! with `--check`).

use kiln_compiler::InsertPoint;
use kiln_dialects::{arith, npuvec, scf};
use rustc_hash::FxHashMap;

use kiln_compiler::{BlockId, Context, Ir, OpId, TypeKind, ValueId};
use kiln_dialects::npuvec::{Pipe, Space};
use kiln_targets::Target;

use crate::codegen::access::{pipe_of, touches};
use crate::codegen::build::{i64_array_values, i64_attr, Builder};
use crate::codegen::options::{load_target, TARGET_SPECS};
use crate::codegen::sync::{may_skip, plan, Item, Memory, Touch};
use crate::kiln_codegen_plan_ub::buffer_bytes;
use crate::kiln_codegen_tile::kernels;

kiln_compiler::declare_pass! {
    struct InsertSync { target: Target }
    name: "kiln-codegen-insert-sync",
    summary: "Insert set_flag / wait_flag pairs and barriers between conflicting accesses",
    description: "Orders every conflicting pair of planned buffer accesses: flag pairs across pipes, \
                  barriers within a pipe, loop-carried conflicts included; a full barrier ends each kernel.",
    anchor: "builtin.module",
    options: TARGET_SPECS,
    create(o) {
        Ok(InsertSync { target: load_target("kiln-codegen-insert-sync", o)? })
    }

    fn run(&mut self, cx, root) {
        let mut inserted = 0;
        for kernel in kernels(cx.ir, root) {
            inserted += sync_kernel(cx.ctx, cx.ir, kernel, &self.target);
        }
        cx.add_statistic("num-sync-ops", "Number of flag and barrier ops inserted", inserted);
        Ok(())
    }
}

/// Inserts the sync ops of one kernel; returns how many.
fn sync_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId, target: &Target) -> u64 {
    let Some(body) = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)) else { return 0 };
    let args: FxHashMap<ValueId, usize> =
        ir.block_args(body).iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let plan = plan(&items(ir, body, &|v, write| touch(ir, target, &args, v, write)));
    let mut reqs: Vec<(OpId, Pipe, Pipe)> =
        plan.pairs.into_iter().map(|(op, p, q)| (op, p.into(), q.into())).collect();
    reqs.sort_by_key(|&(op, p, q)| (op, p, q));
    reqs.dedup();
    let mut carried: Vec<_> = plan
        .carried
        .into_iter()
        .map(|c| (c.consumer, c.producer, c.looped, Pipe::from(c.src), Pipe::from(c.dst), c.event))
        .collect();
    carried.sort();
    let n = (reqs.len() + 2 * carried.len()) as u64;
    let loc = ir.op(kernel).loc;
    for (consumer, producer, looped, src, dst, event) in carried {
        let attrs = [("src", src.attr(ctx)), ("dst", dst.attr(ctx)), ("event", i64_attr(ctx, event))];
        let after = |ir: &Ir<'c>, op: OpId| ir.next_op(op).expect("loops and stores are never last");
        let at = [
            (InsertPoint::Before(looped), &npuvec::SET_FLAG_OP),
            (InsertPoint::Before(consumer), &npuvec::WAIT_FLAG_OP),
            (InsertPoint::Before(after(ir, producer)), &npuvec::SET_FLAG_OP),
            (InsertPoint::Before(after(ir, looped)), &npuvec::WAIT_FLAG_OP),
        ];
        for (at, def) in at {
            Builder::new(ctx, ir, at, loc).op(def, &[], &attrs, &[], 0);
        }
    }
    for (op, p, q) in reqs {
        let mut b = Builder::new(ctx, ir, InsertPoint::Before(op), loc);
        if p == q {
            b.op(&npuvec::BARRIER_OP, &[], &[("pipe", q.attr(ctx))], &[], 0);
        } else {
            let attrs = [("src", p.attr(ctx)), ("dst", q.attr(ctx)), ("event", i64_attr(ctx, 0))];
            b.op(&npuvec::SET_FLAG_OP, &[], &attrs, &[], 0);
            b.op(&npuvec::WAIT_FLAG_OP, &[], &attrs, &[], 0);
        }
    }
    let term = ir.last_op(body).expect("kernels end in a return");
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(term), loc);
    b.op(&npuvec::BARRIER_OP, &[], &[("pipe", Pipe::All.attr(ctx))], &[], 0);
    n + 1
}

/// What reading or writing a buffer touches.
type TouchOf<'a> = dyn Fn(ValueId, bool) -> Option<Touch> + 'a;

/// The items of `block` for the rules: its `scf.for` and `scf.if` ops and its pipe
/// instructions with what (`touch`) their buffer operands touch.
fn items(ir: &Ir<'_>, block: BlockId, touch: &TouchOf<'_>) -> Vec<Item<OpId>> {
    let mut out = Vec::new();
    for op in ir.block_ops(block) {
        if ir.is(op, &scf::FOR_OP) {
            let inner = ir.entry_block(ir.regions(op)[0]).expect("loops have a body");
            out.push(Item::Loop { id: op, may_skip: loop_may_skip(ir, op), body: items(ir, inner, touch) });
        } else if ir.is(op, &scf::IF_OP) {
            let branches =
                ir.regions(op).iter().map(|&r| ir.entry_block(r).map_or(Vec::new(), |b| items(ir, b, touch)));
            out.push(Item::Branch { id: op, branches: branches.collect() });
        } else if let Some(q) = pipe_of(ir, op) {
            let touches = touches(ir, op).into_iter().filter_map(|t| touch(t.value, t.write));
            out.push(Item::Inst { id: op, pipe: q.into(), touches: touches.collect() });
        }
    }
    out
}

/// What reading (or with `write`, writing) buffer `v` touches: a kernel argument's whole GM
/// buffer (`args`: their indices), or the planned bytes of an on-chip buffer.
fn touch(
    ir: &Ir<'_>,
    target: &Target,
    args: &FxHashMap<ValueId, usize>,
    v: ValueId,
    write: bool,
) -> Option<Touch> {
    if let Some(&arg) = args.get(&v) {
        return Some(Touch::gm(arg, write));
    }
    let def = ir.defining_op(v)?;
    let ty = ir.value_type(v);
    let offset = ir.attr(def, "offsets").and_then(i64_array_values)?;
    let slot = ir.results(def).iter().position(|&r| r == v)?;
    let start = *offset.get(slot)? as u64;
    let space = match *ty.kind() {
        TypeKind::MemRef { memory_space: Some(s), .. } => Space::of(s)?,
        _ => return None,
    };
    let end = start + buffer_bytes(target, ty);
    Some(Touch { memory: Memory::Planned(space.into()), start, end, write })
}

/// Whether `scf.for` `op` may run no iteration ([`may_skip`] of its constant bounds).
fn loop_may_skip(ir: &Ir<'_>, op: OpId) -> bool {
    let constant = |v: ValueId| {
        ir.defining_op(v)
            .filter(|&d| ir.is(d, &arith::CONSTANT_OP))
            .and_then(|d| ir.attr(d, "value"))
            .and_then(|a| a.as_int())
    };
    let operands = ir.operands(op);
    may_skip(constant(operands[0]), constant(operands[1]))
}
