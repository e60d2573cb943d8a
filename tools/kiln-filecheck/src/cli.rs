//! Command-line options, parsed the way LLVM's `cl` library parses
//! FileCheck's: `-opt`, `--opt`, `-opt=value`, `-opt value`, `-DVAR=value`,
//! comma-separated prefix lists, and extra arguments from `FILECHECK_OPTS`.

use std::fmt;

/// When to print the annotated input dump.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DumpInput {
    /// Never dump.
    Never,
    /// Dump when checks fail (the default).
    Fail,
    /// Always dump.
    Always,
    /// Explain the dump format and exit.
    Help,
}

/// Which input lines the dump shows (plus context around them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DumpFilter {
    /// Lines where an error annotation starts.
    Error,
    /// Lines where any annotation starts.
    Annotation,
    /// Lines covered by any annotation.
    AnnotationFull,
    /// Every line.
    All,
}

/// Everything the user asked for: LLVM's `FileCheckRequest` plus tool options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Path of the check file.
    pub check_file: String,
    /// Path of the input, `-` for standard input.
    pub input_file: String,
    /// Check prefixes, in command-line order (empty means the default `CHECK`).
    pub check_prefixes: Vec<String>,
    /// Comment prefixes, in command-line order (empty means the default
    /// `COM`, `RUN`).
    pub comment_prefixes: Vec<String>,
    /// `--strict-whitespace`.
    pub strict_whitespace: bool,
    /// `--ignore-case`.
    pub ignore_case: bool,
    /// `--implicit-check-not` patterns.
    pub implicit_check_not: Vec<String>,
    /// `-D` definitions, without the `-D`.
    pub defines: Vec<String>,
    /// `--allow-empty`.
    pub allow_empty: bool,
    /// `--allow-unused-prefixes`.
    pub allow_unused_prefixes: bool,
    /// `--match-full-lines`.
    pub match_full_lines: bool,
    /// `--enable-var-scope`.
    pub enable_var_scope: bool,
    /// `--allow-deprecated-dag-overlap`.
    pub allow_dag_overlap: bool,
    /// `-v` (also set by `-vv`).
    pub verbose: bool,
    /// `-vv`.
    pub very_verbose: bool,
    /// `--color`: `None` autodetects (colours when stderr is a terminal).
    pub color: Option<bool>,
    /// Effective `--dump-input` mode.
    pub dump_input: DumpInput,
    /// Effective `--dump-input-filter`.
    pub dump_filter: DumpFilter,
    /// Effective `--dump-input-context`.
    pub dump_context: usize,
    /// `--dump-input-label-width`.
    pub dump_label_width: usize,
}

impl Options {
    /// The check prefixes in effect (`CHECK` when none were given).
    pub fn effective_check_prefixes(&self) -> Vec<String> {
        if self.check_prefixes.is_empty() {
            vec!["CHECK".to_string()]
        } else {
            self.check_prefixes.clone()
        }
    }

    /// The comment prefixes in effect (`COM`, `RUN` when none were given).
    pub fn effective_comment_prefixes(&self) -> Vec<String> {
        if self.comment_prefixes.is_empty() {
            vec!["COM".to_string(), "RUN".to_string()]
        } else {
            self.comment_prefixes.clone()
        }
    }
}

/// How the tool was invoked: LLVM names itself after `argv[0]`, using the
/// file name in messages and the whole argument in hints.
#[derive(Clone, Debug)]
pub struct Program {
    /// `argv[0]` as given.
    pub argv0: String,
    /// Its file name (`FileCheck` for `/usr/bin/FileCheck`).
    pub name: String,
}

impl Program {
    /// The program as invoked by `argv0`.
    pub fn new(argv0: &str) -> Program {
        let name = std::path::Path::new(argv0)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| argv0.to_string());
        Program { argv0: argv0.to_string(), name }
    }
}

/// What the command line asks the tool to do.
#[derive(Debug)]
pub enum Command {
    /// Check an input against a check file.
    Check(Box<Options>),
    /// Print usage and exit successfully.
    Help,
    /// Print the version and exit successfully.
    Version,
    /// Explain the input dump format and exit successfully, with colours
    /// when `--color` says so (`None`: autodetect).
    DumpHelp(Option<bool>),
}

