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
//! for) drops requests already implied by earlier pairs. Loops are walked twice, so that accesses at the end of an iteration order the start
//! of the next; both branches of an `scf.if` start from the state before it and are joined
//! after. A kernel ends with `npuvec.barrier {pipe = all}`. Event ids: 0 (a pair is consumed
//! where it is set).
//!
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-plan-ub` ran (offsets are planned).
//! Guarantees: every cross-pipe conflict of the kernel is ordered by a flag pair, every
//! same-pipe one on V by a barrier (the VM's sync checker verifies the first claim on every run
//! with `--check`).

use rustc_hash::FxHashMap;

use kiln_compiler::{Context, Ir, OpId, ValueId};
use kiln_targets::Target;

use crate::codegen::access::{pipe_of, touches};
use crate::codegen::build::{i64_array_values, i64_attr, npuvec_enum, At, Builder};
use crate::codegen::options::{load_target, TARGET_SPECS};
use crate::kiln_codegen_plan_ub::{buffer_bytes, space_of};
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

/// A memory region: (memory, first byte, one past the last).
type Range = (String, u64, u64);

/// One access recorded for later conflicts.
#[derive(Clone, Debug)]
struct Access {
    pipe: &'static str,
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
    clock: FxHashMap<&'static str, u64>,
    /// `ordered[(q, p)]`: everything of `p` up to this stamp is ordered before `q`'s next op.
    ordered: FxHashMap<(&'static str, &'static str), u64>,
}

impl State {
    /// `q` waits for everything `p` issued so far (a flag pair, or a barrier when equal).
    fn wait(&mut self, q: &'static str, p: &'static str) {
        let now = self.clock.get(p).copied().unwrap_or(0);
        self.ordered.insert((q, p), now);
        let inherited: Vec<(&'static str, u64)> = self
            .ordered
            .iter()
            .filter(|((x, r), _)| *x == p && *r != q)
            .map(|((_, r), &v)| (*r, v))
            .collect();
        for (r, v) in inherited {
            let e = self.ordered.entry((q, r)).or_insert(0);
            *e = (*e).max(v);
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
    requests: Vec<(OpId, &'static str, &'static str)>,
}

/// Inserts the sync ops of one kernel; returns how many.
fn sync_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId, target: &Target) -> u64 {
    let Some(body) = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)) else { return 0 };
    let args = ir.block_args(body).iter().enumerate().map(|(i, &v)| (v, i)).collect();
    let mut sync = Sync { target, args, requests: Vec::new() };
    let mut state = State::default();
    sync.block(ir, body, &mut state);
    let mut reqs = std::mem::take(&mut sync.requests);
    reqs.sort_by_key(|&(op, p, q)| (op, p, q));
    reqs.dedup();
    let n = reqs.len() as u64;
    let loc = ir.op(kernel).loc;
    for (op, p, q) in reqs {
        let mut b = Builder::new(ctx, ir, At::Before(op), loc);
        if p == q {
            b.op("npuvec.barrier", &[], &[("pipe", npuvec_enum(ctx, "pipe", q))], &[], 0);
        } else {
            let attrs = [
                ("src", npuvec_enum(ctx, "pipe", p)),
                ("dst", npuvec_enum(ctx, "pipe", q)),
                ("event", i64_attr(ctx, 0)),
            ];
            b.op("npuvec.set_flag", &[], &attrs, &[], 0);
            b.op("npuvec.wait_flag", &[], &attrs, &[], 0);
        }
    }
    let term = ir.last_op(body).expect("kernels end in a return");
    let mut b = Builder::new(ctx, ir, At::Before(term), loc);
    b.op("npuvec.barrier", &[], &[("pipe", npuvec_enum(ctx, "pipe", "all"))], &[], 0);
    n + 1
}

impl Sync<'_> {
    fn block(&mut self, ir: &Ir<'_>, block: kiln_compiler::BlockId, state: &mut State) {
        for op in ir.block_ops(block).collect::<Vec<_>>() {
            match ir.op(op).name {
                "scf.for" => {
                    let inner = ir.entry_block(ir.regions(op)[0]).expect("loops have a body");
                    self.block(ir, inner, state);
                    self.block(ir, inner, state);
                }
                "scf.if" => {
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
                }
                _ => self.op(ir, op, state),
            }
        }
    }

    fn range(&self, ir: &Ir<'_>, v: ValueId) -> Option<Range> {
        if let Some(&arg) = self.args.get(&v) {
            return Some((format!("gm{arg}"), 0, u64::MAX));
        }
        let def = ir.defining_op(v)?;
        let ty = ir.value_type(v);
        let offset = ir.attr(def, "offsets").and_then(i64_array_values)?;
        let slot = ir.results(def).iter().position(|&r| r == v)?;
        let start = *offset.get(slot)? as u64;
        Some((space_of(ty)?, start, start + buffer_bytes(self.target, ty)))
    }

    /// The pipes with an access that conflicts with `mine` (on pipe `q`) and is not ordered
    /// before it.
    fn unordered(&self, state: &State, q: &'static str, mine: &[(Range, bool)]) -> Vec<&'static str> {
        let mut pipes: Vec<&'static str> = Vec::new();
        for a in &state.accesses {
            let conflict = mine
                .iter()
                .any(|(r, w)| r.0 == a.range.0 && r.1 < a.range.2 && a.range.1 < r.2 && (*w || a.write));
            // DMA, cube and fixpipe queues run their own ops in order; the vector pipe overlaps
            // dependent ops unless a barrier separates them.
            let in_order = a.pipe == q && q != "v";
            let done = state.ordered.get(&(q, a.pipe)).copied().unwrap_or(0);
            if conflict && !in_order && a.stamp > done && !pipes.contains(&a.pipe) {
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
            let p = *need
                .iter()
                .max_by_key(|&&p| {
                    let mut trial = state.clone();
                    trial.wait(q, p);
                    std::cmp::Reverse(self.unordered(&trial, q, &mine).len())
                })
                .expect("need is not empty");
            self.requests.push((op, p, q));
            state.wait(q, p);
        }
        let stamp = {
            let c = state.clock.entry(q).or_insert(0);
            *c += 1;
            *c
        };
        for (range, write) in mine {
            state.accesses.push(Access { pipe: q, stamp, range, write });
        }
    }
}
