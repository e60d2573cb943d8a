//! The sync checker: finds accesses of different pipes of one core that no flag or barrier
//! orders, waits for events never set (deadlocks) and flags still set at kernel end (leaks).
//!
//! It replays the VM's event stream ([`crate::Vm::run_with`]), which lists each core's executed
//! instructions in program order, one core after the other. On the device the pipes run in
//! parallel: program order orders only the instructions of one pipe. The checker keeps a
//! vector clock per pipe (one slot per pipe): an instruction ticks its pipe's own slot;
//! `SetFlag(p -> q, e)` stores p's clock in flag slot `(p, q, e)`; the matching `WaitFlag`
//! joins the stored clock into q's and consumes it (sets queue up first in first out, as the
//! VM counts them); `Barrier(All)` joins every pipe's clock into all of them. Instruction J
//! on pipe p happens before instruction I on pipe q when J's tick is at most I's clock's p
//! slot.
//!
//! Two accesses of one on-chip space (UB, L1, L0A/B/C) or of one GM argument whose byte
//! ranges overlap, at least one a write, on different pipes and not ordered, are a hazard:
//! RAW (the earlier access writes, the later reads), WAR or WAW. Each pair of instructions is
//! reported once per core and kind. Per space the checker keeps the accesses a later access
//! may still race with: an access is dropped once a later access covers its range, is ordered
//! after it and writes (or both read), because any race with the old one is then also a race
//! with the new one.
//!
//! Limits: cores are checked one by one (races between cores on GM are not seen); two kernel
//! arguments bound to one GM buffer are different spaces to it. The VM stops a core at a wait
//! whose event is not pending, so that wait never reaches the stream: [`SyncChecker::vm_failed`]
//! turns that error into the deadlock report, and [`check`] does so for a whole run.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use kiln_bytecode::isa::{Inst, Pipe, Space};
use kiln_bytecode::module::Module;
use kiln_bytecode::shape::ClassModule;
use kiln_targets::Target;

use crate::event::{Access, Event, Work};
use crate::flags::{lane, sync_of, Flags, Slot, Sync, LANES};
use crate::{HostTensor, Vm, VmError};

/// The kind of a hazard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HazardKind {
    /// Read after write: the later access reads what the earlier one writes.
    Raw,
    /// Write after read: the later access overwrites what the earlier one reads.
    War,
    /// Write after write.
    Waw,
}

impl HazardKind {
    /// `RAW`, `WAR`, `WAW`.
    pub fn name(self) -> &'static str {
        match self {
            HazardKind::Raw => "RAW",
            HazardKind::War => "WAR",
            HazardKind::Waw => "WAW",
        }
    }
}

/// One side of a hazard: an instruction of the kernel and its pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Site {
    /// Index of the instruction in the kernel's code.
    pub inst: u32,
    /// Its pipe.
    pub pipe: Pipe,
}

/// What the checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Issue {
    /// Two unordered conflicting accesses.
    Hazard {
        /// RAW, WAR or WAW.
        kind: HazardKind,
        /// The access earlier in program order.
        first: Site,
        /// The later one.
        second: Site,
        /// The space (`Gm`: of argument `gm_arg`).
        space: Space,
        /// For `Gm`: the kernel argument; otherwise 0.
        gm_arg: u16,
        /// First byte both touch.
        start: u64,
        /// One past the last byte both touch.
        end: u64,
    },
    /// A wait for an event that is not pending: its pipe would wait forever.
    Deadlock {
        /// The `WaitFlag` instruction.
        inst: u32,
        /// Its flag slot.
        src: Pipe,
        /// The waiting pipe.
        dst: Pipe,
        /// The event id.
        event: u8,
    },
    /// Sets nobody waited for before the kernel ended.
    Leak {
        /// The signalling pipe.
        src: Pipe,
        /// The pipe that should have waited.
        dst: Pipe,
        /// The event id.
        event: u8,
        /// Sets left pending.
        count: u64,
    },
}

