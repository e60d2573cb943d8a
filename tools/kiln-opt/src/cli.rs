//! The command line, with mlir-opt's flag names.
//!
//! Besides the options declared on [`Options`], every registered pass is a flag of its own
//! (`--cse`, `--canonicalize=max-iterations=3`, `--canonicalize{max-iterations=3}`), as in
//! mlir-opt: those are taken out of argv before clap sees it and become a pipeline on the
//! top-level op, in command-line order. mlir-opt's single-dash spelling of long options
//! (`-split-input-file`, `-cse`) is accepted too.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, ValueEnum};
use kiln_compiler::pass::{OptionKind, PassRegistry};

use crate::split::DEFAULT_MARKER;

/// `--mlir-timing-display`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TimingMode {
    /// Nested pipelines above the passes they ran.
    Tree,
    /// One row per name, slowest first.
    List,
}

/// What `--verify-diagnostics` checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VerifyMode {
    /// Every diagnostic must be expected and every expectation met.
    All,
    /// Only that every expectation is met; other diagnostics are ignored.
    OnlyExpected,
}

/// kiln-opt: parse MLIR text, verify it, run a pass pipeline over it and print the result.
///
/// Every registered pass is also a flag (`--cse`, `--canonicalize=max-iterations=3`); the
/// passes given that way run in order on the top-level op. Diagnostics go to stderr as
/// `file:line:col: error: message` with the source line and a caret. The exit status is 0 on
/// success and 1 on any error.
#[derive(Parser, Debug, Clone)]
#[command(name = "kiln-opt", version, max_term_width = 100)]
pub struct Options {
    /// Input file; `-` or none reads standard input.
    #[arg(value_name = "INPUT", default_value = "-")]
    pub input: PathBuf,

    /// Output file; `-` writes standard output. A file is only written when the run succeeds.
    #[arg(short = 'o', value_name = "FILE", default_value = "-")]
    pub output: PathBuf,

    /// Split the input into chunks at lines reading `// -----` (or the given marker) and
    /// process each chunk independently; the outputs are joined with the output split marker.
    /// Lines that resemble the marker without being it (`// ----`, `//-----`) are errors.
    #[arg(long, value_name = "MARKER", num_args = 0..=1, require_equals = true, default_missing_value = DEFAULT_MARKER)]
    pub split_input_file: Option<String>,

    /// The line placed between the outputs of split chunks.
    #[arg(long, value_name = "MARKER", default_value = DEFAULT_MARKER)]
    pub output_split_marker: String,

    /// Check the diagnostics against `// expected-error {{...}}` (and `-warning`, `-remark`,
    /// `-note`, `-re`, `@+N`, `@-N`, `@above`, `@below`, `@unknown`) comments in the input
    /// instead of printing them; the exit status says whether they all matched.
    /// `=only-expected` ignores diagnostics nothing expects.
    #[arg(long, value_enum, value_name = "MODE", num_args = 0..=1, require_equals = true, default_missing_value = "all")]
    pub verify_diagnostics: Option<VerifyMode>,

    /// The pass pipeline to run, e.g. `builtin.module(func.func(cse), symbol-dce)`.
    #[arg(short = 'p', long = "pass-pipeline", value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,

    /// Print the pass pipeline that will run (to stderr) before running it.
    #[arg(long)]
    pub dump_pass_pipeline: bool,

