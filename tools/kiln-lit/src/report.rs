//! Printing results as lit does: a header, one line per finished test
//! (`PASS: Kiln :: a.test (1 of 12)`), the logs of failures with `-v` (of
//! every test with `-a`), and a summary ending with `N passed, N failed`.

use crate::discovery::Test;
use crate::runner::{Outcome, Status};
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

/// How much to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Only failures and the summary counts.
    Quiet,
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
    progress: bool,
    total: usize,
    done: usize,
    counts: BTreeMap<Status, usize>,
    failures: BTreeMap<Status, Vec<String>>,
    start: Instant,
    out: std::io::Stdout,
}

impl Reporter {
    /// A reporter for `total` tests; `progress` draws a progress line.
    pub fn new(verbosity: Verbosity, progress: bool, total: usize) -> Self {
        Reporter {
            verbosity,
            progress,
            total,
            done: 0,
            counts: BTreeMap::new(),
            failures: BTreeMap::new(),
            start: Instant::now(),
            out: std::io::stdout(),
        }
    }

    /// Prints the header line.
    pub fn start(&mut self, workers: usize) {
        let text = format!("-- Testing: {} tests, {workers} workers --\n", self.total);
        self.write(&text);
    }

    /// Records and prints one finished test.
    pub fn report(&mut self, test: &Test, outcome: &Outcome) {
        self.done += 1;
        *self.counts.entry(outcome.status).or_default() += 1;
        let name = test.full_name();
        let failed = outcome.status.is_failure();
        if failed {
            self.failures.entry(outcome.status).or_default().push(name.clone());
        }
        let mut text = String::new();
        if failed || self.verbosity > Verbosity::Quiet {
            text.push_str(&format!("{}: {name} ({} of {})\n", outcome.status.label(), self.done, self.total));
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

    /// Prints the summary; returns the process exit code (1 when any test
    /// failed).
    pub fn finish(mut self) -> i32 {
        let mut text = String::new();
        for (status, names) in &mut self.failures {
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
        text.push_str(&format!("\nTotal Discovered Tests: {}\n", self.total));
        let shown: Vec<(Status, usize)> = Status::ALL
            .iter()
            .filter_map(|s| Some((*s, *self.counts.get(s)?)))
            .filter(|(s, _)| self.verbosity > Verbosity::Quiet || s.is_failure())
            .collect();
        let width = shown.iter().map(|(s, _)| s.description().len()).max().unwrap_or(0);
        for (status, count) in &shown {
            let percent = 100.0 * *count as f64 / self.total.max(1) as f64;
            text.push_str(&format!("  {:width$}: {count} ({percent:.2}%)\n", status.description()));
        }
        let count = |pred: fn(Status) -> bool| -> usize {
            self.counts.iter().filter(|(s, _)| pred(**s)).map(|(_, n)| n).sum()
        };
        let passed = count(|s| matches!(s, Status::Pass | Status::FlakyPass | Status::XFail));
        let failed = count(Status::is_failure);
        let skipped = count(|s| s == Status::Unsupported);
        text.push_str(&format!("{passed} passed, {failed} failed"));
        if skipped > 0 {
            text.push_str(&format!(", {skipped} skipped"));
        }
        text.push('\n');
        self.write(&text);
        i32::from(failed > 0)
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
