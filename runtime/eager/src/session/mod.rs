//! The session: values in slots (a handle is a slot index and generation), the open segment
//! of recorded ops, the flush rules, and running flushed segments on the VM.
//!
//! A value is either on the host (its bytes) or pending (a node of the open segment). Ops
//! are checked as they are recorded, with the `hl` verifier's own type checks
//! ([`check_types`](kiln_dialects::hl::verify::check_types)), so a mistake is reported at the op. A flush compiles the open segment
//! (or finds it in the cache) with one output per node that a live tensor still names — the
//! values nothing outside the segment reads stay inside its kernels — runs it, and puts the
//! outputs on the host. The reasons to flush are [`FlushReason`]'s.

use std::cell::RefCell;
use std::rc::Rc;

use kiln_compiler::{OpDef, OwnedContext};
use kiln_targets::Target;
use kiln_vm::{HostTensor, Vm, VmConfig};

use crate::cache::{fold, fold_node, Cache, Entry};
use crate::class::ClassTable;
use crate::compile::Compiler;
use crate::error::{EagerError, ErrorKind, Result};
use crate::flags::{Flags, FusionKey};
use crate::node::{AttrValue, Node, TensorType};
use crate::pool::Pool;
use crate::stats::{FlushReason, Stats};
use crate::tensor::{Arg, Tensor};

mod flush;
mod follow;
mod limits;
mod program;
mod record;

/// Interned bytes past which the session's context starts a new generation.
const CONTEXT_BUDGET: usize = 32 << 20;

/// An eager JIT session. Tensors name values in it; dropping it flushes what is pending,
/// after which its tensors can no longer be read.
pub struct Session {
    pub(crate) inner: Rc<RefCell<Inner>>,
}

#[derive(Clone, Debug)]
pub(crate) enum SlotState {
    Free,
    Host(Rc<HostTensor>),
    Pending(u32),
    Failed(EagerError),
}

pub(crate) struct Slot {
    pub(crate) generation: u32,
    refs: u32,
    pub(crate) state: SlotState,
}

#[derive(Default)]
struct Segment {
    nodes: Vec<Node>,
    /// `nodes` folded with [`fold_node`] from 0 (the cache key's hash, built as ops record).
    hash: u64,
    /// The segment this one is expected to repeat ([`follow`]). While it is set, `nodes` is
    /// empty: the segment's nodes are the script's first `matched`.
    script: Option<Rc<Entry>>,
    matched: u32,
    /// Slots read as inputs (each pinned by one reference until the flush).
    inputs: Vec<u32>,
    input_types: Vec<TensorType>,
    /// Slots made pending in this segment, with their generation.
    results: Vec<(u32, u32)>,
    /// The nodes that become outputs (filled at the flush; kept for its buffer).
    outputs: Vec<u32>,
    /// The reason the next op flushes the segment first.
    closed: Option<FlushReason>,
    /// Started by a cube op: only its elementwise epilogue joins.
    cube: bool,
}

impl Segment {
    /// Nodes recorded.
    fn len(&self) -> usize {
        match self.script {
            Some(_) => self.matched as usize,
            None => self.nodes.len(),
        }
    }

    /// Stops following the script: its matched nodes become the segment's own.
    fn materialize(&mut self) {
        if let Some(script) = self.script.take() {
            self.nodes.extend_from_slice(&script.key.nodes[..self.matched as usize]);
            self.hash = fold(&self.nodes, &self.input_types);
        }
    }

    /// Appends `node` (of signature hash `signature`; the segment follows no script);
    /// returns its index.
    fn push(&mut self, node: Node, signature: u64) -> u32 {
        debug_assert!(self.script.is_none(), "a segment following a script holds no nodes");
        self.hash = fold_node(self.hash, signature, &node);
        self.nodes.push(node);
        self.nodes.len() as u32 - 1
    }

