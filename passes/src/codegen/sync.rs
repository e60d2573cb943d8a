//! The decisions of `kiln-codegen-insert-sync`, without IR: where a kernel needs flag pairs
//! and barriers between the pipes, and with which event ids. The pass gives [`plan`] its
//! kernels as [`Item`]s read off `npuvec` IR; the eager direct path (`kiln-eager`'s
//! `direct.rs`), which builds no IR, gives it the instructions of its kernel (what each
//! touches read with [`role_access`], as `access.rs` reads an op). Each then writes the
//! [`Plan`] out in its own form (sync ops before and after IR ops, instructions in the
//! bytecode) and ends the kernel with a barrier of all pipes.
//!
//! The rules (see the pass's header for why): two accesses conflict when they touch
//! overlapping byte ranges of one memory and one of them writes ([`Touch::conflicts`]). An
//! instruction waits for every earlier conflicting access not yet ordered before it: across
//! pipes with a flag pair, on its own pipe only when that is V (a barrier). A vector clock per
//! pipe pair, with what a waited-for pipe had itself waited for, drops what earlier pairs
//! already order; when several pipes are waited for, the one whose wait orders the most of
//! the others goes first. Loops are walked twice (the end of an iteration orders the start of
//! the next); a loop that may run no iteration orders nothing after it; branches start from
//! the state before them and are joined after. A wait whose conflicts all come from an
//! earlier iteration of the innermost loop is a loop-carried pair ([`Carried`]), with event
//! ids 1 to [`CARRIED_EVENTS`] per pipe pair; the other pairs take event 0.

use std::cmp::Reverse;

use kiln_bytecode::isa::{Pipe, Space};
use kiln_bytecode::opcode::Role;
use smallvec::SmallVec;

/// A memory: GM argument `i` (a buffer counts whole), or the planned buffers of a space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// A kernel argument's GM buffer (kernels have at most `u16::MAX` arguments).
    Gm(u32),
    /// The buffers of an on-chip space, by planned offset.
    Planned(Space),
}

/// A byte range of a memory that an instruction reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Touch {
    /// The memory.
    pub memory: Memory,
    /// The first byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
    /// Written (else only read).
    pub write: bool,
}

impl Touch {
    /// The whole GM buffer of kernel argument `arg`.
    pub fn gm(arg: usize, write: bool) -> Touch {
        let arg = u32::try_from(arg).unwrap_or(u32::MAX);
        Touch { memory: Memory::Gm(arg), start: 0, end: u64::MAX, write }
    }

    /// Whether `self` and `other` conflict: they overlap in one memory and one of them writes.
    pub fn conflicts(&self, other: &Touch) -> bool {
        (self.write || other.write)
            && self.start < other.end
            && other.start < self.end
            && self.memory == other.memory
    }
}

/// What an instruction does with an operand of `role`: `(read, written)`, or `None` for a
/// scalar operand. `reads_destination`: the instruction reads what it accumulates into or
/// stores to (an accumulating reduction or matmul, an atomic store).
pub fn role_access(role: Role, reads_destination: bool) -> Option<(bool, bool)> {
    match role {
        Role::Read | Role::GmRead => Some((true, false)),
        Role::Write => Some((false, true)),
        Role::Accumulate | Role::GmWrite => Some((reads_destination, true)),
        Role::Scalar => None,
    }
}

/// Whether a loop from `lower` to `upper` (when they are constants) may run no iteration:
/// unless both are constants with the lower below the upper (a tile loop from the core's
/// index runs none on the cores past the last tile).
pub fn may_skip(lower: Option<i128>, upper: Option<i128>) -> bool {
    !matches!((lower, upper), (Some(l), Some(u)) if l < u)
}

