//! The session: values in slots (a handle is a slot index and generation), the open segment
//! of recorded ops, the flush rules, and running flushed segments on the VM.
//!
//! A value is either on the host (its bytes) or pending (a node of the open segment). Ops
//! are checked as they are recorded, with the `hl` verifier's own type checks
//! ([`check_types`]), so a mistake is reported at the op. A flush compiles the open segment
//! (or finds it in the cache) with one output per node that a live tensor still names — the
//! values nothing outside the segment reads stay inside its kernels — runs it, and puts the
//! outputs on the host. The reasons to flush are [`FlushReason`]'s.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use kiln_compiler::{Attribute, OpDef, OwnedContext};
use kiln_dialects::hl::infer::InferInput;
use kiln_dialects::hl::interfaces::{FusionCategory, HlOp, Movement};
use kiln_dialects::hl::verify::check_types;
use kiln_dialects::hl::CONSTANT;
use kiln_targets::Target;
use kiln_vm::{HostTensor, Vm, VmConfig};
use smallvec::SmallVec;

use crate::cache::{Cache, SegmentKey};
use crate::compile::Compiler;
use crate::error::{EagerError, ErrorKind, Result};
use crate::flags::Flags;
use crate::node::{AttrValue, Node, OpKind, Operand, TensorType};
use crate::stats::{FlushReason, Stats};
use crate::tensor::{Arg, Tensor};

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
    /// Slots read as inputs (each pinned by one reference until the flush).
    inputs: Vec<u32>,
    input_types: Vec<TensorType>,
    /// Slots made pending in this segment, with their generation.
    results: Vec<(u32, u32)>,
    /// The reason the next op flushes the segment first.
    closed: Option<FlushReason>,
    /// Started by a cube op: only its elementwise epilogue joins.
    cube: bool,
}

pub(crate) struct Inner {
    flags: Flags,
    warnings: Vec<String>,
    target: Target,
    vm: Vm,
    owner: OwnedContext,
    compiler: Option<Compiler>,
    cache: Cache,
    stats: Stats,
    slots: Vec<Slot>,
    free: Vec<u32>,
    seg: Segment,
    compiled: u64,
}

