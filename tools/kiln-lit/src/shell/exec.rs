//! Running parsed command lines the way lit's internal shell does.
//!
//! Pipelines run their stages concurrently, processes and builtins alike,
//! connected by OS pipes; each stage's stderr and the last stage's stdout
//! are collected for the log. A pipeline fails when any stage fails
//! (pipefail). `not`, `not --crash` and `env` wrap a command; `cd` and
//! `export` change the shell itself. Every executed command is logged as
//! lit logs it: the command, its output in boxes, and its exit status.

use super::builtins::{self, os_message, Builtin, Io};
use super::glob;
use super::lexer::Word;
use super::parser::{parse, Command, Redirect, Script, SeqOp, Target, UNSUPPORTED_REDIRECT};
use crate::tools::which;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{PipeReader, PipeWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// Exit code of a command that could not be run at all.
const NOT_RUN: i32 = 127;

/// The state of one test's shell: working directory, environment, the
/// deadline, and the log of what ran.
pub struct Shell {
    cwd: PathBuf,
    env: BTreeMap<String, String>,
    deadline: Option<Instant>,
    timed_out: bool,
    log: String,
}

/// How one command ended, before `not` is applied.
#[derive(Debug, Clone, Copy)]
enum Status {
    Exited(i32),
    /// Killed by this signal.
    Crashed(i32),
}

/// Commands lit runs inside its own process: they cannot be part of a
/// pipeline, nor run by `env`. `echo` joins them when it is not part of a
/// pipeline (`env` cannot run it then either).
const IN_PROCESS: &[&str] = &["cd", "export", "mkdir", "rm", ":"];

/// What a stage runs.
enum Program {
    Builtin(Builtin),
    /// `env` without a command: prints the environment.
    PrintEnv,
    External(PathBuf),
    Cd,
    Export,
}

/// One command of a pipeline, ready to run.
struct Stage<'c> {
    command: &'c Command,
    /// `not` wrappers, outermost first; `true` for `not --crash`.
    nots: Vec<bool>,
    env: BTreeMap<String, String>,
    args: Vec<String>,
    program: Program,
}

/// A stage's standard streams before it starts.
struct Fds {
    stdin: Input,
    stdout: Output,
    stderr: Output,
}

enum Input {
    Empty,
    File(File),
    Pipe(PipeReader),
}

enum Output {
    File(File),
    Pipe(PipeWriter),
}

/// A started stage.
enum Running<'s> {
    Child(Child),
    Thread(ScopedJoinHandle<'s, i32>),
    Failed(String),
}

/// What is logged about a finished stage.
struct Finished {
    code: i32,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

impl Shell {
    /// A shell in `cwd` with environment `env`; commands still running at
    /// `deadline` are killed.
    pub fn new(cwd: PathBuf, env: BTreeMap<String, String>, deadline: Option<Instant>) -> Self {
        Shell { cwd, env, deadline, timed_out: false, log: String::new() }
    }

    /// Whether a command was killed at the deadline.
    pub fn timed_out(&self) -> bool {
        self.timed_out
    }

    /// The log so far, for callers to add their own notes.
    pub fn log(&mut self) -> &mut String {
        &mut self.log
    }

    /// The log of everything run.
    pub fn into_log(self) -> String {
        self.log
    }

    /// Parses and runs one command line; returns its exit code, or the
    /// parser's message for a line that is not valid shell.
    pub fn run(&mut self, line: &str) -> Result<i32, String> {
        match parse(line) {
            Ok(script) => Ok(self.run_script(&script)),
            Err(e) if e.starts_with(UNSUPPORTED_REDIRECT) => {
                self.log.push_str(&format!("# error: {e}\n"));
                Ok(NOT_RUN)
            }
            Err(e) => Err(e),
        }
    }

