//! The Chrome trace of two launches of the double-buffered kernel on two cores: it parses, its
//! processes and threads are named, instruction slices nest inside their launch's slice and
//! follow each other on every thread, and the slice cap groups instructions.

mod common;
mod pipelined;

use std::collections::BTreeMap;

use common::*;
use kiln_vm::cost::simulate;
use kiln_vm::trace::{chrome_trace, DEFAULT_MAX_SLICES};
use pipelined::Shape;
use serde_json::Value;

const EPS: f64 = 1e-6;

fn traced(max_slices: usize) -> Value {
    let sh = Shape { slots: 2, cores: 2, tiles_per_core: 4, v_ops: 3 };
    let mut m = pipelined::build(pipelined::code(sh), sh);
    let again = m.host.launches[0].clone();
    m.host.launches.push(again);
    let (_, report) = simulate(&tiny(), &m, &pipelined::input(sh), true).unwrap();
    let text = serde_json::to_string(&chrome_trace(&m, &report, max_slices)).unwrap();
    serde_json::from_str(&text).expect("the trace is JSON")
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("`{key}` in {v}"))
}

/// The `"X"` slices of category `kernel` and the others.
fn slices(t: &Value) -> (Vec<&Value>, Vec<&Value>) {
    let events = t["traceEvents"].as_array().expect("traceEvents");
    events.iter().filter(|e| e["ph"] == "X").partition(|e| e["cat"] == "kernel")
}

#[test]
fn slices_nest_in_their_launch_and_follow_each_other() {
    let t = traced(DEFAULT_MAX_SLICES);
    let events = t["traceEvents"].as_array().unwrap();
    let names: Vec<(u64, Option<u64>, &str)> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] != "process_sort_index")
        .map(|e| (e["pid"].as_u64().unwrap(), e["tid"].as_u64(), e["args"]["name"].as_str().unwrap()))
        .collect();
    for pid in [1, 2] {
        let core = format!("core {}", pid - 1);
        assert!(names.contains(&(pid, None, core.as_str())), "{names:?}");
        for (tid, name) in [(1, "kernel"), (2, "s"), (3, "v"), (5, "mte2"), (6, "mte3")] {
            assert!(names.contains(&(pid, Some(tid), name)), "{pid} {name}: {names:?}");
        }
    }
    let (kernels, insts) = slices(&t);
    assert_eq!(kernels.len(), 4, "two launches on two cores");
    let mut launch: BTreeMap<(u64, u64), (f64, f64)> = BTreeMap::new();
    for k in &kernels {
        let (pid, l) = (k["pid"].as_u64().unwrap(), k["args"]["launch"].as_u64().unwrap());
        launch.insert((pid, l), (num(k, "ts"), num(k, "ts") + num(k, "dur")));
    }
    for pid in [1, 2] {
        let (a, b) = (launch[&(pid, 0)], launch[&(pid, 1)]);
        assert!(a.0 == 0.0 && (b.0 - a.1).abs() < EPS, "launches follow each other: {a:?} {b:?}");
    }
    assert_eq!(insts.len() as u64, t["otherData"]["instructions"].as_u64().unwrap());
    let mut last_end: BTreeMap<(u64, u64), f64> = BTreeMap::new();
    for s in &insts {
        let (pid, tid) = (s["pid"].as_u64().unwrap(), s["tid"].as_u64().unwrap());
        let (ts, end) = (num(s, "ts"), num(s, "ts") + num(s, "dur"));
        let (lo, hi) = launch[&(pid, s["args"]["launch"].as_u64().unwrap())];
        assert!(lo - EPS <= ts && end <= hi + EPS, "{s} outside its launch [{lo}, {hi}]");
        let prev = last_end.insert((pid, tid), end).unwrap_or(0.0);
        assert!(ts + EPS >= prev, "{s} starts before the previous slice of its thread ends at {prev}");
    }
    // The MTE2 thread streams: its loads are back to back in a launch (double buffering).
    let loads: Vec<&&Value> = insts.iter().filter(|s| s["name"] == "load" && s["pid"] == 1).collect();
    assert_eq!(loads.len(), 8);
    assert!((num(loads[1], "ts") - num(loads[0], "ts") - num(loads[0], "dur")).abs() < EPS);
}

#[test]
fn the_slice_cap_groups_consecutive_instructions_of_a_pipe() {
    let full = traced(DEFAULT_MAX_SLICES);
    let capped = traced(50);
    let n = full["otherData"]["instructions"].as_u64().unwrap();
    let per = capped["otherData"]["instructions_per_slice"].as_u64().unwrap();
    assert_eq!(per, n.div_ceil(50));
    let (_, insts) = slices(&capped);
    let threads = 2 * 2 * 4; // launches x cores x pipes that ran something (s, v, mte2, mte3)
    assert!(insts.len() <= 50 + threads, "{} slices", insts.len());
    assert_eq!(insts.len() as u64, capped["otherData"]["instruction_slices"].as_u64().unwrap());
    let counted: u64 = insts.iter().map(|s| s["args"]["count"].as_u64().unwrap()).sum();
    assert_eq!(counted, n, "every instruction is in one slice");
    assert!(insts.iter().any(|s| s["name"].as_str().unwrap().ends_with(" instructions")));
}
