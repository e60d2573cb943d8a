//! Elementwise groups: a run of consecutive `f32` `Unary` / `Binary` instructions over UB
//! buffers of one shape, run block by block instead of instruction by instruction.
//!
//! Contract. A group is found once per kernel (when a core is set up) and replaces the
//! one-at-a-time execution of its instructions (unless `VmConfig::fast_paths` is off); in an
//! observed run each member is reported after the group, as executing it alone would report
//! it: its pc, pipe, UB accesses (fixed buffers, no register moves them) and work. Its members are
//! `Unary` and `Binary` instructions with a float form, every destination (and unary source) an
//! `f32` UB buffer of the group's shape, every binary source one too, or one broadcasting a row or a column of that shape
//! (numpy's rule, as the row loops apply it), or an immediate; `Barrier`s between members
//! belong to it too (they order nothing in a sequential core). Every two of its buffers are the
//! same buffer (same address, pitch and shape) or have disjoint byte spans, and it has at most
//! [`MAX_SLOTS`] of them; a broadcast buffer is therefore never written by the group. Then lane
//! `(r, c)` of every member reads only lane `(r, c)` of its full-shape sources, written (if at
//! all) by earlier members at the same lane, and fixed values of its broadcast ones. So running
//! all members over [`BLOCK`] lanes before the next block, with each buffer's block held in a
//! slot (loaded where the group reads it before writing it, or read in place if the group never
//! writes it; stored where it writes it), gives
//! the same bits as running them one after another: the same lane functions
//! ([`crate::vector::float_unary`] /
//! [`crate::vector::float_binary`]) on the same values. Intermediate rows then stay in L1 rather
//! than streaming through the UB once per instruction. A buffer that is exactly a pending load
//! ([`crate::lazy`]) is read from its GM bytes instead, which are the bytes the load would have
//! copied. A binary member followed by a unary one in place on its destination runs as one
//! pass ([`fuse_pairs`]): the unary lane function applied to the binary one's result, the same
//! two `f32` roundings, without storing and reloading the block between them. The last member
//! to write a buffer in a block, if no later member reads it, writes the buffer's UB bytes
//! directly instead of its slot ([`direct_writes`]): the same bytes, one copy fewer. While a
//! block computes, the next block's source lines are prefetched into L1
//! ([`crate::prefetch::near`]), so that its first member does not wait on them.
//!
//! A group counts as its instructions would: one step per instruction plus its vector repeats,
//! and each instruction's work. A run whose budget the group would exhaust, or a group that
//! would run past the region the core is in (the end of a branch or loop body), falls back to
//! one instruction at a time, so budget errors keep their instruction.

use std::ops::Range;

use kiln_bytecode::isa::{BinaryOp, Buf, DType, Inst, Space, Src, UnaryOp};

/// Lanes per block of a group.
pub(crate) const BLOCK: usize = 512;
use crate::event::Work;
use crate::gm::Args;
use crate::lanes::Lane;
use crate::lazy::{Deferred, Lazy, Span};
use crate::mem::{Mem, Region};
use crate::prefetch::Prefetch;
use crate::vector::{float_binary, float_unary, FloatMap, FloatZip};

/// The most distinct buffers of a group.
pub(crate) const MAX_SLOTS: usize = 8;

/// The most distinct immediates of a group.
const MAX_IMMS: usize = 4;

/// One lane block of a slot.
pub(crate) type Block = Box<[f32; BLOCK]>;

/// A member's operation.
#[derive(Clone, Copy)]
enum Op {
    Unary(UnaryOp),
    Binary(BinaryOp),
    /// A binary op and the unary op after it in place on its destination, in one pass.
    BinaryThen(BinaryOp, UnaryOp),
}

/// A member: `slot[dst] = op(slot[a], slot[b])` (`b` unused for a unary op). Slots
/// `MAX_SLOTS..` hold the immediates, splatted.
struct Member {
    op: Op,
    dst: usize,
    a: usize,
    b: usize,
    /// It writes its destination for the last time in a block, and no later member reads it:
    /// it writes the UB bytes directly (see [`direct_writes`]).
    direct: bool,
}