/// A command-line error, with the exit code LLVM uses for it.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError {
    /// The message, printed to stderr as is.
    pub message: String,
    /// The process exit code.
    pub exit_code: i32,
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The `--help` text for a program called `name`.
pub fn help(name: &str) -> String {
    format!("OVERVIEW: kiln-filecheck, an LLVM FileCheck-compatible checker\n\nUSAGE: {name} [options] <check-file>\n\n{HELP_OPTIONS}")
}

const HELP_OPTIONS: &str = "\
OPTIONS:
  --allow-empty                  Allow the input file to be empty
  --allow-unused-prefixes        Allow prefixes to be specified but not appear in the test
  --check-prefix=<prefix>        Prefix to use from check file (defaults to 'CHECK')
  --check-prefixes=<a,b,...>     Alias for --check-prefix permitting multiple comma separated values
  --comment-prefixes=<a,b,...>   Comment prefixes (defaults to 'COM,RUN')
  --color                        Use colors in output (default=autodetect)
  -D<VAR=VALUE>                  Define a string variable
  -D#[<fmt>,]<VAR>=<expr>        Define a numeric variable
  --dump-input=<mode>            help, always, fail (default) or never
  --dump-input-context=<N>       Context lines around filtered lines (default 5)
  --dump-input-filter=<kind>     all, annotation-full, annotation or error
  --enable-var-scope             Reset variables not starting with '$' at each CHECK-LABEL
  --ignore-case                  Use case-insensitive matching
  --implicit-check-not=<pattern> Add an implicit CHECK-NOT to every positive check
  --input-file=<filename>        File to check (defaults to stdin)
  --match-full-lines             Require positive matches to cover entire input lines
  --strict-whitespace            Do not treat all horizontal whitespace as equivalent
  -v                             Print directive pattern matches
  -vv                            Print more diagnostic information (implies -v)
  --help                         Display this help
  --version                      Display the version

Options are parsed from the environment variable FILECHECK_OPTS and
from the command line.
";

fn bad_value(opt: &str, value: &str) -> String {
    format!("for the --{opt} option: Cannot find option named '{value}'!")
}

/// Splits `FILECHECK_OPTS` into arguments: whitespace separated, with single
/// and double quotes and backslash escapes as in a GNU command line.
pub fn tokenize_env(text: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut in_token = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                in_token = true;
            }
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_token = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_token {
                    args.push(std::mem::take(&mut cur));
                    in_token = false;
                }
            }
            (_, c) => {
                cur.push(c);
                in_token = true;
            }
        }
    }
    if in_token {
        args.push(cur);
    }
    args
}

/// Options that take a value.
const VALUE_OPTIONS: &[&str] = &[
    "check-prefix",
    "check-prefixes",
    "comment-prefixes",
    "input-file",
    "implicit-check-not",
    "dump-input",
    "dump-input-filter",
    "dump-input-context",
    "dump-input-label-width",
];

/// The boolean options (`--name` or `--name=true|false`).
const FLAG_OPTIONS: &[&str] = &[
    "help",
    "h",
    "help-hidden",
    "version",
    "strict-whitespace",
    "ignore-case",
    "allow-empty",
    "allow-unused-prefixes",
    "match-full-lines",
    "enable-var-scope",
    "allow-deprecated-dag-overlap",
    "v",
    "vv",
    "color",
];

/// How `cl` spells an option in messages: `-v`, but `--input-file`.
fn dashed(name: &str) -> String {
    if name.chars().count() == 1 {
        format!("-{name}")
    } else {
        format!("--{name}")
    }
}

/// Parses a `cl` boolean value (`None` when the option has no `=value`).
fn parse_bool(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("true" | "1" | "TRUE" | "True") => Ok(true),
        Some("false" | "0" | "FALSE" | "False") => Ok(false),
        Some(v) => Err(format!(
            "for the {} option: '{v}' is invalid value for boolean argument! Try 0 or 1",
            dashed(name)
        )),
    }
}

