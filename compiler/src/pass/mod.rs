//! Passes and the pass manager, after MLIR's: passes are registered once with metadata
//! ([`PassInfo`]: kebab-case name, summary, description, typed options), pipelines are written
//! as text (`builtin.module(func.func(cse, canonicalize{max-iterations=4}))`), pass managers
//! nest per op name, and instrumentation verifies, prints, times and counts around each pass.
//! A pass is declared once with [`declare_pass!`](crate::declare_pass).

mod declare;
mod instrument;
mod manager;
mod options;
mod pipeline;

pub use instrument::{Instrumentation, IrPrinter, TimingDisplay};
pub use manager::PassManager;
pub use options::{OptionKind, PassOptionSpec, PassOptions};
pub use pipeline::parse_pipeline;

use indexmap::IndexMap;

use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::ir::{Ir, OpId};

/// What a pass is given to work on: the IR, the context, and sinks for diagnostics and
/// statistics. The pass runs on one op (its anchor) and everything nested in it.
pub struct PassContext<'a, 'c> {
    /// The context.
    pub ctx: &'a Context<'c>,
    /// The IR.
    pub ir: &'a mut Ir<'c>,
    /// Diagnostics emitted by the pass (errors make the pass fail; remarks are reported).
    pub diagnostics: &'a mut Vec<Diagnostic<'c>>,
    statistics: &'a mut IndexMap<&'static str, (u64, &'static str)>,
}

impl PassContext<'_, '_> {
    /// Adds `n` to statistic `name` (described by `help`) of the running pass.
    pub fn add_statistic(&mut self, name: &'static str, help: &'static str, n: u64) {
        self.statistics.entry(name).or_insert((0, help)).0 += n;
    }
}

/// A pass (or pipeline) failed; the reasons are in the diagnostics it pushed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassFailed;

impl std::fmt::Display for PassFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("pass failed; see its diagnostics")
    }
}

impl std::error::Error for PassFailed {}

/// A transformation or analysis over an op.
pub trait Pass {
    /// The pass's registration record.
    fn info(&self) -> &'static PassInfo;

    /// Runs on `op`. On failure the pass has pushed at least one error diagnostic.
    fn run<'c>(&mut self, cx: &mut PassContext<'_, 'c>, op: OpId) -> Result<(), PassFailed>;

    /// Called at the start of every run of the pipeline that holds the pass, before it runs
    /// on any op: a pass nested under an op kind runs once per such op, and what it carries
    /// from one op to the next (numbering, a report over all of them) starts again here.
    fn begin_run(&mut self) {}
}

/// How to build a pass from its options.
pub type PassConstructor = fn(&PassOptions) -> Result<Box<dyn Pass>, String>;

/// The registration record of a pass (MLIR's `Passes.td` entry).
#[derive(Debug)]
pub struct PassInfo {
    /// Kebab-case name used in pipelines (`cse`, `kiln-fuse`).
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// Longer description: what it rewrites, what it assumes, what it guarantees.
    pub description: &'static str,
    /// The op name it must run on (`builtin.module`), or `None` for any op.
    pub anchor: Option<&'static str>,
    /// Its options.
    pub options: &'static [PassOptionSpec],
    /// Its constructor.
    pub create: PassConstructor,
}

/// The one registry of passes, in registration order.
#[derive(Default, Debug, Clone)]
pub struct PassRegistry {
    passes: IndexMap<&'static str, &'static PassInfo>,
    defaults: IndexMap<&'static str, String>,
}

impl PassRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a pass; registering the same name twice is a bug reported as an error.
    pub fn register(&mut self, info: &'static PassInfo) -> Result<(), String> {
        if self.passes.insert(info.name, info).is_some() {
            return Err(format!("pass '{}' registered twice", info.name));
        }
        Ok(())
    }

    /// Adds `options` (`key=value ...`) to every instance of pass `name` that a pipeline
    /// creates; options written in the pipeline come after them and win. Tools map their own
    /// flags onto pass options this way (kiln-opt's `--kiln-fusion-remarks`).
    pub fn add_default_options(&mut self, name: &str, options: &str) -> Result<(), String> {
        let info = self.get(name).ok_or_else(|| format!("no pass named '{name}' to give options to"))?;
        PassOptions::parse(info.name, info.options, options)?;
        let entry = self.defaults.entry(info.name).or_default();
        entry.push(' ');
        entry.push_str(options);
        Ok(())
    }

    /// The default options of pass `name` (empty when none were added).
    pub fn default_options(&self, name: &str) -> &str {
        self.defaults.get(name).map_or("", String::as_str)
    }

    /// Looks a pass up by name.
    pub fn get(&self, name: &str) -> Option<&'static PassInfo> {
        self.passes.get(name).copied()
    }

    /// All passes, in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &'static PassInfo> + '_ {
        self.passes.values().copied()
    }

    /// The names of all passes, comma separated (for "unknown pass" errors).
    pub fn names(&self) -> String {
        self.passes.keys().copied().collect::<Vec<_>>().join(", ")
    }
}