    /// Verify the IR after every pass (`--verify-each=false` to turn off). The IR is always
    /// verified after parsing.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "true",
          default_missing_value = "true", action = ArgAction::Set)]
    pub verify_each: bool,

    /// Do not verify the IR after every pass (same as `--verify-each=false`).
    #[arg(long)]
    pub no_verify_each: bool,

    /// Accept ops, types and attributes of dialects that are not registered, and keep them.
    #[arg(long)]
    pub allow_unregistered_dialect: bool,

    /// Print every op in the generic form (`"dialect.op"(...) : (...) -> ...`).
    #[arg(long)]
    pub mlir_print_op_generic: bool,

    /// Print locations (`loc(...)`) in the output.
    #[arg(long)]
    pub mlir_print_debuginfo: bool,

    /// Print everything in place: no `#alias` / `!alias` definitions, no resource section.
    #[arg(long)]
    pub mlir_print_local_scope: bool,

    /// Attach the op, in the generic form, to errors about an op (`note: see current
    /// operation: ...`), as mlir-opt does; `--verify-diagnostics` turns it off as mlir-opt's
    /// does.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_value = "true",
          default_missing_value = "true", action = ArgAction::Set)]
    pub mlir_print_op_on_diagnostic: bool,

    /// Print the debug output of every pass and driver to stderr (LLVM's `-debug`).
    #[arg(long)]
    pub debug: bool,

    /// Print the debug output of these debug types only, comma-separated (LLVM's
    /// `-debug-only`): `dialect-conversion` traces the conversion driver (each op legalized,
    /// each pattern tried and why it declined).
    #[arg(long, value_name = "TYPES", value_delimiter = ',')]
    pub debug_only: Vec<String>,

    /// Print elements attributes with more elements than this (splats aside) as
    /// `dense_resource<__elided__>`, as mlir-opt does.
    #[arg(long, value_name = "N")]
    pub mlir_elide_elementsattrs_if_larger: Option<usize>,

    /// Do not wrap the input in an implicit `builtin.module`: the file must hold exactly one
    /// top-level op, which becomes the op the pipeline runs on.
    #[arg(long)]
    pub no_implicit_module: bool,

    /// After parsing, print the IR in generic and in custom form, parse each back and check
    /// that both print the same generic form again (mlir-opt checks the generic form).
    #[arg(long)]
    pub verify_roundtrip: bool,

    /// Accepted for mlir-opt compatibility: kiln-opt runs every pass on one thread.
    #[arg(long)]
    pub mlir_disable_threading: bool,

    /// Print the IR (to stderr) before the named passes (comma separated or repeated).
    #[arg(long, value_name = "PASS", value_delimiter = ',')]
    pub mlir_print_ir_before: Vec<String>,

    /// Print the IR (to stderr) before every pass.
    #[arg(long)]
    pub mlir_print_ir_before_all: bool,

    /// Print the IR (to stderr) after the named passes (comma separated or repeated).
    #[arg(long, value_name = "PASS", value_delimiter = ',')]
    pub mlir_print_ir_after: Vec<String>,

    /// Print the IR (to stderr) after every pass.
    #[arg(long)]
    pub mlir_print_ir_after_all: bool,

    /// Print the IR (to stderr) after a pass only if the pass changed it.
    #[arg(long)]
    pub mlir_print_ir_after_change: bool,

    /// Print the IR (to stderr) after a pass that failed.
    #[arg(long)]
    pub mlir_print_ir_after_failure: bool,

    /// Print the whole top-level op in IR dumps, not only the op the pass ran on.
    #[arg(long)]
    pub mlir_print_ir_module_scope: bool,

    /// When the pipeline fails, write the IR it started from and the pipeline (as an
    /// `external_resources` entry `mlir_reproducer`) to this file, as mlir-opt does.
    #[arg(long, value_name = "FILE")]
    pub mlir_pass_pipeline_crash_reproducer: Option<PathBuf>,

    /// Run the pipeline recorded in the input's `mlir_reproducer` resource (a file written by
    /// `--mlir-pass-pipeline-crash-reproducer`).
    #[arg(long)]
    pub run_reproducer: bool,

    /// Write the `--mlir-print-ir-*` dumps into files under this folder (one folder per op,
    /// one file per pass, named as mlir-opt names them) instead of stderr.
    #[arg(long, value_name = "DIR")]
    pub mlir_print_ir_tree_dir: Option<PathBuf>,

    /// Report wall-clock times (to stderr) of parsing, each pass and printing.
    #[arg(long)]
    pub mlir_timing: bool,

    /// How `--mlir-timing` lays out its report: `tree` (pipelines above their passes) or
    /// `list` (one row per name, slowest first).
    #[arg(long, value_enum, value_name = "MODE", default_value = "tree")]
    pub mlir_timing_display: TimingMode,

    /// Report the statistics of each pass (to stderr).
    #[arg(long)]
    pub mlir_pass_statistics: bool,

    /// Emit one remark per kiln-fuse decision (fused or not, and why), at the op's location.
    #[arg(long)]
    pub kiln_fusion_remarks: bool,

    /// Print kiln-fuse's progress on stderr while it runs (blocks planned, every tenth of the
    /// ops done, elapsed seconds): for graphs of 100k ops, where a run takes seconds.
    #[arg(long)]
    pub kiln_fusion_progress: bool,

    /// Write kiln-fuse's JSON report (regions, kinds, bytes saved, kernel counts) to FILE.
    #[arg(long, value_name = "FILE")]
    pub kiln_fusion_report: Option<String>,

    /// Write kiln-fuse's decisions as a DOT graph (regions as clusters) to FILE.
    #[arg(long, value_name = "FILE")]
    pub kiln_fusion_dot: Option<String>,

    /// kiln-fuse options in the flag style users know, e.g.
    /// `--kiln-fusion-flags="--opt_level=2 --enable_ops=MatMul,BatchMatMul"`. An option the
    /// pipeline gives by name (`kiln-fuse{opt-level=1}`) wins over the same key here.
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub kiln_fusion_flags: Option<String>,

    /// Print the registered dialects and exit.
    #[arg(long)]
    pub show_dialects: bool,

    /// Print the registered passes with their options and exit.
    #[arg(long)]
    pub list_passes: bool,

    /// Passes given as individual flags, in order: (name, options text).
    #[arg(skip)]
    pub pass_flags: Vec<(String, Option<String>)>,
}