/// A buffer of a group: its rows, and how a source broadcasts to the group's shape.
#[derive(Clone, Copy)]
struct Slot {
    region: Region,
    /// One row, read for every row.
    one_row: bool,
    /// One column: its element splat over the row.
    one_col: bool,
}

/// A run of instructions executed together (see the module documentation).
pub(crate) struct Group {
    /// The instruction one past the group.
    pub end: usize,
    members: Vec<Member>,
    /// Its elementwise instructions (members before [`fuse_pairs`]): the pace of its
    /// prefetch, one line per vector repeat as for single instructions.
    ops: usize,
    /// Each distinct buffer.
    bufs: Vec<Slot>,
    /// The immediates, after the buffers in slot order.
    imms: Vec<f32>,
    /// Buffers the group reads before it writes them (loaded for every block).
    live_in: Vec<usize>,
    /// Buffers the group writes (stored after every block).
    written: Vec<usize>,
    /// Per buffer: the group reads it and never writes it.
    read_only: [bool; MAX_SLOTS],
    /// The buffers by address (their UB bytes are disjoint, so the UB splits into them).
    by_addr: Vec<usize>,
    /// Rows and lanes per row of every buffer.
    rows: usize,
    cols: usize,
    /// The steps its instructions take one at a time.
    pub steps: u64,
    /// Each instruction's work, in order (barriers' too: each is one counted instruction).
    pub works: Vec<Work>,
}

/// The groups of a kernel, by first instruction.
#[derive(Default)]
pub(crate) struct Groups {
    /// For each instruction, the index of the group starting there, or `u32::MAX`.
    at: Vec<u32>,
    groups: Vec<Group>,
}

impl Groups {
    /// The groups of `code` over memories `mem`; `work` gives an instruction's work.
    pub fn of(code: &[Inst], mem: &Mem, work: impl Fn(&Inst) -> Work) -> Groups {
        let mut g = Groups::default();
        let mut pc = 0;
        while pc < code.len() {
            match Builder::run(code, pc, mem, &work) {
                Some(group) => {
                    g.at.resize(pc + 1, u32::MAX);
                    g.at[pc] = g.groups.len() as u32;
                    pc = group.end;
                    g.groups.push(group);
                }
                None => pc += 1,
            }
        }
        g
    }

    /// The group starting at instruction `pc`.
    #[inline]
    pub fn at(&self, pc: usize) -> Option<&Group> {
        match self.at.get(pc) {
            Some(&i) if i != u32::MAX => self.groups.get(i as usize),
            _ => None,
        }
    }
}

/// A group being gathered.
struct Builder {
    members: Vec<Member>,
    bufs: Vec<(Buf, Slot, Range<u64>)>,
    imms: Vec<f32>,
    read_first: Vec<bool>,
    written: Vec<bool>,
    shape: (u32, u32),
}

impl Builder {
    /// The group starting at `start`, if at least two members do.
    fn run(code: &[Inst], start: usize, mem: &Mem, work: &impl Fn(&Inst) -> Work) -> Option<Group> {
        let mut b = Builder {
            members: Vec::new(),
            bufs: Vec::new(),
            imms: Vec::new(),
            read_first: Vec::new(),
            written: Vec::new(),
            shape: (0, 0),
        };
        let (mut works, mut steps, mut kept) = (Vec::new(), 0u64, (0usize, 0u64));
        for inst in &code[start..] {
            let joined = match inst {
                Inst::Barrier { .. } if !b.members.is_empty() => true,
                Inst::Unary { op, dst, src } => {
                    float_unary(*op, false, Probe) && b.add(Op::Unary(*op), dst, &Src::Buf(*src), None, mem)
                }
                Inst::Binary { op, dst, a, b: rhs } => {
                    float_binary(*op, Probe) && b.add(Op::Binary(*op), dst, a, Some(rhs), mem)
                }
                _ => false,
            };
            if !joined {
                break;
            }
            let w = work(inst);
            steps = steps.saturating_add(1).saturating_add(w.repeats);
            works.push(w);
            if !matches!(inst, Inst::Barrier { .. }) {
                // Trailing barriers are left out.
                kept = (works.len(), steps);
            }
        }
        if b.members.len() < 2 {
            return None;
        }
        works.truncate(kept.0);
        let n = b.bufs.len();
        Some(Group {
            end: start + kept.0,
            ops: b.members.len(),
            members: direct_writes(fuse_pairs(b.members)),
            bufs: b.bufs.iter().map(|(_, slot, _)| *slot).collect(),
            imms: b.imms,
            live_in: (0..n).filter(|&i| b.read_first[i]).collect(),
            written: (0..n).filter(|&i| b.written[i]).collect(),
            read_only: std::array::from_fn(|i| i < n && b.read_first[i] && !b.written[i]),
            by_addr: {
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by_key(|&i| b.bufs[i].1.region.addr);
                order
            },
            rows: b.shape.0 as usize,
            cols: b.shape.1 as usize,
            steps: kept.1,
            works,
        })
    }