    fn run_script(&mut self, script: &Script) -> i32 {
        match script {
            Script::Pipeline(commands) => self.run_pipeline(commands),
            Script::Seq(lhs, op, rhs) => {
                let code = self.run_script(lhs);
                match op {
                    _ if self.timed_out => code,
                    SeqOp::And if code != 0 => code,
                    SeqOp::Or if code == 0 => 0,
                    _ => self.run_script(rhs),
                }
            }
        }
    }

    fn run_pipeline(&mut self, commands: &[Command]) -> i32 {
        let stages: Result<Vec<Stage>, (usize, String)> = commands
            .iter()
            .enumerate()
            .map(|(k, c)| self.prepare(c, commands.len() == 1).map_err(|e| (k, e)))
            .collect();
        let stages = match stages {
            Ok(stages) => stages,
            Err((k, message)) => {
                let failed = Finished {
                    code: NOT_RUN,
                    stdout: Vec::new(),
                    stderr: format!("{message}\n").into_bytes(),
                };
                self.log_command(&commands[k], &failed);
                return NOT_RUN;
            }
        };
        if let [stage] = &stages[..] {
            if matches!(stage.program, Program::Cd | Program::Export) {
                let finished = self.run_state_builtin(stage);
                self.log_command(stage.command, &finished);
                return finished.code;
            }
        }
        let in_process = |s: &&Stage| IN_PROCESS.contains(&s.args[0].as_str());
        if let Some(stage) = stages.iter().find(in_process).filter(|_| stages.len() > 1) {
            let message = format!("Unsupported: '{}' cannot be part of a pipeline\n", stage.args[0]);
            let failed = Finished { code: NOT_RUN, stdout: Vec::new(), stderr: message.into_bytes() };
            self.log_command(stage.command, &failed);
            return NOT_RUN;
        }
        let finished = std::thread::scope(|scope| self.run_stages(scope, &stages));
        let mut code = 0;
        for (stage, finished) in stages.iter().zip(&finished) {
            self.log_command(stage.command, finished);
            if finished.code != 0 {
                code = finished.code;
            }
        }
        code
    }

