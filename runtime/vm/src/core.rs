//! One core running one kernel: registers, structured control flow (`For` / `If` by body
//! lengths, with an explicit frame stack, never recursion), the scalar unit, flags, the step
//! budget, and dispatch of every other instruction to its unit. Instructions run in program
//! order; the pipes' parallelism is the cost model's business (from the event stream).

use kiln_bytecode::isa::{Buf, DType, GmView, Inst, Operand, Pipe, Reg, ScalarOp, Space, Src, NUM_REGS};
use kiln_bytecode::module::{Core, Kernel};
use kiln_bytecode::opcode::Role;
use kiln_bytecode::shape::KernelClass;
use kiln_targets::Target;

use crate::counters::Counters;
use crate::event::{Access, Event, Work};
use crate::gm::{self, Args, Sizes};
use crate::group::{Groups, Slots};
use crate::lazy::{Lazy, Span};
use crate::mem::Mem;
use crate::prefetch::Prefetch;
use crate::vector::Scratch;
use crate::{convert, cube, gather, movement, reduce, vector, VmError};

/// What a launch gives each of its cores.
pub(crate) struct LaunchCtx<'a, 'g> {
    pub target: &'a Target,
    pub kernel: &'a Kernel,
    pub kernel_index: u32,
    pub launch_index: u32,
    pub args: Args<'a, 'g>,
    /// `libm` for `exp`, `tanh` and `sigmoid` (else the vectorizable forms).
    pub exact: bool,
    /// Run elementwise groups and defer loads ([`crate::group`], [`crate::lazy`]); else one
    /// instruction at a time with every load copied. The events are the same either way.
    pub fast: bool,
    /// The launch's parameters (tiling data), written to registers `r0..` before each block.
    pub params: &'a [i64],
    /// What the kernel takes at launch in a shape class (its extents), if anything.
    pub class: Option<&'a KernelClass>,
}

/// An open `For` or `If` region.
enum Frame {
    Loop { start: usize, body_end: usize, iv_reg: usize, iv: i64, hi: i64, step: i64, outer_end: usize },
    Branch { resume: usize, outer_end: usize },
}

/// What a core keeps from one launch to the next: its on-chip memories (cleared where the
/// kernel can touch them before each block) and its scratch lanes and group blocks (written
/// before they are read), so that a small launch allocates and zeroes nothing.
pub(crate) struct Kit {
    /// The memories.
    pub mem: Mem,
    scratch: Scratch,
    slots: Slots,
}

impl Kit {
    /// Fresh memories and empty scratch for a core of kind `core`.
    pub fn new(target: &Target, core: Core) -> Kit {
        Kit { mem: Mem::new(target, core), scratch: Scratch::default(), slots: Slots::default() }
    }
}

/// The state of one core, reused (and cleared) for each block a host thread runs.
pub(crate) struct CoreState {
    regs: [i64; NUM_REGS],
    mem: Mem,
    /// The bytes of each memory the kernel's code can touch (cleared before each block).
    extent: [usize; 5],
    scratch: Scratch,
    flags: Vec<u32>,
    frames: Vec<Frame>,
    /// The kernel's elementwise groups, run block by block (with the fast paths on).
    groups: Groups,
    slots: Slots,
    /// Its loads' stride predictor (host prefetch of the next tile; see [`crate::prefetch`]).
    prefetch: Prefetch,
    /// Loads not yet copied (see [`crate::lazy`]).
    lazy: Lazy,
}

fn reg(regs: &[i64; NUM_REGS], r: Reg) -> Result<i64, String> {
    regs.get(r.0 as usize)
        .copied()
        .ok_or_else(|| format!("register r{} does not exist (a core has {NUM_REGS})", r.0))
}

fn reg_index(r: Reg) -> Result<usize, String> {
    if (r.0 as usize) < NUM_REGS {
        Ok(r.0 as usize)
    } else {
        Err(format!("register r{} does not exist (a core has {NUM_REGS})", r.0))
    }
}

