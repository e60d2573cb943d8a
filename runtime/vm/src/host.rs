//! The host program: checks the inputs against the module, allocates GM (bounded), binds each
//! launch's arguments, runs the launches in order with `block_dim` cores each, and collects
//! the outputs and counters.
//!
//! GM borrows the inputs and constants (an input is copied only if a store writes it) and
//! allocates zeroed temporaries, or reuses the spare byte vectors [`Vm::run_recycling`] is
//! given: a run never copies its inputs, and repeated runs need not map fresh pages for their
//! outputs. A reused temporary is zeroed first, unless no launch reads it (no load, gather or
//! atomic store names it: a program's output, typically); then it is not swept up front, but
//! each page is zeroed by the first store into it that does not cover it whole, and the pages
//! no store reached at the end of the run ([`GmBuffer::stale`]): the same bytes as a
//! temporary that started zeroed, without a pass over all of it.
//!
//! Cores of a launch run on up to `available_parallelism` host threads (`std::thread::scope`,
//! the calling thread one of them; blocks split into contiguous chunks, one core state per
//! thread, its on-chip memories and scratch buffers taken from and given back to the VM's
//! spares so that launches do not allocate and zero them anew; each block clears only the
//! bytes its kernel can touch). With an event sink
//! the cores run one after the other on the calling thread, in block order, so the sink needs
//! no synchronization and the stream is deterministic; correct programs give the same results
//! either way (cores of a launch write disjoint GM ranges, and atomics commute up to float
//! rounding order).
//!
//! The step budget: each thread runs its cores within the budget left of the run, and the
//! launch's total is charged after it, so an endless kernel stops on every thread and the run
//! fails once the total passes the budget.

use std::borrow::Cow;
use std::sync::{Mutex, OnceLock, RwLock};

use kiln_bytecode::module::{BufferRef, Core, Host, Module, TensorSpec};
use kiln_bytecode::shape::ShapeClass;
use kiln_targets::Target;

use crate::core::{CoreState, Kit, LaunchCtx};
use crate::counters::{Counters, RunCounters};
use crate::event::Event;
use crate::gm::{self, Args, GmBuffer};
use crate::mem::Mem;
use crate::VmError;

/// A tensor crossing the host boundary: a spec and its little-endian bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostTensor {
    /// Element type and shape.
    pub spec: TensorSpec,
    /// The elements, row-major, little-endian.
    pub bytes: Vec<u8>,
}

/// What a run returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outputs {
    /// The program's results, in order.
    pub tensors: Vec<HostTensor>,
    /// The counters.
    pub counters: RunCounters,
}

/// The default step budget of a run: about five seconds of the slowest instruction mix the
/// fuzzer found (release build, loaded machine), and over ten times what the 16M-element
/// benchmark chain takes.
pub const DEFAULT_MAX_STEPS: u64 = 50_000_000;

/// Limits of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VmConfig {
    /// The most GM bytes (inputs, constants and temporaries) a run may hold.
    pub max_gm_bytes: u64,
    /// The most steps a run may take (over all cores and launches): one per instruction plus
    /// one per vector repeat, 4096 cube MACs or 256 bytes moved, so that both endless loops and
    /// long runs of heavy instructions stop.
    pub max_steps: u64,
    /// Host threads per launch (0: the machine's available parallelism).
    pub threads: usize,
    /// Compute `exp`, `tanh` and `sigmoid` with `libm`, bit-identical to the interpreter
    /// (else with vectorizable approximations: at most one `f32` ulp from it, `sigmoid`
    /// identical).
    pub exact_transcendentals: bool,
    /// Run runs of `f32` elementwise instructions as blocks and defer loads until their bytes
    /// are needed (the VM's fast paths, `group` and `lazy` in the sources); `false` runs one
    /// instruction at a time and copies at every load: the reference the fast paths are
    /// tested against. Results, counters, errors and the events an observed run reports are
    /// the same either way, so the sync checker, the cost model and the trace see the run
    /// that normally executes.
    pub fast_paths: bool,
}

impl Default for VmConfig {
    fn default() -> VmConfig {
        VmConfig {
            max_gm_bytes: 1 << 30,
            max_steps: DEFAULT_MAX_STEPS,
            threads: 0,
            exact_transcendentals: false,
            fast_paths: true,
        }
    }
}