    /// An empty segment that reuses the buffers of flushed one `self`, following `script`.
    fn recycle(mut self, script: Option<Rc<Entry>>) -> Segment {
        self.nodes.clear();
        self.inputs.clear();
        self.input_types.clear();
        self.results.clear();
        self.outputs.clear();
        let Segment { nodes, inputs, input_types, results, outputs, .. } = self;
        Segment { nodes, inputs, input_types, results, outputs, script, ..Segment::default() }
    }
}

pub(crate) struct Inner {
    flags: Flags,
    warnings: Vec<String>,
    target: Target,
    vm: Vm,
    owner: OwnedContext,
    compiler: Option<Compiler>,
    cache: Cache,
    /// The shape classes met (`--dynamic_shape`).
    classes: ClassTable,
    /// The entry of the segment run last (whose successor the next segment run becomes).
    last: Option<Rc<Entry>>,
    /// The flags' part of the cache key (rebuilt when the flags change).
    fusion: Rc<FusionKey>,
    /// Result types of signatures already checked, by the hash of their key.
    checked: rustc_hash::FxHashMap<u64, (record::CheckKey, TensorType)>,
    /// The buffer a flush gathers its segment's input values in.
    input_values: Vec<Rc<HostTensor>>,
    /// The bytes of released large values, for later outputs.
    pub(crate) pool: Pool,
    stats: Stats,
    slots: Vec<Slot>,
    free: Vec<u32>,
    seg: Segment,
    compiled: u64,
    /// The VM's GM limit: no value may be larger ([`limits`]).
    max_bytes: u64,
}

impl Session {
    /// A session with `flags` on the default target (`ascend910b`) and the VM's default
    /// limits.
    pub fn new(flags: Flags) -> Result<Session> {
        Session::with_target(flags, kiln_targets::DEFAULT_TARGET, VmConfig::default())
    }

    /// A session with the flags of `KILN_FUSION_FLAGS` (see [`Session::warnings`]).
    pub fn from_env() -> Result<Session> {
        let parsed = Flags::from_env()?;
        let session = Session::new(parsed.flags)?;
        session.inner.borrow_mut().warnings = parsed.warnings;
        Ok(session)
    }

    /// A session on `target` (a name or a TOML path) with VM limits `config`.
    pub fn with_target(flags: Flags, target: &str, config: VmConfig) -> Result<Session> {
        let target = Target::load(target).map_err(|e| EagerError::new(ErrorKind::Flags, e.to_string()))?;
        let mut owner = OwnedContext::new(kiln_dialects::all_dialects());
        owner.set_budget(Some(CONTEXT_BUDGET));
        let inner = Inner {
            fusion: Rc::new(flags.fusion_key()),
            input_values: Vec::new(),
            pool: Pool::default(),
            flags,
            warnings: Vec::new(),
            vm: Vm::with_config(&target, config),
            target,
            owner,
            compiler: None,
            cache: Cache::default(),
            classes: ClassTable::default(),
            last: None,
            checked: Default::default(),
            stats: Stats::default(),
            slots: Vec::new(),
            free: Vec::new(),
            seg: Segment::default(),
            compiled: 0,
            max_bytes: config.max_gm_bytes,
        };
        Ok(Session { inner: Rc::new(RefCell::new(inner)) })
    }

    /// A tensor of `shape` holding `data` (row-major).
    pub fn tensor<T: crate::host::Element>(&self, data: &[T], shape: &[usize]) -> Result<Tensor> {
        self.tensor_from_bytes(crate::host::to_bytes(data), shape, T::DTYPE)
    }

    /// A tensor of `shape` and `dtype` holding little-endian `bytes` (`i1`: one byte each).
    pub fn tensor_from_bytes(
        &self,
        bytes: Vec<u8>,
        shape: &[usize],
        dtype: kiln_bytecode::isa::DType,
    ) -> Result<Tensor> {
        let dims: Vec<i64> = shape.iter().map(|&d| i64::try_from(d).unwrap_or(i64::MAX)).collect();
        let ty = TensorType::new(dtype, &dims);
        let mut inner = self.inner.borrow_mut();
        let host = Inner::host_tensor(&ty, bytes, inner.max_bytes)?;
        let (slot, generation) = inner.alloc(|| SlotState::Host(Rc::new(host)));
        drop(inner);
        Ok(Tensor::new(Rc::downgrade(&self.inner), slot, generation, ty))
    }