fn scalar(op: ScalarOp, a: i64, b: i64) -> Result<i64, String> {
    let overflow = || format!("scalar {op:?} of {a} and {b} overflows").to_lowercase();
    let unsigned = |f: fn(u64, u64) -> u64| {
        if b == 0 {
            Err(format!("scalar {op:?} by zero",).to_lowercase())
        } else {
            i64::try_from(f(a as u64, b as u64)).map_err(|_| overflow())
        }
    };
    match op {
        ScalarOp::Add => a.checked_add(b).ok_or_else(overflow),
        ScalarOp::Sub => a.checked_sub(b).ok_or_else(overflow),
        ScalarOp::Mul => a.checked_mul(b).ok_or_else(overflow),
        ScalarOp::DivU => unsigned(|x, y| x / y),
        ScalarOp::RemU => unsigned(|x, y| x % y),
        ScalarOp::MinS => Ok(a.min(b)),
        ScalarOp::MaxS => Ok(a.max(b)),
        ScalarOp::Eq => Ok(i64::from(a == b)),
        ScalarOp::Ne => Ok(i64::from(a != b)),
        ScalarOp::Lt => Ok(i64::from(a < b)),
        ScalarOp::Le => Ok(i64::from(a <= b)),
        ScalarOp::Gt => Ok(i64::from(a > b)),
        ScalarOp::Ge => Ok(i64::from(a >= b)),
    }
}

/// Vector repeats of an instruction over `buf`: `rows * ceil(cols * bytes / repeat_bytes)`.
fn repeats(buf: &Buf, bytes: u32, repeat_bytes: u64) -> u64 {
    let row = u64::from(buf.cols) * u64::from(bytes);
    u64::from(buf.rows) * row.div_ceil(repeat_bytes.max(1))
}

/// The vector repeats of a vector-unit instruction (counted over its destination, a
/// reduction over its source, a compare or cast over its wider element type); none for the
/// others.
fn vector_work(inst: &Inst, repeat_bytes: u64) -> Work {
    let w = |buf: &Buf, bytes: u32| Work { repeats: repeats(buf, bytes, repeat_bytes), ..Work::default() };
    match inst {
        Inst::Copy { dst, .. }
        | Inst::Unary { dst, .. }
        | Inst::Binary { dst, .. }
        | Inst::Select { dst, .. }
        | Inst::Broadcast { dst, .. }
        | Inst::Fill { dst, .. }
        | Inst::Transpose { dst, .. } => w(dst, dst.dtype.bytes()),
        Inst::Cmp { dst, a, b, .. } => {
            let bytes = match (a, b) {
                (Src::Buf(x), _) | (_, Src::Buf(x)) => x.dtype.bytes(),
                _ => 1,
            };
            w(dst, bytes)
        }
        Inst::Reduce { src, .. } => w(src, src.dtype.bytes()),
        Inst::Cast { dst, src, .. } => w(dst, dst.dtype.bytes().max(src.dtype.bytes())),
        _ => Work::default(),
    }
}

/// Executes an elementwise instruction.
fn elementwise(mem: &mut Mem, s: &mut Scratch, inst: &Inst, exact: bool) -> Result<(), String> {
    match inst {
        Inst::Unary { op, dst, src } => vector::unary(mem, s, *op, dst, src, exact),
        Inst::Binary { op, dst, a, b } => vector::binary(mem, s, *op, dst, a, b),
        Inst::Cmp { pred, dst, a, b } => vector::cmp(mem, s, *pred, dst, a, b),
        Inst::Select { dst, mask, a, b } => vector::select(mem, s, dst, mask, a, b),
        Inst::Fill { dst, value } => vector::fill(mem, s, dst, *value),
        Inst::Cast { dst, src, round } => convert::cast(mem, s, dst, src, *round),
        _ => Err("not an elementwise instruction".into()),
    }
}