    /// Adds `dst = op(a, b)` if every operand fits the group; otherwise leaves it unchanged.
    fn add(&mut self, op: Op, dst: &Buf, a: &Src, b: Option<&Src>, mem: &Mem) -> bool {
        if self.members.is_empty() {
            if dst.rows == 0 || dst.cols == 0 {
                return false;
            }
            self.shape = (dst.rows, dst.cols);
        }
        let (nbufs, nimms) = (self.bufs.len(), self.imms.len());
        let slots = (|| {
            // A unary op's source has its destination's shape; a binary op's may broadcast.
            let a = self.operand(a, b.is_none(), mem)?;
            let b = match b {
                Some(b) => self.operand(b, false, mem)?,
                None => a,
            };
            Some((a, b, self.buffer(dst, true, mem)?))
        })();
        let Some((a, b, d)) = slots else {
            self.bufs.truncate(nbufs);
            self.imms.truncate(nimms);
            return false;
        };
        self.read_first.resize(self.bufs.len(), false);
        self.written.resize(self.bufs.len(), false);
        for s in [a, b] {
            if s < self.bufs.len() && !self.written[s] {
                self.read_first[s] = true;
            }
        }
        self.written[d] = true;
        self.members.push(Member { op, dst: d, a, b, direct: false });
        true
    }

    /// The slot of a source; immediates get slots `MAX_SLOTS..`.
    fn operand(&mut self, src: &Src, exact: bool, mem: &Mem) -> Option<usize> {
        match src {
            Src::Buf(b) => self.buffer(b, exact, mem),
            Src::Imm(v) => {
                let v = f32::imm(DType::F32, *v).ok()?;
                let i = match self.imms.iter().position(|x| x.to_bits() == v.to_bits()) {
                    Some(i) => i,
                    None if self.imms.len() < MAX_IMMS => {
                        self.imms.push(v);
                        self.imms.len() - 1
                    }
                    None => return None,
                };
                Some(MAX_SLOTS + i)
            }
        }
    }

    /// The slot of buffer `b`: an existing one, or a new one disjoint from all others. With
    /// `exact` (a destination, a unary source) it has the group's shape; otherwise it may
    /// broadcast one row or one column of it (numpy's rule, as the row loops apply it).
    fn buffer(&mut self, b: &Buf, exact: bool, mem: &Mem) -> Option<usize> {
        let (rows, cols) = self.shape;
        let fits = |n: u32, of: u32| n == of || (!exact && n == 1);
        if b.dtype != DType::F32 || b.space != Space::Ub || !fits(b.rows, rows) || !fits(b.cols, cols) {
            return None;
        }
        let span = u64::from(b.addr)..u64::from(b.addr).saturating_add(b.span_bytes());
        for (i, (other, _, s)) in self.bufs.iter().enumerate() {
            if (other.addr, other.pitch, other.rows, other.cols) == (b.addr, b.pitch, b.rows, b.cols) {
                return Some(i);
            }
            if span.start < s.end && s.start < span.end {
                return None;
            }
        }
        if self.bufs.len() == MAX_SLOTS {
            return None;
        }
        let region = mem.region(b).ok()?;
        let slot = Slot { region, one_row: b.rows != rows, one_col: b.cols != cols };
        self.bufs.push((*b, slot, span));
        Some(self.bufs.len() - 1)
    }
}