/// A kernel's code as the rules see it, in program order.
#[derive(Clone, Debug)]
pub enum Item<Id> {
    /// An instruction on `pipe` that touches `touches` (any pipe instruction, even one that
    /// touches nothing: it still counts on its pipe).
    Inst {
        /// The caller's name for it.
        id: Id,
        /// Its pipe.
        pipe: Pipe,
        /// What it reads and writes.
        touches: SmallVec<[Touch; 3]>,
    },
    /// A loop.
    Loop {
        /// The caller's name for it.
        id: Id,
        /// It may run no iteration ([`may_skip`]).
        may_skip: bool,
        /// Its body.
        body: Vec<Item<Id>>,
    },
    /// A conditional: one of `branches` runs (an empty one for a missing `else`).
    Branch {
        /// The caller's name for it.
        id: Id,
        /// Its branches.
        branches: Vec<Vec<Item<Id>>>,
    },
}

/// A flag pair across iterations of `looped`, whose four ops go in its body or around it:
/// `wait_flag` before `consumer`, `set_flag` after `producer` (both items of the body, the
/// producer not before the consumer), one `set_flag` before the loop and one `wait_flag` after
/// it (the drain), so that sets and waits balance on every path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried<Id> {
    /// The item of the loop body the wait goes before.
    pub consumer: Id,
    /// The item of the loop body the set goes after.
    pub producer: Id,
    /// The loop.
    pub looped: Id,
    /// The signalling pipe.
    pub src: Pipe,
    /// The waiting pipe.
    pub dst: Pipe,
    /// Its event id, 1 to [`CARRIED_EVENTS`].
    pub event: i64,
}

/// Where a kernel's flag pairs and barriers go.
#[derive(Clone, Debug)]
pub struct Plan<Id> {
    /// Just before instruction `.0`: a `set_flag` and `wait_flag` from pipe `.1` to pipe `.2`
    /// with event 0, or a barrier of the pipe when the two are one. In the order found; the
    /// same request may come more than once.
    pub pairs: Vec<(Id, Pipe, Pipe)>,
    /// The loop-carried pairs, in the order found.
    pub carried: Vec<Carried<Id>>,
}

/// Event ids a kernel's loop-carried pairs of one pipe pair take (0 is the adjacent pairs').
pub const CARRIED_EVENTS: i64 = 7;

/// The sync of `kernel` (its body's items): [`Plan`].
pub fn plan<Id: Copy>(kernel: &[Item<Id>]) -> Plan<Id> {
    let (nodes, issues) = count(kernel);
    let mut sync = Sync {
        nodes: Vec::with_capacity(nodes),
        requests: Vec::with_capacity(issues),
        carried: Vec::new(),
        issued: Vec::with_capacity(issues),
        walks: Vec::new(),
    };
    let mut state = State { accesses: Vec::with_capacity(issues), clocks: Clocks::default() };
    sync.block(kernel, 0, None, &mut state);
    let id = |n: usize| sync.nodes[n].id;
    Plan {
        pairs: sync.requests.iter().map(|&(n, p, q)| (id(n), p, q)).collect(),
        carried: sync
            .carried
            .iter()
            .map(|c| Carried {
                consumer: id(c.consumer),
                producer: id(c.producer),
                looped: id(c.looped),
                src: c.src,
                dst: c.dst,
                event: c.event,
            })
            .collect(),
    }
}

/// The items of `items`, and the instructions issued walking them (loop bodies are walked
/// twice).
fn count<Id>(items: &[Item<Id>]) -> (usize, usize) {
    let (mut nodes, mut issues) = (items.len(), 0);
    for item in items {
        let (n, i) = match item {
            Item::Inst { .. } => (0, 1),
            Item::Loop { body, .. } => {
                let (n, i) = count(body);
                (n, 2 * i)
            }
            Item::Branch { branches, .. } => {
                branches.iter().map(|b| count(b)).fold((0, 0), |(n, i), (m, j)| (n + m, i + j))
            }
        };
        (nodes, issues) = (nodes + n, issues + i);
    }
    (nodes, issues)
}

/// Pipes, as array indices.
const PIPES: usize = Pipe::ALL.len();

/// Per pipe `r`: everything of `r` up to this stamp.
type Stamps = [u64; PIPES];

