//! Test durations remembered between runs, in `.kiln_lit_test_times` at each suite's root (as
//! lit's `.lit_test_times.txt`): the next run starts the slowest tests first, so that the pool
//! does not end up waiting on a long test that happened to start last.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::discovery::Test;

const FILE: &str = ".kiln_lit_test_times";

fn file_of(test: &Test) -> PathBuf {
    test.suite.root.join(FILE)
}

/// Recorded seconds per test name in `path` (missing or malformed lines are ignored).
fn load(path: &Path) -> BTreeMap<String, f64> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let (secs, name) = l.split_once(' ')?;
            Some((name.to_string(), secs.parse().ok()?))
        })
        .collect()
}

/// The order to start `tests` in: tests never timed first (in discovery order), then the
/// others slowest first.
pub fn order(tests: &[Test]) -> Vec<usize> {
    let mut known: BTreeMap<PathBuf, BTreeMap<String, f64>> = BTreeMap::new();
    let time = |i: usize, known: &mut BTreeMap<PathBuf, BTreeMap<String, f64>>| {
        let file = file_of(&tests[i]);
        known.entry(file.clone()).or_insert_with(|| load(&file)).get(&tests[i].name).copied()
    };
    let mut keyed: Vec<(Option<f64>, usize)> = (0..tests.len()).map(|i| (time(i, &mut known), i)).collect();
    // Unknown (None) first, then by descending time; ties keep discovery order.
    keyed.sort_by(|(a, i), (b, j)| match (a, b) {
        (None, None) => i.cmp(j),
        (None, Some(_)) => std::cmp::Ordering::Less,
        (Some(_), None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => y.total_cmp(x).then(i.cmp(j)),
    });
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// Merges this run's durations (`None`: not run) into each suite's file (best effort: a
/// read-only tree is fine).
pub fn record(tests: &[Test], durations: &[Option<Duration>]) {
    let mut files: BTreeMap<PathBuf, BTreeMap<String, f64>> = BTreeMap::new();
    for (test, d) in tests.iter().zip(durations).filter_map(|(t, d)| Some((t, (*d)?))) {
        let file = file_of(test);
        files.entry(file.clone()).or_insert_with(|| load(&file)).insert(test.name.clone(), d.as_secs_f64());
    }
    for (file, times) in files {
        let text: String = times.iter().map(|(name, secs)| format!("{secs:.6} {name}\n")).collect();
        let _ = std::fs::write(file, text);
    }
}