/// `members` with each binary op followed by a unary op in place on its destination made one
/// member: the same lanes through the same two functions, without storing and reloading the
/// block between them. Not `neg` and `abs`: LLVM may move a sign operation through the
/// arithmetic before it (`-(x / y)` into `(-x) / y`), which IEEE allows but which gives a NaN
/// of the other sign (the 10,000-program differential test found `div` then `neg` of 0 / 0).
fn fuse_pairs(members: Vec<Member>) -> Vec<Member> {
    let mut out: Vec<Member> = Vec::with_capacity(members.len());
    for m in members {
        let sign_op = matches!(m.op, Op::Unary(UnaryOp::Neg | UnaryOp::Abs));
        if let (Op::Unary(u), Some(last), false) = (m.op, out.last_mut(), sign_op) {
            if let Op::Binary(op) = last.op {
                if m.a == last.dst && m.dst == last.dst {
                    last.op = Op::BinaryThen(op, u);
                    continue;
                }
            }
        }
        out.push(m);
    }
    out
}

/// `members` with [`Member::direct`] set where a member is the last to write its destination
/// and no later member reads it. Such a member writes its result straight into the UB bytes of
/// the block (where they are aligned `f32` lanes) instead of a slot that is then copied there:
/// the bytes are the same, since nothing after it in the block reads that slot. (Being the
/// last writer is for speed only: an earlier direct write would be written over.)
fn direct_writes(mut members: Vec<Member>) -> Vec<Member> {
    for i in 0..members.len() {
        let d = members[i].dst;
        members[i].direct = members[i + 1..].iter().all(|m| m.dst != d && m.a != d && m.b != d);
    }
    members
}

/// [`FloatZip`] of a binary lane function followed by `op` (see [`Op::BinaryThen`]).
struct Then<K> {
    op: UnaryOp,
    exact: bool,
    k: K,
}

impl<K: FloatZip> FloatZip for Then<K> {
    #[inline(always)]
    fn apply(self, f: impl Fn(f32, f32) -> f32 + Copy) {
        float_unary(self.op, self.exact, After { f, k: self.k });
    }
}

/// [`FloatMap`] that applies its function after `f` (see [`Then`]).
struct After<F, K> {
    f: F,
    k: K,
}

impl<F: Fn(f32, f32) -> f32 + Copy, K: FloatZip> FloatMap for After<F, K> {
    #[inline(always)]
    fn apply(self, g: impl Fn(f32) -> f32 + Copy) {
        let f = self.f;
        self.k.apply(move |x, y| g(f(x, y)));
    }
}

/// A lane-function sink that applies nothing: asks the op tables whether an op has a float form.
struct Probe;

impl FloatMap for Probe {
    fn apply(self, _: impl Fn(f32) -> f32 + Copy) {}
}

impl FloatZip for Probe {
    fn apply(self, _: impl Fn(f32, f32) -> f32 + Copy) {}
}

/// [`FloatMap`] over one block.
struct MapBlock<'a> {
    a: &'a [f32],
    out: &'a mut [f32],
}

impl FloatMap for MapBlock<'_> {
    #[inline(always)]
    fn apply(self, f: impl Fn(f32) -> f32 + Copy) {
        crate::simd::map(self.a, self.out, f);
    }
}

/// [`FloatZip`] over one block.
struct ZipBlock<'a> {
    a: &'a [f32],
    b: &'a [f32],
    out: &'a mut [f32],
}

impl FloatZip for ZipBlock<'_> {
    #[inline(always)]
    fn apply(self, f: impl Fn(f32, f32) -> f32 + Copy) {
        crate::simd::zip(self.a, self.b, self.out, f);
    }
}

/// A core's lane blocks for groups, reused across runs.
#[derive(Default)]
pub(crate) struct Slots {
    blocks: Vec<Block>,
    spare: Option<Block>,
}

/// Decodes `from` into `block`, or splats its one element over it for a broadcast column.
fn fill(block: &mut [f32], from: &[u8], one_col: bool) {
    if one_col {
        let mut v = [0.0];
        f32::decode_into(DType::F32, from, &mut v);
        block.fill(v[0]);
    } else {
        f32::decode_into(DType::F32, from, block);
    }
}

fn block() -> Block {
    Box::new([0.0; BLOCK])
}