    /// A tensor of `shape` and `dtype` holding a copy of little-endian `bytes`: one copy, into
    /// a spare buffer of the session's pool when one has room (memory already mapped, so
    /// the copy runs at `memcpy` speed on warm pages), else into fresh memory (with room to
    /// grow when large, for a later output).
    pub fn tensor_from_slice(
        &self,
        bytes: &[u8],
        shape: &[usize],
        dtype: kiln_bytecode::isa::DType,
    ) -> Result<Tensor> {
        let owned = self.inner.borrow_mut().pool.copy(bytes);
        self.tensor_from_bytes(owned, shape, dtype)
    }

    /// The value of `t` (flushed first if pending) as bytes of the caller's own: moved out of
    /// the session without a copy when `t` is its only handle and nothing else shares the
    /// value (`Ok`), else shared ([`HostValue`](crate::HostValue), `Err`). A moved value's
    /// handle gives an error of kind [`ErrorKind::StaleHandle`] wherever it is used next.
    pub fn take_bytes(&self, t: &Tensor) -> Result<std::result::Result<Vec<u8>, crate::HostValue>> {
        let host = t.host()?;
        let mut inner = self.inner.borrow_mut();
        let slot = &mut inner.slots[t.slot as usize];
        // The slot holds one reference to the value and `host` the other: nothing else does.
        if slot.refs != 1 || host.holders() != 2 {
            return Ok(Err(host));
        }
        let moved = EagerError::new(ErrorKind::StaleHandle, "the value was moved out of the session");
        slot.state = SlotState::Failed(moved);
        drop(inner);
        Rc::try_unwrap(host.into_rc())
            .map(|value| Ok(value.bytes))
            .map_err(|_| EagerError::new(ErrorKind::Run, "the value is shared"))
    }

