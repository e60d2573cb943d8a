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

use super::{Inner, Segment, SlotState};
use crate::cache::SegmentKey;
use crate::compile::Compiler;
use crate::direct;
use crate::error::{EagerError, ErrorKind, Result};
use crate::stats::FlushReason;

impl Inner {
    pub(super) fn flush_before(&mut self, def: &'static OpDef, hl: &HlOp, new_nodes: usize) -> Result<()> {
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
        if self.seg.nodes.is_empty() {
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
        let nodes = std::mem::take(&mut seg.nodes);
        let input_types = std::mem::take(&mut seg.input_types);
        let key = SegmentKey::new(nodes, seg.hash, input_types, outputs, Rc::clone(&self.fusion));
        let result = if key.outputs.is_empty() {
            self.stats.segments_skipped += 1;
            Ok(Vec::new())
        } else {
            self.run(&key, &seg.inputs, start)
        };
        for &(slot, generation) in &seg.results {
            let s = &mut self.slots[slot as usize];
            if s.generation != generation {
                continue;
            }
            if let SlotState::Pending(n) = s.state {
                s.state = match &result {
                    Ok(values) => {
                        let at = key.outputs.binary_search(&n).unwrap_or(0);
                        SlotState::Host(Rc::clone(&values[at]))
                    }
                    Err(e) => SlotState::Failed(e.clone()),
                };
            }
        }
        for &s in &seg.inputs {
            self.release(s);
        }
        let (nodes, input_types, outputs) = key.into_buffers();
        self.seg = Segment::recycle(nodes, seg.inputs, input_types, seg.results, outputs);
        result.map(|_| ())
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

    /// Prepares (cache or compile) and runs segment `key` on the values of slots `inputs`;
    /// its flush began at `start`. Returns the values of its outputs.
    fn run(&mut self, key: &SegmentKey, inputs: &[u32], start: Instant) -> Result<Vec<Rc<HostTensor>>> {
        let module = match self.cache.get(key) {
            Some(m) => {
                self.stats.cache_hits += 1;
                m
            }
            None => {
                self.stats.cache_misses += 1;
                let compiling = Instant::now();
                let module = Rc::new(self.compile(key)?);
                self.stats.compile_time += compiling.elapsed();
                self.stats.cache_evictions +=
                    self.cache.insert(key.clone(), Rc::clone(&module), self.flags.cache_size);
                module
            }
        };
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
        let out = contain(ErrorKind::Run, || {
            let refs: SmallVec<[&HostTensor; 8]> = values.iter().map(|v| &**v).collect();
            vm.run_borrowed(&module, &refs).map_err(|e| EagerError::new(ErrorKind::Run, e.to_string()))
        });
        values.clear();
        self.input_values = values;
        let out = out?;
        self.stats.segments_run += 1;
        self.stats.segment_outputs += key.outputs.len() as u64;
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