/// A finding, located at a kernel and core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncReport {
    /// The kernel's name.
    pub kernel: String,
    /// The launch (index in the host program).
    pub launch: u32,
    /// The core (block index).
    pub core: u32,
    /// For a hazard, the mnemonics of its first and second instruction (empty when an index
    /// is past the code); otherwise empty.
    pub mnemonics: (&'static str, &'static str),
    /// What was found.
    pub issue: Issue,
}

impl fmt::Display for SyncReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "kernel `{}` core {}: ", self.kernel, self.core)?;
        match &self.issue {
            Issue::Hazard { kind, first, second, space, gm_arg, start, end } => {
                let place = match space {
                    Space::Gm => format!("gm argument {gm_arg}"),
                    s => s.name().to_string(),
                };
                let (a, b) = self.mnemonics;
                let (verb, what) = match kind {
                    HazardKind::Raw => ("reads", "writes"),
                    HazardKind::War => ("writes", "still reads"),
                    HazardKind::Waw => ("writes", "also writes"),
                };
                write!(
                    f,
                    "{} hazard on {place}[{start:#x}, {end:#x}): instruction #{} ({b} on {}) {verb} \
                     what instruction #{} ({a} on {}) {what}, with no flag or barrier ordering them",
                    kind.name(),
                    second.inst,
                    second.pipe.name(),
                    first.inst,
                    first.pipe.name()
                )
            }
            Issue::Deadlock { inst, src, dst, event } => write!(
                f,
                "instruction #{inst} (wait_flag {}->{} event {event}) waits for an event that is never \
                 set (deadlock)",
                src.name(),
                dst.name()
            ),
            Issue::Leak { src, dst, event, count } => write!(
                f,
                "flag {}->{} event {event} is still set at kernel end ({count} set{} never waited for)",
                src.name(),
                dst.name(),
                if *count == 1 { "" } else { "s" }
            ),
        }
    }
}

/// A vector clock: per pipe, how many of its instructions are known to have happened.
type Clock = [u64; LANES];

/// An access a later one may still race with (its first byte is its key in [`History`]).
struct Record {
    pipe: usize,
    tick: u64,
    inst: u32,
    end: u64,
    write: bool,
}

/// The state of the core being replayed.
struct CoreCheck {
    launch: u32,
    kernel: u32,
    core: u32,
    clocks: [Clock; LANES],
    flags: Flags<Clock>,
    history: BTreeMap<(Space, u16), History>,
}

/// Replays an event stream and collects [`SyncReport`]s.
pub struct SyncChecker<'m> {
    module: &'m Module,
    event_ids: u32,
    current: Option<CoreCheck>,
    seen: BTreeSet<(u32, u32, u32, u32, HazardKind)>,
    reports: Vec<SyncReport>,
}

fn join(into: &mut Clock, from: &Clock) {
    for (a, b) in into.iter_mut().zip(from) {
        *a = (*a).max(*b);
    }
}

impl<'m> SyncChecker<'m> {
    /// A checker for runs of `module` on `target`.
    pub fn new(module: &'m Module, target: &Target) -> SyncChecker<'m> {
        SyncChecker {
            module,
            event_ids: target.sync.event_ids,
            current: None,
            seen: BTreeSet::new(),
            reports: Vec::new(),
        }
    }

    fn mnemonic(&self, kernel: u32, inst: u32) -> &'static str {
        self.module
            .kernels
            .get(kernel as usize)
            .and_then(|k| k.code.get(inst as usize))
            .map_or("", Inst::mnemonic)
    }

    fn kernel_name(&self, kernel: u32) -> String {
        self.module.kernels.get(kernel as usize).map_or_else(|| format!("#{kernel}"), |k| k.name.clone())
    }

    fn report(&mut self, c: (u32, u32, u32), issue: Issue) {
        let (launch, kernel, core) = c;
        let mnemonics = match &issue {
            Issue::Hazard { first, second, .. } => {
                (self.mnemonic(kernel, first.inst), self.mnemonic(kernel, second.inst))
            }
            Issue::Deadlock { .. } | Issue::Leak { .. } => ("", ""),
        };
        self.reports.push(SyncReport { kernel: self.kernel_name(kernel), launch, core, mnemonics, issue });
    }

