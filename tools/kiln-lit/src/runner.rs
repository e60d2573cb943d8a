//! Running tests: one test's directives, substitutions and RUN lines
//! (with retries, XFAIL and the deadline), and a pool of worker threads
//! running many tests.

use crate::directives::{self, RunLine};
use crate::discovery::Test;
use crate::shell::Shell;
use crate::subst;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The result of a test, with lit's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
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
    pub const ALL: [Status; 8] = [
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
}

/// Runs `tests` on `workers` threads with a per-test `timeout`, starting them in `order` (test
/// indices), calling `report` with each test's index and outcome as they finish. Returns each
/// test's wall time.
pub fn run_all(
    tests: &[Test],
    order: &[usize],
    workers: usize,
    timeout: Option<Duration>,
    mut report: impl FnMut(usize, Outcome),
) -> Vec<Duration> {
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut durations = vec![Duration::ZERO; tests.len()];
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, tests.len().max(1)) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || {
                while let Some(&index) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let start = Instant::now();
                    let outcome = run_test(&tests[index], timeout);
                    if sender.send((index, outcome, start.elapsed())).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (index, outcome, elapsed) in receiver {
            durations[index] = elapsed;
            report(index, outcome);
        }
    });
    durations
}

/// Runs one test.
pub fn run_test(test: &Test, timeout: Option<Duration>) -> Outcome {
    let (status, output) = evaluate(test, timeout);
    Outcome { status, output }
}

fn evaluate(test: &Test, timeout: Option<Duration>) -> (Status, String) {
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
    if directives.run.is_empty() {
        return (Status::Unresolved, "Test has no 'RUN:' line".to_string());
    }
    let dir = test.path.parent().unwrap_or(&test.suite.root).to_path_buf();
    let tmp_base = dir.join("Output").join(test.path.file_name().unwrap_or_default());
    if let Err(e) = std::fs::create_dir_all(dir.join("Output")) {
        return (Status::Unresolved, format!("cannot create the Output directory: {e}"));
    }
    let mut subs = test.config.substitutions.clone();
    subs.extend(subst::builtins(&test.path, &tmp_base));
    let script: Result<Vec<RunLine>, String> = directives
        .run
        .iter()
        .map(|run| {
            let command = subst::expand(&run.command, &subs, features)?;
            Ok(RunLine { line: run.line, command })
        })
        .collect();
    let script = match script {
        Ok(script) => script,
        Err(e) => return (Status::Unresolved, e),
    };
    let xfail = directives.xfail.iter().any(|c| c.expr.eval(features));
    let mut attempt = 0;
    let (status, log) = loop {
        let (status, log) = run_script(test, &script, timeout);
        if status != Status::Fail || attempt == directives.allow_retries {
            break (status, log);
        }
        attempt += 1;
    };
    let status = match (status, xfail) {
        (Status::Pass, true) => Status::XPass,
        (Status::Fail, true) => Status::XFail,
        (Status::Pass, false) if attempt > 0 => Status::FlakyPass,
        (status, _) => status,
    };
    (status, log)
}

/// Runs the commands, stopping at the first failure, and formats the log
/// like lit's.
fn run_script(test: &Test, script: &[RunLine], timeout: Option<Duration>) -> (Status, String) {
    let dir = test.path.parent().unwrap_or(&test.suite.root).to_path_buf();
    let deadline = timeout.map(|t| Instant::now() + t);
    let mut shell = Shell::new(dir, test.suite.env.clone(), deadline);
    let mut code = 0;
    for run in script {
        shell.log().push_str(&format!("# RUN: at line {}\n{}\n", run.line, run.command));
        code = shell.run(&run.command);
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
