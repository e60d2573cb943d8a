//! The trace writer: a run's simulated timeline as Chrome / Perfetto JSON (the JSON object
//! format, `{"traceEvents": [...]}`), for `chrome://tracing` or ui.perfetto.dev.
//!
//! Input: a [`CostReport`] recorded with [`crate::cost::CostModel::recording`] (or
//! [`crate::cost::simulate`] with `record`). Output: one process per core (`pid` = core + 1,
//! named `core N`), in it one thread for the kernel launches (`tid` 1, `kernel`) and one per
//! pipe that ran something (`tid` 2 + the pipe's encoding index, named as `npuvec` spells the
//! pipe), all named by `"M"` metadata events; an `"X"` slice per launch on each of its cores
//! (the launch overhead included) and per instruction, in microseconds of simulated time
//! (launches one after the other from 0). A wait's slice lasts until the awaited set.
//!
//! To bound the file, past `max_slices` instructions runs of `k = ceil(instructions /
//! max_slices)` consecutive instructions of one pipe (of one core and launch) become one slice,
//! named by their mnemonic when they share it, else `N instructions`; that writes at most
//! `max_slices` slices plus one partial run per pipe, core and launch. `otherData` says how
//! many instructions there were, how many slices were written and how many instructions each
//! slice stands for.

use std::collections::{BTreeMap, BTreeSet};

use kiln_bytecode::isa::Pipe;
use kiln_bytecode::module::Module;
use serde_json::{json, Value};

use crate::cost::{CostReport, Slice};
use crate::flags::lane;

/// The default cap on instruction slices.
pub const DEFAULT_MAX_SLICES: usize = 200_000;

/// The thread of a pipe.
fn tid(pipe: Pipe) -> u64 {
    2 + lane(pipe).map_or(0, |l| l as u64)
}

/// Consecutive instructions of one pipe merged into one slice.
struct Group {
    first: Slice,
    last: Slice,
    count: u64,
    mnemonic: Option<&'static str>,
}

/// The trace of `report` (a run of `module`) with at most `max_slices` instruction slices.
pub fn chrome_trace(module: &Module, report: &CostReport, max_slices: usize) -> Value {
    let per_slice = report.slices.len().div_ceil(max_slices.max(1)).max(1) as u64;
    let mut starts = Vec::with_capacity(report.launches.len());
    let mut t = 0.0;
    for l in &report.launches {
        starts.push(t);
        t += l.ns;
    }
    let mnemonic = |launch: u32, inst: u32| -> &'static str {
        report
            .launches
            .get(launch as usize)
            .and_then(|l| module.kernels.get(l.kernel as usize))
            .and_then(|k| k.code.get(inst as usize))
            .map_or("?", |i| i.mnemonic())
    };
    let mut events = Vec::new();
    let mut threads: BTreeSet<(u32, Pipe)> = BTreeSet::new();
    let mut cores: BTreeSet<u32> = BTreeSet::new();
    for (i, l) in report.launches.iter().enumerate() {
        let Some(k) = module.kernels.get(l.kernel as usize) else { continue };
        for core in 0..k.block_dim {
            cores.insert(core);
            events.push(json!({
                "name": k.name, "cat": "kernel", "ph": "X", "pid": core + 1, "tid": 1,
                "ts": starts[i] / 1000.0, "dur": l.ns / 1000.0,
                "args": {"launch": i, "cycles": l.cycles, "gm_bytes": l.gm_bytes},
            }));
        }
    }
    let emit = |g: Group, events: &mut Vec<Value>| {
        let base = starts.get(g.first.launch as usize).copied().unwrap_or(0.0) + report.launch_ns;
        let (start, end) = (report.ns(g.first.start), report.ns(g.last.end));
        let name = match g.mnemonic {
            Some(m) => m.to_string(),
            None => format!("{} instructions", g.count),
        };
        events.push(json!({
            "name": name, "cat": g.first.pipe.name(), "ph": "X",
            "pid": g.first.core + 1, "tid": tid(g.first.pipe),
            "ts": (base + start) / 1000.0, "dur": (end - start) / 1000.0,
            "args": {"launch": g.first.launch, "inst": g.first.inst, "last_inst": g.last.inst, "count": g.count},
        }));
    };
    let mut open: BTreeMap<(u32, u32, Pipe), Group> = BTreeMap::new();
    let mut written = 0u64;
    for s in &report.slices {
        threads.insert((s.core, s.pipe));
        cores.insert(s.core);
        let m = mnemonic(s.launch, s.inst);
        let g = open.entry((s.launch, s.core, s.pipe)).or_insert(Group {
            first: *s,
            last: *s,
            count: 0,
            mnemonic: Some(m),
        });
        g.last = *s;
        g.count += 1;
        if g.mnemonic != Some(m) {
            g.mnemonic = None;
        }
        if g.count == per_slice {
            if let Some(g) = open.remove(&(s.launch, s.core, s.pipe)) {
                emit(g, &mut events);
                written += 1;
            }
        }
    }
    for (_, g) in std::mem::take(&mut open) {
        emit(g, &mut events);
        written += 1;
    }
    let mut meta = Vec::new();
    for &core in &cores {
        meta.push(json!({"name": "process_name", "ph": "M", "pid": core + 1, "args": {"name": format!("core {core}")}}));
        meta.push(
            json!({"name": "process_sort_index", "ph": "M", "pid": core + 1, "args": {"sort_index": core}}),
        );
        meta.push(
            json!({"name": "thread_name", "ph": "M", "pid": core + 1, "tid": 1, "args": {"name": "kernel"}}),
        );
    }
    for &(core, pipe) in &threads {
        meta.push(json!({"name": "thread_name", "ph": "M", "pid": core + 1, "tid": tid(pipe), "args": {"name": pipe.name()}}));
    }
    meta.extend(events);
    json!({
        "traceEvents": meta,
        "displayTimeUnit": "ns",
        "otherData": {
            "instructions": report.slices.len(),
            "instruction_slices": written,
            "instructions_per_slice": per_slice,
            "total_ns": report.total_ns,
        },
    })
}