impl Group {
    /// Runs the group over `mem` (see the module documentation); `exact` as for `Unary`. A
    /// buffer that is exactly a pending load of `lazy` is read from its GM bytes, and dropped
    /// from `lazy` if the group writes it (whole); the pending loads overlapping the group's
    /// other buffers are copied first.
    pub fn run(
        &self,
        mem: &mut Mem,
        slots: &mut Slots,
        exact: bool,
        prefetch: &mut Prefetch,
        lazy: &mut Lazy,
        args: &Args,
    ) -> Result<(), String> {
        // The pending load each buffer is, if any.
        let mut forwarded: [Option<Deferred>; MAX_SLOTS] = Default::default();
        if !lazy.is_empty() {
            for (i, b) in self.bufs.iter().enumerate() {
                let r = &b.region;
                let at = Span::new(r.space, r.addr, (r.rows - 1) * r.stride + r.row_bytes);
                match lazy.exact(&at) {
                    Some(d) => forwarded[i] = Some(d.clone()),
                    None => lazy.flush_overlapping(mem, args, &at)?,
                }
            }
        }
        // One read guard per GM buffer read (a second read lock of one buffer could wait on a
        // queued writer).
        let mut guards = Vec::new();
        for d in forwarded.iter().flatten() {
            if !guards.iter().any(|(b, _)| *b == d.buffer) {
                let guard = args.buffers[d.buffer].bytes.read().map_err(|_| "gm buffer lock poisoned")?;
                guards.push((d.buffer, guard));
            }
        }
        // Each forwarded buffer's GM bytes, indexed like its UB bytes from its address.
        let mut sources: [Option<&[u8]>; MAX_SLOTS] = [None; MAX_SLOTS];
        for (i, d) in forwarded.iter().enumerate() {
            if let Some(d) = d {
                let gm = guards.iter().find(|(b, _)| *b == d.buffer).map(|(_, g)| &**g);
                sources[i] = gm.map(|gm| d.bytes(gm));
            }
        }
        self.run_blocks(mem, slots, exact, prefetch, &sources);
        drop(guards);
        for &s in &self.written {
            if let Some(d) = &forwarded[s] {
                lazy.drop_exact(&d.at);
            }
        }
        Ok(())
    }

