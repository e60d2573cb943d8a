//! `kiln-lit`: an LLVM lit-compatible test runner.
//!
//! A test tree is described by `kiln-lit.toml` at its root (name, test
//! suffixes, substitutions, feature probes) and `kiln-lit.local.toml`
//! overrides below it. Tests hold lit directives (`RUN:`, `DEFINE:`,
//! `REDEFINE:`, `XFAIL:`, `REQUIRES:`, `UNSUPPORTED:`, `ALLOW_RETRIES:`,
//! `END.`); RUN lines run in
//! a small built-in shell modelled on lit's internal one, on a pool of
//! threads. Output and exit codes follow lit's. `tools/kiln-lit/README.md`
//! shows a minimal `kiln-lit.toml` for a suite of one's own and lists every
//! key.
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
use runner::{RunOptions, Status, Stop};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tools::ToolPaths;

/// Exit code for usage and configuration errors.
const USAGE_ERROR: i32 = 2;

/// Command-line options, lit's. As with lit's argparse, a later option
/// overrides an earlier one, and `LIT_OPTS` adds options after the
/// command line's (see [`command_line`]).
#[derive(Debug, Parser)]
#[command(
    name = "kiln-lit",
    version,
    about = "An LLVM lit-compatible test runner",
    args_override_self = true
)]
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
    /// Do not fail the run if all tests are filtered out.
    #[arg(long)]
    pub allow_empty_runs: bool,
    /// Print the log of each failing test.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print the log of every test.
    #[arg(short = 'a', long = "show-all")]
    pub show_all: bool,
    /// Print only failures and the failure counts.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print a line only for failing tests (and the whole summary).
    #[arg(short, long)]
    pub succinct: bool,
    /// List excluded tests (EXCLUDED) at the end.
    #[arg(long)]
    pub show_excluded: bool,
    /// List skipped tests (SKIPPED) at the end.
    #[arg(long)]
    pub show_skipped: bool,
    /// List unsupported tests (UNSUPPORTED) at the end.
    #[arg(long)]
    pub show_unsupported: bool,
    /// List passed tests (PASS) at the end.
    #[arg(long)]
    pub show_pass: bool,
    /// List tests passed with retry (FLAKYPASS) at the end.
    #[arg(long)]
    pub show_flakypass: bool,
    /// List expectedly failed tests (XFAIL) at the end.
    #[arg(long)]
    pub show_xfail: bool,
    /// List unexpectedly passed tests (XPASS) at the end.
    #[arg(long)]
    pub show_xpass: bool,
    /// Kill a test running longer than this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Stop starting tests after this many failures.
    #[arg(long, value_name = "N", value_parser = positive)]
    pub max_failures: Option<usize>,
    /// Stop testing after this many seconds; tests not finished are skipped.
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// Exit with status zero even if some tests fail.
    #[arg(long)]
    pub ignore_fail: bool,
    /// `;`-separated tests (paths in their suite or full names) to XFAIL.
    #[arg(long, value_name = "LIST", env = "LIT_XFAIL", default_value = "")]
    pub xfail: String,
    /// `;`-separated tests whose XFAIL is ignored (wins over `--xfail`).
    #[arg(long, value_name = "LIST", env = "LIT_XFAIL_NOT", default_value = "")]
    pub xfail_not: String,
    /// The order tests start in: `smart` (as lit: previously failed tests first, then the
    /// slowest first, from the suite's `.lit_test_times.txt`) or `lexical` (discovery order).
    #[arg(long, value_enum, default_value = "smart")]
    pub order: TestOrder,
    /// Only run the tests that failed in the previous run (as recorded in
    /// `.lit_test_times.txt`).
    #[arg(long)]
    pub filter_failed: bool,
    /// Directory searched first for tools (default: kiln-lit's own).
    #[arg(long, env = "KILN_BIN_DIR")]
    pub bin_dir: Option<PathBuf>,
    /// `NAME=VALUE` (or `NAME`, for an empty value): a user parameter, as lit's
    /// `lit_config.params`, read by `param` entries of `kiln-lit.toml`.
    #[arg(short = 'D', long = "param", value_name = "NAME=VALUE", value_parser = parse_param, action = clap::ArgAction::Append)]
    pub params: Vec<(String, String)>,
}

/// The order tests start in (see [`Options::order`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TestOrder {
    /// Previously failed first, then slowest first, by the recorded times.
    Smart,
    /// Discovery order.
    Lexical,
}

fn parse_param(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').unwrap_or((text, ""));
    Ok((name.to_string(), value.to_string()))
}

fn positive(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("requires positive integer, but found '{text}'")),
    }
}

