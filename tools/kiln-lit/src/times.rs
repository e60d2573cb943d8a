//! Test times remembered between runs, in lit's `.lit_test_times.txt` at each suite's root,
//! in lit's format (`%e` seconds, a space, the test's path in its suite), so that lit and
//! kiln-lit share the file. A failed test's time is recorded negative (at most `-1e-6`), and
//! the next run starts previously failed tests first, then the slowest first, as lit does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::discovery::Test;

const FILE: &str = ".lit_test_times.txt";

/// How a test ran: its duration and whether it failed (lit's `isFailure`).
pub type Ran = (Duration, bool);

fn file_of(test: &Test) -> PathBuf {
    test.suite.root.join(FILE)
}

/// Recorded signed seconds per test name in `path` (missing or malformed lines are ignored).
fn load(path: &Path) -> BTreeMap<String, f64> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let (secs, name) = l.trim_start().split_once(char::is_whitespace)?;
            Some((name.trim_start().to_string(), secs.parse().ok()?))
        })
        .collect()
}

/// The recorded signed time of each test (`None`: never recorded).
pub fn previous(tests: &[Test]) -> Vec<Option<f64>> {
    let mut files: BTreeMap<PathBuf, BTreeMap<String, f64>> = BTreeMap::new();
    tests
        .iter()
        .map(|test| {
            let file = file_of(test);
            files.entry(file.clone()).or_insert_with(|| load(&file)).get(&test.name).copied()
        })
        .collect()
}

/// Whether a recorded time says the test failed.
pub fn failed(time: Option<f64>) -> bool {
    time.is_some_and(|t| t < 0.0)
}

/// The order to start `tests` in, given their recorded times: lit's `smart` order, i.e.
/// previously failed tests first, then by descending time (never recorded counts as 0), then
/// by full name.
pub fn order(tests: &[Test], times: &[Option<f64>]) -> Vec<usize> {
    let mut keyed: Vec<(bool, f64, String, usize)> = (0..tests.len())
        .map(|i| (!failed(times[i]), times[i].map_or(0.0, f64::abs), tests[i].full_name(), i))
        .collect();
    keyed.sort_by(|(fa, ta, na, _), (fb, tb, nb, _)| fa.cmp(fb).then(tb.total_cmp(ta)).then(na.cmp(nb)));
    keyed.into_iter().map(|(.., i)| i).collect()
}

/// Merges this run's times (`None`: not run) into each suite's file (best effort: a read-only
/// tree is fine).
pub fn record(tests: &[Test], runs: &[Option<Ran>]) {
    let mut files: BTreeMap<PathBuf, BTreeMap<String, f64>> = BTreeMap::new();
    for (test, (elapsed, failed)) in tests.iter().zip(runs).filter_map(|(t, r)| Some((t, (*r)?))) {
        let file = file_of(test);
        let secs = elapsed.as_secs_f64();
        let time = if failed { (-secs).min(-1.0e-6) } else { secs };
        files.entry(file.clone()).or_insert_with(|| load(&file)).insert(test.name.clone(), time);
    }
    for (file, times) in files {
        let text: String =
            times.iter().map(|(name, &secs)| format!("{} {name}\n", percent_e(secs))).collect();
        let _ = std::fs::write(file, text);
    }
}

/// `x` as C's `printf("%e")`: six decimals and an exponent of at least two digits.
fn percent_e(x: f64) -> String {
    let text = format!("{x:.6e}");
    let Some((mantissa, exp)) = text.split_once('e') else { return text };
    let (sign, digits) = exp.strip_prefix('-').map_or(("+", exp), |d| ("-", d));
    format!("{mantissa}e{sign}{digits:0>2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_print_as_printf_e() {
        assert_eq!(percent_e(0.0123), "1.230000e-02");
        assert_eq!(percent_e(-1.0e-6), "-1.000000e-06");
        assert_eq!(percent_e(0.0), "0.000000e+00");
        assert_eq!(percent_e(123.0), "1.230000e+02");
    }
}