/// Parses arguments (without the program name). `env_args` come from
/// `FILECHECK_OPTS` and are processed before `args`, as LLVM does. As
/// LLVM's `cl`, every bad argument is reported, each line prefixed with
/// the program's name.
pub fn parse_args(program: &Program, env_args: &[String], args: &[String]) -> Result<Command, UsageError> {
    let mut opts = Options {
        check_file: String::new(),
        input_file: "-".to_string(),
        check_prefixes: Vec::new(),
        comment_prefixes: Vec::new(),
        strict_whitespace: false,
        ignore_case: false,
        implicit_check_not: Vec::new(),
        defines: Vec::new(),
        allow_empty: false,
        allow_unused_prefixes: false,
        match_full_lines: false,
        enable_var_scope: false,
        allow_dag_overlap: false,
        verbose: false,
        very_verbose: false,
        color: None,
        dump_input: DumpInput::Fail,
        dump_filter: DumpFilter::Error,
        dump_context: 5,
        dump_label_width: 0,
    };
    let mut dump_inputs = Vec::new();
    let mut dump_filters = Vec::new();
    let mut dump_contexts = Vec::new();
    let mut positionals: Vec<String> = Vec::new();
    let mut errors: Vec<String> = Vec::new();
    let mut help = None;
    let all: Vec<&String> = env_args.iter().chain(args.iter()).collect();
    let mut i = 0;
    let mut only_positional = false;
    while i < all.len() {
        let arg = all[i].as_str();
        i += 1;
        if only_positional || !arg.starts_with('-') || arg == "-" {
            positionals.push(arg.to_string());
            continue;
        }
        if arg == "--" {
            only_positional = true;
            continue;
        }
        let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        // `-D` is an always-prefix option: its value must be attached.
        if let Some(def) = body.strip_prefix('D') {
            if def.is_empty() {
                errors.push("for the -D option: requires a value!".to_string());
            } else {
                opts.defines.push(def.to_string());
            }
            continue;
        }
        let (name, inline_value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        if !VALUE_OPTIONS.contains(&name) && !FLAG_OPTIONS.contains(&name) {
            // LLVM's words, and the nearest option with the value given.
            errors.push(format!("Unknown command line argument '{arg}'.  Try: '{} --help'", program.argv0));
            let options = VALUE_OPTIONS.iter().chain(FLAG_OPTIONS).copied();
            if let Some(near) = kiln_cli::nearest_option(arg, options) {
                let value = inline_value.as_deref().map_or(String::new(), |v| format!("={v}"));
                errors.push(format!("Did you mean '{}{value}'?", dashed(near)));
            }
            continue;
        }
        if !VALUE_OPTIONS.contains(&name) {
            let flag = match parse_bool(name, inline_value.as_deref()) {
                Ok(flag) => flag,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            match name {
                "help" | "h" | "help-hidden" => help = help.or(Some(Command::Help)),
                "version" => help = help.or(Some(Command::Version)),
                "strict-whitespace" => opts.strict_whitespace = flag,
                "ignore-case" => opts.ignore_case = flag,
                "allow-empty" => opts.allow_empty = flag,
                "allow-unused-prefixes" => opts.allow_unused_prefixes = flag,
                "match-full-lines" => opts.match_full_lines = flag,
                "enable-var-scope" => opts.enable_var_scope = flag,
                "allow-deprecated-dag-overlap" => opts.allow_dag_overlap = flag,
                "v" => opts.verbose = flag,
                "vv" => opts.very_verbose = flag,
                "color" => opts.color = Some(flag),
                _ => unreachable!("every name of FLAG_OPTIONS is handled"),
            }
            continue;
        }
        let value = match inline_value {
            Some(v) => v,
            None => match all.get(i) {
                Some(v) => {
                    i += 1;
                    v.to_string()
                }
                None => {
                    errors.push(format!("for the {} option: requires a value!", dashed(name)));
                    continue;
                }
            },
        };
        match name {
            "check-prefix" => opts.check_prefixes.push(value),
            "check-prefixes" => opts.check_prefixes.extend(value.split(',').map(str::to_string)),
            "comment-prefixes" => opts.comment_prefixes.extend(value.split(',').map(str::to_string)),
            "input-file" => opts.input_file = value,
            "implicit-check-not" => opts.implicit_check_not.push(value),
            "dump-input" => match value.as_str() {
                "help" => dump_inputs.push(DumpInput::Help),
                "always" => dump_inputs.push(DumpInput::Always),
                "fail" => dump_inputs.push(DumpInput::Fail),
                "never" => dump_inputs.push(DumpInput::Never),
                _ => errors.push(bad_value(name, &value)),
            },
            "dump-input-filter" => match value.as_str() {
                "all" => dump_filters.push(DumpFilter::All),
                "annotation-full" => dump_filters.push(DumpFilter::AnnotationFull),
                "annotation" => dump_filters.push(DumpFilter::Annotation),
                "error" => dump_filters.push(DumpFilter::Error),
                _ => errors.push(bad_value(name, &value)),
            },
            "dump-input-context" | "dump-input-label-width" => match value.parse::<usize>() {
                Ok(n) if name == "dump-input-context" => dump_contexts.push(n),
                Ok(n) => opts.dump_label_width = n,
                Err(_) => errors
                    .push(format!("for the --{name} option: '{value}' value invalid for uint argument!")),
            },
            _ => unreachable!("every value option is handled"),
        }
    }
    if positionals.len() > 1 {
        errors.push(format!(
            "Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: {} --help",
            program.argv0
        ));
    }
    // `--help` and `--version` act as soon as `cl` sees them.
    if let Some(command) = help {
        return Ok(command);
    }
    if !errors.is_empty() {
        let message = errors.iter().map(|e| format!("{}: {e}", program.name)).collect::<Vec<_>>().join("\n");
        return Err(UsageError { message, exit_code: 1 });
    }
    opts.verbose |= opts.very_verbose;
    opts.dump_input = dump_inputs.into_iter().max().unwrap_or(DumpInput::Fail);
    if opts.dump_input == DumpInput::Help {
        return Ok(Command::DumpHelp(opts.color));
    }
    opts.dump_filter = dump_filters.into_iter().max().unwrap_or(if opts.dump_input == DumpInput::Always {
        DumpFilter::All
    } else {
        DumpFilter::Error
    });
    opts.dump_context = dump_contexts.into_iter().max().unwrap_or(5);
    match positionals.pop() {
        Some(file) => opts.check_file = file,
        None => return Err(UsageError { message: "<check-file> not specified".to_string(), exit_code: 2 }),
    }
    Ok(Command::Check(Box::new(opts)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, UsageError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse_args(&Program::new("/bin/FileCheck"), &[], &args)
    }

    fn options(args: &[&str]) -> Options {
        match parse(args) {
            Ok(Command::Check(o)) => *o,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn llvm_style_spellings() {
        let o = options(&["-check-prefix", "A", "--check-prefixes=B,C", "-DX=1", "-D#%x,N=3", "c.txt", "-v"]);
        assert_eq!(o.check_prefixes, ["A", "B", "C"]);
        assert_eq!(o.defines, ["X=1", "#%x,N=3"]);
        assert_eq!(o.check_file, "c.txt");
        assert!(o.verbose);
    }

    #[test]
    fn dump_input_takes_highest_precedence() {
        let o = options(&["--dump-input=never", "--dump-input=always", "c"]);
        assert_eq!(o.dump_input, DumpInput::Always);
        assert_eq!(o.dump_filter, DumpFilter::All);
    }

    #[test]
    fn errors_have_llvm_exit_codes() {
        assert_eq!(parse(&["--bogus", "c"]).unwrap_err().exit_code, 1);
        assert_eq!(parse(&[]).unwrap_err().exit_code, 2);
    }

    #[test]
    fn messages_name_the_program_from_argv0() {
        assert_eq!(
            parse(&["--bogus", "c"]).unwrap_err().message,
            "FileCheck: Unknown command line argument '--bogus'.  Try: '/bin/FileCheck --help'\n\
             FileCheck: Did you mean '--color'?"
        );
    }

    #[test]
    fn bare_d_requires_an_attached_value() {
        assert_eq!(
            parse(&["-D", "c"]).unwrap_err().message,
            "FileCheck: for the -D option: requires a value!"
        );
        assert_eq!(
            parse(&["c", "-D", "X=1"]).unwrap_err().message,
            "FileCheck: for the -D option: requires a value!\n\
             FileCheck: Too many positional arguments specified!\n\
             Can specify at most 1 positional arguments: See: /bin/FileCheck --help"
        );
    }

    #[test]
    fn check_prefix_takes_one_prefix_and_check_prefixes_a_list() {
        let o = options(&["--check-prefix=A,B", "--check-prefixes=C,D", "c"]);
        assert_eq!(o.check_prefixes, ["A,B", "C", "D"]);
    }

    #[test]
    fn env_tokenizer_handles_quotes() {
        assert_eq!(
            tokenize_env(" -v  '--implicit-check-not=a b' \"x\\\"y\""),
            ["-v", "--implicit-check-not=a b", "x\"y"]
        );
    }
}