/// The arguments to parse: the process's, then those of `LIT_OPTS` (split
/// as a shell would), as lit reads them.
pub fn command_line() -> Result<Vec<String>, String> {
    let mut args: Vec<String> = std::env::args().collect();
    if let Ok(opts) = std::env::var("LIT_OPTS") {
        for token in shell::lex(&opts).map_err(|e| format!("LIT_OPTS: {e}"))? {
            match token {
                shell::Token::Word(word) => args.push(word.text),
                other => return Err(format!("LIT_OPTS: unexpected {other:?}")),
            }
        }
    }
    Ok(args)
}

/// Runs the tests `options` select; returns the exit code: 0 when all
/// passed (or `--ignore-fail`), 1 when any failed, 2 on usage or
/// configuration errors.
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

fn seconds(value: Option<f64>, option: &str) -> Result<Option<Duration>, String> {
    match value {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            Err(format!("`{option}` must be a positive number of seconds"))
        }
        t => Ok(t.map(Duration::from_secs_f64)),
    }
}

fn run_checked(options: Options) -> Result<i32, String> {
    let filter = compile(options.filter.as_deref(), "--filter")?;
    let filter_out = compile(options.filter_out.as_deref(), "--filter-out")?;
    let timeout = seconds(options.timeout, "--timeout")?;
    let max_time = seconds(options.max_time, "--max-time")?;
    let bin_dir = match &options.bin_dir {
        Some(dir) => Some(std::path::absolute(dir).map_err(|e| format!("--bin-dir {}: {e}", dir.display()))?),
        None => None,
    };
    let bin_dir = bin_dir.or_else(|| {
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
    let previous = times::previous(&tests);
    let (selected, excluded): (Vec<_>, Vec<_>) = tests.into_iter().zip(previous).partition(|(t, time)| {
        let name = t.full_name();
        filter.as_ref().is_none_or(|re| re.is_match(&name))
            && filter_out.as_ref().is_none_or(|re| !re.is_match(&name))
            && (!options.filter_failed || times::failed(*time))
    });
    let (tests, previous): (Vec<_>, Vec<_>) = selected.into_iter().unzip();
    let excluded: Vec<_> = excluded.into_iter().map(|(t, _)| t).collect();
    if tests.is_empty() {
        if options.allow_empty_runs {
            return Ok(0);
        }
        return Err(format!(
            "filter did not match any tests (of {discovered} discovered).  Use '--allow-empty-runs' to suppress this error."
        ));
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
    } else if options.succinct {
        Verbosity::Succinct
    } else {
        Verbosity::Normal
    };
    let shown = [
        (options.show_excluded, Status::Excluded),
        (options.show_skipped, Status::Skipped),
        (options.show_unsupported, Status::Unsupported),
        (options.show_pass, Status::Pass),
        (options.show_flakypass, Status::FlakyPass),
        (options.show_xfail, Status::XFail),
        (options.show_xpass, Status::XPass),
    ]
    .into_iter()
    .filter_map(|(on, status)| on.then_some(status))
    .collect();
    let progress = std::io::stdout().is_terminal() && verbosity != Verbosity::Quiet;
    let mut reporter = Reporter::new(verbosity, shown, progress, tests.len());
    reporter.start(discovered, workers);
    let list = |text: &str| text.split(';').filter(|t| !t.is_empty()).map(str::to_string).collect();
    let run_options = RunOptions {
        workers,
        timeout,
        max_failures: options.max_failures,
        deadline: max_time.map(|t| Instant::now() + t),
        xfail: list(&options.xfail),
        xfail_not: list(&options.xfail_not),
    };
    let order = match options.order {
        TestOrder::Smart => times::order(&tests, &previous),
        TestOrder::Lexical => (0..tests.len()).collect(),
    };
    let (durations, stop) = runner::run_all(&tests, &order, &run_options, |index, outcome| {
        reporter.report(&tests[index], &outcome);
    });
    times::record(&tests, &durations);
    match stop {
        Some(Stop::MaxFailures) => {
            reporter.warn("reached maximum number of test failures, skipping remaining tests")
        }
        Some(Stop::MaxTime) => reporter.warn("reached timeout, skipping remaining tests"),
        None => {}
    }
    let unrun =
        tests.iter().zip(&durations).filter(|(_, d)| d.is_none()).map(|(t, _)| t.full_name()).collect();
    let excluded = excluded.iter().map(discovery::Test::full_name).collect();
    let failed = reporter.finish(discovered, excluded, unrun);
    Ok(i32::from(failed && !options.ignore_fail))
}

fn compile(pattern: Option<&str>, option: &str) -> Result<Option<Regex>, String> {
    pattern.map(|p| Regex::new(p).map_err(|e| format!("bad regex for `{option}`: {e}"))).transpose()
}