/// The virtual machine for one target.
pub struct Vm {
    target: Target,
    config: VmConfig,
    /// On-chip memories and scratch of finished cores, kept for the next launch (allocating and
    /// zeroing a core's megabytes per launch dominated small launches); a core clears the bytes
    /// its kernel can touch before each block, so a reused memory behaves as a fresh one.
    spare: Mutex<Vec<Kit>>,
}

/// `tensor<4x8xf32>`.
pub fn spec_string(spec: &TensorSpec) -> String {
    let dims: String = spec.shape.iter().map(|d| format!("{d}x")).collect();
    format!("tensor<{dims}{}>", spec.dtype.name())
}

impl Clone for Vm {
    /// The same target and configuration (the clone keeps no spare memories of its own yet).
    fn clone(&self) -> Vm {
        Vm::with_config(&self.target, self.config)
    }
}

impl std::fmt::Debug for Vm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vm").field("target", &self.target.name).field("config", &self.config).finish()
    }
}

impl Vm {
    /// A VM for `target` with the default limits.
    pub fn new(target: &Target) -> Vm {
        Vm::with_config(target, VmConfig::default())
    }

    /// A VM for `target` with `config`.
    pub fn with_config(target: &Target, config: VmConfig) -> Vm {
        Vm { target: target.clone(), config, spare: Mutex::new(Vec::new()) }
    }

    /// Runs `module` on `inputs`.
    pub fn run(&self, module: &Module, inputs: &[HostTensor]) -> Result<Outputs, VmError> {
        self.execute(module, &inputs.iter().collect::<Vec<_>>(), Vec::new(), None)
    }

    /// Runs `module` on `inputs` like [`Vm::run_recycling`], for a caller that holds its
    /// inputs apart (shared, say): the run reads them in place and never copies them.
    pub fn run_borrowed(
        &self,
        module: &Module,
        inputs: &[&HostTensor],
        spare: Vec<Vec<u8>>,
    ) -> Result<Outputs, VmError> {
        self.execute(module, inputs, spare, None)
    }

    /// Runs `module` on `inputs` like [`Vm::run`], taking GM temporaries from `spare` (byte
    /// vectors of a previous run's outputs, say) where one has the temporary's size: it is
    /// zeroed and reused, so that repeated runs do not map fresh memory each time.
    pub fn run_recycling(
        &self,
        module: &Module,
        inputs: &[HostTensor],
        spare: Vec<Vec<u8>>,
    ) -> Result<Outputs, VmError> {
        self.execute(module, &inputs.iter().collect::<Vec<_>>(), spare, None)
    }

    /// Runs `module` on `inputs`, reporting every executed instruction to `sink`.
    pub fn run_with(
        &self,
        module: &Module,
        inputs: &[HostTensor],
        sink: &mut dyn FnMut(&Event),
    ) -> Result<Outputs, VmError> {
        self.execute(module, &inputs.iter().collect::<Vec<_>>(), Vec::new(), Some(sink))
    }

    pub(crate) fn check_target(&self, module: &Module) -> Result<(), VmError> {
        if module.target != self.target.name {
            return Err(VmError::host(format!(
                "the module was compiled for target `{}`, the vm runs `{}`",
                module.target, self.target.name
            )));
        }
        Ok(())
    }

    pub(crate) fn execute(
        &self,
        module: &Module,
        inputs: &[&HostTensor],
        spare: Vec<Vec<u8>>,
        sink: Option<&mut dyn FnMut(&Event)>,
    ) -> Result<Outputs, VmError> {
        self.check_target(module)?;
        self.execute_host(module, &module.host, None, inputs, spare, sink)
    }

