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

/// How `--mlir-timing` lays its report out (`--mlir-timing-display`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimingDisplay {
    /// Nested pipelines above the passes they ran, indented (mlir-opt's default).
    #[default]
    Tree,
    /// One row per name, slowest first.
    List,
}

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
    /// Print the IR after a pass that failed.
    pub print_after_failure: bool,
    /// Print the whole top-level op, not only the op a pass ran on.
    pub module_scope: bool,
    /// Write IR dumps into files under this folder, one per pass and op, instead of the log.
    pub tree_dir: Option<std::path::PathBuf>,
    /// Collect wall-clock times.
    pub timing: bool,
    /// Collect statistics.
    pub statistics: bool,
    /// How to print IR.
    pub printer: Option<IrPrinter<'p>>,
    /// Printed IR dumps, in order (tools send this to stderr).
    pub log: String,
    /// The first pass that failed and the op it ran on, as mlir-opt's crash reproducer names
    /// them: `` `Cse` on 'func.func' operation: @f ``.
    pub failure: Option<String>,
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

    /// Logs an IR dump with mlir-opt's header: `// -----// IR Dump After Cse (cse) //----- //`,
    /// `... After Cse Failed (cse) ...` when `failed`, and with the op the pass ran on named
    /// (`scope`, e.g. `('func.func' operation: @f)`) when the dump shows more than that op.
    /// With `file` (see `tree_dir`) the dump is appended to that file; a file that cannot be
    /// written is reported in the log instead.
    pub(super) fn dump(
        &mut self,
        when: &str,
        pass: &str,
        failed: bool,
        scope: &str,
        file: Option<&std::path::Path>,
        text: &str,
    ) {
        let failed = if failed { " Failed" } else { "" };
        let dump = format!(
            "// -----// IR Dump {when} {}{failed} ({pass}){scope} //----- //\n{text}\n\n",
            display_name(pass)
        );
        let Some(file) = file else {
            self.log.push_str(&dump);
            return;
        };
        let written = file.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| {
            use std::io::Write as _;
            std::fs::OpenOptions::new().create(true).append(true).open(file)?.write_all(dump.as_bytes())
        });
        if let Err(e) = written {
            let _ = writeln!(self.log, "error: cannot write IR dump to '{}': {e}", file.display());
        }
    }

    /// The `--mlir-timing` report, as mlir-opt prints it: with [`TimingDisplay::Tree`] every
    /// pipeline above the passes it ran, children indented and in the order they first ran;
    /// with [`TimingDisplay::List`] one row per name (times of the same name added up), the
    /// slowest first.
    pub fn timing_report(&self, display: TimingDisplay) -> String {
        let total: Duration = self.timings.iter().filter(|(p, _)| p.len() == 1).map(|(_, d)| *d).sum();
        let mut out = String::new();
        banner(&mut out, "Execution time report");
        let _ = writeln!(out, "  Total Execution Time: {:.4} seconds\n", total.as_secs_f64());
        let _ = writeln!(out, "  ----Wall Time----  ----Name----");
        let rows: Vec<(usize, &str, Duration)> = match display {
            TimingDisplay::Tree => self
                .tree_order()
                .into_iter()
                .map(|(p, d)| (p.len() - 1, p[p.len() - 1].as_str(), d))
                .collect(),
            TimingDisplay::List => {
                let mut by_name: IndexMap<&str, Duration> = IndexMap::new();
                for (path, d) in &self.timings {
                    *by_name.entry(path[path.len() - 1].as_str()).or_default() += *d;
                }
                let mut rows: Vec<(usize, &str, Duration)> =
                    by_name.into_iter().map(|(n, d)| (0, n, d)).collect();
                rows.sort_by_key(|r| std::cmp::Reverse(r.2));
                rows
            }
        };
        for (depth, name, d) in rows {
            let pct = if total.is_zero() { 0.0 } else { 100.0 * d.as_secs_f64() / total.as_secs_f64() };
            let _ = writeln!(out, "  {:8.4} ({pct:5.1}%)  {}{name}", d.as_secs_f64(), "  ".repeat(depth));
        }
        let _ = writeln!(out, "  {:8.4} (100.0%)  Total", total.as_secs_f64());
        out
    }

    /// The timed paths with every parent before its children, siblings in the order they were
    /// first seen (a nested pipeline's time is recorded after its passes').
    fn tree_order(&self) -> Vec<(&Vec<String>, Duration)> {
        let mut first_seen: IndexMap<&[String], usize> = IndexMap::new();
        for path in self.timings.keys() {
            for k in 1..=path.len() {
                let next = first_seen.len();
                first_seen.entry(&path[..k]).or_insert(next);
            }
        }
        let key = |p: &[String]| (1..=p.len()).map(|k| first_seen[&p[..k]]).collect::<Vec<usize>>();
        let mut rows: Vec<(&Vec<String>, Duration)> = self.timings.iter().map(|(p, d)| (p, *d)).collect();
        rows.sort_by_cached_key(|(p, _)| key(p));
        rows
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

/// mlir-opt's report banner: the title centred in 80 columns between two rules.
fn banner(out: &mut String, title: &str) {
    let rule = "===-------------------------------------------------------------------------===";
    let title = format!("... {title} ...");
    let indent = " ".repeat(80usize.saturating_sub(title.len()) / 2);
    let _ = writeln!(out, "{rule}\n{indent}{title}\n{rule}");
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
