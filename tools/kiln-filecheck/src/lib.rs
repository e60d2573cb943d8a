//! `kiln-filecheck`: an LLVM FileCheck-compatible pattern checker.
//!
//! The checker reads a check file of prefixed directives (`CHECK:`,
//! `CHECK-NEXT:`, ...) and verifies an input against them, reporting
//! failures with LLVM's messages, exit codes and annotated input dump.
//!
//! The pipeline, one module per step:
//! - `cli`: LLVM `cl`-style option parsing and `FILECHECK_OPTS`;
//! - `check_file`: directives and prefixes into check strings;
//! - `pattern`, `numeric`, `posix`: pattern syntax, numeric expressions and
//!   the POSIX regex dialect;
//! - `matcher`: matching and diagnostics; `dump`: the annotated input dump;
//! - `source`: buffers and `file:line:col` message rendering.
//!
//! The binary only forwards its arguments to [`run`].
#![deny(missing_docs)]

mod check_file;
mod cli;
mod dump;
mod matcher;
mod numeric;
mod pattern;
mod posix;
mod source;
mod vars;

use std::io::{IsTerminal, Read, Write};

use check_file::{read_check_file, DagNot, Prefixes};
use cli::{Command, DumpInput, Options, Program};
use matcher::{MatchOptions, Matcher};
use numeric::parse_numeric_block;
use pattern::{CheckKind, CheckType, Pattern, PatternOptions};
use source::{Loc, Report, SourceManager, SpanError};
use vars::{StringValue, Variables};

/// Exit code when every check passed.
pub const EXIT_SUCCESS: i32 = 0;
/// Exit code when a check failed.
pub const EXIT_CHECK_FAILED: i32 = 1;
/// Exit code for invalid check files, options or unreadable files.
pub const EXIT_ERROR: i32 = 2;

/// Runs the tool with `argv` (the program name, as invoked, then the
/// arguments) and the value of `FILECHECK_OPTS`, printing to
/// stdout/stderr; returns the exit code. Messages name the program after
/// `argv[0]`, as LLVM's tools do.
pub fn run(argv: &[String], filecheck_opts: Option<&str>) -> i32 {
    let program = Program::new(argv.first().map_or("FileCheck", String::as_str));
    let args = argv.get(1..).unwrap_or_default();
    let env_args = filecheck_opts.map(cli::tokenize_env).unwrap_or_default();
    let command = match cli::parse_args(&program, &env_args, args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return e.exit_code;
        }
    };
    match command {
        Command::Help => print!("{}", cli::help(&program.name)),
        Command::Version => {
            println!("kiln-filecheck {} (LLVM FileCheck compatible)", env!("CARGO_PKG_VERSION"))
        }
        Command::DumpHelp(color) => {
            print!("{}", dump::help(color.unwrap_or_else(|| std::io::stdout().is_terminal())))
        }
        Command::Check(opts) => return check(&opts, argv),
    }
    EXIT_SUCCESS
}

/// LLVM `CanonicalizeFile`: drops the `\r` of `\r\n` and, unless
/// whitespace is strict, turns each run of spaces and tabs into one space.
fn canonicalize(text: &[u8], strict: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if c == b'\r' && text.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        if strict || (c != b' ' && c != b'\t') {
            out.push(c);
        } else {
            out.push(b' ');
            while matches!(text.get(i + 1), Some(b' ' | b'\t')) {
                i += 1;
            }
        }
        i += 1;
    }
    out
}

/// LLVM `ValidateCheckPrefixes`: checks the prefixes the user supplied
/// (check prefixes first), each against the defaults in effect and the
/// prefixes before it.
fn validate_prefixes(opts: &Options) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    if opts.check_prefixes.is_empty() {
        seen.extend(opts.effective_check_prefixes());
    }
    if opts.comment_prefixes.is_empty() {
        seen.extend(opts.effective_comment_prefixes());
    }
    let kinds = [("check", &opts.check_prefixes), ("comment", &opts.comment_prefixes)];
    for (kind, prefixes) in kinds {
        for p in prefixes {
            if p.is_empty() {
                return Err(format!("error: supplied {kind} prefix must not be the empty string"));
            }
            if !p.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-') {
                return Err(format!(
                    "error: supplied {kind} prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '{p}'"
                ));
            }
            if !seen.insert(p.clone()) {
                return Err(format!(
                    "error: supplied {kind} prefix must be unique among check and comment prefixes: '{p}'"
                ));
            }
        }
    }
    Ok(())
}

