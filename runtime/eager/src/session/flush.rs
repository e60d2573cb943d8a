//! The flush rules ([`FlushReason`]) and the flush: the open segment's outputs (the nodes a
//! live tensor names), its key, the compile cache (compiling on a miss), the VM run, and the
//! results back on the host.

use std::rc::Rc;
use std::time::Instant;

use kiln_compiler::OpDef;
use kiln_dialects::hl::interfaces::{FusionCategory, HlOp, Movement};
use kiln_dialects::hl::CONSTANT;
use kiln_vm::cost::CostModel;
use kiln_vm::HostTensor;
use smallvec::SmallVec;

use super::{follow, Inner, Segment, SlotState};
use crate::cache::{fold, Entry, SegmentKey};
use crate::error::{EagerError, ErrorKind, Result};
use crate::node::{Node, Operand, TensorType};
use crate::stats::FlushReason;

impl Inner {
    /// Why the open segment must be flushed before `def` (adding `new_nodes` nodes) records,
    /// if it must.
    pub(super) fn flush_reason(
        &self,
        def: &'static OpDef,
        hl: &HlOp,
        new_nodes: usize,
    ) -> Option<FlushReason> {
        let cat = hl.category;
        if let Some(reason) = self.seg.closed {
            Some(reason)
        } else if cat == FusionCategory::Cube {
            Some(if self.flags.cube_joins(def) {
                FlushReason::CubeBoundary
            } else {
                FlushReason::UnfusableOp
            })
        } else if cat == FusionCategory::Layout(Movement::Copy) {
            Some(FlushReason::UnfusableOp)
        } else if self.seg.cube && !is_epilogue(cat) {
            Some(FlushReason::CubeBoundary)
        } else {
            let len = self.seg.len();
            (len > 0 && len + new_nodes > self.flags.flush_threshold).then_some(FlushReason::Capacity)
        }
    }