    /// Peels `not` and `env` off `command` and finds what it runs; `alone`
    /// when it is not part of a pipeline (lit then runs `echo` in process).
    fn prepare<'c>(&self, command: &'c Command, alone: bool) -> Result<Stage<'c>, String> {
        let mut args: Vec<String> = Vec::new();
        for word in &command.args {
            args.extend(expand_word(word, &self.cwd));
        }
        let mut env = self.env.clone();
        let mut nots = Vec::new();
        let mut env_used = false;
        let mut last_was_env = false;
        loop {
            match args.first().map(String::as_str) {
                Some("not" | "!") => {
                    args.remove(0);
                    let crash = args.first().is_some_and(|a| a == "--crash");
                    if crash {
                        args.remove(0);
                    }
                    nots.push(crash);
                    last_was_env = false;
                }
                Some("env") => {
                    args.remove(0);
                    apply_env_args(&mut args, &mut env);
                    env_used = true;
                    last_was_env = true;
                }
                _ => break,
            }
        }
        if args.is_empty() && last_was_env {
            args.push("env".to_string());
            return Ok(Stage { command, nots, env, args, program: Program::PrintEnv });
        }
        let Some(name) = args.first() else {
            return Err(format!("Error: '{}' requires a subcommand", command.args[0].text));
        };
        let program = match name.as_str() {
            "cd" => Program::Cd,
            "export" => Program::Export,
            _ => match builtins::lookup(name) {
                Some(builtin) => Program::Builtin(builtin),
                None => Program::External(self.find_program(name, &env)?),
            },
        };
        if env_used && (IN_PROCESS.contains(&name.as_str()) || alone && name == "echo") {
            return Err(format!("Error: 'env' cannot call '{name}'"));
        }
        if !matches!(program, Program::External(_)) && nots.iter().any(|&crash| crash) {
            return Err(format!("Error: 'not --crash' cannot call '{name}'"));
        }
        Ok(Stage { command, nots, env, args, program })
    }

    fn find_program(&self, name: &str, env: &BTreeMap<String, String>) -> Result<PathBuf, String> {
        let found = if name.contains('/') {
            which(&self.cwd.join(name).to_string_lossy(), [])
        } else {
            let path = env.get("PATH").map(String::as_str).unwrap_or("");
            let dirs: Vec<PathBuf> = std::env::split_paths(path).collect();
            which(name, dirs.iter().map(PathBuf::as_path))
        };
        found.ok_or_else(|| format!("'{name}': command not found"))
    }

    fn run_state_builtin(&mut self, stage: &Stage) -> Finished {
        let result = |code: i32, message: String| Finished {
            code: apply_nots(&stage.nots, Status::Exited(code)),
            stdout: Vec::new(),
            stderr: message.into_bytes(),
        };
        match (&stage.program, &stage.args[1..]) {
            (Program::Cd, [dir]) => {
                let target = self.cwd.join(dir);
                if target.is_dir() {
                    self.cwd = target;
                    result(0, String::new())
                } else {
                    result(1, format!("cd: {dir}: No such file or directory\n"))
                }
            }
            (Program::Cd, _) => result(1, "'cd' supports only one argument\n".to_string()),
            (_, assignments) => {
                for assignment in assignments {
                    if let Some((name, value)) = assignment.split_once('=') {
                        self.env.insert(name.to_string(), value.to_string());
                    }
                }
                result(0, String::new())
            }
        }
    }

    /// Starts every stage, then collects their output and exit codes.
    fn run_stages<'s>(&mut self, scope: &'s Scope<'s, '_>, stages: &'s [Stage]) -> Vec<Finished> {
        let mut stdin = Input::Empty;
        let mut running = Vec::new();
        let mut collectors = Vec::new();
        for (k, stage) in stages.iter().enumerate() {
            let (next_stdin, stdout) = pipe();
            let (err_reader, stderr) = pipe();
            let last = k + 1 == stages.len();
            let mut fds =
                Fds { stdin: std::mem::replace(&mut stdin, Input::Pipe(next_stdin)), stdout, stderr };
            let started = match self.redirect(&mut fds, &stage.command.redirects) {
                Ok(()) => self.start(scope, stage, fds),
                Err(message) => Running::Failed(message),
            };
            running.push(started);
            collectors.push(scope.spawn(move || read_all(err_reader)));
            if last {
                let Input::Pipe(out_reader) = std::mem::replace(&mut stdin, Input::Empty) else {
                    unreachable!("the last stage's stdout is a pipe")
                };
                collectors.push(scope.spawn(move || read_all(out_reader)));
            }
        }
        let mut statuses = Vec::new();
        for k in 0..running.len() {
            let status = match &mut running[k] {
                Running::Child(child) => {
                    let status = self.wait(child);
                    if status.is_none() {
                        for other in &mut running[k + 1..] {
                            if let Running::Child(child) = other {
                                // It may have exited already; either way it is done.
                                let _ = child.kill();
                            }
                        }
                    }
                    status.map(status_of).unwrap_or(Status::Exited(1))
                }
                Running::Thread(_) | Running::Failed(_) => Status::Exited(0),
            };
            statuses.push(status);
        }
        let mut outputs: Vec<Vec<u8>> =
            collectors.into_iter().map(|c| c.join().unwrap_or_default()).collect();
        let stdout = outputs.pop().unwrap_or_default();
        let mut finished: Vec<Finished> = running
            .into_iter()
            .zip(statuses)
            .zip(outputs)
            .zip(stages)
            .map(|(((run, status), mut stderr), stage)| {
                let status = match run {
                    Running::Thread(handle) => Status::Exited(handle.join().unwrap_or(1)),
                    Running::Failed(message) => {
                        stderr.extend_from_slice(message.as_bytes());
                        stderr.push(b'\n');
                        Status::Exited(NOT_RUN)
                    }
                    Running::Child(_) => status,
                };
                Finished { code: apply_nots(&stage.nots, status), stdout: Vec::new(), stderr }
            })
            .collect();
        if let Some(last) = finished.last_mut() {
            last.stdout = stdout;
        }
        finished
    }

    /// Applies `redirects` in order to `fds`.
    fn redirect(&self, fds: &mut Fds, redirects: &[Redirect]) -> Result<(), String> {
        for redirect in redirects {
            let open = |word: &Word, options: &mut OpenOptions| {
                let path = self.cwd.join(&word.text);
                options
                    .open(&path)
                    .map_err(|e| format!("Error: cannot open '{}': {}", word.text, os_message(&e)))
            };
            let output = match &redirect.target {
                Target::Read(word) if redirect.fd == 0 => {
                    fds.stdin = Input::File(open(word, OpenOptions::new().read(true))?);
                    continue;
                }
                Target::Write(word) if redirect.fd != 0 => {
                    Output::File(open(word, OpenOptions::new().write(true).create(true).truncate(true))?)
                }
                Target::Append(word) if redirect.fd != 0 => {
                    Output::File(open(word, OpenOptions::new().append(true).create(true))?)
                }
                Target::Fd(1) if redirect.fd == 2 => fds.stdout.try_clone()?,
                Target::Fd(2) if redirect.fd == 1 => fds.stderr.try_clone()?,
                Target::Fd(fd) if *fd == redirect.fd => continue,
                _ => return Err(format!("Unsupported redirect: {redirect:?}")),
            };
            if redirect.fd == 1 {
                fds.stdout = output;
            } else {
                fds.stderr = output;
            }
        }
        Ok(())
    }

    fn start<'s>(&self, scope: &'s Scope<'s, '_>, stage: &'s Stage, fds: Fds) -> Running<'s> {
        match &stage.program {
            Program::Builtin(builtin) => {
                let cwd = self.cwd.clone();
                let builtin = *builtin;
                Running::Thread(scope.spawn(move || {
                    let mut io = Io {
                        stdin: fds.stdin.into_read(),
                        stdout: fds.stdout.into_write(),
                        stderr: fds.stderr.into_write(),
                    };
                    let code = builtin(&stage.args[1..], &cwd, &mut io);
                    // A closed stdout is the reader's business, as for processes.
                    let _ = io.stdout.flush();
                    code
                }))
            }
            Program::External(path) => std::process::Command::new(path)
                .args(&stage.args[1..])
                .env_clear()
                .envs(&stage.env)
                .current_dir(&self.cwd)
                .stdin(fds.stdin.into_stdio())
                .stdout(fds.stdout.into_stdio())
                .stderr(fds.stderr.into_stdio())
                .spawn()
                .map(Running::Child)
                .unwrap_or_else(|e| Running::Failed(format!("'{}': {}", stage.args[0], os_message(&e)))),
            Program::PrintEnv => {
                let text: String =
                    stage.env.iter().map(|(name, value)| format!("{name}={value}\n")).collect();
                Running::Thread(scope.spawn(move || {
                    let mut stdout = fds.stdout.into_write();
                    // A closed stdout is the reader's business, as for processes.
                    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
                    0
                }))
            }
            Program::Cd | Program::Export => unreachable!("state builtins run alone"),
        }
    }

    /// Waits for `child`; `None` (and the child killed) at the deadline.
    fn wait(&mut self, child: &mut Child) -> Option<ExitStatus> {
        let Some(deadline) = self.deadline else {
            return child.wait().ok();
        };
        let mut pause = Duration::from_micros(50);
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(5));
                }
                _ => {
                    // Killing fails only if it already exited.
                    let _ = child.kill();
                    let _ = child.wait();
                    self.timed_out = true;
                    return None;
                }
            }
        }
    }

    fn log_command(&mut self, command: &Command, finished: &Finished) {
        let words: Vec<String> = command.args.iter().map(|w| quote(&w.text)).collect();
        self.log.push_str(&format!("# executed command: {}\n", words.join(" ")));
        for (name, data) in [("stdout", &finished.stdout), ("stderr", &finished.stderr)] {
            if data.is_empty() {
                continue;
            }
            self.log.push_str(&format!("# .---command {name}------------\n"));
            for line in String::from_utf8_lossy(data).lines() {
                self.log.push_str(&format!("# | {line}\n"));
            }
            self.log.push_str("# `-----------------------------\n");
        }
        if finished.code != 0 {
            self.log.push_str(&format!("# error: command failed with exit status: {}\n", finished.code));
        }
    }
}