    /// Gives bytes taken with [`Session::take_bytes`] (or any buffer) back to the session's
    /// pool of spare buffers, for a later output or [`Session::tensor_from_slice`].
    pub fn give_bytes(&self, bytes: Vec<u8>) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            inner.pool.give_bytes(bytes);
        }
    }

    /// Records `def` on `args` with attributes `attrs` (`declared`: the result type of ops
    /// whose result is given, not derived: `hl.cast`, `hl.reshape`, `hl.broadcast_to`).
    /// Scalars become rank-0 constants of the element type of the first tensor operand that
    /// is not `i1`, else of the first tensor operand (not counting a select's condition), else
    /// `f32` (no promotion). An op the back end could not compile, or whose result is larger
    /// than the VM's GM limit, is refused here (`docs/eager.md`, "Recording").
    pub fn record(
        &self,
        def: &'static OpDef,
        args: &[Arg<'_>],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<TensorType>,
    ) -> Result<Tensor> {
        record_in(&self.inner, def, args, attrs, declared)
    }

    /// Flushes the open segment (reason [`FlushReason::Sync`]).
    pub fn sync(&self) -> Result<()> {
        self.inner.borrow_mut().flush(FlushReason::Sync)
    }

    /// Applies a flags string; returns its warnings.
    pub fn set_flags(&self, text: &str) -> Result<Vec<String>> {
        let mut inner = self.inner.borrow_mut();
        let warnings = inner.flags.apply(text)?;
        inner.fusion = Rc::new(inner.flags.fusion_key());
        let capacity = inner.flags.cache_size;
        let evicted = inner.cache.shrink(capacity);
        inner.stats.cache_evictions += evicted;
        Ok(warnings)
    }

    /// The flags.
    pub fn flags(&self) -> Flags {
        self.inner.borrow().flags.clone()
    }

    /// The warnings of the flags the session was created with from the environment.
    pub fn warnings(&self) -> Vec<String> {
        self.inner.borrow().warnings.clone()
    }

    /// The counters.
    pub fn stats(&self) -> Stats {
        self.inner.borrow().stats.clone()
    }

    /// Compiled segments in the cache.
    pub fn cache_len(&self) -> usize {
        self.inner.borrow().cache.len()
    }

    /// Ops in the open segment.
    pub fn pending_ops(&self) -> usize {
        self.inner.borrow().seg.len()
    }

    /// Overwrites `dst` in place with the value of `src` (same type). A segment that reads
    /// `dst`'s old value is flushed first ([`FlushReason::Overwrite`]).
    pub fn assign(&self, dst: &Tensor, src: &Tensor) -> Result<()> {
        let mut inner = self.inner.borrow_mut();
        inner.check_handle(&self.inner, dst)?;
        inner.check_handle(&self.inner, src)?;
        if dst.ty != src.ty {
            let kind = if dst.ty.dtype == src.ty.dtype { ErrorKind::Shape } else { ErrorKind::DType };
            return Err(EagerError::new(kind, format!("cannot assign a '{}' to a '{}'", src.ty, dst.ty)));
        }
        inner.flush_if_read(dst);
        let state = inner.slot_state(src.slot, src.generation)?.clone();
        inner.overwrite(dst, state);
        Ok(())
    }

    /// Overwrites `dst` in place with host `data` (as many elements as `dst` has, of its
    /// element type). A segment that reads `dst`'s old value is flushed first
    /// ([`FlushReason::Overwrite`]).
    pub fn write<T: crate::host::Element>(&self, dst: &Tensor, data: &[T]) -> Result<()> {
        let mut inner = self.inner.borrow_mut();
        inner.check_handle(&self.inner, dst)?;
        if T::DTYPE != dst.ty.dtype {
            return Err(EagerError::new(
                ErrorKind::DType,
                format!("cannot write {} data to a '{}'", T::DTYPE.name(), dst.ty),
            ));
        }
        let host = Inner::host_tensor(&dst.ty, crate::host::to_bytes(data), inner.max_bytes)?;
        inner.flush_if_read(dst);
        inner.overwrite(dst, SlotState::Host(Rc::new(host)));
        Ok(())
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Nothing can read the results any more; the flush still runs the pending work (and
        // writes its dumps). Its error has nobody to go to.
        let _ = self.flush(FlushReason::SessionDrop);
    }
}

/// [`Session::record`] in session `inner`.
#[inline(always)]
pub(crate) fn record_in(
    inner: &Rc<RefCell<Inner>>,
    def: &'static OpDef,
    args: &[Arg<'_>],
    attrs: &[(&'static str, AttrValue)],
    declared: Option<TensorType>,
) -> Result<Tensor> {
    inner.borrow_mut().record(inner, def, args, attrs, declared)
}

/// The error for a tensor of another session.
#[cold]
#[inline(never)]
fn foreign() -> EagerError {
    EagerError::new(ErrorKind::StaleHandle, "the tensor belongs to another session")
}

/// The error for a handle whose value was released (out of line: the record path only checks).
#[cold]
#[inline(never)]
fn stale(slot: u32, generation: u32) -> EagerError {
    EagerError::new(
        ErrorKind::StaleHandle,
        format!("stale tensor handle (slot {slot}, generation {generation}): its value was released"),
    )
}

impl Inner {
    fn host_tensor(ty: &TensorType, bytes: Vec<u8>, max_bytes: u64) -> Result<HostTensor> {
        ty.check_not_empty()?;
        limits::check_size("", ty, max_bytes)?;
        let expected = ty.numel() * ty.dtype.bytes() as usize;
        if bytes.len() != expected {
            return Err(EagerError::new(
                ErrorKind::Shape,
                format!(
                    "cannot make a '{ty}' from {} elements ({} expected)",
                    bytes.len() / ty.dtype.bytes() as usize,
                    ty.numel()
                ),
            ));
        }
        Ok(HostTensor { spec: ty.spec(), bytes })
    }

    #[inline(always)]
    fn alloc(&mut self, state: impl FnOnce() -> SlotState) -> (u32, u32) {
        match self.free.pop() {
            Some(i) => {
                let s = &mut self.slots[i as usize];
                debug_assert!(matches!(s.state, SlotState::Free), "a free slot holds nothing");
                s.refs = 1;
                // Built where it is stored (the old `Free` drops as nothing): a state passed in
                // by value was built on the stack and copied in wider loads than it was written
                // in, which stalled store forwarding on every recorded op.
                s.state = state();
                (i, s.generation)
            }
            None => {
                self.slots.push(Slot { generation: 0, refs: 1, state: state() });
                (self.slots.len() as u32 - 1, 0)
            }
        }
    }

    /// Whether slot `slot` holds a value of generation `generation`.
    #[inline]
    pub(crate) fn owns(&self, slot: u32, generation: u32) -> bool {
        self.slots
            .get(slot as usize)
            .is_some_and(|s| s.generation == generation && !matches!(s.state, SlotState::Free))
    }

    /// Adds a reference to slot `i`.
    pub(crate) fn retain(&mut self, i: u32) {
        self.slots[i as usize].refs += 1;
    }

    /// Drops a reference to slot `i`; the last one frees it.
    #[inline]
    pub(crate) fn release(&mut self, i: u32) {
        let s = &mut self.slots[i as usize];
        s.refs -= 1;
        if s.refs == 0 {
            let old = std::mem::replace(&mut s.state, SlotState::Free);
            s.generation = s.generation.wrapping_add(1);
            self.free.push(i);
            if let SlotState::Host(h) = old {
                self.pool.give(h);
            }
        }
    }

    /// The state of `t`'s slot, if `t` is a live handle of this session.
    #[inline]
    pub(crate) fn check_handle(&self, me: &Rc<RefCell<Inner>>, t: &Tensor) -> Result<&SlotState> {
        if !std::ptr::eq(t.session.as_ptr(), Rc::as_ptr(me)) {
            return Err(foreign());
        }
        self.slot_state(t.slot, t.generation)
    }

    /// The state of slot `slot` if it holds a value of generation `generation` that did not
    /// fail.
    #[inline]
    pub(crate) fn slot_state(&self, slot: u32, generation: u32) -> Result<&SlotState> {
        match self.slots.get(slot as usize) {
            Some(s) if s.generation == generation => match &s.state {
                SlotState::Free => Err(stale(slot, generation)),
                SlotState::Failed(e) => Err(e.clone()),
                state => Ok(state),
            },
            _ => Err(stale(slot, generation)),
        }
    }

    /// The host value of slot `slot`, flushing (reason [`FlushReason::HostRead`]) if it is
    /// pending. A failed flush failed the value: its error is the read's.
    pub(crate) fn read(&mut self, slot: u32, generation: u32) -> Result<Rc<HostTensor>> {
        if let SlotState::Pending(_) = self.slot_state(slot, generation)? {
            let _ = self.flush(FlushReason::HostRead);
        }
        match self.slot_state(slot, generation)? {
            SlotState::Host(h) => Ok(Rc::clone(h)),
            _ => Err(EagerError::new(ErrorKind::Run, "the value was not computed")),
        }
    }

    /// Flushes (reason [`FlushReason::Overwrite`]) if the open segment reads `dst`. A failed
    /// flush fails the segment's values, not the overwrite.
    fn flush_if_read(&mut self, dst: &Tensor) {
        if self.seg.inputs.contains(&dst.slot) {
            let _ = self.flush(FlushReason::Overwrite);
        }
    }

    /// Gives `dst` the value `state` (of the open segment, if pending).
    fn overwrite(&mut self, dst: &Tensor, state: SlotState) {
        if let SlotState::Pending(_) = state {
            self.seg.results.push((dst.slot, dst.generation));
        }
        if let SlotState::Host(h) = std::mem::replace(&mut self.slots[dst.slot as usize].state, state) {
            self.pool.give(h);
        }
    }
}
