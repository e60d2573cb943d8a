//! Printing results as lit does: a header, one line per finished test
//! (`PASS: Kiln :: a.test (1 of 12)`), the logs of failures with `-v` (of
//! every test with `-a`), the lists of failing tests (and of the codes
//! asked for with `--show-*`), and the summary counts.

use crate::discovery::Test;
use crate::runner::{Outcome, Status};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::time::Instant;

/// How much to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Only failures and the failure counts (`-q`).
    Quiet,
    /// A line per failure, and the full summary (`-s`).
    Succinct,
    /// A line per test.
    Normal,
    /// A line per test, and the log of each failure.
    Verbose,
    /// A line per test, and every test's log.
    All,
}

/// Collects outcomes and prints them as they come.
pub struct Reporter {
    verbosity: Verbosity,
    shown: BTreeSet<Status>,
    progress: bool,
    total: usize,
    done: usize,
    tests: BTreeMap<Status, Vec<String>>,
    start: Instant,
    out: std::io::Stdout,
}

impl Reporter {
    /// A reporter for `total` tests; `shown` are the non-failure codes
    /// whose tests are listed at the end; `progress` draws a progress line.
    pub fn new(verbosity: Verbosity, shown: BTreeSet<Status>, progress: bool, total: usize) -> Self {
        Reporter {
            verbosity,
            shown,
            progress,
            total,
            done: 0,
            tests: BTreeMap::new(),
            start: Instant::now(),
            out: std::io::stdout(),
        }
    }

    /// Prints the header line: `discovered` tests, of which `self.total` run.
    pub fn start(&mut self, discovered: usize, workers: usize) {
        let count = if discovered == self.total {
            format!("{discovered}")
        } else {
            format!("{} of {discovered}", self.total)
        };
        self.write(&format!("-- Testing: {count} tests, {workers} workers --\n"));
    }

    /// Records and prints one finished test.
    pub fn report(&mut self, test: &Test, outcome: &Outcome) {
        self.done += 1;
        let name = test.full_name();
        self.tests.entry(outcome.status).or_default().push(name.clone());
        let failed = outcome.status.is_failure();
        let mut text = String::new();
        if failed || self.verbosity >= Verbosity::Normal {
            let retried = outcome.attempts.map(|(made, allowed)| format!(", {made} of {allowed} attempts"));
            let (label, done, total) = (outcome.status.label(), self.done, self.total);
            text.push_str(&format!("{label}: {name} ({done} of {total}{})\n", retried.unwrap_or_default()));
        }
        let show_log = match self.verbosity {
            Verbosity::All => true,
            Verbosity::Verbose => failed,
            _ => false,
        };
        if show_log {
            let verdict = if failed { "FAILED" } else { outcome.status.label() };
            let stars = "*".repeat(20);
            text.push_str(&format!(
                "{stars} TEST '{name}' {verdict} {stars}\n{}\n\n{stars}\n",
                outcome.output.trim_end()
            ));
        }
        self.write(&text);
    }

    /// Prints a warning (`warning: ...`) to stderr, as lit does when it
    /// stops a run early.
    pub fn warn(&mut self, message: &str) {
        let _ = writeln!(std::io::stderr(), "warning: {message}");
    }

    /// Prints the lists and the summary, counting `unrun` tests as
    /// `Skipped` and `excluded` ones as `Excluded`, for `discovered` tests in
    /// all; returns whether any test failed.
    pub fn finish(mut self, discovered: usize, excluded: Vec<String>, unrun: Vec<String>) -> bool {
        for (status, names) in [(Status::Excluded, excluded), (Status::Skipped, unrun)] {
            if !names.is_empty() {
                self.tests.entry(status).or_default().extend(names);
            }
        }
        let mut text = String::new();
        for (status, names) in &mut self.tests {
            if !status.is_failure() && !self.shown.contains(status) {
                continue;
            }
            names.sort();
            text.push_str(&format!(
                "{}\n{} Tests ({}):\n",
                "*".repeat(20),
                status.description(),
                names.len()
            ));
            for name in names.iter() {
                text.push_str(&format!("  {name}\n"));
            }
            text.push('\n');
        }
        if self.verbosity > Verbosity::Quiet {
            text.push_str(&format!("\nTesting Time: {:.2}s\n", self.start.elapsed().as_secs_f64()));
        }
        text.push_str(&summary(&self.tests, discovered, self.verbosity == Verbosity::Quiet));
        self.done = self.total;
        self.write(&text);
        self.tests.keys().any(|s| s.is_failure())
    }

    /// Writes `text`, keeping the progress line (if any) below it.
    fn write(&mut self, text: &str) {
        let mut out = self.out.lock();
        // Output going nowhere (a closed pipe) must not stop the run.
        if self.progress {
            let _ = write!(out, "\r\x1b[K");
        }
        let _ = out.write_all(text.as_bytes());
        if self.progress && self.done < self.total {
            let percent = 100 * self.done / self.total.max(1);
            let _ = write!(out, "[{percent:3}%] {} of {} tests", self.done, self.total);
        }
        let _ = out.flush();
    }
}

/// lit's summary: `Total Discovered Tests: N`, then a line per result code
/// present (failures only when `quiet`), labels and counts aligned.
fn summary(tests: &BTreeMap<Status, Vec<String>>, discovered: usize, quiet: bool) -> String {
    let mut text = format!("\nTotal Discovered Tests: {discovered}\n");
    let shown: Vec<(Status, usize)> = Status::ALL
        .iter()
        .filter_map(|s| Some((*s, tests.get(s)?.len())))
        .filter(|(s, n)| *n > 0 && (!quiet || s.is_failure()))
        .collect();
    let label_width = shown.iter().map(|(s, _)| s.description().len()).max().unwrap_or(0);
    let count_width = shown.iter().map(|(_, n)| n.to_string().len()).max().unwrap_or(0);
    for (status, count) in &shown {
        let percent = 100.0 * *count as f64 / discovered.max(1) as f64;
        text.push_str(&format!(
            "  {:label_width$}: {count:>count_width$} ({percent:.2}%)\n",
            status.description()
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_aligns_labels_and_counts() {
        let names = |n: usize| vec![String::new(); n];
        let tests = BTreeMap::from([(Status::Pass, names(12)), (Status::Fail, names(3))]);
        assert_eq!(
            summary(&tests, 15, false),
            "\nTotal Discovered Tests: 15\n  Passed: 12 (80.00%)\n  Failed:  3 (20.00%)\n"
        );
        assert_eq!(summary(&tests, 15, true), "\nTotal Discovered Tests: 15\n  Failed: 3 (20.00%)\n");
    }
}
