//! Running tests: one test's directives, substitutions and RUN lines
//! (with retries, XFAIL and the deadline), and a pool of worker threads
//! running many tests until lit's limits (`--max-failures`, `--max-time`)
//! stop the run.

use crate::directives::{self, Define};
use crate::discovery::Test;
use crate::shell::Shell;
use crate::subst::{self, Substitution};
use crate::times::Ran;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The result of a test, with lit's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Not run: left out by `--filter`/`--filter-out`.
    Excluded,
    /// Not run: the run stopped first (`--max-failures`, `--max-time`).
    Skipped,
    /// Not run: the configuration or its features rule it out.
    Unsupported,
    /// Ran and passed.
    Pass,
    /// Passed after failing and being retried (`ALLOW_RETRIES:`).
    FlakyPass,
    /// Failed as `XFAIL:` expected.
    XFail,
    /// Could not be run: a malformed test file.
    Unresolved,
    /// Killed at the per-test timeout.
    Timeout,
    /// Ran and failed.
    Fail,
    /// Passed although `XFAIL:` expected a failure.
    XPass,
}

impl Status {
    /// Every status, in the order lit's summary lists them.
    pub const ALL: [Status; 10] = [
        Status::Excluded,
        Status::Skipped,
        Status::Unsupported,
        Status::Pass,
        Status::FlakyPass,
        Status::XFail,
        Status::Unresolved,
        Status::Timeout,
        Status::Fail,
        Status::XPass,
    ];

    /// The tag printed before a test's name, e.g. `PASS`.
    pub fn label(self) -> &'static str {
        match self {
            Status::Excluded => "EXCLUDED",
            Status::Skipped => "SKIPPED",
            Status::Unsupported => "UNSUPPORTED",
            Status::Pass => "PASS",
            Status::FlakyPass => "FLAKYPASS",
            Status::XFail => "XFAIL",
            Status::Unresolved => "UNRESOLVED",
            Status::Timeout => "TIMEOUT",
            Status::Fail => "FAIL",
            Status::XPass => "XPASS",
        }
    }

    /// The name used in the summary, e.g. `Expectedly Failed`.
    pub fn description(self) -> &'static str {
        match self {
            Status::Excluded => "Excluded",
            Status::Skipped => "Skipped",
            Status::Unsupported => "Unsupported",
            Status::Pass => "Passed",
            Status::FlakyPass => "Passed With Retry",
            Status::XFail => "Expectedly Failed",
            Status::Unresolved => "Unresolved",
            Status::Timeout => "Timed Out",
            Status::Fail => "Failed",
            Status::XPass => "Unexpectedly Passed",
        }
    }

    /// Whether this status makes the run fail.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Unresolved | Status::Timeout | Status::Fail | Status::XPass)
    }
}

/// What running a test produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The verdict.
    pub status: Status,
    /// The log: exit code and the shell's account of every command.
    pub output: String,
    /// Runs made and allowed (`ALLOW_RETRIES:` + 1), when it ran more than once.
    pub attempts: Option<(u32, u32)>,
}

/// How a run is carried out: lit's execution options.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Threads running tests.
    pub workers: usize,
    /// Kill a test running longer than this (`--timeout`).
    pub timeout: Option<Duration>,
    /// Start no test after this many failures (`--max-failures`).
    pub max_failures: Option<usize>,
    /// Start no test after this instant, and count those still running
    /// then as skipped (`--max-time`).
    pub deadline: Option<Instant>,
    /// Tests (`path in suite` or full name) always expected to fail
    /// (`--xfail`, `LIT_XFAIL`).
    pub xfail: Vec<String>,
    /// Tests whose `XFAIL:` is ignored (`--xfail-not`, `LIT_XFAIL_NOT`).
    pub xfail_not: Vec<String>,
}

/// Why a run stopped before starting every test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// `--max-failures` was reached.
    MaxFailures,
    /// `--max-time` was reached.
    MaxTime,
}

