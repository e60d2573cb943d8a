//! The cost model: simulated device time of a run, from the VM's event stream and the
//! target's rates (`[pipes]`, `[costs]`, `[clock]`, `[hbm]`).
//!
//! Each core has one timeline per pipe, in cycles from the start of its launch. An
//! instruction starts when its pipe is free and takes:
//! - MTE2 / MTE3: `dma_setup_ns` (in cycles of the clock, rounded up) per DMA transfer plus
//!   GM bytes / `mte2_bytes_per_cycle` (resp. `mte3_bytes_per_cycle`), rounded up;
//! - V: `repeats * vector_cycles_per_repeat`; M: `macs / cube_macs_per_cycle`;
//! - MTE1 / FIX: bytes moved / `mte1_bytes_per_cycle` (resp. `fixpipe_bytes_per_cycle`);
//! - S: 1 cycle (a loop reports its `For` once on entry and once per back-edge, so each
//!   iteration costs a scalar cycle); `SetFlag`, `WaitFlag` and `Barrier`: nothing.
//!
//! `SetFlag(p -> q, e)` marks the event at the time p is free (the end of everything before it
//! on p); the matching `WaitFlag` (first in first out, as the VM counts sets) holds q until
//! then, and that wait is q's stall. `Barrier(All)` moves every pipe to the latest one.
//! Nothing models the scalar unit issuing instructions: S is one more pipe.
//!
//! A launch takes, over its cores (which run in parallel, each block on a core of its own: the
//! loader checks `block_dim` against the target's cores), the latest pipe end; converted to
//! ns it is bounded below by the launch's GM bytes (read and written, all cores) over
//! `hbm.bandwidth_gb_per_s`, the chip-wide cap; the launch's time is `kernel_launch_ns` plus
//! the larger of the two. A run's time is the sum over its launches, which run one after the
//! other. With [`CostModel::recording`] the model also keeps every instruction's [`Slice`],
//! for the trace writer (memory in proportion to the instructions executed).

use std::fmt;

use kiln_bytecode::isa::Pipe;
use kiln_bytecode::module::Module;
use kiln_bytecode::shape::ClassModule;
use kiln_targets::Target;

use crate::event::Event;
use crate::flags::{lane, lane_pipe, sync_of, Flags, Sync, LANES};
use crate::{HostTensor, Outputs, Vm, VmError};

/// Cycles per pipe (every pipe but `All`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipeCycles([u64; LANES]);

impl PipeCycles {
    /// The cycles of `pipe` (0 for `All`).
    pub fn get(&self, pipe: Pipe) -> u64 {
        lane(pipe).map_or(0, |l| self.0[l])
    }

    /// The pipes with their cycles, in encoding order.
    pub fn iter(&self) -> impl Iterator<Item = (Pipe, u64)> + '_ {
        self.0.iter().enumerate().map(|(l, &c)| (lane_pipe(l), c))
    }

    fn add(&mut self, o: &PipeCycles) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a = a.saturating_add(b);
        }
    }
}

impl fmt::Display for PipeCycles {
    /// `mte2 1928, v 8` (the pipes with cycles; `none` when there are none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut any = false;
        for (p, c) in self.iter().filter(|&(_, c)| c > 0) {
            write!(f, "{}{} {c}", if any { ", " } else { "" }, p.name())?;
            any = true;
        }
        if !any {
            f.write_str("none")?;
        }
        Ok(())
    }
}

/// One executed instruction on its pipe's timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slice {
    /// The launch.
    pub launch: u32,
    /// The core (block index).
    pub core: u32,
    /// The pipe.
    pub pipe: Pipe,
    /// Index of the instruction in the kernel's code.
    pub inst: u32,
    /// Start, in cycles from the launch's start (after its launch overhead).
    pub start: u64,
    /// End (for a wait: when the awaited set happened).
    pub end: u64,
}