/// The slot of flag `src -> dst` `event` in a core's flag counts.
fn flag_slot(src: Pipe, dst: Pipe, event: u8, ids: u32) -> Result<usize, String> {
    if u32::from(event) >= ids {
        return Err(format!("event id {event} is not below the target's {ids} event ids"));
    }
    let (n, s, d) = (Pipe::ALL.len(), src as usize, dst as usize);
    Ok((s * n + d) * ids as usize + event as usize)
}

pub(crate) fn buf_access(b: &Buf, write: bool) -> Access {
    let start = u64::from(b.addr);
    Access { space: b.space, gm_arg: 0, start, end: start.saturating_add(b.span_bytes()), write }
}

impl CoreState {
    /// A core for `kernel` on memories `mem` (of the kernel's core kind; cleared as far as the
    /// kernel reaches before each block).
    pub fn new(target: &Target, kernel: &Kernel, kit: Kit) -> CoreState {
        let pipes = Pipe::ALL.len();
        let Kit { mem, scratch, slots } = kit;
        CoreState {
            regs: [0; NUM_REGS],
            extent: mem.extent(&kernel.code),
            groups: Groups::of(&kernel.code, &mem, |i| vector_work(i, target.vector.repeat_bytes)),
            slots,
            prefetch: Prefetch::new(kernel.code.len()),
            lazy: Lazy::default(),
            mem,
            scratch,
            flags: vec![0; pipes * pipes * target.sync.event_ids as usize],
            frames: Vec::new(),
        }
    }

    /// Its memories and scratch buffers, for another core.
    pub fn into_kit(self) -> Kit {
        Kit { mem: self.mem, scratch: self.scratch, slots: self.slots }
    }