impl Input {
    fn into_stdio(self) -> Stdio {
        match self {
            Input::Empty => Stdio::null(),
            Input::File(f) => f.into(),
            Input::Pipe(p) => p.into(),
        }
    }

    fn into_read(self) -> Box<dyn Read + Send> {
        match self {
            Input::Empty => Box::new(std::io::empty()),
            Input::File(f) => Box::new(f),
            Input::Pipe(p) => Box::new(p),
        }
    }
}

impl Output {
    fn try_clone(&self) -> Result<Output, String> {
        let cloned = match self {
            Output::File(f) => f.try_clone().map(Output::File),
            Output::Pipe(p) => p.try_clone().map(Output::Pipe),
        };
        cloned.map_err(|e| format!("Error: cannot duplicate a descriptor: {e}"))
    }

    fn into_stdio(self) -> Stdio {
        match self {
            Output::File(f) => f.into(),
            Output::Pipe(p) => p.into(),
        }
    }

    fn into_write(self) -> Box<dyn Write + Send> {
        match self {
            Output::File(f) => Box::new(f),
            Output::Pipe(p) => Box::new(std::io::BufWriter::new(p)),
        }
    }
}

/// A new OS pipe. Running out of descriptors is not something a test run
/// can recover from, so failure here is fatal.
fn pipe() -> (PipeReader, Output) {
    let (reader, writer) = std::io::pipe().expect("cannot create a pipe");
    (reader, Output::Pipe(writer))
}