    pub(super) fn close_after(&mut self, def: &'static OpDef, hl: &HlOp) {
        match hl.category {
            FusionCategory::Cube if self.flags.cube_joins(def) => self.seg.cube = true,
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
        if self.seg.len() == 0 {
            return Ok(());
        }
        let mut seg = std::mem::take(&mut self.seg);
        self.stats.count_flush(reason);
        let start = Instant::now();
        let mut outputs = std::mem::take(&mut seg.outputs);
        outputs.extend(seg.results.iter().filter_map(|&(slot, generation)| {
            match &self.slots[slot as usize] {
                s if s.generation == generation => match s.state {
                    SlotState::Pending(n) => Some(n),
                    _ => None,
                },
                _ => None,
            }
        }));
        outputs.sort_unstable();
        outputs.dedup();
        let (mut entry, result) = if outputs.is_empty() {
            self.stats.segments_skipped += 1;
            seg.outputs = outputs;
            (None, Ok(Vec::new()))
        } else {
            match self.entry(&mut seg, outputs) {
                Ok(entry) => {
                    let (entry, result) = self.run(entry, &seg.inputs, start);
                    (Some(entry), result)
                }
                Err(e) => (None, Err(e)),
            }
        };
        // A segment that fails as a whole runs again op by op, so that its error goes to the
        // values of the op that caused it (and of the ops that read them), not to every value
        // the segment computes.
        let each = match &result {
            Err(_) => self.isolate(entry.as_deref(), &seg),
            Ok(_) => None,
        };
        if each.is_some() {
            entry = None;
        }
        let outputs = entry.as_ref().map_or(&[][..], |e| &e.key.outputs);
        let mut error = None;
        for &(slot, generation) in &seg.results {
            let s = &mut self.slots[slot as usize];
            if s.generation != generation {
                continue;
            }
            if let SlotState::Pending(n) = s.state {
                s.state = match (&each, &result) {
                    (Some(each), _) => match &each[n as usize] {
                        Ok(value) => SlotState::Host(Rc::clone(value)),
                        Err(e) => {
                            error.get_or_insert_with(|| e.clone());
                            SlotState::Failed(e.clone())
                        }
                    },
                    (None, Ok(values)) => {
                        let at = outputs.binary_search(&n).unwrap_or(0);
                        SlotState::Host(Rc::clone(&values[at]))
                    }
                    (None, Err(e)) => SlotState::Failed(e.clone()),
                };
            }
        }
        for &s in &seg.inputs {
            self.release(s);
        }
        // The chain of segments run: the next one is expected to repeat what followed this
        // one last time.
        if let (Some(last), Some(entry)) = (&self.last, &entry) {
            last.set_next(entry);
        }
        let script = entry.as_ref().and_then(|e| e.next());
        self.last = entry;
        self.seg = seg.recycle(script);
        match (each, error) {
            (Some(_), Some(e)) => Err(e),
            (Some(_), None) => Ok(()),
            (None, _) => result.map(|_| ()),
        }
    }

    /// The value or error of each node of segment `seg` (or of `entry`'s, which holds its
    /// nodes when it compiled), computed one op at a time, each op as a segment of its own
    /// (with the constants it reads) on the values the ops before it computed. None for a
    /// segment of one op (there is nothing to tell apart).
    fn isolate(&mut self, entry: Option<&Entry>, seg: &Segment) -> Option<Vec<Result<Rc<HostTensor>>>> {
        let (nodes, types) = match entry {
            Some(e) => (&e.key.nodes, &e.key.inputs),
            None => (&seg.nodes, &seg.input_types),
        };
        if nodes.iter().filter(|n| !is_constant(n)).count() < 2 {
            return None;
        }
        let (nodes, types) = (nodes.clone(), types.clone());
        let mut each = Vec::with_capacity(nodes.len());
        for node in &nodes {
            let value = if is_constant(node) {
                // Never read: an op's segment carries the constants it reads.
                Err(EagerError::new(ErrorKind::Run, "a constant is not a value of its own"))
            } else {
                self.one_op(node, &nodes, &types, &seg.inputs, &each)
            };
            each.push(value);
        }
        Some(each)
    }

    /// Compiles (or finds) and runs `node` of `nodes` alone, on the values `done` of the nodes
    /// before it and the values of slots `inputs` (of types `types`).
    fn one_op(
        &mut self,
        node: &Node,
        nodes: &[Node],
        types: &[TensorType],
        inputs: &[u32],
        done: &[Result<Rc<HostTensor>>],
    ) -> Result<Rc<HostTensor>> {
        let mut own: Vec<Node> = Vec::new();
        let mut own_types = Vec::new();
        let mut values = Vec::new();
        let mut operands = SmallVec::new();
        for &operand in &node.operands {
            operands.push(match operand {
                Operand::Node(j) if is_constant(&nodes[j as usize]) => {
                    own.push(nodes[j as usize].clone());
                    Operand::Node(own.len() as u32 - 1)
                }
                Operand::Node(j) => {
                    values.push(done[j as usize].clone()?);
                    own_types.push(nodes[j as usize].ty.clone());
                    Operand::Input(own_types.len() as u32 - 1)
                }
                Operand::Input(k) => {
                    let SlotState::Host(h) = &self.slots[inputs[k as usize] as usize].state else {
                        return Err(EagerError::new(ErrorKind::Run, "a segment input is not on the host"));
                    };
                    values.push(Rc::clone(h));
                    own_types.push(types[k as usize].clone());
                    Operand::Input(own_types.len() as u32 - 1)
                }
            });
        }
        own.push(Node { operands, ..node.clone() });
        let hash = fold(&own, &own_types);
        let output = own.len() as u32 - 1;
        let key = SegmentKey::new(own, hash, own_types, vec![output], Rc::clone(&self.fusion));
        let entry = self.lookup(key).0?;
        let out = self.launch(entry, &values).1?;
        Ok(Rc::clone(&out[0]))
    }

    /// The cache entry of segment `seg` with outputs `outputs`: its script, when it repeated
    /// the whole script with the same outputs and flags; otherwise the cache's (compiled on a
    /// miss). The buffers it does not keep go back to `seg`.
    fn entry(&mut self, seg: &mut Segment, outputs: Vec<u32>) -> Result<Rc<Entry>> {
        if let Some(script) = seg.script.take() {
            if follow::repeated(&script, seg.matched, seg.inputs.len(), &outputs, &self.fusion) {
                self.cache.touch(&script);
                self.stats.cache_hits += 1;
                self.stats.segments_predicted += 1;
                seg.outputs = outputs;
                return Ok(script);
            }
            seg.script = Some(script);
            seg.materialize();
        }
        let nodes = std::mem::take(&mut seg.nodes);
        let input_types = std::mem::take(&mut seg.input_types);
        let key = SegmentKey::new(nodes, seg.hash, input_types, outputs, Rc::clone(&self.fusion));
        let (entry, back) = self.lookup(key);
        if let Some(key) = back {
            (seg.nodes, seg.input_types, seg.outputs) = key.into_buffers();
        }
        entry
    }

    /// The cache's entry of `key`, compiled (or bound to its shape class) on a miss; `key`
    /// comes back (for its buffers) when the cache does not keep it: on a hit or a failed
    /// compile.
    fn lookup(&mut self, key: SegmentKey) -> (Result<Rc<Entry>>, Option<SegmentKey>) {
        if let Some(entry) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            return (Ok(entry), Some(key));
        }
        let program = match self.program(&key) {
            Ok(program) => program,
            Err(e) => return (Err(e), Some(key)),
        };
        let (entry, evicted) = self.cache.insert(key, program, self.flags.cache_size);
        self.stats.cache_evictions += evicted;
        (Ok(entry), None)
    }