    /// Runs block `block` of the launch with at most `budget` steps; adds to `counters` and
    /// reports each instruction to `sink`. Returns the steps taken: one per instruction plus
    /// one per vector repeat, 4096 cube MACs or 256 bytes moved (loop
    /// bodies per iteration) plus, for starting the core, one and one per 256 on-chip bytes it
    /// clears (those the kernel can touch), so that a huge `block_dim` is bounded by the budget
    /// too.
    pub fn run(
        &mut self,
        l: &LaunchCtx,
        block: u32,
        budget: u64,
        mut sink: Option<&mut (dyn FnMut(&Event) + '_)>,
        counters: &mut Counters,
    ) -> Result<u64, VmError> {
        self.regs = [0; NUM_REGS];
        for (r, &p) in self.regs.iter_mut().zip(l.params) {
            *r = p;
        }
        self.mem.clear(&self.extent);
        self.flags.fill(0);
        self.frames.clear();
        self.prefetch.reset();
        self.lazy.clear();
        let code = &l.kernel.code;
        let locate = |pc: usize, message: String| VmError {
            kernel: Some(l.kernel.name.clone()),
            core: Some(block),
            inst: Some(pc as u32),
            message,
        };
        let (mut pc, mut end, mut steps) =
            (0usize, code.len(), 1 + self.extent.iter().sum::<usize>() as u64 / 256);
        if steps > budget {
            return Err(locate(0, format!("step budget of {budget} steps exhausted")));
        }
        loop {
            if pc >= end {
                match self.frames.pop() {
                    None => break,
                    Some(Frame::Loop { start, body_end, iv_reg, iv, hi, step, outer_end }) => {
                        match iv.checked_add(step) {
                            Some(next) if next < hi => {
                                steps += 1;
                                if steps > budget {
                                    return Err(locate(
                                        start - 1,
                                        format!("step budget of {budget} steps exhausted"),
                                    ));
                                }
                                self.regs[iv_reg] = next;
                                // The back-edge is one more scalar instruction of the loop.
                                let at = start - 1;
                                self.report(
                                    l,
                                    block,
                                    at,
                                    &code[at],
                                    &mut sink,
                                    Vec::new(),
                                    Work::default(),
                                    counters,
                                );
                                self.frames.push(Frame::Loop {
                                    start,
                                    body_end,
                                    iv_reg,
                                    iv: next,
                                    hi,
                                    step,
                                    outer_end,
                                });
                                pc = start;
                            }
                            _ => {
                                pc = body_end;
                                end = outer_end;
                            }
                        }
                    }
                    Some(Frame::Branch { resume, outer_end }) => {
                        pc = resume;
                        end = outer_end;
                    }
                }
                continue;
            }
            if l.fast {
                if let Some(g) = self.groups.at(pc).filter(|g| g.end <= end && steps + g.steps <= budget) {
                    // For the sink, each member's accesses: its buffers are fixed UB ranges
                    // (no register moves them), so they are those of one-at-a-time execution.
                    let accesses = match &sink {
                        Some(_) => (pc..g.end)
                            .map(|p| self.accesses(&code[p], None, &l.args))
                            .collect::<Result<Vec<_>, _>>()
                            .map(Some)
                            .map_err(|m| locate(pc, m))?,
                        None => None,
                    };
                    let (mem, lazy) = (&mut self.mem, &mut self.lazy);
                    g.run(mem, &mut self.slots, l.exact, &mut self.prefetch, lazy, &l.args)
                        .map_err(|m| locate(pc, m))?;
                    steps += g.steps;
                    match accesses {
                        Some(accesses) => {
                            for ((at, accesses), &work) in (pc..g.end).zip(accesses).zip(&g.works) {
                                self.report(l, block, at, &code[at], &mut sink, accesses, work, counters);
                            }
                        }
                        None => g.works.iter().for_each(|w| counters.add_work(w)),
                    }
                    pc = g.end;
                    continue;
                }
            }
            steps += 1;
            if steps > budget {
                return Err(locate(pc, format!("step budget of {budget} steps exhausted")));
            }
            let inst = &code[pc];
            let sizes = match l.class {
                Some(class) => {
                    crate::class::extent_sizes(class, pc, inst, &self.regs).map_err(|m| locate(pc, m))?
                }
                None => None,
            };
            // For the sink, from the registers before the instruction; a failure is reported
            // only if the instruction itself does not fail first, so that an observed run fails
            // as an unobserved one does.
            let accesses = sink.as_ref().map(|_| self.accesses(inst, sizes.as_ref(), &l.args));
            let work = match inst {
                Inst::For { iv, lo, hi, step, body } => {
                    let at = pc;
                    let body_end = pc + 1 + *body as usize;
                    if body_end > end {
                        return Err(locate(
                            pc,
                            format!("loop body of {body} instructions runs past its enclosing region"),
                        ));
                    }
                    let (lo, hi, step, iv) =
                        (reg(&self.regs, *lo), reg(&self.regs, *hi), reg(&self.regs, *step), reg_index(*iv));
                    let (lo, hi, step, iv) = (
                        lo.map_err(|m| locate(pc, m))?,
                        hi.map_err(|m| locate(pc, m))?,
                        step.map_err(|m| locate(pc, m))?,
                        iv.map_err(|m| locate(pc, m))?,
                    );
                    if step <= 0 {
                        return Err(locate(pc, format!("loop step {step} is not positive")));
                    }
                    if lo < hi {
                        self.regs[iv] = lo;
                        self.frames.push(Frame::Loop {
                            start: pc + 1,
                            body_end,
                            iv_reg: iv,
                            iv: lo,
                            hi,
                            step,
                            outer_end: end,
                        });
                        pc += 1;
                        end = body_end;
                    } else {
                        pc = body_end;
                    }
                    let accesses = accesses.and_then(Result::ok).unwrap_or_default();
                    self.report(l, block, at, inst, &mut sink, accesses, Work::default(), counters);
                    continue;
                }
                Inst::If { cond, then_len, else_len } => {
                    let then_end = pc + 1 + *then_len as usize;
                    let else_end = then_end + *else_len as usize;
                    if else_end > end {
                        return Err(locate(pc, "branches run past their enclosing region".into()));
                    }
                    let c = reg(&self.regs, *cond).map_err(|m| locate(pc, m))?;
                    self.frames.push(Frame::Branch { resume: else_end, outer_end: end });
                    let at = pc;
                    if c != 0 {
                        pc += 1;
                        end = then_end;
                    } else {
                        pc = then_end;
                        end = else_end;
                    }
                    let accesses = accesses.and_then(Result::ok).unwrap_or_default();
                    self.report(l, block, at, inst, &mut sink, accesses, Work::default(), counters);
                    continue;
                }
                other => {
                    if !self.lazy.is_empty() {
                        self.settle(other, &l.args).map_err(|m| locate(pc, m))?;
                    }
                    self.exec(other, sizes.as_ref(), l, block, pc, l.fast).map_err(|m| locate(pc, m))?
                }
            };
            let accesses = accesses.transpose().map_err(|m| locate(pc, m))?.unwrap_or_default();
            // Work costs steps too (a repeat, 4096 MACs or 256 bytes moved each), so one
            // instruction over a whole UB cannot make a run of few instructions slow.
            let moved = work.gm_read.saturating_add(work.gm_written).saturating_add(work.moved);
            steps = steps
                .saturating_add(work.repeats)
                .saturating_add(work.macs / 4096)
                .saturating_add(moved / 256);
            if steps > budget {
                return Err(locate(pc, format!("step budget of {budget} steps exhausted")));
            }
            self.prefetch.issue(usize::try_from(work.repeats).unwrap_or(usize::MAX));
            self.report(l, block, pc, inst, &mut sink, accesses, work, counters);
            pc += 1;
        }
        Ok(steps)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn report(
        &self,
        l: &LaunchCtx,
        block: u32,
        pc: usize,
        inst: &Inst,
        sink: &mut Option<&mut (dyn FnMut(&Event) + '_)>,
        accesses: Vec<Access>,
        work: Work,
        counters: &mut Counters,
    ) {
        counters.add_work(&work);
        if let Some(sink) = sink {
            let (flag, barrier) = match inst {
                Inst::SetFlag { src, dst, event } | Inst::WaitFlag { src, dst, event } => {
                    (Some((*src, *dst, *event)), None)
                }
                Inst::Barrier { pipe } => (None, Some(*pipe)),
                _ => (None, None),
            };
            sink(&Event {
                launch: l.launch_index,
                kernel: l.kernel_index,
                core: block,
                inst: pc as u32,
                pipe: inst.pipe(),
                flag,
                barrier,
                accesses,
                work,
            });
        }
    }

    /// The byte ranges `inst` reads and writes (for the event stream), operand by operand in
    /// the roles of the ISA's table; a gather's GM ranges depend on its indices. `sizes`: its
    /// view's, from its extents.
    fn accesses(&self, inst: &Inst, sizes: Option<&Sizes>, args: &Args) -> Result<Vec<Access>, String> {
        if let Inst::Gather { dst, table, indices, index } = inst {
            return gather::accesses(dst, table, indices, *index, &self.regs, args);
        }
        // A view moves elements of the type of the buffer on the other side of the transfer.
        let dtype = inst.bufs().next().map_or(DType::I8, |b| b.dtype);
        let view = |v: &GmView, write: bool| -> Result<Access, String> {
            // A view holds its own element count (a zero-padded load's block may be smaller
            // than its buffer; `gm::load` checks the block against the buffer).
            let numel =
                v.dims.iter().try_fold(1u64, |n, d| n.checked_mul(u64::from(d.size))).unwrap_or(u64::MAX);
            let (_, r) = gm::resolve(v, sizes, &self.regs, args, dtype, numel)?;
            let eb = u64::from(dtype.bytes());
            Ok(Access { space: Space::Gm, gm_arg: v.arg, start: r.lo * eb, end: r.hi * eb, write })
        };
        let mut out = Vec::with_capacity(4);
        for (role, operand) in inst.operands_with_roles() {
            match (role, operand) {
                (Role::Read, Operand::Buf(b) | Operand::Src(Src::Buf(b))) => out.push(buf_access(b, false)),
                (Role::Write, Operand::Buf(b)) => {
                    let mut w = buf_access(b, true);
                    if let Inst::Load { zero_pad: true, .. } = inst {
                        w.end = w.start.saturating_add(b.padded_bytes());
                    }
                    out.push(w);
                }
                (Role::Accumulate, Operand::Buf(b)) => {
                    if inst.reads_destination() {
                        out.push(buf_access(b, false));
                    }
                    out.push(buf_access(b, true));
                }
                (Role::GmRead, Operand::View(v)) => out.push(view(v, false)?),
                (Role::GmWrite, Operand::View(v)) => {
                    if inst.reads_destination() {
                        out.push(view(v, false)?);
                    }
                    out.push(view(v, true)?);
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// Before `inst` runs: copies the pending loads it might see (see [`crate::lazy`]).
    fn settle(&mut self, inst: &Inst, args: &Args) -> Result<(), String> {
        let (mem, lazy) = (&mut self.mem, &mut self.lazy);
        // A malformed buffer fails in the instruction itself.
        let span = Span::of;
        match inst {
            Inst::Load { dst, zero_pad, .. } => {
                match span(mem, dst, if *zero_pad { dst.padded_bytes() } else { dst.span_bytes() }) {
                    Some(at) if *zero_pad || dst.is_dense() => lazy.overwrite(mem, args, &at),
                    Some(at) => lazy.flush_overlapping(mem, args, &at),
                    None => Ok(()),
                }
            }
            Inst::Store { dst, src, .. } => {
                if let Some(at) = span(mem, src, src.span_bytes()) {
                    lazy.flush_overlapping(mem, args, &at)?;
                }
                match args.bound.get(dst.arg as usize) {
                    Some(&buffer) => lazy.flush_from(mem, args, buffer),
                    None => Ok(()),
                }
            }
            // A source that is exactly a pending load stays pending: the reduction reads its GM
            // bytes (see `exec`).
            Inst::Reduce { dst, src, .. } => {
                if let Some(at) = span(mem, dst, dst.span_bytes()) {
                    lazy.flush_overlapping(mem, args, &at)?;
                }
                match span(mem, src, src.span_bytes()) {
                    Some(at) if lazy.exact(&at).is_none() => lazy.flush_overlapping(mem, args, &at),
                    _ => Ok(()),
                }
            }
            // Scalar, control and sync instructions touch no on-chip bytes.
            _ if inst.bufs().next().is_none() => Ok(()),
            _ => lazy.flush_all(mem, args),
        }
    }

    /// Executes one non-control-flow instruction; with `defer`, a load may leave its copy to
    /// [`crate::lazy`].
    #[allow(clippy::too_many_arguments)]
    fn exec(
        &mut self,
        inst: &Inst,
        sizes: Option<&Sizes>,
        l: &LaunchCtx,
        block: u32,
        pc: usize,
        defer: bool,
    ) -> Result<Work, String> {
        let t = l.target;
        let (mem, s) = (&mut self.mem, &mut self.scratch);
        Ok(match inst {
            Inst::Const { dst, value } => {
                self.regs[reg_index(*dst)?] = *value;
                Work::default()
            }
            Inst::Scalar { op, dst, a, b } => {
                let v = scalar(*op, reg(&self.regs, *a)?, reg(&self.regs, *b)?)?;
                self.regs[reg_index(*dst)?] = v;
                Work::default()
            }
            Inst::BlockIdx { dst } => {
                self.regs[reg_index(*dst)?] = i64::from(block);
                Work::default()
            }
            Inst::BlockNum { dst } => {
                self.regs[reg_index(*dst)?] = i64::from(l.kernel.block_dim);
                Work::default()
            }
            Inst::Load { dst, src, zero_pad } => {
                let loaded = gm::load(mem, dst, src, sizes, *zero_pad, &self.regs, &l.args, defer)?;
                self.prefetch.observe(pc, loaded.transfer);
                if let Some(d) = loaded.deferred {
                    self.lazy.push(mem, &l.args, d)?;
                }
                loaded.work
            }
            Inst::Store { dst, src, atomic } => {
                gm::store(mem, dst, sizes, src, *atomic, &self.regs, &l.args)?
            }
            Inst::Gather { dst, table, indices, index } => {
                gather::gather(mem, dst, table, indices, *index, &self.regs, &l.args)?
            }
            Inst::Copy { dst, src } => {
                movement::copy(mem, &mut s.bytes, dst, src)?;
                vector_work(inst, t.vector.repeat_bytes)
            }
            Inst::Unary { .. }
            | Inst::Binary { .. }
            | Inst::Cmp { .. }
            | Inst::Select { .. }
            | Inst::Fill { .. }
            | Inst::Cast { .. } => {
                elementwise(mem, s, inst, l.exact)?;
                vector_work(inst, t.vector.repeat_bytes)
            }
            Inst::Reduce { op, dst, src, accumulate } => {
                let pending = match defer {
                    true => Span::of(mem, src, src.span_bytes()).and_then(|at| self.lazy.exact(&at).cloned()),
                    false => None,
                };
                match pending {
                    Some(d) => {
                        let gm =
                            l.args.buffers[d.buffer].bytes.read().map_err(|_| "gm buffer lock poisoned")?;
                        reduce::reduce(mem, s, *op, (dst, src), *accumulate, Some(d.bytes(&gm)))?
                    }
                    None => reduce::reduce(mem, s, *op, (dst, src), *accumulate, None)?,
                }
                vector_work(inst, t.vector.repeat_bytes)
            }
            Inst::Broadcast { dst, src } => {
                movement::broadcast(mem, &mut s.bytes, dst, src)?;
                vector_work(inst, t.vector.repeat_bytes)
            }
            Inst::Transpose { dst, src } => {
                movement::transpose(mem, &mut s.bytes, dst, src)?;
                vector_work(inst, t.vector.repeat_bytes)
            }
            Inst::MoveL1 { dst, src } => {
                movement::move_l1(mem, &mut s.bytes, dst, src)?;
                Work { moved: src.span_bytes(), ..Work::default() }
            }
            Inst::Mmad { c, a, b, accumulate } => {
                let macs = cube::mmad(mem, s, c, a, b, *accumulate, t.cube.fractal)?;
                Work { macs, ..Work::default() }
            }
            Inst::Fixpipe { dst, src, relu } => {
                let moved = cube::fixpipe(mem, s, dst, src, *relu)?;
                Work { moved, ..Work::default() }
            }
            Inst::SetFlag { src, dst, event } => {
                let slot = flag_slot(*src, *dst, *event, t.sync.event_ids)?;
                self.flags[slot] = self.flags[slot].saturating_add(1);
                Work::default()
            }
            Inst::WaitFlag { src, dst, event } => {
                let slot = flag_slot(*src, *dst, *event, t.sync.event_ids)?;
                if self.flags[slot] == 0 {
                    return Err(format!(
                        "wait_flag {}->{} event {event} is never set",
                        src.name(),
                        dst.name()
                    ));
                }
                self.flags[slot] -= 1;
                Work::default()
            }
            Inst::Barrier { .. } => Work::default(),
            Inst::For { .. } | Inst::If { .. } => Work::default(),
        })
    }
}