impl Options {
    /// Options that tool flags give to passes, as `(pass, "key=value ...")` (see
    /// `PassRegistry::add_default_options`).
    pub fn pass_defaults(&self) -> Vec<(&'static str, String)> {
        let quote = |s: &str| format!("\"{}\"", s.replace('"', ""));
        let mut fuse = Vec::new();
        if self.kiln_fusion_remarks {
            fuse.push("remarks=true".to_string());
        }
        if self.kiln_fusion_progress {
            fuse.push("progress=true".to_string());
        }
        if let Some(f) = &self.kiln_fusion_report {
            fuse.push(format!("report={}", quote(f)));
        }
        if let Some(f) = &self.kiln_fusion_dot {
            fuse.push(format!("dot={}", quote(f)));
        }
        if let Some(flags) = &self.kiln_fusion_flags {
            fuse.push(format!("fusion-flags={}", quote(flags)));
        }
        if fuse.is_empty() {
            Vec::new()
        } else {
            vec![("kiln-fuse", fuse.join(" "))]
        }
    }

    /// The pipeline to run, from `--pass-pipeline` or the individual pass flags (`None`: no
    /// passes). Giving both is an error, as in mlir-opt.
    pub fn pipeline_text(&self) -> Result<Option<String>, String> {
        match (&self.pass_pipeline, self.pass_flags.is_empty()) {
            (Some(_), false) => {
                Err("'--pass-pipeline' option can't be used with individual pass options".into())
            }
            (Some(p), true) => Ok(Some(p.clone())),
            (None, true) => Ok(None),
            (None, false) => {
                let parts: Vec<String> = self
                    .pass_flags
                    .iter()
                    .map(|(name, opts)| match opts {
                        Some(o) => format!("{name}{{{o}}}"),
                        None => name.clone(),
                    })
                    .collect();
                Ok(Some(parts.join(",")))
            }
        }
    }

    /// Whether the IR is verified after every pass.
    pub fn verify_each(&self) -> bool {
        self.verify_each && !self.no_verify_each
    }
}

/// The outcome of reading the command line.
#[derive(Debug)]
pub enum Parsed {
    /// Run with these options.
    Run(Box<Options>),
    /// Stop with this text on stdout (`--help`, `--version`) and status 0.
    Exit(String),
    /// Stop with this error on stderr and status 1.
    Error(String),
}

