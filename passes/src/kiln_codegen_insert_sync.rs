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
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-plan-ub` ran (offsets are planned).
//! Guarantees: every cross-pipe conflict of the kernel is ordered by a flag pair, every
//! same-pipe one on V by a barrier (the VM's sync checker verifies the first claim on every run
//! with `--check`).

use kiln_compiler::InsertPoint;
use kiln_dialects::{arith, npuvec, scf};
use rustc_hash::FxHashMap;

use kiln_compiler::{Context, Ir, OpId, TypeKind, ValueId};
use kiln_dialects::npuvec::{Pipe, Space};
use kiln_targets::Target;

use crate::codegen::access::{pipe_of, touches};
use crate::codegen::build::{i64_array_values, i64_attr, Builder};
use crate::codegen::options::{load_target, TARGET_SPECS};
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

/// A memory: GM argument `i` (a buffer counts whole), or the planned buffers of a space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Memory {
    Gm(usize),
    Planned(Space),
}

/// A memory region: (memory, first byte, one past the last).
type Range = (Memory, u64, u64);

/// One access recorded for later conflicts.
#[derive(Clone, Debug)]
struct Access {
    op: OpId,
    /// What its pipe had been ordered after when it was issued (`(r, stamp)` pairs).
    inherit: Vec<(Pipe, u64)>,
    pipe: Pipe,
    /// The pipe's op count when it was issued (its vector-clock stamp).
    stamp: u64,
    range: Range,
    write: bool,
}

/// What is known at a point of the kernel.
#[derive(Clone, Debug, Default)]
struct State {
    accesses: Vec<Access>,
    /// Ops issued so far per pipe.
    clock: FxHashMap<Pipe, u64>,
    /// `ordered[(q, p)]`: everything of `p` up to this stamp is ordered before `q`'s next op.
    ordered: FxHashMap<(Pipe, Pipe), u64>,
}

impl State {
    /// What `p` is ordered after now.
    fn inherited(&self, p: Pipe) -> Vec<(Pipe, u64)> {
        let mut v: Vec<(Pipe, u64)> =
            self.ordered.iter().filter(|((x, _), _)| *x == p).map(|((_, r), &v)| (*r, v)).collect();
        v.sort_unstable();
        v
    }

    /// `q` waits for everything `p` issued so far (a flag pair, or a barrier when equal).
    fn wait(&mut self, q: Pipe, p: Pipe) {
        let now = self.clock.get(&p).copied().unwrap_or(0);
        let inherit = self.inherited(p);
        self.wait_upto(q, p, now, &inherit);
    }

    /// `q` waits for `p`'s ops up to `stamp`, which came after what `inherit` lists.
    fn wait_upto(&mut self, q: Pipe, p: Pipe, stamp: u64, inherit: &[(Pipe, u64)]) {
        let e = self.ordered.entry((q, p)).or_insert(0);
        *e = (*e).max(stamp);
        for &(r, v) in inherit {
            if r != q {
                let e = self.ordered.entry((q, r)).or_insert(0);
                *e = (*e).max(v);
            }
        }
    }

    /// Joins the state at the end of another branch that started, as this one, from a state
    /// of `shared` accesses (those are not repeated: repeats would double the list at every
    /// `scf.if`).
    fn join(&mut self, other: &State, shared: usize) {
        self.accesses.extend(other.accesses[shared..].iter().cloned());
        for (&p, &c) in &other.clock {
            let e = self.clock.entry(p).or_insert(0);
            *e = (*e).max(c);
        }
        let keys: Vec<_> = self.ordered.keys().copied().collect();
        for k in keys {
            let v = other.ordered.get(&k).copied().unwrap_or(0).min(self.ordered[&k]);
            self.ordered.insert(k, v);
        }
    }
}

struct Sync<'t> {
    target: &'t Target,
    /// The GM argument index of each kernel argument.
    args: FxHashMap<ValueId, usize>,
    /// Sync ops to create: before `op`, from pipe `src` to pipe `dst` (a barrier when equal).
    requests: Vec<(OpId, Pipe, Pipe)>,
    /// Loop-carried flag pairs.
    carried: Vec<Carried>,
    /// Each op's position in its block.
    position: FxHashMap<OpId, usize>,
    /// The loops being walked, innermost last, with the clock at the start of the current walk
    /// of their body.
    walks: Vec<(OpId, FxHashMap<Pipe, u64>)>,
}

/// A flag pair across iterations of `looped`, all four ops in its body's block or around the
/// loop: `wait` before `consumer`, `set` after `producer` (not earlier in the block), one `set`
/// before the loop and one `wait` after it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Carried {
    consumer: OpId,
    producer: OpId,
    looped: OpId,
    src: Pipe,
    dst: Pipe,
    event: i64,
}

/// What a loop-carried pair orders: `(consumer, producer, loop)` in the loop body's block, and
/// the stamp and inheritance of the latest access it waits for.
struct CarriedChoice {
    consumer: OpId,
    producer: OpId,
    looped: OpId,
    stamp: u64,
    inherit: Vec<(Pipe, u64)>,
}

/// Event ids a kernel's loop-carried pairs of one pipe pair take (0 is the adjacent pairs').
const CARRIED_EVENTS: i64 = 7;

/// Inserts the sync ops of one kernel; returns how many.
fn sync_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId, target: &Target) -> u64 {
    let Some(body) = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)) else { return 0 };
    let args = ir.block_args(body).iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut position = FxHashMap::default();
    for op in ir.walk(kernel, kiln_compiler::ir::WalkOrder::PreOrder) {
        let index = ir.parent_block(op).map_or(0, |b| ir.block_ops(b).position(|o| o == op).unwrap_or(0));
        position.insert(op, index);
    }
    let mut sync =
        Sync { target, args, requests: Vec::new(), carried: Vec::new(), position, walks: Vec::new() };
    let mut state = State::default();
    sync.block(ir, body, &mut state);
    let mut reqs = std::mem::take(&mut sync.requests);
    reqs.sort_by_key(|&(op, p, q)| (op, p, q));
    reqs.dedup();
    let mut carried = std::mem::take(&mut sync.carried);
    carried.sort();
    let n = (reqs.len() + 2 * carried.len()) as u64;
    let loc = ir.op(kernel).loc;
    for c in carried {
        let attrs = [("src", c.src.attr(ctx)), ("dst", c.dst.attr(ctx)), ("event", i64_attr(ctx, c.event))];
        let after = |ir: &Ir<'c>, op: OpId| ir.next_op(op).expect("loops and stores are never last");
        let at = [
            (InsertPoint::Before(c.looped), &npuvec::SET_FLAG_OP),
            (InsertPoint::Before(c.consumer), &npuvec::WAIT_FLAG_OP),
            (InsertPoint::Before(after(ir, c.producer)), &npuvec::SET_FLAG_OP),
            (InsertPoint::Before(after(ir, c.looped)), &npuvec::WAIT_FLAG_OP),
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

impl Sync<'_> {
    fn block(&mut self, ir: &Ir<'_>, block: kiln_compiler::BlockId, state: &mut State) {
        for op in ir.block_ops(block).collect::<Vec<_>>() {
            if ir.is(op, &scf::FOR_OP) {
                let inner = ir.entry_block(ir.regions(op)[0]).expect("loops have a body");
                let before = may_skip(ir, op).then(|| state.clone());
                self.walks.push((op, state.clock.clone()));
                self.block(ir, inner, state);
                self.walks.last_mut().expect("pushed above").1 = state.clock.clone();
                self.block(ir, inner, state);
                self.walks.pop();
                // A loop that may run no iteration orders nothing after it.
                if let Some(mut skipped) = before {
                    skipped.join(state, skipped.accesses.len());
                    *state = skipped;
                }
            } else if ir.is(op, &scf::IF_OP) {
                let before = state.clone();
                let mut joined: Option<State> = None;
                for &r in ir.regions(op) {
                    let mut branch = before.clone();
                    if let Some(b) = ir.entry_block(r) {
                        self.block(ir, b, &mut branch);
                    }
                    match &mut joined {
                        None => joined = Some(branch),
                        Some(j) => j.join(&branch, before.accesses.len()),
                    }
                }
                *state = joined.unwrap_or(before);
            } else {
                self.op(ir, op, state);
            }
        }
    }

    fn range(&self, ir: &Ir<'_>, v: ValueId) -> Option<Range> {
        if let Some(&arg) = self.args.get(&v) {
            return Some((Memory::Gm(arg), 0, u64::MAX));
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
        Some((Memory::Planned(space), start, start + buffer_bytes(self.target, ty)))
    }

    /// The pipes with an access that conflicts with `mine` (on pipe `q`) and is not ordered
    /// before it.
    fn unordered(&self, state: &State, q: Pipe, mine: &[(Range, bool)]) -> Vec<Pipe> {
        let mut pipes: Vec<Pipe> = Vec::new();
        for a in &state.accesses {
            // DMA, cube and fixpipe queues run their own ops in order; the vector pipe overlaps
            // dependent ops unless a barrier separates them.
            let in_order = a.pipe == q && q != Pipe::V;
            if in_order || pipes.contains(&a.pipe) {
                continue;
            }
            let conflict = mine
                .iter()
                .any(|(r, w)| r.0 == a.range.0 && r.1 < a.range.2 && a.range.1 < r.2 && (*w || a.write));
            // (The map lookup last: most accesses do not conflict.)
            if conflict && a.stamp > state.ordered.get(&(q, a.pipe)).copied().unwrap_or(0) {
                pipes.push(a.pipe);
            }
        }
        pipes
    }

    fn op(&mut self, ir: &Ir<'_>, op: OpId, state: &mut State) {
        let Some(q) = pipe_of(ir, op) else { return };
        let mine: Vec<(Range, bool)> =
            touches(ir, op).into_iter().filter_map(|t| Some((self.range(ir, t.value)?, t.write))).collect();
        // Unordered conflicting accesses: pick the pipe whose wait also orders the most of the
        // others (what it waited for comes along), until none is left.
        loop {
            let need = self.unordered(state, q, &mine);
            if need.is_empty() {
                break;
            }
            // (A single candidate needs no trial.)
            let p = match need[..] {
                [only] => only,
                _ => *need
                    .iter()
                    .max_by_key(|&&p| {
                        let mut trial = state.clone();
                        let choice = self.carried_from(ir, &trial, op, q, p, &mine);
                        Self::apply(&mut trial, q, p, choice.as_ref());
                        std::cmp::Reverse(self.unordered(&trial, q, &mine).len())
                    })
                    .expect("need is not empty"),
            };
            let choice = self.carried_from(ir, state, op, q, p, &mine);
            match &choice {
                Some(c) => self.carry(c, p, q),
                None => self.requests.push((op, p, q)),
            }
            Self::apply(state, q, p, choice.as_ref());
        }
        let stamp = {
            let c = state.clock.entry(q).or_insert(0);
            *c += 1;
            *c
        };
        let inherit = state.inherited(q);
        for (range, write) in mine {
            state.accesses.push(Access { op, inherit: inherit.clone(), pipe: q, stamp, range, write });
        }
    }

    /// Orders `q` after `p`: everything so far, or what a loop-carried pair orders.
    fn apply(state: &mut State, q: Pipe, p: Pipe, carried: Option<&CarriedChoice>) {
        match carried {
            Some(c) => state.wait_upto(q, p, c.stamp, &c.inherit),
            None => state.wait(q, p),
        }
    }

    /// A loop-carried pair for `op` (on `q`) waiting for `p`, when one orders all of its
    /// unordered conflicts on `p`: every one comes from an earlier iteration of the innermost
    /// loop being walked (or from before the loop), and inside the loop body from an op not
    /// before the one that holds `op`. Then one wait before that op and one set after the last
    /// of them, at the level of the loop body, run once per iteration each.
    fn carried_from(
        &self,
        ir: &Ir<'_>,
        state: &State,
        op: OpId,
        q: Pipe,
        p: Pipe,
        mine: &[(Range, bool)],
    ) -> Option<CarriedChoice> {
        if p == q || self.requests.contains(&(op, p, q)) {
            return None;
        }
        let (looped, start) = self.walks.last()?;
        let start = start.get(&p).copied().unwrap_or(0);
        let done = state.ordered.get(&(q, p)).copied().unwrap_or(0);
        let conflicts: Vec<&Access> = state
            .accesses
            .iter()
            .filter(|a| a.pipe == p && a.stamp > done)
            .filter(|a| {
                mine.iter()
                    .any(|(r, w)| r.0 == a.range.0 && r.1 < a.range.2 && a.range.1 < r.2 && (*w || a.write))
            })
            .collect();
        if conflicts.iter().any(|a| a.stamp > start) {
            return None; // issued earlier in this iteration: an adjacent pair
        }
        let body = ir.entry_block(ir.regions(*looped)[0])?;
        let consumer = ancestor_in(ir, op, body)?;
        let mut producer: Option<OpId> = None;
        for a in &conflicts {
            if let Some(x) = ancestor_in(ir, a.op, body) {
                if self.position[&x] < self.position[&consumer] {
                    return None;
                }
                if producer.is_none_or(|y| self.position[&x] > self.position[&y]) {
                    producer = Some(x);
                }
            }
        }
        let producer = producer?;
        let same = |c: &&Carried| c.src == p && c.dst == q;
        let known = self.carried.iter().any(|c| c.consumer == consumer && same(&c));
        if !known && self.carried.iter().filter(same).count() as i64 >= CARRIED_EVENTS {
            return None;
        }
        let last = conflicts.iter().max_by_key(|a| a.stamp)?;
        Some(CarriedChoice {
            consumer,
            producer,
            looped: *looped,
            stamp: last.stamp,
            inherit: last.inherit.clone(),
        })
    }

    /// Records a carried pair (one per consumer and pipe pair, set after its latest producer).
    fn carry(&mut self, c: &CarriedChoice, src: Pipe, dst: Pipe) {
        let position = &self.position;
        if let Some(known) =
            self.carried.iter_mut().find(|k| k.consumer == c.consumer && k.src == src && k.dst == dst)
        {
            if position[&c.producer] > position[&known.producer] {
                known.producer = c.producer;
            }
            return;
        }
        let event = 1 + self.carried.iter().filter(|k| k.src == src && k.dst == dst).count() as i64;
        self.carried.push(Carried {
            consumer: c.consumer,
            producer: c.producer,
            looped: c.looped,
            src,
            dst,
            event,
        });
    }
}

/// Whether `scf.for` `op` may run no iteration: its bounds are not constants with the lower
/// below the upper (a tile loop from `block_idx` runs none on the cores past the last tile).
fn may_skip(ir: &Ir<'_>, op: OpId) -> bool {
    let constant = |v: ValueId| {
        ir.defining_op(v)
            .filter(|&d| ir.is(d, &arith::CONSTANT_OP))
            .and_then(|d| ir.attr(d, "value"))
            .and_then(|a| a.as_int())
    };
    let operands = ir.operands(op);
    !matches!((constant(operands[0]), constant(operands[1])), (Some(lb), Some(ub)) if lb < ub)
}

/// The op of `block` that is or contains `op`.
fn ancestor_in(ir: &Ir<'_>, op: OpId, block: kiln_compiler::BlockId) -> Option<OpId> {
    let mut at = op;
    loop {
        if ir.parent_block(at) == Some(block) {
            return Some(at);
        }
        at = ir.parent_op(at)?;
    }
}