/// The cost of one launch.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchCost {
    /// The kernel launched.
    pub kernel: u32,
    /// The latest pipe end over the launch's cores.
    pub cycles: u64,
    /// GM bytes read and written by all its cores.
    pub gm_bytes: u64,
    /// `cycles` in ns.
    pub cores_ns: f64,
    /// `gm_bytes` at the HBM bandwidth, in ns.
    pub hbm_ns: f64,
    /// `kernel_launch_ns + max(cores_ns, hbm_ns)`.
    pub ns: f64,
    /// Cycles each pipe worked, summed over cores.
    pub busy: PipeCycles,
    /// Cycles each pipe waited for a flag, summed over cores.
    pub stall: PipeCycles,
}

/// The cost of one kernel over its launches.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelCost {
    /// The kernel's name.
    pub name: String,
    /// Its launches.
    pub launches: u64,
    /// Time over its launches, in ns.
    pub ns: f64,
    /// GM bytes read and written.
    pub gm_bytes: u64,
    /// Cycles each pipe worked.
    pub busy: PipeCycles,
    /// Cycles each pipe waited for a flag.
    pub stall: PipeCycles,
}

/// The simulated time of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct CostReport {
    /// Per launch, in host program order.
    pub launches: Vec<LaunchCost>,
    /// Per kernel, in [`Module::kernels`] order.
    pub kernels: Vec<KernelCost>,
    /// The run: the sum over the launches, in ns.
    pub total_ns: f64,
    /// Cycles each pipe worked over the run.
    pub busy: PipeCycles,
    /// Cycles each pipe waited over the run.
    pub stall: PipeCycles,
    /// Every instruction's slice when recorded ([`CostModel::recording`]), else empty.
    pub slices: Vec<Slice>,
    /// The clock, to turn cycles into ns.
    pub clock_mhz: u32,
    /// The launch overhead of each launch, in ns.
    pub launch_ns: f64,
}

impl CostReport {
    /// `cycles` of the clock in ns.
    pub fn ns(&self, cycles: u64) -> f64 {
        cycles_ns(cycles, self.clock_mhz)
    }
}

fn cycles_ns(cycles: u64, mhz: u32) -> f64 {
    cycles as f64 * 1000.0 / f64::from(mhz.max(1))
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "es"
    }
}

impl fmt::Display for CostReport {
    /// One line per kernel, then the total.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for k in &self.kernels {
            writeln!(
                f,
                "kernel `{}`: {} launch{}, {:.1} ns, {} GM bytes; busy cycles: {}; stall cycles: {}",
                k.name,
                k.launches,
                plural(k.launches),
                k.ns,
                k.gm_bytes,
                k.busy,
                k.stall
            )?;
        }
        let n = self.launches.len() as u64;
        write!(
            f,
            "total: {n} launch{}, {:.1} ns; busy cycles: {}; stall cycles: {}",
            plural(n),
            self.total_ns,
            self.busy,
            self.stall
        )
    }
}

/// The rates of the target, in cycles.
#[derive(Clone, Copy)]
struct Rates {
    dma_setup: u64,
    mte2: u64,
    mte3: u64,
    mte1: u64,
    fix: u64,
    repeat: u64,
    macs: u64,
    mhz: u32,
    launch_ns: f64,
    hbm_gb_per_s: f64,
}

impl Rates {
    fn of(t: &Target) -> Rates {
        let p = &t.pipes;
        let rate = |r: u32| u64::from(r.max(1));
        Rates {
            dma_setup: (u64::from(t.costs.dma_setup_ns) * u64::from(t.clock.mhz)).div_ceil(1000),
            mte2: rate(p.mte2_bytes_per_cycle),
            mte3: rate(p.mte3_bytes_per_cycle),
            mte1: rate(p.mte1_bytes_per_cycle),
            fix: rate(p.fixpipe_bytes_per_cycle),
            repeat: u64::from(p.vector_cycles_per_repeat),
            macs: rate(p.cube_macs_per_cycle),
            mhz: t.clock.mhz,
            launch_ns: f64::from(t.costs.kernel_launch_ns),
            hbm_gb_per_s: f64::from(t.hbm.bandwidth_gb_per_s.max(1)),
        }
    }