fn read_all(mut reader: PipeReader) -> Vec<u8> {
    let mut data = Vec::new();
    // A read error ends the output; what was read is still logged.
    let _ = reader.read_to_end(&mut data);
    data
}

fn expand_word(word: &Word, cwd: &Path) -> Vec<String> {
    if word.glob {
        glob::expand(&word.text, cwd)
    } else {
        vec![word.text.clone()]
    }
}

/// Applies `env`'s options (`-u NAME`, `-i`) and `NAME=value` arguments,
/// removing them from `args`, as lit's `updateEnv` does (a `-u` without a
/// name unsets nothing).
fn apply_env_args(args: &mut Vec<String>, env: &mut BTreeMap<String, String>) {
    let mut unset_next = false;
    let mut used = args.len();
    for (i, arg) in args.iter().enumerate() {
        if arg == "-u" {
            unset_next = true;
        } else if arg == "-i" {
            env.clear();
        } else if unset_next {
            unset_next = false;
            env.remove(arg);
        } else if let Some((name, value)) = arg.split_once('=') {
            env.insert(name.to_string(), value.to_string());
        } else {
            used = i;
            break;
        }
    }
    args.drain(..used);
}

fn status_of(status: ExitStatus) -> Status {
    use std::os::unix::process::ExitStatusExt;
    match status.code() {
        Some(code) => Status::Exited(code),
        None => Status::Crashed(status.signal().unwrap_or(0)),
    }
}

/// The exit code after `not` wrappers (outermost first), like LLVM's `not`:
/// `not` succeeds when the command exits non-zero without crashing;
/// `not --crash` succeeds only when it crashes.
fn apply_nots(nots: &[bool], status: Status) -> i32 {
    let mut status = status;
    for &crash in nots.iter().rev() {
        let ok = match status {
            Status::Crashed(_) => crash,
            Status::Exited(code) => !crash && code != 0,
        };
        status = Status::Exited(i32::from(!ok));
    }
    match status {
        Status::Exited(code) => code,
        // As lit (Python's subprocess) reports it: minus the signal.
        Status::Crashed(signal) => -signal,
    }
}

