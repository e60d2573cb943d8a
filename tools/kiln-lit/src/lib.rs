//! `kiln-lit`: an LLVM lit-compatible test runner.
//!
//! A test tree is described by `kiln-lit.toml` at its root (name, test
//! suffixes, substitutions, feature probes) and `kiln-lit.local.toml`
//! overrides below it. Tests hold lit directives (`RUN:`, `XFAIL:`,
//! `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:`, `END.`); RUN lines run in
//! a small built-in shell modelled on lit's internal one, on a pool of
//! threads. Output and exit codes follow lit's.
//!
//! The flow: [`run`] parses nothing itself; it takes [`Options`], finds
//! tests (`discovery`, `config`), runs them (`runner`, `shell`) and prints
//! results (`report`).
#![deny(missing_docs)]

mod boolexpr;
mod config;
mod directives;
mod discovery;
mod report;
mod runner;
mod shell;
mod subst;
mod times;
mod tools;

use clap::Parser;
use regex::Regex;
use report::{Reporter, Verbosity};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;
use tools::ToolPaths;

/// Exit code for usage and configuration errors.
const USAGE_ERROR: i32 = 2;

/// Command-line options.
#[derive(Debug, Parser)]
#[command(name = "kiln-lit", version, about = "An LLVM lit-compatible test runner")]
pub struct Options {
    /// Test files or directories to run.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Number of tests to run in parallel (default: number of cores).
    #[arg(short = 'j', long = "workers")]
    pub workers: Option<usize>,
    /// Run only tests whose full name matches this regex.
    #[arg(long, env = "LIT_FILTER")]
    pub filter: Option<String>,
    /// Skip tests whose full name matches this regex.
    #[arg(long, env = "LIT_FILTER_OUT")]
    pub filter_out: Option<String>,
    /// Print the log of each failing test.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print the log of every test.
    #[arg(short = 'a', long = "show-all")]
    pub show_all: bool,
    /// Print only failures and the summary.
    #[arg(short, long)]
    pub quiet: bool,
    /// Kill a test running longer than this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// The order tests start in: `smart` (as lit: tests never timed first, then the slowest
    /// first, from the suite's `.kiln_lit_test_times`) or `lexical` (discovery order).
    #[arg(long, value_enum, default_value = "smart")]
    pub order: TestOrder,
    /// Directory searched first for tools (default: kiln-lit's own).
    #[arg(long, env = "KILN_BIN_DIR")]
    pub bin_dir: Option<PathBuf>,
    /// `name=value`: use `value` as the command for tool `name`.
    #[arg(short = 'D', long = "param", value_name = "NAME=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, String)>,
}

/// The order tests start in (see [`Options::order`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TestOrder {
    /// Slowest first, by the recorded durations.
    Smart,
    /// Discovery order.
    Lexical,
}

fn parse_param(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .ok_or_else(|| format!("expected NAME=VALUE, found `{text}`"))
}

/// Runs the tests `options` select; returns the exit code: 0 when all
/// passed, 1 when any failed, 2 on usage or configuration errors.
pub fn run(options: Options) -> i32 {
    match run_checked(options) {
        Ok(code) => code,
        Err(message) => {
            // Like all output here, best effort: a closed stream is no panic.
            let _ = writeln!(std::io::stderr(), "kiln-lit: error: {message}");
            USAGE_ERROR
        }
    }
}

fn run_checked(options: Options) -> Result<i32, String> {
    let filter = compile(options.filter.as_deref(), "--filter")?;
    let filter_out = compile(options.filter_out.as_deref(), "--filter-out")?;
    if options.timeout.is_some_and(|t| !(t > 0.0 && t.is_finite())) {
        return Err("`--timeout` must be a positive number of seconds".to_string());
    }
    let bin_dir = options.bin_dir.clone().or_else(|| {
        let exe = std::env::current_exe().ok()?;
        Some(exe.parent()?.to_path_buf())
    });
    let params: BTreeMap<String, String> = options.params.iter().cloned().collect();
    let tools = ToolPaths::new(bin_dir, std::env::var_os("PATH"), params);
    let tests = discovery::discover(&options.paths, &tools).map_err(|e| e.to_string())?;
    if tests.is_empty() {
        return Err("did not discover any tests for the given paths".to_string());
    }
    let discovered = tests.len();
    let tests: Vec<_> = tests
        .into_iter()
        .filter(|t| {
            let name = t.full_name();
            filter.as_ref().is_none_or(|re| re.is_match(&name))
                && filter_out.as_ref().is_none_or(|re| !re.is_match(&name))
        })
        .collect();
    if tests.is_empty() {
        let note = format!("note: filter did not match any of the {discovered} discovered tests");
        let _ = writeln!(std::io::stdout(), "{note}");
        return Ok(0);
    }
    let workers =
        options.workers.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let workers = workers.clamp(1, tests.len());
    let verbosity = if options.show_all {
        Verbosity::All
    } else if options.verbose {
        Verbosity::Verbose
    } else if options.quiet {
        Verbosity::Quiet
    } else {
        Verbosity::Normal
    };
    let progress = std::io::stdout().is_terminal() && verbosity != Verbosity::Quiet;
    let mut reporter = Reporter::new(verbosity, progress, tests.len());
    reporter.start(workers);
    let timeout = options.timeout.map(Duration::from_secs_f64);
    let order = match options.order {
        TestOrder::Smart => times::order(&tests),
        TestOrder::Lexical => (0..tests.len()).collect(),
    };
    let durations = runner::run_all(&tests, &order, workers, timeout, |index, outcome| {
        reporter.report(&tests[index], &outcome);
    });
    times::record(&tests, &durations);
    Ok(reporter.finish())
}

fn compile(pattern: Option<&str>, option: &str) -> Result<Option<Regex>, String> {
    pattern.map(|p| Regex::new(p).map_err(|e| format!("bad regex for `{option}`: {e}"))).transpose()
}