    /// Runs the members block by block; a buffer with a source reads it from there.
    fn run_blocks(
        &self,
        mem: &mut Mem,
        slots: &mut Slots,
        exact: bool,
        prefetch: &mut Prefetch,
        sources: &[Option<&[u8]>; MAX_SLOTS],
    ) {
        let blocks = &mut slots.blocks;
        if blocks.len() < MAX_SLOTS + MAX_IMMS {
            blocks.resize_with(MAX_SLOTS + MAX_IMMS, block);
        }
        let mut spare = slots.spare.take().unwrap_or_else(block);
        for (i, v) in self.imms.iter().enumerate() {
            blocks[MAX_SLOTS + i].fill(*v);
        }
        let space = self.bufs.first().map_or(0, |b| b.region.space);
        let mut parts = self.parts(&mut mem.spaces[space]);
        // The bytes of the buffers the group only reads, shared; the others stay writable.
        let mut read: [Option<&[u8]>; MAX_SLOTS] = *sources;
        for (s, part) in parts.iter_mut().enumerate() {
            if self.read_only[s] && read[s].is_none() {
                read[s] = part.take().map(|p| &*p);
            }
        }
        for r in 0..self.rows {
            for at in (0..self.cols).step_by(BLOCK) {
                let len = BLOCK.min(self.cols - at);
                if let Some((next_r, next_at)) = self.next_block(r, at) {
                    // Its sources' lines, into L1 while this block computes: the first member
                    // would otherwise wait on them (the tile's prefetch brings them to L2 only).
                    for &s in &self.live_in {
                        if !self.bufs[s].one_row && !self.bufs[s].one_col {
                            let at = self.block_bytes(s, next_r, next_at, BLOCK.min(self.cols - next_at));
                            if let Some(bytes) = read[s].or(parts[s].as_deref()) {
                                crate::prefetch::near(&bytes[at]);
                            }
                        }
                    }
                }
                // A source the group only reads is read in place where its bytes are `f32`
                // lanes; the others are decoded into their slots.
                let mut views: [Option<&[f32]>; MAX_SLOTS] = [None; MAX_SLOTS];
                for &s in &self.live_in {
                    let (at, one_col) = (self.block_bytes(s, r, at, len), self.bufs[s].one_col);
                    let from = read[s].map(|whole| &whole[at.clone()]);
                    let view = from.filter(|_| self.read_only[s] && !one_col);
                    if let Some(v) = view.and_then(|from| f32::native(DType::F32, from)) {
                        views[s] = Some(v);
                    } else if let Some(from) = from.or_else(|| Some(&parts[s].as_deref()?[at])) {
                        fill(&mut blocks[s][..len], from, one_col);
                    }
                }
                let mut stored = [false; MAX_SLOTS];
                for m in &self.members {
                    let view = |s: usize| views.get(s).copied().flatten();
                    let a = view(m.a).unwrap_or(&blocks[m.a][..len]);
                    let b = view(m.b).unwrap_or(&blocks[m.b][..len]);
                    let at = self.block_bytes(m.dst, r, at, len);
                    let ub = parts[m.dst].as_deref_mut().filter(|_| m.direct);
                    let (out, direct) = match ub.and_then(|p| f32::native_mut(DType::F32, &mut p[at])) {
                        Some(out) => (out, true),
                        None => (&mut spare[..len], false),
                    };
                    match m.op {
                        Op::Unary(op) => float_unary(op, exact, MapBlock { a, out }),
                        Op::Binary(op) => float_binary(op, ZipBlock { a, b, out }),
                        Op::BinaryThen(op, then) => {
                            float_binary(op, Then { op: then, exact, k: ZipBlock { a, b, out } })
                        }
                    };
                    stored[m.dst] = direct;
                    if !direct {
                        std::mem::swap(&mut blocks[m.dst], &mut spare);
                    }
                }
                for &s in &self.written {
                    if let (false, Some(part)) = (stored[s], parts[s].as_deref_mut()) {
                        f32::encode(
                            DType::F32,
                            &blocks[s][..len],
                            &mut part[self.block_bytes(s, r, at, len)],
                        );
                    }
                }
                prefetch.issue(self.ops * len / 64);
            }
        }
        slots.spare = Some(spare);
    }

    /// The block after the one at row `r`, lane `at`, if any.
    fn next_block(&self, r: usize, at: usize) -> Option<(usize, usize)> {
        if at + BLOCK < self.cols {
            Some((r, at + BLOCK))
        } else {
            Some((r + 1, 0)).filter(|_| r + 1 < self.rows)
        }
    }

    /// The bytes of slot `s` in the block at row `r`, lanes `at..at + len`, from the buffer's
    /// address: a broadcast row is row 0, a broadcast column its row's one element.
    fn block_bytes(&self, s: usize, r: usize, at: usize, len: usize) -> Range<usize> {
        let b = &self.bufs[s];
        let start = if b.one_row { 0 } else { r * b.region.stride };
        let (at, len) = if b.one_col { (0, 1) } else { (at, len) };
        start + at * 4..start + (at + len) * 4
    }