/// Defines the `-D` variables (LLVM `defineCmdlineVariables`), reporting
/// errors against a `Global defines` buffer.
fn define_globals(
    defines: &[String],
    sm: &mut SourceManager,
    vars: &mut Variables,
) -> Result<(), Vec<Report>> {
    if defines.is_empty() {
        return Ok(());
    }
    let mut text = String::new();
    let mut spans = Vec::new();
    for (i, def) in defines.iter().enumerate() {
        let prefix = format!("Global define #{}: ", i + 1);
        if let Some(numeric) = def.strip_prefix('#') {
            text.push_str(&format!("{prefix}{def} (parsed as: [["));
            let adapted = format!("#{}", numeric.replacen('=', ":", 1));
            spans.push((text.len(), adapted.len()));
            text.push_str(&adapted);
            text.push_str("]])\n");
        } else {
            text.push_str(&prefix);
            spans.push((text.len(), def.len()));
            text.push_str(def);
            text.push('\n');
        }
    }
    let id = sm.add("Global defines", text.clone().into_bytes());
    let bytes = text.as_bytes();
    let mut errors = Vec::new();
    for (start, len) in spans {
        let def = &bytes[start..start + len];
        let loc = Loc { buffer: id, offset: start };
        if def[0] == b'#' {
            let block = match parse_numeric_block(&def[1..], loc.advanced(1), None, false, vars) {
                Ok(b) => b,
                Err(e) => {
                    errors.push(e.logged().into());
                    continue;
                }
            };
            let value = block.expr.as_ref().map(|e| e.eval(vars));
            match (value, block.def) {
                (Some(Ok(v)), Some(id)) => vars.numeric_mut(id).value = Some(v),
                (Some(Err(numeric::EvalError::Undefined(names))), _) => errors.extend(
                    names.into_iter().map(|(n, _)| Report::Plain(format!("undefined variable: {n}"))),
                ),
                _ => errors.push(
                    SpanError::new(
                        loc,
                        "unable to substitute variable or numeric expression: overflow error",
                    )
                    .into(),
                ),
            }
        } else {
            let eq = def.iter().position(|&c| c == b'=').unwrap_or(def.len());
            let name = &def[..eq];
            match numeric::parse_var_name(name, loc) {
                Err(e) => errors.push(e.logged().into()),
                Ok(v) if v.pseudo || v.name.len() != name.len() => errors.push(
                    SpanError::new(
                        loc,
                        format!(
                            "invalid name in string variable definition '{}'",
                            String::from_utf8_lossy(name)
                        ),
                    )
                    .logged()
                    .into(),
                ),
                Ok(v) if vars.numeric_id(&v.name).is_some() => errors.push(
                    SpanError::new(loc, format!("numeric variable with name '{}' already exists", v.name))
                        .logged()
                        .into(),
                ),
                Ok(v) => {
                    vars.declare_string(&v.name);
                    let value = def.get(eq + 1..).unwrap_or_default().to_vec();
                    vars.set_string(&v.name, StringValue { text: value, captured: None });
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// LLVM exits with 1, not 2, for an unbalanced `]` in a substitution block.
fn fatal_exit_code(report: &Report) -> i32 {
    match report {
        Report::At(e) if e.msg == pattern::MISSING_BRACKET => EXIT_CHECK_FAILED,
        _ => EXIT_ERROR,
    }
}

fn read_file(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path)
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
        _ => {
            let text = e.to_string();
            text.split(" (os error").next().unwrap_or(&text).to_string()
        }
    }
}

fn check(opts: &Options, argv: &[String]) -> i32 {
    if let Err(msg) = validate_prefixes(opts) {
        eprintln!("{msg}");
        return EXIT_ERROR;
    }
    for def in &opts.defines {
        match def.find('=') {
            None => {
                eprintln!("Missing equal sign in command-line definition '-D{def}'");
                return EXIT_ERROR;
            }
            Some(0) => {
                eprintln!("Missing variable name in command-line definition '-D{def}'");
                return EXIT_ERROR;
            }
            Some(_) => {}
        }
    }
    let check_text = match std::fs::read(&opts.check_file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("Could not open check file '{}': {}", opts.check_file, io_message(&e));
            return EXIT_ERROR;
        }
    };
    let mut sm = SourceManager::default();
    sm.color = opts.color.unwrap_or_else(|| std::io::stderr().is_terminal());
    let check_id = sm.add(opts.check_file.clone(), canonicalize(&check_text, opts.strict_whitespace));
    let mut vars = Variables::default();
    if let Err(errors) = define_globals(&opts.defines, &mut sm, &mut vars) {
        for e in errors {
            e.print(&sm);
        }
        return EXIT_ERROR;
    }
    let pattern_opts = PatternOptions {
        strict_whitespace: opts.strict_whitespace,
        match_full_lines: opts.match_full_lines,
        ignore_case: opts.ignore_case,
    };
    let mut implicit = Vec::new();
    let mut implicit_ids = Vec::new();
    for pat in &opts.implicit_check_not {
        const PREFIX: &str = "-implicit-check-not='";
        let id = sm.add("command line", format!("{PREFIX}{pat}'").into_bytes());
        implicit_ids.push(id);
        let loc = Loc { buffer: id, offset: PREFIX.len() };
        let text = sm.text(id)[PREFIX.len()..PREFIX.len() + pat.len()].to_vec();
        let ty = CheckType::new(CheckKind::Not);
        match Pattern::parse(&text, loc, ty, "IMPLICIT-CHECK", None, pattern_opts, &mut vars) {
            Ok(pattern) => implicit.push(DagNot { pattern, prefix: "IMPLICIT-CHECK".to_string() }),
            Err(e) => {
                e.print(&sm);
                return EXIT_ERROR;
            }
        }
    }
    let check_prefixes = opts.effective_check_prefixes();
    let comment_prefixes = opts.effective_comment_prefixes();
    let prefixes = Prefixes {
        check: &check_prefixes,
        comment: &comment_prefixes,
        defaulted: opts.check_prefixes.is_empty(),
        allow_unused: opts.allow_unused_prefixes,
    };
    let checks = match read_check_file(&sm, check_id, &prefixes, &implicit, pattern_opts, &mut vars) {
        Ok(c) => c,
        Err(report) => {
            report.print(&sm);
            return fatal_exit_code(&report);
        }
    };
    let input_text = match read_file(&opts.input_file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("Could not open input file '{}': {}", opts.input_file, io_message(&e));
            return EXIT_ERROR;
        }
    };
    let input_name = if opts.input_file == "-" { "<stdin>".to_string() } else { opts.input_file.clone() };
    if input_text.is_empty() && !opts.allow_empty {
        eprintln!("FileCheck error: '{input_name}' is empty.");
        eprintln!("FileCheck command line:  {}", argv.join(" "));
        return EXIT_ERROR;
    }
    let input_id = sm.add(input_name.clone(), canonicalize(&input_text, opts.strict_whitespace));
    let match_opts = MatchOptions {
        verbose: opts.verbose,
        very_verbose: opts.very_verbose,
        enable_var_scope: opts.enable_var_scope,
        allow_dag_overlap: opts.allow_dag_overlap,
    };
    let record = opts.dump_input != DumpInput::Never;
    let mut matcher = Matcher::new(&sm, input_id, match_opts, vars, record);
    let passed = matcher.check_input(&checks);
    let code = if passed { EXIT_SUCCESS } else { EXIT_CHECK_FAILED };
    if opts.dump_input == DumpInput::Always || (!passed && opts.dump_input == DumpInput::Fail) {
        let diags = matcher.into_diags();
        let sources = dump::LabelSources { check_file: check_id, implicit: implicit_ids };
        let mut out = format!(
            "\nInput file: {input_name}\nCheck file: {}\n\n-dump-input=help explains the following input dump.\n\n",
            opts.check_file
        )
        .into_bytes();
        out.extend(dump::render(
            &sm,
            input_id,
            &sources,
            &diags,
            dump::DumpOptions {
                filter: opts.dump_filter,
                context: opts.dump_context,
                min_label_width: opts.dump_label_width,
                color: sm.color,
                verbose: opts.verbose || opts.very_verbose,
            },
        ));
        let _ = std::io::stderr().write_all(&out);
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonicalization_collapses_blanks() {
        assert_eq!(canonicalize(b"a \t b\r\nc\r", false), b"a b\nc\r");
        assert_eq!(canonicalize(b"a \t b\r\n", true), b"a \t b\n");
    }
}