/// Parses `args` (program name first) against the options and the passes of `registry`.
pub fn parse<I, T>(args: I, registry: &PassRegistry) -> Parsed
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let command = Options::command().after_help(pass_flags_help(registry));
    let long_names: Vec<String> = command
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .chain(["help".into(), "version".into()])
        .collect();
    let (argv, pass_flags) = extract_pass_flags(args.into_iter().map(Into::into), registry, &long_names);
    let argv0 = argv.first().map_or_else(|| "kiln-opt".into(), |a| a.to_string_lossy().into_owned());
    let shorts: Vec<String> =
        command.get_arguments().filter_map(|a| a.get_short()).map(String::from).collect();
    let matches = match command.try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) => {
            use clap::error::{ContextKind, ContextValue, ErrorKind};
            return match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => Parsed::Exit(e.render().to_string()),
                ErrorKind::UnknownArgument => {
                    let arg = match e.get(ContextKind::InvalidArg) {
                        Some(ContextValue::String(a)) => a.clone(),
                        _ => String::new(),
                    };
                    let known = long_names.iter().chain(&shorts).map(String::as_str);
                    let passes = registry.iter().map(|info| info.name);
                    Parsed::Error(kiln_cli::unknown_argument(&argv0, &arg, known.chain(passes)))
                }
                _ => Parsed::Error(e.render().to_string()),
            };
        }
    };
    match Options::from_arg_matches(&matches) {
        Ok(mut opts) => {
            opts.pass_flags = pass_flags;
            Parsed::Run(Box::new(opts))
        }
        Err(e) => Parsed::Error(e.render().to_string()),
    }
}

/// Takes the pass flags out of `args` and turns mlir-opt's `-long-option` spelling into
/// `--long-option`. Everything after a bare `--` is left alone.
fn extract_pass_flags(
    args: impl Iterator<Item = OsString>,
    registry: &PassRegistry,
    long_names: &[String],
) -> (Vec<OsString>, Vec<(String, Option<String>)>) {
    let mut argv = Vec::new();
    let mut passes = Vec::new();
    let mut literal = false;
    for (i, arg) in args.enumerate() {
        let text = arg.to_str().map(str::to_string);
        let Some(text) = text.filter(|_| i > 0 && !literal) else {
            argv.push(arg);
            continue;
        };
        if text == "--" {
            literal = true;
            argv.push(arg);
            continue;
        }
        let body = match (text.strip_prefix("--"), text.strip_prefix('-')) {
            (Some(b), _) => b,
            (None, Some(b)) if b.len() > 1 => b,
            _ => {
                argv.push(arg);
                continue;
            }
        };
        let name_end = body.find(['=', '{']).unwrap_or(body.len());
        let (name, rest) = body.split_at(name_end);
        if long_names.iter().any(|l| l == name) {
            argv.push(OsString::from(format!("--{body}")));
        } else if registry.get(name).is_some() {
            let options = rest.strip_prefix('=').unwrap_or(rest);
            let options = options.strip_prefix('{').and_then(|o| o.strip_suffix('}')).unwrap_or(options);
            passes.push((name.to_string(), (!options.is_empty()).then(|| options.to_string())));
        } else {
            argv.push(arg);
        }
    }
    (argv, passes)
}

fn pass_flags_help(registry: &PassRegistry) -> String {
    let mut out =
        String::from("Passes (each is also a flag; options as `--name=key=value` or `--name{key=value}`):\n");
    out.push_str(&list_passes(registry));
    out
}