    /// Ends the current core: its pending sets are leaks.
    fn end_core(&mut self) {
        if let Some(c) = self.current.take() {
            let pending: Vec<(Slot, u64)> = c.flags.pending().collect();
            for ((src, dst, event), count) in pending {
                self.report((c.launch, c.kernel, c.core), Issue::Leak { src, dst, event, count });
            }
        }
    }

    /// Replays one executed instruction.
    pub fn event(&mut self, e: &Event) {
        let same = self.current.as_ref().is_some_and(|c| (c.launch, c.core) == (e.launch, e.core));
        if !same {
            self.end_core();
            self.current = Some(CoreCheck {
                launch: e.launch,
                kernel: e.kernel,
                core: e.core,
                clocks: [[0; LANES]; LANES],
                flags: Flags::new(),
                history: BTreeMap::new(),
            });
        }
        let sync = sync_of(self.module, e);
        let Some(c) = self.current.as_mut() else { return };
        let Some(p) = lane(e.pipe) else {
            if let Sync::BarrierAll = sync {
                let mut all = [0; LANES];
                for clock in &c.clocks {
                    join(&mut all, clock);
                }
                c.clocks = [all; LANES];
            }
            return;
        };
        let mut deadlock = None;
        match sync {
            Sync::Wait(slot) => match c.flags.wait(slot) {
                Some(clock) => join(&mut c.clocks[p], &clock),
                None => deadlock = Some(slot),
            },
            Sync::Set(_) | Sync::BarrierAll | Sync::None => {}
        }
        c.clocks[p][p] += 1;
        let tick = c.clocks[p][p];
        if let Sync::Set(slot) = sync {
            c.flags.set(slot, c.clocks[p]);
        }
        let mut found = Vec::new();
        for a in &e.accesses {
            access(c, a, p, tick, e.inst, &mut found);
        }
        let at = (c.launch, c.kernel, c.core);
        if let Some((src, dst, event)) = deadlock {
            self.report(at, Issue::Deadlock { inst: e.inst, src, dst, event });
        }
        for issue in found {
            let Issue::Hazard { kind, first, second, .. } = &issue else { continue };
            if self.seen.insert((at.0, at.2, first.inst, second.inst, *kind)) {
                self.report(at, issue);
            }
        }
    }

    /// Takes note of the error that stopped a run: when it is a `WaitFlag` whose event is not
    /// pending (the VM stops there before reporting the instruction), it becomes a deadlock
    /// report and `true` is returned (the stopped core's pending sets are then not reported as
    /// leaks); any other error is not the checker's and gives `false`.
    pub fn vm_failed(&mut self, err: &VmError) -> bool {
        let (Some(name), Some(core), Some(inst)) = (&err.kernel, err.core, err.inst) else {
            return false;
        };
        let cur = self.current.as_ref().map(|c| (c.launch, c.kernel, c.core));
        let kernel = match cur {
            Some((_, k, _)) if self.kernel_name(k) == *name => k,
            _ => match self.module.kernels.iter().position(|k| k.name == *name) {
                Some(k) => k as u32,
                None => return false,
            },
        };
        let Some(&Inst::WaitFlag { src, dst, event }) =
            self.module.kernels[kernel as usize].code.get(inst as usize)
        else {
            return false;
        };
        if u32::from(event) >= self.event_ids {
            return false;
        }
        // The failing core is the current one or a later core of its launch (cores run in
        // block order), else a core of the next launch (taken for the current core's launch
        // when the failing core has the current core's index).
        let launch = match cur {
            Some((l, k, c)) if k == kernel && core >= c => l,
            Some((l, _, _)) => l + 1,
            None => 0,
        };
        let pending = self
            .current
            .as_ref()
            .filter(|c| (c.launch, c.core) == (launch, core))
            .is_some_and(|c| c.flags.pending().any(|(s, _)| s == (src, dst, event)));
        if pending {
            return false;
        }
        let before = self.reports.len();
        self.event(&Event {
            launch,
            kernel,
            core,
            inst,
            pipe: dst,
            flag: Some((src, dst, event)),
            barrier: None,
            accesses: Vec::new(),
            work: Work::default(),
        });
        // The run stopped there: what the core left pending is not a leak.
        self.current = None;
        self.reports.len() > before
    }