    /// The cycles `e` keeps its pipe busy.
    fn duration(&self, e: &Event) -> u64 {
        let w = &e.work;
        let dma =
            |bytes: u64, rate: u64| w.dma.saturating_mul(self.dma_setup).saturating_add(bytes.div_ceil(rate));
        match e.pipe {
            Pipe::S => 1,
            Pipe::V => w.repeats.saturating_mul(self.repeat),
            Pipe::Mte2 => dma(w.gm_read, self.mte2),
            Pipe::Mte3 => dma(w.gm_written, self.mte3),
            Pipe::Mte1 => w.moved.div_ceil(self.mte1),
            Pipe::M => w.macs.div_ceil(self.macs),
            Pipe::Fix => w.moved.div_ceil(self.fix),
            Pipe::All => 0,
        }
    }
}

/// What one launch has accumulated.
#[derive(Clone, Default)]
struct LaunchAcc {
    kernel: Option<u32>,
    cycles: u64,
    gm_bytes: u64,
    busy: PipeCycles,
    stall: PipeCycles,
}

/// The timelines of the core being replayed.
struct CoreTimeline {
    launch: u32,
    core: u32,
    free: [u64; LANES],
    flags: Flags<u64>,
    acc: LaunchAcc,
}

/// Replays an event stream into per-pipe timelines.
pub struct CostModel<'m> {
    module: &'m Module,
    rates: Rates,
    record: bool,
    current: Option<CoreTimeline>,
    launches: Vec<LaunchAcc>,
    slices: Vec<Slice>,
}