/// `text` quoted for the log when it would not read back as one word.
fn quote(text: &str) -> String {
    if !text.is_empty() && !text.contains(|c: char| c.is_whitespace() || "'\"|&;<>\\".contains(c)) {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell() -> Shell {
        let env = BTreeMap::from([("PATH".to_string(), "/usr/bin:/bin".to_string())]);
        Shell::new(std::env::temp_dir(), env, None)
    }

    #[test]
    fn not_inverts_and_pipefail_fails() {
        let mut sh = shell();
        assert_eq!(sh.run("not false").unwrap(), 0);
        assert_eq!(sh.run("not not false").unwrap(), 1);
        assert_eq!(sh.run("not true").unwrap(), 1);
        assert_eq!(sh.run("false | true").unwrap(), 1);
        assert_eq!(sh.run("false || true").unwrap(), 0);
        assert_eq!(sh.run("false && true ; true").unwrap(), 0);
        assert_eq!(sh.run("true && false").unwrap(), 1);
    }

    #[test]
    fn pipes_and_redirects_reach_the_log() {
        let mut sh = shell();
        assert_eq!(sh.run("echo hello | cat | tr a-z A-Z").unwrap(), 0);
        assert_eq!(sh.run("cat /nonexistent-file 2>&1 | cat").unwrap(), 1);
        let log = sh.into_log();
        assert!(log.contains("# | HELLO"), "{log}");
        assert!(log.contains("# | cat: /nonexistent-file: No such file or directory"), "{log}");
    }

    #[test]
    fn env_and_missing_commands() {
        let mut sh = shell();
        assert_eq!(sh.run("env FOO=bar sh -c 'test $FOO = bar'").unwrap(), 0);
        assert_eq!(sh.run("export FOO=1").unwrap(), 0);
        assert_eq!(sh.run("sh -c 'test $FOO = 1'").unwrap(), 0);
        assert_eq!(sh.run("env -u FOO sh -c 'test -z \"$FOO\"'").unwrap(), 0);
        assert_eq!(sh.run("no-such-command-kiln").unwrap(), NOT_RUN);
        assert!(sh.into_log().contains("'no-such-command-kiln': command not found"));
    }

    #[test]
    fn env_without_a_command_prints_the_environment() {
        let mut sh = shell();
        assert_eq!(sh.run("env -u PATH A=1 | cat").unwrap(), 0);
        assert!(sh.into_log().contains("# | A=1\n# `---"));
    }

    #[test]
    fn in_process_builtins_run_alone() {
        let mut sh = shell();
        assert_eq!(sh.run("echo a | mkdir x").unwrap(), NOT_RUN);
        assert_eq!(sh.run("env A=1 rm -f x").unwrap(), NOT_RUN);
        assert_eq!(sh.run("echo a | cat").unwrap(), 0);
        let log = sh.into_log();
        assert!(log.contains("Unsupported: 'mkdir' cannot be part of a pipeline"), "{log}");
        assert!(log.contains("Error: 'env' cannot call 'rm'"), "{log}");
    }

    #[test]
    fn syntax_errors_are_reported_not_run() {
        assert!(shell().run("echo \"unterminated").is_err());
        assert_eq!(shell().run("echo hello 3>&1").unwrap(), NOT_RUN);
    }

    #[test]
    fn crashes() {
        assert_eq!(apply_nots(&[true], Status::Crashed(6)), 0);
        assert_eq!(apply_nots(&[false], Status::Crashed(6)), 1);
        assert_eq!(apply_nots(&[], Status::Crashed(6)), -6);
        assert_eq!(apply_nots(&[true], Status::Exited(1)), 1);
        assert_eq!(apply_nots(&[], Status::Exited(3)), 3);
    }
}
