//! The flush rules ([`FlushReason`]) and the flush: the open segment's outputs (the nodes a
//! live tensor names), its key, the compile cache (compiling on a miss), the VM run, and the
//! results back on the host.

use std::rc::Rc;
use std::time::Instant;

use kiln_compiler::OpDef;
use kiln_dialects::hl::interfaces::{FusionCategory, HlOp, Movement};
use kiln_vm::HostTensor;

use super::{Inner, Segment, SlotState};
use crate::cache::SegmentKey;
use crate::compile::Compiler;
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
        let capacity = self.flags.flush_threshold.min(64);
        let seg = std::mem::replace(&mut self.seg, Segment::with_capacity(capacity));
        self.stats.count_flush(reason);
        let start = Instant::now();
        let mut outputs: Vec<u32> = seg
            .results
            .iter()
            .filter_map(|&(slot, generation)| match &self.slots[slot as usize] {
                s if s.generation == generation => match s.state {
                    SlotState::Pending(n) => Some(n),
                    _ => None,
                },
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
            inputs.and_then(|inputs| self.run(&key, &inputs, start))
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

    /// Prepares (cache or compile) and runs segment `key`, whose flush began at `start`;
    /// returns its outputs (node indices) and their values.
    fn run(
        &mut self,
        key: &SegmentKey,
        inputs: &[HostTensor],
        start: Instant,
    ) -> Result<(Vec<u32>, Vec<Rc<HostTensor>>)> {
        let module = match self.cache.get(key) {
            Some(m) => {
                self.stats.cache_hits += 1;
                m
            }
            None => {
                self.stats.cache_misses += 1;
                let compiling = Instant::now();
                let compiler = match &mut self.compiler {
                    Some(c) if *c.fusion() == key.fusion => c,
                    slot => slot.insert(Compiler::new(&key.fusion, &self.target.name)?),
                };
                let stem = format!("segment_{:04}", self.compiled);
                self.compiled += 1;
                let dump = self.flags.dump_as_text.then_some((self.flags.dump_dir.as_path(), stem.as_str()));
                let owner = &mut self.owner;
                let target = &self.target;
                let module = contain(ErrorKind::Compile, || compiler.compile(owner, key, target, dump))?;
                let module = Rc::new(module);
                self.stats.compile_time += compiling.elapsed();
                self.stats.cache_evictions +=
                    self.cache.insert(key.clone(), Rc::clone(&module), self.flags.cache_size);
                module
            }
        };
        self.stats.prepare_time += start.elapsed();
        let vm = &self.vm;
        let out = contain(ErrorKind::Run, || {
            vm.run(&module, inputs).map_err(|e| EagerError::new(ErrorKind::Run, e.to_string()))
        })?;
        self.stats.segments_run += 1;
        self.stats.segment_outputs += key.outputs.len() as u64;
        Ok((key.outputs.clone(), out.tensors.into_iter().map(Rc::new).collect()))
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