    /// Ends the replay: the last core's leaks, then every report in the order found.
    pub fn finish(mut self) -> Vec<SyncReport> {
        self.end_core();
        self.reports
    }
}

/// The accesses of one space a later access may still race with, by first byte; `longest`
/// bounds how far before a range's start an overlapping record can begin.
#[derive(Default)]
struct History {
    by_start: BTreeMap<u64, Vec<Record>>,
    longest: u64,
}

/// Checks access `a` of instruction `inst` (pipe lane `p`, tick `tick`) against the core's
/// history, then records it.
fn access(c: &mut CoreCheck, a: &Access, p: usize, tick: u64, inst: u32, found: &mut Vec<Issue>) {
    if a.start >= a.end {
        return;
    }
    let clock = c.clocks[p];
    let h = c.history.entry((a.space, a.gm_arg)).or_default();
    let near = h.by_start.range(a.start.saturating_sub(h.longest)..a.end);
    for (r_start, r) in near.flat_map(|(s, v)| v.iter().map(move |r| (*s, r))) {
        if r.pipe == p || r.end <= a.start || !(r.write || a.write) || r.tick <= clock[r.pipe] {
            continue;
        }
        let kind = match (r.write, a.write) {
            (true, false) => HazardKind::Raw,
            (false, true) => HazardKind::War,
            _ => HazardKind::Waw,
        };
        found.push(Issue::Hazard {
            kind,
            first: Site { inst: r.inst, pipe: crate::flags::lane_pipe(r.pipe) },
            second: Site { inst, pipe: crate::flags::lane_pipe(p) },
            space: a.space,
            gm_arg: a.gm_arg,
            start: r_start.max(a.start),
            end: r.end.min(a.end),
        });
    }
    let mut emptied = Vec::new();
    for (&start, v) in h.by_start.range_mut(a.start..a.end) {
        v.retain(|r| !(r.end <= a.end && (a.write || !r.write) && r.tick <= clock[r.pipe]));
        if v.is_empty() {
            emptied.push(start);
        }
    }
    for start in emptied {
        h.by_start.remove(&start);
    }
    h.longest = h.longest.max(a.end - a.start);
    h.by_start.entry(a.start).or_default().push(Record { pipe: p, tick, inst, end: a.end, write: a.write });
}

/// Runs `module` on `inputs` on a VM for `target` and checks its synchronization; the VM's
/// error when it is not a deadlock the checker reports.
pub fn check(target: &Target, module: &Module, inputs: &[HostTensor]) -> Result<Vec<SyncReport>, VmError> {
    let mut checker = SyncChecker::new(module, target);
    let run = Vm::new(target).run_with(module, inputs, &mut |e| checker.event(e));
    finish(checker, run)
}

/// [`check`] for a program compiled for a shape class, on inputs of one shape of the class.
pub fn check_class(
    target: &Target,
    program: &ClassModule,
    inputs: &[HostTensor],
) -> Result<Vec<SyncReport>, VmError> {
    let mut checker = SyncChecker::new(&program.module, target);
    let run = Vm::new(target).run_class_with(program, inputs, &mut |e| checker.event(e));
    finish(checker, run)
}

/// The checker's reports after a run; the run's error unless it is a deadlock they report.
fn finish(
    mut checker: SyncChecker,
    run: Result<crate::Outputs, VmError>,
) -> Result<Vec<SyncReport>, VmError> {
    if let Err(e) = run {
        if !checker.vm_failed(&e) {
            return Err(e);
        }
    }
    Ok(checker.finish())
}