/// The accesses of one issued instruction, recorded for later conflicts.
#[derive(Clone, Debug)]
struct Access<'a> {
    touches: &'a [Touch],
    /// The pipe's op count when it was issued (its vector-clock stamp).
    stamp: u64,
    pipe: Pipe,
    /// The node of its instruction.
    node: u32,
    /// The issue it came from (what its pipe had been ordered after then:
    /// `Sync::issued`).
    issue: u32,
}

/// The vector clocks at a point of the kernel.
#[derive(Clone, Copy, Debug, Default)]
struct Clocks {
    /// Ops issued so far per pipe.
    clock: Stamps,
    /// `ordered[q][p]`: everything of `p` up to this stamp is ordered before `q`'s next op.
    ordered: [Stamps; PIPES],
}

impl Clocks {
    /// `q` waits for everything `p` issued so far (a flag pair, or a barrier when equal).
    fn wait(&mut self, q: Pipe, p: Pipe) {
        let inherit = self.ordered[p as usize];
        self.wait_upto(q, p, self.clock[p as usize], &inherit);
    }

    /// `q` waits for `p`'s ops up to `stamp`, which came after what `inherit` lists.
    fn wait_upto(&mut self, q: Pipe, p: Pipe, stamp: u64, inherit: &Stamps) {
        let row = &mut self.ordered[q as usize];
        row[p as usize] = row[p as usize].max(stamp);
        for (r, &v) in inherit.iter().enumerate() {
            if r != q as usize {
                row[r] = row[r].max(v);
            }
        }
    }

    /// Orders `q` after `p`: everything so far, or what a loop-carried pair orders.
    fn apply(&mut self, q: Pipe, p: Pipe, carried: Option<&CarriedChoice>) {
        match carried {
            Some(c) => self.wait_upto(q, p, c.stamp, &c.inherit),
            None => self.wait(q, p),
        }
    }
}

/// What is known at a point of the kernel.
#[derive(Debug)]
struct State<'a> {
    accesses: Vec<Access<'a>>,
    clocks: Clocks,
}

impl Clocks {
    /// Joins the clocks at the end of another path from the same point: what both have
    /// issued, what both order.
    fn join(&mut self, other: &Clocks) {
        for (c, &o) in self.clock.iter_mut().zip(&other.clock) {
            *c = (*c).max(o);
        }
        for (row, other_row) in self.ordered.iter_mut().zip(&other.ordered) {
            for (v, &o) in row.iter_mut().zip(other_row) {
                *v = (*v).min(o);
            }
        }
    }
}

/// An item's place: the loop or branch it is in, and its index in its block.
struct Node<Id> {
    id: Id,
    parent: Option<usize>,
    position: usize,
}

/// A loop-carried pair between nodes.
struct CarriedNodes {
    consumer: usize,
    producer: usize,
    looped: usize,
    src: Pipe,
    dst: Pipe,
    event: i64,
}

/// What a loop-carried pair orders: `(consumer, producer, loop)` in the loop body, and the
/// stamp and inheritance of the latest access it waits for.
struct CarriedChoice {
    consumer: usize,
    producer: usize,
    looped: usize,
    stamp: u64,
    inherit: Stamps,
}

struct Sync<Id> {
    /// The items, numbered in program order (a loop before its body).
    nodes: Vec<Node<Id>>,
    /// Sync ops to create: before node `.0`, from pipe `.1` to pipe `.2` (a barrier when equal).
    requests: Vec<(usize, Pipe, Pipe)>,
    carried: Vec<CarriedNodes>,
    /// What the pipe of each issued instruction had been ordered after when it was issued
    /// (one entry per walk of an instruction; accesses name theirs).
    issued: Vec<Stamps>,
    /// The loops being walked, innermost last, with the clock at the start of the current walk
    /// of their body.
    walks: Vec<(usize, Stamps)>,
}