    /// Runs the module of `entry` on the values of slots `inputs` ([`Inner::launch`]); its
    /// flush began at `start`. Returns the entry that ran and the values of its outputs.
    fn run(
        &mut self,
        entry: Rc<Entry>,
        inputs: &[u32],
        start: Instant,
    ) -> (Rc<Entry>, Result<Vec<Rc<HostTensor>>>) {
        // The VM reads the inputs where they are: the slots keep them (shared or not).
        let mut values = std::mem::take(&mut self.input_values);
        for &s in inputs {
            match &self.slots[s as usize].state {
                SlotState::Host(h) => values.push(Rc::clone(h)),
                _ => {
                    values.clear();
                    self.input_values = values;
                    return (
                        entry,
                        Err(EagerError::new(ErrorKind::Run, "a segment input is not on the host")),
                    );
                }
            }
        }
        self.stats.prepare_time += start.elapsed();
        let out = self.launch(entry, &values);
        values.clear();
        self.input_values = values;
        out
    }

    /// Runs the module of `entry` on `values`. A shape class's program that fails to run (a
    /// launch refused for these shapes) is given up for its class ([`Inner::unclass`]) and
    /// the segment runs again compiled for its exact shapes: the inputs are only read, the
    /// failed run's outputs dropped. Returns the entry that ran and the values of its outputs.
    fn launch(
        &mut self,
        entry: Rc<Entry>,
        values: &[Rc<HostTensor>],
    ) -> (Rc<Entry>, Result<Vec<Rc<HostTensor>>>) {
        let out = self.execute(&entry, values);
        if out.is_ok() || entry.module.class.is_static() {
            return (entry, out);
        }
        match self.unclass(&entry) {
            Ok(exact) => {
                let out = self.execute(&exact, values);
                (exact, out)
            }
            Err(_) => (entry, out),
        }
    }

    /// Runs the module of `entry` on `values`; returns the values of its outputs.
    fn execute(&mut self, entry: &Entry, values: &[Rc<HostTensor>]) -> Result<Vec<Rc<HostTensor>>> {
        let vm = &self.vm;
        let run_error = |e: kiln_vm::VmError| EagerError::new(ErrorKind::Run, e.to_string());
        let (out, device_ns) = if self.flags.device_time {
            // The cost model replays the run's events; `run_class_with` takes owned inputs.
            let target = &self.target;
            contain(ErrorKind::Run, || {
                let owned: Vec<HostTensor> = values.iter().map(|v| HostTensor::clone(v)).collect();
                let mut cost = CostModel::new(&entry.module.module, target);
                let out =
                    vm.run_class_with(&entry.module, &owned, &mut |e| cost.event(e)).map_err(run_error)?;
                Ok((out, cost.finish().total_ns))
            })?
        } else {
            let (spare, reused) = self.pool.take(&entry.temps);
            self.stats.buffers_reused += reused as u64;
            let out = contain(ErrorKind::Run, || {
                let refs: SmallVec<[&HostTensor; 8]> = values.iter().map(|v| &**v).collect();
                vm.run_class_borrowed(&entry.module, &refs, spare).map_err(run_error)
            })?;
            (out, 0.0)
        };
        self.stats.kernels_launched += out.counters.total.launches;
        self.stats.device_time_ns += device_ns.round() as u64;
        self.stats.segments_run += 1;
        self.stats.segment_outputs += entry.key.outputs.len() as u64;
        Ok(out.tensors.into_iter().map(Rc::new).collect())
    }
}

/// Runs `f`, turning a panic inside the compiler or the VM (a bug there) into an error of
/// `kind`, so that it never unwinds through the session (or across a language boundary).
pub(super) fn contain<T>(kind: ErrorKind, f: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(EagerError::new(kind, format!("internal error in the segment's {}: {what}", kind_name(kind))))
    })
}

fn kind_name(kind: ErrorKind) -> &'static str {
    if kind == ErrorKind::Compile {
        "compilation"
    } else {
        "run"
    }
}

fn is_constant(node: &Node) -> bool {
    std::ptr::eq(node.kind.0, &CONSTANT)
}

fn is_epilogue(cat: FusionCategory) -> bool {
    matches!(
        cat,
        FusionCategory::Elementwise | FusionCategory::Broadcast | FusionCategory::Layout(Movement::View)
    )
}
