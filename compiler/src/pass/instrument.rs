//! Pass instrumentation: verification after each pass, IR printing before/after passes,
//! wall-clock timing and statistics, reported in mlir-opt's formats.

use std::fmt::Write;
use std::time::Duration;

use indexmap::IndexMap;

use crate::context::Context;
use crate::ir::{Ir, OpId};

/// Prints an op (and what it contains) as text; supplied by the tool so that the pass manager
/// does not depend on printing choices.
pub type IrPrinter<'p> = &'p dyn for<'c> Fn(&Context<'c>, &Ir<'c>, OpId) -> String;

/// What to do around each pass, and what was collected.
#[derive(Default)]
pub struct Instrumentation<'p> {
    /// Verify the IR after each pass (on by default in tools).
    pub verify_each: bool,
    /// Print the IR before these passes.
    pub print_before: Vec<String>,
    /// Print the IR before every pass.
    pub print_before_all: bool,
    /// Print the IR after these passes.
    pub print_after: Vec<String>,
    /// Print the IR after every pass.
    pub print_after_all: bool,
    /// Print the IR after a pass only when it changed it.
    pub print_after_change: bool,
    /// Collect wall-clock times.
    pub timing: bool,
    /// Collect statistics.
    pub statistics: bool,
    /// How to print IR.
    pub printer: Option<IrPrinter<'p>>,
    /// Printed IR dumps, in order (tools send this to stderr).
    pub log: String,
    timings: IndexMap<Vec<String>, Duration>,
    stats: IndexMap<Vec<String>, IndexMap<&'static str, (u64, &'static str)>>,
}

impl Instrumentation<'_> {
    /// Records `time` spent in the pipeline element at `path` (e.g. `["'func.func' Pipeline",
    /// "CSE"]`); times of the same path add up.
    pub fn add_time(&mut self, path: &[String], time: Duration) {
        if self.timing {
            *self.timings.entry(path.to_vec()).or_default() += time;
        }
    }

    pub(super) fn add_stats(&mut self, path: &[String], stats: IndexMap<&'static str, (u64, &'static str)>) {
        if !self.statistics {
            return;
        }
        let entry = self.stats.entry(path.to_vec()).or_default();
        for (k, (n, help)) in stats {
            entry.entry(k).or_insert((0, help)).0 += n;
        }
    }

    pub(super) fn wants_before(&self, pass: &str) -> bool {
        self.print_before_all || self.print_before.iter().any(|p| p == pass)
    }

    pub(super) fn wants_after(&self, pass: &str) -> bool {
        self.print_after_all || self.print_after_change || self.print_after.iter().any(|p| p == pass)
    }

    pub(super) fn dump(&mut self, when: &str, pass: &str, text: &str) {
        let _ = write!(
            self.log,
            "// -----// IR Dump {when} {} ({pass}) //----- //\n{text}\n\n",
            display_name(pass)
        );
    }

    /// The `--mlir-timing` report, as mlir-opt prints it.
    pub fn timing_report(&self) -> String {
        let total: Duration = self.timings.iter().filter(|(p, _)| p.len() == 1).map(|(_, d)| *d).sum();
        let mut out = String::new();
        banner(&mut out, "Execution time report");
        let _ = writeln!(out, "  Total Execution Time: {:.4} seconds\n", total.as_secs_f64());
        let _ = writeln!(out, "  ----Wall Time----  ----Name----");
        for (path, d) in &self.timings {
            let pct = if total.is_zero() { 0.0 } else { 100.0 * d.as_secs_f64() / total.as_secs_f64() };
            let indent = "  ".repeat(path.len() - 1);
            let _ = writeln!(out, "  {:8.4} ({pct:5.1}%)  {indent}{}", d.as_secs_f64(), path[path.len() - 1]);
        }
        let _ = writeln!(out, "  {:8.4} (100.0%)  Total", total.as_secs_f64());
        out
    }

    /// The `--mlir-pass-statistics` report, as mlir-opt prints it.
    pub fn statistics_report(&self) -> String {
        let mut out = String::new();
        banner(&mut out, "Pass statistics report");
        for (path, stats) in &self.stats {
            for (depth, part) in path.iter().enumerate() {
                let _ = writeln!(out, "{}{part}", "  ".repeat(depth));
            }
            let indent = "  ".repeat(path.len());
            for (name, (n, help)) in stats {
                let _ = writeln!(out, "{indent}(S) {n} {name} - {help}");
            }
        }
        out
    }
}

fn banner(out: &mut String, title: &str) {
    let rule = "===-------------------------------------------------------------------------===";
    let _ =
        writeln!(out, "{rule}\n{:>width$}\n{rule}", format!("... {title} ..."), width = 49 + title.len() / 2);
}

/// `symbol-dce` -> `SymbolDce`: the display name used in dumps and reports.
pub(super) fn display_name(pass: &str) -> String {
    pass.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect()
}
