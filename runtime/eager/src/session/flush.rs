//! The flush rules ([`FlushReason`]) and the flush: the open segment's outputs (the nodes a
//! live tensor names), its key, the compile cache (compiling on a miss), the VM run, and the
//! results back on the host.

use std::rc::Rc;
use std::time::Instant;

use kiln_bytecode::module::Module;
use kiln_compiler::OpDef;
use kiln_dialects::hl::interfaces::{FusionCategory, HlOp, Movement};
use kiln_vm::HostTensor;
use smallvec::SmallVec;

use super::{follow, Inner, Segment, SlotState};
use crate::cache::{Entry, SegmentKey};
use crate::compile::Compiler;
use crate::direct;
use crate::error::{EagerError, ErrorKind, Result};
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
            Some(if self.flags.cube_joins(def.name) {
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
        let (entry, result) = if outputs.is_empty() {
            self.stats.segments_skipped += 1;
            seg.outputs = outputs;
            (None, Ok(Vec::new()))
        } else {
            match self.entry(&mut seg, outputs) {
                Ok(entry) => {
                    let result = self.run(&entry, &seg.inputs, start);
                    (Some(entry), result)
                }
                Err(e) => (None, Err(e)),
            }
        };
        let outputs = entry.as_ref().map_or(&[][..], |e| &e.key.outputs);
        for &(slot, generation) in &seg.results {
            let s = &mut self.slots[slot as usize];
            if s.generation != generation {
                continue;
            }
            if let SlotState::Pending(n) = s.state {
                s.state = match &result {
                    Ok(values) => {
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
        // The chain of segments run: the next one is expected to repeat what followed this
        // one last time.
        if let (Some(last), Some(entry)) = (&self.last, &entry) {
            last.set_next(entry);
        }
        let script = entry.as_ref().and_then(|e| e.next());
        self.last = entry;
        self.seg = seg.recycle(script);
        result.map(|_| ())
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
        if let Some(entry) = self.cache.get(&key) {
            self.stats.cache_hits += 1;
            (seg.nodes, seg.input_types, seg.outputs) = key.into_buffers();
            return Ok(entry);
        }
        self.stats.cache_misses += 1;
        let compiling = Instant::now();
        let module = Rc::new(self.compile(&key)?);
        self.stats.compile_time += compiling.elapsed();
        let (entry, evicted) = self.cache.insert(key, module, self.flags.cache_size);
        self.stats.cache_evictions += evicted;
        Ok(entry)
    }

    /// Compiles segment `key`: directly when it is a plain elementwise one ([`direct`]),
    /// otherwise through the pipeline (writing the dumps).
    fn compile(&mut self, key: &SegmentKey) -> Result<Module> {
        let target = &self.target;
        if let Some(module) = contain(ErrorKind::Compile, || Ok(direct::compile(key, target)))? {
            self.stats.direct_compiles += 1;
            return Ok(module);
        }
        let compiler = match &mut self.compiler {
            Some(c) if *c.fusion() == *key.fusion => c,
            slot => slot.insert(Compiler::new(&key.fusion, &self.target.name)?),
        };
        let stem = format!("segment_{:04}", self.compiled);
        self.compiled += 1;
        let dump = self.flags.dump_as_text.then_some((self.flags.dump_dir.as_path(), stem.as_str()));
        let owner = &mut self.owner;
        contain(ErrorKind::Compile, || compiler.compile(owner, key, target, dump))
    }

    /// Runs the module of `entry` on the values of slots `inputs`; its flush began at `start`.
    /// Returns the values of its outputs.
    fn run(&mut self, entry: &Entry, inputs: &[u32], start: Instant) -> Result<Vec<Rc<HostTensor>>> {
        // The VM reads the inputs where they are: the slots keep them (shared or not).
        let mut values = std::mem::take(&mut self.input_values);
        for &s in inputs {
            match &self.slots[s as usize].state {
                SlotState::Host(h) => values.push(Rc::clone(h)),
                _ => {
                    values.clear();
                    self.input_values = values;
                    return Err(EagerError::new(ErrorKind::Run, "a segment input is not on the host"));
                }
            }
        }
        self.stats.prepare_time += start.elapsed();
        let vm = &self.vm;
        let spare = self.pool.take(&entry.module.host.temps);
        self.stats.buffers_reused += spare.len() as u64;
        let out = contain(ErrorKind::Run, || {
            let refs: SmallVec<[&HostTensor; 8]> = values.iter().map(|v| &**v).collect();
            vm.run_borrowed(&entry.module, &refs, spare)
                .map_err(|e| EagerError::new(ErrorKind::Run, e.to_string()))
        });
        values.clear();
        self.input_values = values;
        let out = out?;
        self.stats.segments_run += 1;
        self.stats.segment_outputs += entry.key.outputs.len() as u64;
        Ok(out.tensors.into_iter().map(Rc::new).collect())
    }
}

/// Runs `f`, turning a panic inside the compiler or the VM (a bug there) into an error of
/// `kind`, so that it never unwinds through the session (or across a language boundary).
fn contain<T>(kind: ErrorKind, f: impl FnOnce() -> Result<T>) -> Result<T> {
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

fn is_epilogue(cat: FusionCategory) -> bool {
    matches!(
        cat,
        FusionCategory::Elementwise | FusionCategory::Broadcast | FusionCategory::Layout(Movement::View)
    )
}