    /// Runs `module`'s kernels under the host program `host` (the module's own, or a shape
    /// class's bound to the inputs, with its class and each launch's parameters).
    pub(crate) fn execute_host(
        &self,
        module: &Module,
        host: &Host,
        class: Option<(&ShapeClass, &[Vec<i64>])>,
        inputs: &[&HostTensor],
        spare: Vec<Vec<u8>>,
        mut sink: Option<&mut dyn FnMut(&Event)>,
    ) -> Result<Outputs, VmError> {
        let buffers = self.allocate(module, host, inputs, spare)?;
        let index = |r: BufferRef| -> Result<usize, VmError> {
            let (n, base, count, what) = match r {
                BufferRef::Input(n) => (n, 0, host.inputs.len(), "input"),
                BufferRef::Const(n) => (n, host.inputs.len(), module.constants.len(), "constant"),
                BufferRef::Temp(n) => {
                    (n, host.inputs.len() + module.constants.len(), host.temps.len(), "temporary")
                }
            };
            if n as usize >= count {
                return Err(VmError::host(format!("{what} #{n} does not exist (the module has {count})")));
            }
            Ok(base + n as usize)
        };
        let mut counters = RunCounters {
            kernels: vec![Counters::default(); module.kernels.len()],
            total: Counters::default(),
        };
        let mut budget = self.config.max_steps;
        for (li, launch) in host.launches.iter().enumerate() {
            let kernel = module.kernels.get(launch.kernel as usize).ok_or_else(|| {
                VmError::host(format!(
                    "launch #{li} names kernel #{} of {}",
                    launch.kernel,
                    module.kernels.len()
                ))
            })?;
            let at = |message: String| VmError {
                kernel: Some(kernel.name.clone()),
                core: None,
                inst: None,
                message,
            };
            if launch.args.len() != kernel.num_args as usize {
                return Err(at(format!(
                    "launch #{li} binds {} arguments, the kernel takes {}",
                    launch.args.len(),
                    kernel.num_args
                )));
            }
            if kernel.block_dim == 0 {
                return Err(at("block_dim is 0".into()));
            }
            let bound = launch.args.iter().map(|&r| index(r)).collect::<Result<Vec<_>, _>>()?;
            let (kernel_class, params) =
                crate::class::launch_class(class, kernel, launch.kernel, li).map_err(at)?;
            let ctx = LaunchCtx {
                target: &self.target,
                kernel,
                kernel_index: launch.kernel,
                launch_index: li as u32,
                args: Args { buffers: &buffers, bound: &bound },
                exact: self.config.exact_transcendentals,
                fast: self.config.fast_paths,
                params,
                class: kernel_class,
            };
            let sink_now: Option<&mut (dyn FnMut(&Event) + '_)> = match &mut sink {
                Some(s) => Some(&mut **s),
                None => None,
            };
            let (c, steps) = self.launch(&ctx, budget, sink_now)?;
            budget = budget
                .checked_sub(steps)
                .ok_or_else(|| at(format!("step budget of {} steps exhausted", self.config.max_steps)))?;
            let kc = &mut counters.kernels[launch.kernel as usize];
            kc.merge(&c);
            kc.launches += 1;
            counters.total.merge(&c);
            counters.total.launches += 1;
        }
        let refs = host.outputs.iter().map(|(_, r)| index(*r)).collect::<Result<Vec<_>, _>>()?;
        let mut buffers: Vec<Option<Cow<[u8]>>> = buffers
            .into_iter()
            .map(|b| {
                let mut bytes = b.bytes.into_inner().ok()?;
                if let Some(stale) = b.stale {
                    gm::zero_stale(&stale.into_inner().ok()?, bytes.to_mut());
                }
                Some(bytes)
            })
            .collect();
        let mut tensors = Vec::new();
        for (i, ((spec, _), &b)) in host.outputs.iter().zip(&refs).enumerate() {
            let len = buffer_len(&buffers[b]);
            let need = spec.checked_bytes().filter(|&n| n <= len).ok_or_else(|| {
                VmError::host(format!(
                    "output #{i}: {} does not fit its {len}-byte buffer",
                    spec_string(spec)
                ))
            })?;
            // The last output of a buffer that fills it takes the bytes; others copy.
            let last = !refs[i + 1..].contains(&b);
            let bytes = match buffers[b].take() {
                Some(v) if last && v.len() as u64 == need => v.into_owned(),
                Some(v) => {
                    let copy = v[..need as usize].to_vec();
                    buffers[b] = Some(v);
                    copy
                }
                None => return Err(VmError::host("gm buffer lock poisoned")),
            };
            tensors.push(HostTensor { spec: spec.clone(), bytes });
        }
        Ok(Outputs { tensors, counters })
    }