fn hl_of(def: &'static OpDef) -> Result<&'static HlOp> {
    def.interface::<HlOp>().filter(|_| !std::ptr::eq(def, &CONSTANT)).ok_or_else(|| {
        EagerError::new(ErrorKind::DType, format!("'{}' is not an hl op the session records", def.name))
    })
}

/// Whether the message of a failed type check is about element types.
fn is_dtype_message(message: &str) -> bool {
    message.contains("element type") || message.contains("values, but got")
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
            flags,
            warnings: Vec::new(),
            vm: Vm::with_config(&target, config),
            target,
            owner,
            compiler: None,
            cache: Cache::default(),
            stats: Stats::default(),
            slots: Vec::new(),
            free: Vec::new(),
            seg: Segment::default(),
            compiled: 0,
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
        let ty = TensorType::new(dtype, &shape.iter().map(|&d| d as i64).collect::<Vec<_>>());
        let host = Inner::host_tensor(&ty, bytes)?;
        let mut inner = self.inner.borrow_mut();
        let (slot, generation) = inner.alloc(SlotState::Host(Rc::new(host)));
        drop(inner);
        Ok(Tensor::new(Rc::downgrade(&self.inner), slot, generation, ty))
    }

    /// Records `def` on `args` with attributes `attrs` (`declared`: the result type of ops
    /// whose result is given, not derived: `hl.cast`, `hl.reshape`, `hl.broadcast_to`).
    /// Scalars become rank-0 constants of the element type of the first tensor operand that
    /// is not `i1` (no promotion).
    pub fn record(
        &self,
        def: &'static OpDef,
        args: &[Arg<'_>],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<TensorType>,
    ) -> Result<Tensor> {
        let (slot, generation, ty) =
            self.inner.borrow_mut().record(&self.inner, def, args, attrs, declared)?;
        Ok(Tensor::new(Rc::downgrade(&self.inner), slot, generation, ty))
    }

    /// Flushes the open segment (reason [`FlushReason::Sync`]).
    pub fn sync(&self) -> Result<()> {
        self.inner.borrow_mut().flush(FlushReason::Sync)
    }

    /// Applies a flags string; returns its warnings.
    pub fn set_flags(&self, text: &str) -> Result<Vec<String>> {
        let mut inner = self.inner.borrow_mut();
        let warnings = inner.flags.apply(text)?;
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
        self.inner.borrow().seg.nodes.len()
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
        inner.flush_if_read(dst)?;
        let state = inner.slot_state(src.slot, src.generation)?;
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
        let host = Inner::host_tensor(&dst.ty, crate::host::to_bytes(data))?;
        inner.flush_if_read(dst)?;
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

impl Inner {
    fn host_tensor(ty: &TensorType, bytes: Vec<u8>) -> Result<HostTensor> {
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

    fn alloc(&mut self, state: SlotState) -> (u32, u32) {
        let slot = Slot { generation: 0, refs: 1, state };
        match self.free.pop() {
            Some(i) => {
                let s = &mut self.slots[i as usize];
                let generation = s.generation;
                *s = Slot { generation, ..slot };
                (i, generation)
            }
            None => {
                self.slots.push(slot);
                (self.slots.len() as u32 - 1, 0)
            }
        }
    }

    /// Whether slot `slot` holds a value of generation `generation`.
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
    pub(crate) fn release(&mut self, i: u32) {
        let s = &mut self.slots[i as usize];
        s.refs -= 1;
        if s.refs == 0 {
            s.state = SlotState::Free;
            s.generation = s.generation.wrapping_add(1);
            self.free.push(i);
        }
    }

    /// The state of `t`'s slot, if `t` is a live handle of this session.
    pub(crate) fn check_handle(&self, me: &Rc<RefCell<Inner>>, t: &Tensor) -> Result<SlotState> {
        if !std::ptr::eq(t.session.as_ptr(), Rc::as_ptr(me)) {
            return Err(EagerError::new(ErrorKind::StaleHandle, "the tensor belongs to another session"));
        }
        self.slot_state(t.slot, t.generation)
    }

    pub(crate) fn slot_state(&self, slot: u32, generation: u32) -> Result<SlotState> {
        match self.slots.get(slot as usize) {
            Some(s) if s.generation == generation && !matches!(s.state, SlotState::Free) => match &s.state {
                SlotState::Failed(e) => Err(e.clone()),
                state => Ok(state.clone()),
            },
            _ => Err(EagerError::new(
                ErrorKind::StaleHandle,
                format!("stale tensor handle (slot {slot}, generation {generation}): its value was released"),
            )),
        }
    }

    /// The host value of slot `slot`, flushing (reason [`FlushReason::HostRead`]) if it is
    /// pending.
    pub(crate) fn read(&mut self, slot: u32, generation: u32) -> Result<Rc<HostTensor>> {
        if let SlotState::Pending(_) = self.slot_state(slot, generation)? {
            self.flush(FlushReason::HostRead)?;
        }
        match self.slot_state(slot, generation)? {
            SlotState::Host(h) => Ok(h),
            _ => Err(EagerError::new(ErrorKind::Run, "the value was not computed")),
        }
    }

    /// Flushes (reason [`FlushReason::Overwrite`]) if the open segment reads `dst`.
    fn flush_if_read(&mut self, dst: &Tensor) -> Result<()> {
        if self.seg.inputs.contains(&dst.slot) {
            self.flush(FlushReason::Overwrite)?;
        }
        Ok(())
    }

    /// Gives `dst` the value `state` (of the open segment, if pending).
    fn overwrite(&mut self, dst: &Tensor, state: SlotState) {
        if let SlotState::Pending(_) = state {
            self.seg.results.push((dst.slot, dst.generation));
        }
        self.slots[dst.slot as usize].state = state;
    }

    fn record(
        &mut self,
        me: &Rc<RefCell<Inner>>,
        def: &'static OpDef,
        args: &[Arg<'_>],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<TensorType>,
    ) -> Result<(u32, u32, TensorType)> {
        let hl = hl_of(def)?;
        // Operand types, and the element type scalars take.
        let mut scalar_dtype = None;
        for a in args {
            if let Arg::Tensor(t) = a {
                self.check_handle(me, t)?;
                if scalar_dtype.is_none() && t.ty.dtype != kiln_bytecode::isa::DType::I1 {
                    scalar_dtype = Some(t.ty.dtype);
                }
            }
        }
        let scalar_dtype = scalar_dtype
            .or_else(|| {
                args.iter().find_map(|a| if let Arg::Tensor(t) = a { Some(t.ty.dtype) } else { None })
            })
            .unwrap_or(kiln_bytecode::isa::DType::F32);
        let types: SmallVec<[TensorType; 3]> = args
            .iter()
            .map(|a| match a {
                Arg::Tensor(t) => t.ty.clone(),
                Arg::Scalar(_) => TensorType::new(scalar_dtype, &[]),
            })
            .collect();
        let ty = self.check(def, hl, &types, attrs, declared.as_ref())?;
        let constants = args.iter().filter(|a| matches!(a, Arg::Scalar(_))).count();
        self.flush_before(def, hl, constants + 1)?;
        // Operands (after the flush: values of a flushed segment are on the host now).
        let mut operands: SmallVec<[Operand; 3]> = SmallVec::new();
        for (a, t) in args.iter().zip(&types) {
            let operand = match a {
                Arg::Tensor(tensor) => match self.slot_state(tensor.slot, tensor.generation)? {
                    SlotState::Pending(n) => Operand::Node(n),
                    _ => Operand::Input(self.input(tensor.slot, t)),
                },
                Arg::Scalar(v) => {
                    self.seg.nodes.push(Node {
                        kind: OpKind(&CONSTANT),
                        operands: SmallVec::new(),
                        attrs: SmallVec::from_iter([("value", AttrValue::Splat(v.to_bits()))]),
                        ty: t.clone(),
                    });
                    Operand::Node(self.seg.nodes.len() as u32 - 1)
                }
            };
            operands.push(operand);
        }
        self.seg.nodes.push(Node {
            kind: OpKind(def),
            operands,
            attrs: SmallVec::from(attrs),
            ty: ty.clone(),
        });
        self.stats.ops_recorded += constants as u64 + 1;
        self.close_after(def, hl);
        let node = self.seg.nodes.len() as u32 - 1;
        let (slot, generation) = self.alloc(SlotState::Pending(node));
        self.seg.results.push((slot, generation));
        Ok((slot, generation, ty))
    }

    /// The segment input index of host slot `slot` (pinned on first use).
    fn input(&mut self, slot: u32, ty: &TensorType) -> u32 {
        if let Some(i) = self.seg.inputs.iter().position(|&s| s == slot) {
            return i as u32;
        }
        self.retain(slot);
        self.seg.inputs.push(slot);
        self.seg.input_types.push(ty.clone());
        self.seg.inputs.len() as u32 - 1
    }

    /// The result type of `def` on `types`, checked as the verifier checks it.
    fn check(
        &mut self,
        def: &'static OpDef,
        hl: &'static HlOp,
        types: &[TensorType],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<&TensorType>,
    ) -> Result<TensorType> {
        let checked = self.owner.with(|ctx| {
            let operands: SmallVec<[_; 3]> = types.iter().map(|t| t.to_type(ctx)).collect();
            let result = declared.map(|t| t.to_type(ctx));
            let elem_result = result.unwrap_or_else(|| ctx.tensor_type(&[], ctx.int_type(1)));
            let built: SmallVec<[(&str, Attribute<'_>); 2]> =
                attrs.iter().map(|(n, v)| (*n, v.to_attr(ctx, elem_result))).collect();
            let lookup = |n: &str| built.iter().find(|(k, _)| *k == n).map(|(_, a)| *a);
            check_types(ctx, hl, &InferInput { operands: &operands, result, attr: &lookup })
                .map_err(|m| (is_dtype_message(&m), m))
                .and_then(|t| TensorType::of(t).map_err(|e| (e.kind == ErrorKind::DType, e.message)))
        });
        checked.map_err(|(dtype, m)| {
            EagerError::new(
                if dtype { ErrorKind::DType } else { ErrorKind::Shape },
                format!("'{}' op {m}", def.name),
            )
        })
    }

    fn flush_before(&mut self, def: &'static OpDef, hl: &HlOp, new_nodes: usize) -> Result<()> {
        let cat = hl.category;
        if let Some(reason) = self.seg.closed {
            self.flush(reason)?;
        } else if cat == FusionCategory::Cube {
            let reason = if self.flags.cube_joins(def.name) {
                FlushReason::CubeBoundary
            } else {
                FlushReason::UnfusableOp
            };
            self.flush(reason)?;
        } else if cat == FusionCategory::Layout(Movement::Copy) {
            self.flush(FlushReason::UnfusableOp)?;
        } else if self.seg.cube && !is_epilogue(cat) {
            self.flush(FlushReason::CubeBoundary)?;
        }
        if !self.seg.nodes.is_empty() && self.seg.nodes.len() + new_nodes > self.flags.flush_threshold {
            self.flush(FlushReason::Capacity)?;
        }
        Ok(())
    }

    fn close_after(&mut self, def: &'static OpDef, hl: &HlOp) {
        match hl.category {
            FusionCategory::Cube if self.flags.cube_joins(def.name) => self.seg.cube = true,
            FusionCategory::Cube | FusionCategory::Layout(Movement::Copy) => {
                self.seg.closed = Some(FlushReason::UnfusableOp)
            }
            FusionCategory::Reduce | FusionCategory::Opaque if self.flags.opt_level < 2 => {
                self.seg.closed = Some(FlushReason::ReductionBoundary)
            }
            _ => {}
        }
    }

    /// Compiles (or finds) and runs the open segment, if it has ops; counts `reason`.
    pub(crate) fn flush(&mut self, reason: FlushReason) -> Result<()> {
        if self.seg.nodes.is_empty() {
            return Ok(());
        }
        let seg = std::mem::take(&mut self.seg);
        self.stats.count_flush(reason);
        let mut outputs: Vec<u32> = seg
            .results
            .iter()
            .filter_map(|&(slot, generation)| match self.slot_state(slot, generation) {
                Ok(SlotState::Pending(n)) => Some(n),
                _ => None,
            })
            .collect();
        outputs.sort_unstable();
        outputs.dedup();
        let result = if outputs.is_empty() {
            self.stats.segments_skipped += 1;
            Ok((Vec::new(), Vec::new()))
        } else {
            let inputs: Result<Vec<HostTensor>> = seg
                .inputs
                .iter()
                .map(|&s| match &self.slots[s as usize].state {
                    SlotState::Host(h) => Ok((**h).clone()),
                    _ => Err(EagerError::new(ErrorKind::Run, "a segment input is not on the host")),
                })
                .collect();
            let key = SegmentKey {
                nodes: seg.nodes,
                inputs: seg.input_types,
                outputs,
                fusion: self.flags.fusion_key(),
            };
            inputs.and_then(|inputs| self.run(&key, &inputs))
        };
        for &(slot, generation) in &seg.results {
            let s = &mut self.slots[slot as usize];
            if s.generation != generation {
                continue;
            }
            if let SlotState::Pending(n) = s.state {
                s.state = match &result {
                    Ok((outputs, values)) => {
                        let at = outputs.binary_search(&n).unwrap_or(0);
                        SlotState::Host(Rc::clone(&values[at]))
                    }
                    Err(e) => SlotState::Failed(e.clone()),
                };
            }
        }
        for &s in &seg.inputs {
            self.release(s);
        }
        result.map(|_| ())
    }

    /// Prepares (cache or compile) and runs segment `key`; returns its outputs (node indices)
    /// and their values.
    fn run(&mut self, key: &SegmentKey, inputs: &[HostTensor]) -> Result<(Vec<u32>, Vec<Rc<HostTensor>>)> {
        let start = Instant::now();
        let module = match self.cache.get(key) {
            Some(m) => {
                self.stats.cache_hits += 1;
                m
            }
            None => {
                self.stats.cache_misses += 1;
                let compiler = match &mut self.compiler {
                    Some(c) if *c.fusion() == key.fusion => c,
                    slot => slot.insert(Compiler::new(&key.fusion, &self.target.name)?),
                };
                let stem = format!("segment_{:04}", self.compiled);
                self.compiled += 1;
                let dump = self.flags.dump_as_text.then(|| (self.flags.dump_dir.as_path(), stem.as_str()));
                let module = compiler.compile(&mut self.owner, key, &self.target, dump)?;
                let module = Rc::new(module);
                self.stats.compile_time += start.elapsed();
                self.stats.cache_evictions +=
                    self.cache.insert(key.clone(), Rc::clone(&module), self.flags.cache_size);
                module
            }
        };
        self.stats.prepare_time += start.elapsed();
        let out = self.vm.run(&module, inputs).map_err(|e| EagerError::new(ErrorKind::Run, e.to_string()))?;
        self.stats.segments_run += 1;
        self.stats.segment_outputs += key.outputs.len() as u64;
        Ok((key.outputs.clone(), out.tensors.into_iter().map(Rc::new).collect()))
    }
}

fn is_epilogue(cat: FusionCategory) -> bool {
    matches!(
        cat,
        FusionCategory::Elementwise | FusionCategory::Broadcast | FusionCategory::Layout(Movement::View)
    )
}