impl<'a, Id: Copy> Sync<Id> {
    /// Walks `items`, the first numbered `first`, in `parent`; returns the number after them.
    fn block(
        &mut self,
        items: &'a [Item<Id>],
        first: usize,
        parent: Option<usize>,
        state: &mut State<'a>,
    ) -> usize {
        let mut at = first;
        for (position, item) in items.iter().enumerate() {
            let id = match item {
                Item::Inst { id, .. } | Item::Loop { id, .. } | Item::Branch { id, .. } => *id,
            };
            if at == self.nodes.len() {
                self.nodes.push(Node { id, parent, position });
            }
            at = match item {
                Item::Loop { may_skip, body, .. } => {
                    let before = state.clocks;
                    self.walks.push((at, state.clocks.clock));
                    self.block(body, at + 1, Some(at), state);
                    self.walks.last_mut().expect("pushed above").1 = state.clocks.clock;
                    let end = self.block(body, at + 1, Some(at), state);
                    self.walks.pop();
                    // A loop that may run no iteration orders nothing after it (its accesses
                    // stay: they may have run).
                    if *may_skip {
                        state.clocks.join(&before);
                    }
                    end
                }
                Item::Branch { branches, .. } => {
                    // Each branch starts from the state before it; the joined state has the
                    // accesses of all of them, in order.
                    let (shared, before) = (state.accesses.len(), state.clocks);
                    let mut joined: Option<Clocks> = None;
                    let mut taken: Vec<Access<'a>> = Vec::new();
                    let mut end = at + 1;
                    for b in branches {
                        state.clocks = before;
                        end = self.block(b, end, Some(at), state);
                        taken.extend(state.accesses.drain(shared..));
                        match &mut joined {
                            None => joined = Some(state.clocks),
                            Some(j) => j.join(&state.clocks),
                        }
                    }
                    state.accesses.extend(taken);
                    state.clocks = joined.unwrap_or(before);
                    end
                }
                Item::Inst { pipe, touches, .. } => {
                    self.op(at, *pipe, touches, state);
                    at + 1
                }
            };
        }
        at
    }

    /// The pipes with an access among `conflicts` (indices into `accesses`) that is not ordered
    /// before pipe `q` by `clocks`, in the order of their first such access.
    fn unordered(
        accesses: &[Access<'a>],
        conflicts: &[usize],
        clocks: &Clocks,
        q: Pipe,
    ) -> SmallVec<[Pipe; 4]> {
        let mut pipes = SmallVec::new();
        for a in conflicts.iter().map(|&i| &accesses[i]) {
            if !pipes.contains(&a.pipe) && a.stamp > clocks.ordered[q as usize][a.pipe as usize] {
                pipes.push(a.pipe);
            }
        }
        pipes
    }

    fn op(&mut self, node: usize, q: Pipe, mine: &'a [Touch], state: &mut State<'a>) {
        // The earlier accesses that conflict with `mine` and are not ordered before `q` yet
        // (the ordering only grows while `q` waits for them). DMA, cube and fixpipe queues run
        // their own ops in order; the vector pipe overlaps dependent ops unless a barrier
        // separates them.
        let done = state.clocks.ordered[q as usize];
        let mut conflicts: SmallVec<[usize; 16]> = SmallVec::new();
        for (i, a) in state.accesses.iter().enumerate() {
            let in_order = a.pipe == q && q != Pipe::V;
            if a.stamp > done[a.pipe as usize]
                && !in_order
                && a.touches.iter().any(|x| mine.iter().any(|t| t.conflicts(x)))
            {
                conflicts.push(i);
            }
        }
        // Unordered conflicting accesses: pick the pipe whose wait also orders the most of the
        // others (what it waited for comes along), until none is left.
        loop {
            let need = Self::unordered(&state.accesses, &conflicts, &state.clocks, q);
            if need.is_empty() {
                break;
            }
            // (A single candidate needs no trial.)
            let p = match need[..] {
                [only] => only,
                _ => *need
                    .iter()
                    .max_by_key(|&&p| {
                        let mut trial = state.clocks;
                        let choice = self.carried_from(state, &conflicts, node, q, p);
                        trial.apply(q, p, choice.as_ref());
                        Reverse(Self::unordered(&state.accesses, &conflicts, &trial, q).len())
                    })
                    .expect("need is not empty"),
            };
            let choice = self.carried_from(state, &conflicts, node, q, p);
            match &choice {
                Some(c) => self.carry(c, p, q),
                None => self.requests.push((node, p, q)),
            }
            state.clocks.apply(q, p, choice.as_ref());
        }
        let clock = &mut state.clocks.clock[q as usize];
        *clock += 1;
        let stamp = *clock;
        if !mine.is_empty() {
            let issue = self.issued.len() as u32;
            self.issued.push(state.clocks.ordered[q as usize]);
            state.accesses.push(Access { touches: mine, stamp, pipe: q, node: node as u32, issue });
        }
    }

    /// The node of `looped`'s body that is or contains `node`.
    fn ancestor_in(&self, node: usize, looped: usize) -> Option<usize> {
        let mut at = node;
        loop {
            let parent = self.nodes[at].parent?;
            if parent == looped {
                return Some(at);
            }
            at = parent;
        }
    }

    /// A loop-carried pair for `node` (on `q`) waiting for `p`, when one orders all of its
    /// unordered conflicts on `p` (among `conflicts`): every one comes from an earlier iteration
    /// of the innermost loop being walked (or from before the loop), and inside the loop body
    /// from an item not before the one that holds `node`. Then one wait before that item and one
    /// set after the last of them, at the level of the loop body, run once per iteration each.
    fn carried_from(
        &self,
        state: &State<'a>,
        conflicts: &[usize],
        node: usize,
        q: Pipe,
        p: Pipe,
    ) -> Option<CarriedChoice> {
        if p == q || self.requests.contains(&(node, p, q)) {
            return None;
        }
        let &(looped, start) = self.walks.last()?;
        let start = start[p as usize];
        let done = state.clocks.ordered[q as usize][p as usize];
        let consumer = self.ancestor_in(node, looped)?;
        let position = |n: usize| self.nodes[n].position;
        let mut producer: Option<usize> = None;
        let mut last: Option<&Access<'a>> = None;
        let conflicts =
            conflicts.iter().map(|&i| &state.accesses[i]).filter(|a| a.pipe == p && a.stamp > done);
        for a in conflicts {
            if a.stamp > start {
                return None; // issued earlier in this iteration: an adjacent pair
            }
            if let Some(x) = self.ancestor_in(a.node as usize, looped) {
                if position(x) < position(consumer) {
                    return None;
                }
                if producer.is_none_or(|y| position(x) > position(y)) {
                    producer = Some(x);
                }
            }
            if last.is_none_or(|l| a.stamp >= l.stamp) {
                last = Some(a);
            }
        }
        let producer = producer?;
        let same = |c: &&CarriedNodes| c.src == p && c.dst == q;
        let known = self.carried.iter().any(|c| c.consumer == consumer && same(&c));
        if !known && self.carried.iter().filter(same).count() as i64 >= CARRIED_EVENTS {
            return None;
        }
        let last = last?;
        let inherit = self.issued[last.issue as usize];
        Some(CarriedChoice { consumer, producer, looped, stamp: last.stamp, inherit })
    }

    /// Records a carried pair (one per consumer and pipe pair, set after its latest producer).
    fn carry(&mut self, c: &CarriedChoice, src: Pipe, dst: Pipe) {
        let nodes = &self.nodes;
        if let Some(known) =
            self.carried.iter_mut().find(|k| k.consumer == c.consumer && k.src == src && k.dst == dst)
        {
            if nodes[c.producer].position > nodes[known.producer].position {
                known.producer = c.producer;
            }
            return;
        }
        let event = 1 + self.carried.iter().filter(|k| k.src == src && k.dst == dst).count() as i64;
        self.carried.push(CarriedNodes {
            consumer: c.consumer,
            producer: c.producer,
            looped: c.looped,
            src,
            dst,
            event,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ub(start: u64, end: u64, write: bool) -> Touch {
        Touch { memory: Memory::Planned(Space::Ub), start, end, write }
    }

    fn inst(id: u32, pipe: Pipe, touches: &[Touch]) -> Item<u32> {
        Item::Inst { id, pipe, touches: touches.iter().copied().collect() }
    }

    /// A tile: load GM 0 into [0, 64), compute [0, 64) -> [64, 128), then in place, store.
    fn tile(first: u32) -> Vec<Item<u32>> {
        vec![
            inst(first, Pipe::Mte2, &[Touch::gm(0, false), ub(0, 64, true)]),
            inst(first + 1, Pipe::V, &[ub(0, 64, false), ub(64, 128, true)]),
            inst(first + 2, Pipe::V, &[ub(64, 128, false), ub(64, 128, true)]),
            inst(first + 3, Pipe::Mte3, &[ub(64, 128, false), Touch::gm(1, true)]),
        ]
    }

    #[test]
    fn straight_code_waits_across_pipes_and_barriers_the_vector_pipe() {
        let plan = plan(&tile(0));
        assert_eq!(
            plan.pairs,
            vec![(1, Pipe::Mte2, Pipe::V), (2, Pipe::V, Pipe::V), (3, Pipe::V, Pipe::Mte3)]
        );
        assert!(plan.carried.is_empty());
    }

    #[test]
    fn a_tile_loop_carries_its_pairs_across_iterations() {
        let plan = plan(&[Item::Loop { id: 100, may_skip: true, body: tile(0) }]);
        // The next tile's load waits for this tile's read of its buffer, the next tile's first
        // vector op for this tile's store of its output: ping-pong pairs, set after the producer
        // and waited for before the consumer.
        let carried =
            |consumer, producer, src, dst| Carried { consumer, producer, looped: 100, src, dst, event: 1 };
        assert_eq!(
            plan.carried,
            vec![carried(0, 1, Pipe::V, Pipe::Mte2), carried(1, 3, Pipe::Mte3, Pipe::V)]
        );
        // The vector op of the next tile overwrites what this one's last wrote: a barrier.
        assert!(plan.pairs.contains(&(1, Pipe::V, Pipe::V)));
    }

    #[test]
    fn a_branch_after_a_loop_that_may_not_run_waits_for_the_loop() {
        let mut kernel = vec![Item::Loop { id: 100, may_skip: true, body: tile(0) }];
        kernel.push(Item::Branch { id: 200, branches: vec![tile(10), Vec::new()] });
        let plan = plan(&kernel);
        // The tail waits for the loop's last tile by adjacent pairs: no loop holds them.
        for pair in [(10, Pipe::V, Pipe::Mte2), (11, Pipe::Mte3, Pipe::V), (11, Pipe::V, Pipe::V)] {
            assert!(plan.pairs.contains(&pair), "{pair:?} in {:?}", plan.pairs);
        }
        assert_eq!(plan.carried.len(), 2);
    }

    #[test]
    fn loops_may_skip_unless_their_bounds_prove_an_iteration() {
        assert!(!may_skip(Some(0), Some(3)));
        assert!(may_skip(Some(3), Some(3)));
        assert!(may_skip(None, Some(3)));
        assert!(may_skip(Some(0), None));
    }

    #[test]
    fn only_overlapping_bytes_of_one_memory_with_a_write_conflict() {
        assert!(ub(0, 64, true).conflicts(&ub(32, 96, false)));
        assert!(!ub(0, 64, false).conflicts(&ub(32, 96, false)));
        assert!(!ub(0, 64, true).conflicts(&ub(64, 96, true)));
        assert!(!Touch::gm(0, true).conflicts(&Touch::gm(1, true)));
        assert!(Touch::gm(0, true).conflicts(&Touch::gm(0, false)));
    }
}