/// The `--list-passes` text: each pass with its summary and options, as mlir-opt lists them.
pub fn list_passes(registry: &PassRegistry) -> String {
    const WIDTH: usize = 40;
    let mut out = String::new();
    for info in registry.iter() {
        out.push_str(&format!("  {:<WIDTH$} -   {}\n", format!("--{}", info.name), info.summary));
        for opt in info.options {
            let value = match opt.kind {
                OptionKind::Bool => String::new(),
                OptionKind::Int => "=<int>".into(),
                OptionKind::UInt => "=<uint>".into(),
                OptionKind::String => "=<string>".into(),
                OptionKind::Enum(words) => format!("=<{}>", words.join("|")),
                OptionKind::List => "=<list>".into(),
            };
            let flag = format!("--{}{value}", opt.name);
            let default =
                if opt.default.is_empty() { String::new() } else { format!(" (default: {})", opt.default) };
            out.push_str(&format!("    {flag:<width$} - {}{default}\n", opt.help, width = WIDTH - 2));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Options {
        match parse(std::iter::once("kiln-opt").chain(args.iter().copied()), &kiln_passes::registry()) {
            Parsed::Run(o) => *o,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pass_flags_become_a_pipeline_in_order() {
        let o = run(&["--cse", "-canonicalize=max-iterations=3", "x.mlir", "--dce{}"]);
        assert_eq!(o.pipeline_text().unwrap().as_deref(), Some("cse,canonicalize{max-iterations=3},dce"));
        assert_eq!(o.input, PathBuf::from("x.mlir"));
    }

    #[test]
    fn braced_pass_options_are_accepted() {
        let o = run(&["--canonicalize{max-iterations=3}"]);
        assert_eq!(o.pipeline_text().unwrap().as_deref(), Some("canonicalize{max-iterations=3}"));
    }

    #[test]
    fn pipeline_and_pass_flags_conflict() {
        let o = run(&["-p", "builtin.module(cse)", "--cse"]);
        assert!(o.pipeline_text().unwrap_err().contains("can't be used with individual pass options"));
    }

    #[test]
    fn single_dash_long_options_are_accepted() {
        let o =
            run(&["-split-input-file", "-verify-diagnostics", "-allow-unregistered-dialect", "-o", "out"]);
        assert_eq!(o.split_input_file.as_deref(), Some(DEFAULT_MARKER));
        assert_eq!(o.verify_diagnostics, Some(VerifyMode::All));
        assert!(o.allow_unregistered_dialect);
        assert_eq!(o.output, PathBuf::from("out"));
        assert_eq!(o.input, PathBuf::from("-"));
    }

    #[test]
    fn optional_values_need_an_equals_sign() {
        let o = run(&["--split-input-file", "in.mlir", "--verify-diagnostics=only-expected"]);
        assert_eq!(o.input, PathBuf::from("in.mlir"));
        assert_eq!(o.verify_diagnostics, Some(VerifyMode::OnlyExpected));
    }

    #[test]
    fn verify_each_defaults_on_and_can_be_turned_off() {
        assert!(run(&[]).verify_each());
        assert!(!run(&["--verify-each=false"]).verify_each());
        assert!(!run(&["--no-verify-each"]).verify_each());
        assert!(run(&["--verify-each"]).verify_each());
    }

    #[test]
    fn print_ir_pass_lists_split_on_commas() {
        let o = run(&["--mlir-print-ir-after=cse,dce", "--mlir-print-ir-after=canonicalize"]);
        assert_eq!(o.mlir_print_ir_after, ["cse", "dce", "canonicalize"]);
    }

    #[test]
    fn unknown_flags_are_errors() {
        let r = parse(["kiln-opt", "--no-such-flag"], &kiln_passes::registry());
        assert!(matches!(r, Parsed::Error(e) if e.contains("--no-such-flag")));
        // mlir-opt's words, with the nearest flag or pass.
        let r = parse(["/bin/kiln-opt", "--cs", "in.mlir"], &kiln_passes::registry());
        let Parsed::Error(e) = r else { panic!("--cs parsed") };
        assert_eq!(
            e,
            "kiln-opt: Unknown command line argument '--cs'.  Try: '/bin/kiln-opt --help'\n\
             kiln-opt: Did you mean '--cse'?\n"
        );
    }

    #[test]
    fn help_lists_the_passes() {
        let Parsed::Exit(text) = parse(["kiln-opt", "--help"], &kiln_passes::registry()) else { panic!() };
        assert!(text.contains("--split-input-file") && text.contains("--cse"), "{text}");
    }
}