/// Runs `tests` as `options` say, starting them in `order` (test indices), calling `report` with
/// each test's index and outcome as they finish (tests never run are not reported). Returns each
/// test's wall time (`None` for tests not run) and why the run stopped early, if it did.
pub fn run_all(
    tests: &[Test],
    order: &[usize],
    options: &RunOptions,
    mut report: impl FnMut(usize, Outcome),
) -> (Vec<Option<Ran>>, Option<Stop>) {
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let mut durations = vec![None; tests.len()];
    let mut failures = 0;
    let mut stop = None;
    let past_deadline = || options.deadline.is_some_and(|d| Instant::now() >= d);
    std::thread::scope(|scope| {
        for _ in 0..options.workers.clamp(1, tests.len().max(1)) {
            let sender = sender.clone();
            let (next, stopped) = (&next, &stopped);
            scope.spawn(move || {
                while !stopped.load(Ordering::Relaxed) && !past_deadline() {
                    let Some(&index) = order.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let start = Instant::now();
                    let outcome = run_test(&tests[index], options);
                    if sender.send((index, outcome, start.elapsed())).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (index, outcome, elapsed) in receiver {
            if stop.is_some() || past_deadline() {
                stop.get_or_insert(Stop::MaxTime);
                continue;
            }
            durations[index] = Some((elapsed, outcome.status.is_failure()));
            failures += usize::from(outcome.status.is_failure());
            report(index, outcome);
            if options.max_failures.is_some_and(|max| failures >= max) {
                stopped.store(true, Ordering::Relaxed);
                stop = Some(Stop::MaxFailures);
            }
        }
    });
    if stop.is_none() && durations.iter().any(Option::is_none) {
        stop = Some(Stop::MaxTime);
    }
    (durations, stop)
}

/// Runs one test.
pub fn run_test(test: &Test, options: &RunOptions) -> Outcome {
    let mut attempts = None;
    let (status, output) = evaluate(test, options, &mut attempts);
    Outcome { status, output, attempts }
}

fn evaluate(test: &Test, options: &RunOptions, attempts: &mut Option<(u32, u32)>) -> (Status, String) {
    let timeout = options.timeout;
    if test.config.unsupported {
        return (Status::Unsupported, "Test is unsupported".to_string());
    }
    let text = match std::fs::read(&test.path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => return (Status::Unresolved, format!("cannot read test: {e}")),
    };
    let directives = match directives::parse(&text) {
        Ok(d) => d,
        Err(e) => return (Status::Unresolved, e),
    };
    let features = &test.suite.features;
    let missing: Vec<&str> =
        directives.requires.iter().filter(|c| !c.expr.eval(features)).map(|c| c.text.as_str()).collect();
    if !missing.is_empty() {
        let list = missing.join(", ");
        return (Status::Unsupported, format!("Test requires the following unavailable features: {list}"));
    }
    let excluded: Vec<&str> =
        directives.unsupported.iter().filter(|c| c.expr.eval(features)).map(|c| c.text.as_str()).collect();
    if !excluded.is_empty() {
        let list = excluded.join(", ");
        return (
            Status::Unsupported,
            format!("Test does not support the following features and/or targets: {list}"),
        );
    }
    let preamble = &test.suite.preamble_commands;
    if directives.run.is_empty() && preamble.is_empty() {
        return (Status::Unresolved, "Test has no 'RUN:' line".to_string());
    }
    let dir = test.path.parent().unwrap_or(&test.suite.root).to_path_buf();
    let tmp_base = dir.join("Output").join(test.path.file_name().unwrap_or_default());
    if let Err(e) = std::fs::create_dir_all(dir.join("Output")) {
        return (Status::Unresolved, format!("cannot create the Output directory: {e}"));
    }
    let mut subs = test.config.substitutions.clone();
    subs.extend(subst::builtins(&test.path, &tmp_base));
    let mut defines = directives.defines.iter().peekable();
    let limit = test.suite.recursive_expansion_limit;
    let mut script = Vec::new();
    for command in preamble {
        match subst::expand(command, &subs, features, limit) {
            Ok(command) => script.push(ScriptLine { label: "preamble command line".to_string(), command }),
            Err(e) => return (Status::Unresolved, e),
        }
    }
    for (index, run) in directives.run.iter().enumerate() {
        while let Some(define) = defines.next_if(|d| d.before_run <= index) {
            if let Err(e) = apply_define(&mut subs, define) {
                return (Status::Unresolved, e);
            }
        }
        match subst::expand(&run.command, &subs, features, limit) {
            Ok(command) => script.push(ScriptLine { label: format!("RUN: at line {}", run.line), command }),
            Err(e) => return (Status::Unresolved, e),
        }
    }
    let listed = |list: &[String]| list.iter().any(|t| *t == test.name || *t == test.full_name());
    let xfail = !listed(&options.xfail_not)
        && (listed(&options.xfail) || directives.xfail.iter().any(|c| c.expr.eval(features)));
    let mut attempt = 0;
    let (status, log) = loop {
        let (status, log) = run_script(test, &script, timeout, options.deadline);
        if status != Status::Fail || attempt == directives.allow_retries {
            break (status, log);
        }
        attempt += 1;
    };
    if attempt > 0 {
        *attempts = Some((attempt + 1, directives.allow_retries + 1));
    }
    let status = match (status, xfail) {
        (Status::Pass, true) => Status::XPass,
        (Status::Fail, true) => Status::XFail,
        (Status::Pass, false) if attempt > 0 => Status::FlakyPass,
        (status, _) => status,
    };
    (status, log)
}

/// Applies a `DEFINE:` (a new substitution ahead of the others) or a
/// `REDEFINE:` (a new value for the one substitution with that key), with
/// lit's checks and messages.
fn apply_define(subs: &mut Vec<Substitution>, define: &Define) -> Result<(), String> {
    let name = &define.name;
    let existing: Vec<usize> = (0..subs.len()).filter(|&i| subs[i].key().contains(name.as_str())).collect();
    let listed: String = existing.iter().map(|&i| format!("\nExisting pattern: {}", subs[i].key())).collect();
    let place =
        format!("'{}:' directive {}", if define.redefine { "REDEFINE" } else { "DEFINE" }, define.location());
    match (define.redefine, &existing[..]) {
        (false, []) => subs.insert(0, Substitution::literal(name, &define.value)),
        (false, _) => {
            return Err(format!(
                "Substitution whose pattern contains '{name}' is already defined before {place}{listed}"
            ))
        }
        (true, []) => return Err(format!("No substitution for '{name}' is defined before {place}")),
        (true, [i]) if subs[*i].key() == name => subs[*i].set_value(&define.value),
        (true, [_]) => {
            return Err(format!(
            "Existing substitution whose pattern contains '{name}' does not have the pattern specified by \
                 {place}\nExpected pattern: {name}{listed}"
        ))
        }
        (true, _) => {
            return Err(format!(
                "Multiple substitutions whose patterns contain '{name}' are defined before {place}{listed}"
            ))
        }
    }
    Ok(())
}

/// A command of a test's script, after substitution, and how lit's log
/// names it (`RUN: at line N`, `preamble command line`).
struct ScriptLine {
    label: String,
    command: String,
}

/// Runs the commands, stopping at the first failure, and formats the log
/// like lit's.
fn run_script(
    test: &Test,
    script: &[ScriptLine],
    timeout: Option<Duration>,
    run_deadline: Option<Instant>,
) -> (Status, String) {
    let dir = test.path.parent().unwrap_or(&test.suite.root).to_path_buf();
    let deadline = timeout.map(|t| Instant::now() + t).into_iter().chain(run_deadline).min();
    let mut shell = Shell::new(dir, test.suite.env.clone(), deadline);
    let mut code = 0;
    for run in script {
        if run.command.is_empty() {
            shell.log().push_str(&format!("# {} has no command after substitutions\n", run.label));
            continue;
        }
        shell.log().push_str(&format!("# {}\n{}\n", run.label, run.command));
        match shell.run(&run.command) {
            Ok(status) => code = status,
            Err(_) => {
                let log = format!("# shell parser error on {}: {}\n", run.label, run.command);
                let output = format!("Exit Code: 1\n\nCommand Output (stdout):\n--\n{log}\n--\n");
                return (Status::Unresolved, output);
            }
        }
        if code != 0 || shell.timed_out() {
            break;
        }
    }
    let timed_out = shell.timed_out();
    let mut output = format!("Exit Code: {code}\n");
    if let (true, Some(t)) = (timed_out, timeout) {
        output.push_str(&format!("Timeout: Reached timeout of {} seconds\n", t.as_secs_f64()));
    }
    output.push_str(&format!("\nCommand Output (stdout):\n--\n{}\n--\n", shell.into_log()));
    let status = match (timed_out, code) {
        (true, _) => Status::Timeout,
        (false, 0) => Status::Pass,
        _ => Status::Fail,
    };
    (status, output)
}