    /// GM for the run: inputs (checked, borrowed), constants (borrowed), temporaries (zeroed,
    /// from `spare` where one fits), within `max_gm_bytes`.
    fn allocate<'g>(
        &self,
        module: &'g Module,
        host: &Host,
        inputs: &[&'g HostTensor],
        mut spare: Vec<Vec<u8>>,
    ) -> Result<Vec<GmBuffer<'g>>, VmError> {
        let expected = &host.inputs;
        if inputs.len() != expected.len() {
            return Err(VmError::host(format!("expected {} inputs, got {}", expected.len(), inputs.len())));
        }
        let mut total = 0u64;
        let mut charge = |bytes: u64, what: &dyn Fn() -> String| -> Result<(), VmError> {
            total = total.saturating_add(bytes);
            if total > self.config.max_gm_bytes {
                return Err(VmError::host(format!(
                    "{} takes GM past the limit of {} bytes",
                    what(),
                    self.config.max_gm_bytes
                )));
            }
            Ok(())
        };
        for (i, (t, spec)) in inputs.iter().zip(expected).enumerate() {
            if t.spec != *spec {
                return Err(VmError::host(format!(
                    "input #{i}: expected {}, got {}",
                    spec_string(spec),
                    spec_string(&t.spec)
                )));
            }
            if spec.checked_bytes() != Some(t.bytes.len() as u64) {
                return Err(VmError::host(format!(
                    "input #{i}: {} bytes for {}",
                    t.bytes.len(),
                    spec_string(spec)
                )));
            }
            charge(t.bytes.len() as u64, &|| format!("input #{i}"))?;
        }
        for (i, (spec, bytes)) in module.constants.iter().enumerate() {
            if spec.checked_bytes() != Some(bytes.len() as u64) {
                return Err(VmError::host(format!(
                    "constant #{i}: {} bytes for {}",
                    bytes.len(),
                    spec_string(spec)
                )));
            }
            charge(bytes.len() as u64, &|| format!("constant #{i}"))?;
        }
        for (i, &bytes) in host.temps.iter().enumerate() {
            charge(bytes, &|| format!("temporary #{i} ({bytes} bytes)"))?;
        }
        let buffer = |bytes: Cow<'g, [u8]>, read_only| GmBuffer {
            len: bytes.len() as u64,
            bytes: RwLock::new(bytes),
            read_only,
            stale: None,
        };
        let mut buffers: Vec<GmBuffer> =
            inputs.iter().map(|t| buffer(Cow::Borrowed(&t.bytes[..]), false)).collect();
        buffers.extend(module.constants.iter().map(|(_, b)| buffer(Cow::Borrowed(&b[..]), true)));
        let unread = if spare.is_empty() { Vec::new() } else { unread_temps(module, host) };
        for (t, &n) in host.temps.iter().enumerate() {
            let Some(i) = spare.iter().position(|v| v.len() as u64 == n) else {
                buffers.push(buffer(Cow::Owned(zeroed(n as usize, n as usize)), false));
                continue;
            };
            let mut v = spare.swap_remove(i);
            let stale = if unread[t] {
                Some(Mutex::new(gm::all_stale(v.len())))
            } else {
                v.fill(0);
                None
            };
            buffers.push(GmBuffer { stale, ..buffer(Cow::Owned(v), false) });
        }
        Ok(buffers)
    }

    /// The on-chip memories and scratch for a core of kind `core`: a spare kit of that kind,
    /// or a new one.
    fn take_kit(&self, core: Core) -> Kit {
        let mut spare = self.spare.lock().unwrap_or_else(|p| p.into_inner());
        match spare.iter().position(|k| k.mem.core == Mem::kind(core)) {
            Some(i) => spare.swap_remove(i),
            None => Kit::new(&self.target, core),
        }
    }

    /// Keeps `kit` for a later core (at most a few per kind: one per host thread).
    fn give_kit(&self, kit: Kit) {
        let mut spare = self.spare.lock().unwrap_or_else(|p| p.into_inner());
        if spare.len() < 16 {
            spare.push(kit);
        }
    }

    /// Runs every block of one launch; returns its counters and steps.
    fn launch(
        &self,
        ctx: &LaunchCtx,
        budget: u64,
        sink: Option<&mut (dyn FnMut(&Event) + '_)>,
    ) -> Result<(Counters, u64), VmError> {
        let blocks = ctx.kernel.block_dim;
        if let Some(sink) = sink {
            let mut state = CoreState::new(&self.target, ctx.kernel, self.take_kit(ctx.kernel.core));
            let (mut counters, mut steps) = (Counters::default(), 0u64);
            let mut result = Ok(());
            for b in 0..blocks {
                let left = budget.saturating_sub(steps);
                match state.run(ctx, b, left, Some(&mut *sink), &mut counters) {
                    Ok(s) => steps += s,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            self.give_kit(state.into_kit());
            return result.map(|()| (counters, steps));
        }
        let threads = match self.config.threads {
            0 => host_threads(),
            n => n,
        }
        .min(blocks as usize)
        .max(1);
        let chunk = (blocks as usize).div_ceil(threads) as u32;
        let run_chunk = |first: u32| -> Result<(Counters, u64), VmError> {
            let mut state = CoreState::new(&self.target, ctx.kernel, self.take_kit(ctx.kernel.core));
            let (mut counters, mut steps) = (Counters::default(), 0u64);
            let mut result = Ok(());
            for b in first..(first + chunk).min(blocks) {
                match state.run(ctx, b, budget.saturating_sub(steps), None, &mut counters) {
                    Ok(s) => steps += s,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            self.give_kit(state.into_kit());
            result.map(|()| (counters, steps))
        };
        let results: Vec<Result<(Counters, u64), VmError>> = if threads == 1 {
            vec![run_chunk(0)]
        } else {
            // The calling thread takes the first chunk itself.
            std::thread::scope(|s| {
                let handles: Vec<_> =
                    (1..threads as u32).map(|t| s.spawn(move || run_chunk(t * chunk))).collect();
                let first = run_chunk(0);
                std::iter::once(first)
                    .chain(
                        handles
                            .into_iter()
                            .map(|h| h.join().unwrap_or_else(|_| Err(VmError::host("a vm thread panicked")))),
                    )
                    .collect()
            })
        };
        let (mut counters, mut steps) = (Counters::default(), 0u64);
        for r in results {
            let (c, s) = r?;
            counters.merge(&c);
            steps = steps.saturating_add(s);
        }
        Ok((counters, steps))
    }
}

/// For each temporary of `module`: whether no launch reads it, that is, no load, gather or
/// atomic store of a kernel names an argument it is bound to (plain stores only write).
fn unread_temps(module: &Module, host: &Host) -> Vec<bool> {
    let mut unread = vec![true; host.temps.len()];
    for launch in &host.launches {
        // A launch of a kernel that does not exist fails the run before anything reads.
        let Some(kernel) = module.kernels.get(launch.kernel as usize) else { continue };
        for inst in &kernel.code {
            for arg in inst.gm_reads().into_iter().flatten() {
                if let Some(&BufferRef::Temp(t)) = launch.args.get(arg as usize) {
                    if let Some(u) = unread.get_mut(t as usize) {
                        *u = false;
                    }
                }
            }
        }
    }
    unread
}

/// The byte length of a GM buffer after the run (0 when its lock was poisoned).
fn buffer_len(b: &Option<Cow<[u8]>>) -> u64 {
    b.as_ref().map_or(0, |v| v.len() as u64)
}

/// The host's parallelism, asked once per process: the query reads cgroup files on Linux
/// (about 11,000 instructions), which the eager path would otherwise pay on every launch.
fn host_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `len` zero bytes with room for `capacity` (at least `len`). A large buffer is fresh pages
/// from the system, which the first store faults in one by one: on Linux it is advised to use
/// transparent huge pages (when the system allows them only on request), 512 times fewer
/// faults for the same zeroing. The room past `len` is only address space until it is written.
pub fn zeroed(len: usize, capacity: usize) -> Vec<u8> {
    let capacity = capacity.max(len);
    let mut v = vec![0u8; capacity];
    #[cfg(target_os = "linux")]
    if capacity >= HUGE_PAGE {
        const PAGE: usize = 4096;
        let start = (v.as_ptr() as usize).next_multiple_of(PAGE);
        let end = (v.as_ptr() as usize + capacity) & !(PAGE - 1);
        if end > start {
            // SAFETY: `start..end` lies within `v`'s allocation, page-aligned; the advice only
            // changes how the kernel backs the pages, never their contents (zero, untouched).
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    v.truncate(len);
    v
}

/// The size of a transparent huge page on x86-64 and AArch64 (4 KiB base pages).
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;