    /// Each buffer's UB bytes, from its address to the end of its last row: disjoint (see the
    /// module documentation), so one borrow of the UB splits into them.
    fn parts<'m>(&self, mut ub: &'m mut [u8]) -> [Option<&'m mut [u8]>; MAX_SLOTS] {
        let mut parts: [Option<&mut [u8]>; MAX_SLOTS] = Default::default();
        let mut base = 0;
        for &s in &self.by_addr {
            let r = &self.bufs[s].region;
            let end = r.addr + (r.rows - 1) * r.stride + r.row_bytes;
            let (_, rest) = std::mem::take(&mut ub).split_at_mut(r.addr - base);
            let (mine, rest) = rest.split_at_mut(end - r.addr);
            parts[s] = Some(mine);
            ub = rest;
            base = end;
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_bytecode::isa::{Pipe, Scalar};
    use kiln_bytecode::module::Core;

    fn buf(dtype: DType, addr: u32, rows: u32, cols: u32) -> Buf {
        Buf { space: Space::Ub, dtype, addr, rows, cols, pitch: cols }
    }

    fn add(dst: Buf, a: Buf, b: Src) -> Inst {
        Inst::Binary { op: BinaryOp::Add, dst, a: Src::Buf(a), b }
    }

    /// `(first, end)` of every group of `code`.
    fn spans(code: &[Inst]) -> Vec<(usize, usize)> {
        let target = kiln_targets::Target::load("tiny-npu").expect("tiny-npu loads");
        let mem = Mem::new(&target, Core::Aiv);
        let g = Groups::of(code, &mem, |_| Work { repeats: 2, ..Work::default() });
        (0..code.len()).filter_map(|pc| g.at(pc).map(|x| (pc, x.end))).collect()
    }

    #[test]
    fn members_barriers_and_what_ends_a_group() {
        let (x, y, z) =
            (buf(DType::F32, 0, 2, 64), buf(DType::F32, 512, 2, 64), buf(DType::F32, 1024, 2, 64));
        let one = Src::Imm(Scalar::Float(1.0));
        let exp = |dst, src| Inst::Unary { op: UnaryOp::Exp, dst, src };
        let barrier = Inst::Barrier { pipe: Pipe::V };
        // Barriers inside belong to the group, a trailing one does not.
        let code = [add(z, x, Src::Buf(y)), barrier.clone(), exp(z, z), add(z, z, one), barrier.clone()];
        assert_eq!(spans(&code), [(0, 4)]);
        // Broadcast rows and columns join as sources.
        let (row, col) = (buf(DType::F32, 2048, 1, 64), buf(DType::F32, 2560, 2, 1));
        let code = [add(z, x, Src::Buf(row)), add(z, z, Src::Buf(col)), exp(y, z)];
        assert_eq!(spans(&code), [(0, 3)]);
        // A partly overlapping buffer, a broadcast unary source, a buffer of x's address in
        // another shape, an f16 buffer, an integer-only op and a non-vector instruction each end
        // a group.
        let shifted = buf(DType::F32, 32, 2, 64);
        let x_row = buf(DType::F32, 0, 1, 64);
        let half = buf(DType::F16, 4096, 2, 64);
        let and = Inst::Binary { op: BinaryOp::And, dst: z, a: Src::Buf(z), b: Src::Buf(x) };
        let block_idx = Inst::BlockIdx { dst: kiln_bytecode::isa::Reg(0) };
        let breakers =
            [add(z, shifted, one), exp(z, row), add(z, z, Src::Buf(x_row)), exp(half, half), and, block_idx];
        for breaker in breakers {
            let code = [add(z, x, Src::Buf(y)), exp(z, z), breaker, add(y, x, one), exp(y, y)];
            assert_eq!(spans(&code), [(0, 2), (3, 5)]);
        }
        // One member is no group; nor is a group past the UB.
        assert!(spans(&[exp(z, x)]).is_empty());
        let past = buf(DType::F32, 16384 - 256, 2, 64);
        assert!(spans(&[exp(past, past), exp(past, past)]).is_empty());
    }

    #[test]
    fn steps_and_work_count_every_instruction() {
        let (x, y) = (buf(DType::F32, 0, 1, 8), buf(DType::F32, 64, 1, 8));
        let code = [
            add(y, x, Src::Buf(x)),
            Inst::Barrier { pipe: Pipe::V },
            add(y, y, Src::Imm(Scalar::Float(2.0))),
        ];
        let target = kiln_targets::Target::load("tiny-npu").expect("tiny-npu loads");
        let mem = Mem::new(&target, Core::Aiv);
        let g = Groups::of(&code, &mem, |i| match i {
            Inst::Barrier { .. } => Work::default(),
            _ => Work { repeats: 5, ..Work::default() },
        });
        let group = g.at(0).expect("a group at 0");
        assert_eq!((group.end, group.steps, group.works.len()), (3, 3 + 10, 3));
    }

    #[test]
    fn at_most_max_slots_buffers() {
        let bufs: Vec<Buf> = (0..=MAX_SLOTS as u32).map(|i| buf(DType::F32, i * 64, 1, 8)).collect();
        let code: Vec<Inst> = bufs.windows(2).map(|w| add(w[1], w[0], Src::Buf(w[0]))).collect();
        // The last instruction would need a ninth buffer.
        assert_eq!(spans(&code), [(0, MAX_SLOTS - 1)]);
    }
}