impl<'m> CostModel<'m> {
    /// A model of runs of `module` on `target`.
    pub fn new(module: &'m Module, target: &Target) -> CostModel<'m> {
        CostModel {
            module,
            rates: Rates::of(target),
            record: false,
            current: None,
            launches: Vec::new(),
            slices: Vec::new(),
        }
    }

    /// A model that also keeps every instruction's [`Slice`] (for a trace).
    pub fn recording(module: &'m Module, target: &Target) -> CostModel<'m> {
        CostModel { record: true, ..CostModel::new(module, target) }
    }

    fn end_core(&mut self) {
        let Some(c) = self.current.take() else { return };
        let i = c.launch as usize;
        if self.launches.len() <= i {
            self.launches.resize(i + 1, LaunchAcc::default());
        }
        let l = &mut self.launches[i];
        l.kernel = c.acc.kernel;
        l.cycles = l.cycles.max(c.free.iter().copied().max().unwrap_or(0));
        l.gm_bytes = l.gm_bytes.saturating_add(c.acc.gm_bytes);
        l.busy.add(&c.acc.busy);
        l.stall.add(&c.acc.stall);
    }

    /// Replays one executed instruction.
    pub fn event(&mut self, e: &Event) {
        if self.current.as_ref().is_none_or(|c| (c.launch, c.core) != (e.launch, e.core)) {
            self.end_core();
            self.current = Some(CoreTimeline {
                launch: e.launch,
                core: e.core,
                free: [0; LANES],
                flags: Flags::new(),
                acc: LaunchAcc { kernel: Some(e.kernel), ..LaunchAcc::default() },
            });
        }
        let sync = sync_of(self.module, e);
        let duration = self.rates.duration(e);
        let Some(c) = self.current.as_mut() else { return };
        c.acc.gm_bytes = c.acc.gm_bytes.saturating_add(e.work.gm_read.saturating_add(e.work.gm_written));
        let Some(p) = lane(e.pipe) else {
            if let Sync::BarrierAll = sync {
                let latest = c.free.iter().copied().max().unwrap_or(0);
                c.free = [latest; LANES];
            }
            return;
        };
        let start = c.free[p];
        let end = match sync {
            Sync::Wait(slot) => {
                let end = c.flags.wait(slot).map_or(start, |t| t.max(start));
                c.acc.stall.0[p] += end - start;
                end
            }
            Sync::Set(slot) => {
                c.flags.set(slot, start);
                start
            }
            Sync::BarrierAll | Sync::None => {
                c.acc.busy.0[p] = c.acc.busy.0[p].saturating_add(duration);
                start.saturating_add(duration)
            }
        };
        c.free[p] = end;
        if self.record {
            self.slices.push(Slice {
                launch: e.launch,
                core: e.core,
                pipe: e.pipe,
                inst: e.inst,
                start,
                end,
            });
        }
    }

    /// Ends the replay of a complete run.
    pub fn finish(mut self) -> CostReport {
        self.end_core();
        let r = self.rates;
        let mut kernels: Vec<KernelCost> = self
            .module
            .kernels
            .iter()
            .map(|k| KernelCost {
                name: k.name.clone(),
                launches: 0,
                ns: 0.0,
                gm_bytes: 0,
                busy: PipeCycles::default(),
                stall: PipeCycles::default(),
            })
            .collect();
        let (mut busy, mut stall, mut total_ns) = (PipeCycles::default(), PipeCycles::default(), 0.0);
        let mut launches = Vec::new();
        for (i, launch) in self.module.host.launches.iter().enumerate() {
            let acc = self.launches.get(i).cloned().unwrap_or_default();
            let kernel = acc.kernel.unwrap_or(launch.kernel);
            let cores_ns = cycles_ns(acc.cycles, r.mhz);
            let hbm_ns = acc.gm_bytes as f64 / r.hbm_gb_per_s;
            let ns = r.launch_ns + cores_ns.max(hbm_ns);
            if let Some(k) = kernels.get_mut(kernel as usize) {
                k.launches += 1;
                k.ns += ns;
                k.gm_bytes = k.gm_bytes.saturating_add(acc.gm_bytes);
                k.busy.add(&acc.busy);
                k.stall.add(&acc.stall);
            }
            busy.add(&acc.busy);
            stall.add(&acc.stall);
            total_ns += ns;
            launches.push(LaunchCost {
                kernel,
                cycles: acc.cycles,
                gm_bytes: acc.gm_bytes,
                cores_ns,
                hbm_ns,
                ns,
                busy: acc.busy,
                stall: acc.stall,
            });
        }
        CostReport {
            launches,
            kernels,
            total_ns,
            busy,
            stall,
            slices: self.slices,
            clock_mhz: r.mhz,
            launch_ns: r.launch_ns,
        }
    }
}

/// Runs `module` on `inputs` on a VM for `target` and models its time; with `record`, the
/// report keeps every instruction's slice.
pub fn simulate(
    target: &Target,
    module: &Module,
    inputs: &[HostTensor],
    record: bool,
) -> Result<(Outputs, CostReport), VmError> {
    modelled(target, module, record, |vm, sink| vm.run_with(module, inputs, sink))
}

/// [`simulate`] for a program compiled for a shape class, on inputs of one of its shapes.
pub fn simulate_class(
    target: &Target,
    program: &ClassModule,
    inputs: &[HostTensor],
    record: bool,
) -> Result<(Outputs, CostReport), VmError> {
    modelled(target, &program.module, record, |vm, sink| vm.run_class_with(program, inputs, sink))
}

/// Runs `run` on a VM for `target` with the cost model of `module` as its event sink.
fn modelled(
    target: &Target,
    module: &Module,
    record: bool,
    run: impl FnOnce(&Vm, &mut dyn FnMut(&Event)) -> Result<Outputs, VmError>,
) -> Result<(Outputs, CostReport), VmError> {
    let mut model =
        if record { CostModel::recording(module, target) } else { CostModel::new(module, target) };
    let outputs = run(&Vm::new(target), &mut |e| model.event(e))?;
    Ok((outputs, model.finish()))
}
