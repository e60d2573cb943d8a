//! kiln-opt, Kiln's mlir-opt: parse MLIR text, verify it, run a pass pipeline over it and
//! print the result, with mlir-opt's flags (`--split-input-file`, `--verify-diagnostics`,
//! `-p`/`--pass-pipeline`, one flag per pass, `--mlir-print-ir-*`, `--mlir-timing`, ...).
//!
//! The binary only calls [`opt_main`]. The parts:
//! - `cli`: the command line, including per-pass flags;
//! - `split`: `--split-input-file` chunks and near-miss marker detection;
//! - `verify_diagnostics`: `expected-*` designators and their matching;
//! - `frontend`: the single bridge to the parser and printer;
//! - `driver`: one run, chunk by chunk.
#![deny(missing_docs)]

mod cli;
mod driver;
mod frontend;
mod split;
mod verify_diagnostics;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

pub use cli::{Options, VerifyMode};
pub use split::{split_input, Chunk, NearMiss, DEFAULT_MARKER};
pub use verify_diagnostics::DiagnosticVerifier;

/// Stack of the thread that does the work: parsing, verification and printing recurse over
/// region nesting, and a large reserve (only touched pages are committed) keeps pathological
/// nesting an error or a success rather than a stack overflow.
const STACK_SIZES: [usize; 3] = [512 << 20, 64 << 20, 8 << 20];

/// Runs kiln-opt on `args` (program name first) with the process's standard streams.
pub fn opt_main<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let mut registry = kiln_passes::registry();
    let opts = match cli::parse(args, &registry) {
        cli::Parsed::Run(opts) => opts,
        cli::Parsed::Exit(text) => {
            let _ = std::io::stdout().write_all(text.as_bytes());
            return ExitCode::SUCCESS;
        }
        cli::Parsed::Error(text) => {
            let _ = std::io::stderr().write_all(text.as_bytes());
            return ExitCode::FAILURE;
        }
    };
    for (pass, options) in opts.pass_defaults() {
        if let Err(e) = registry.add_default_options(pass, &options) {
            let _ = writeln!(std::io::stderr(), "kiln-opt: error: {e}");
            return ExitCode::FAILURE;
        }
    }
    let work = move || {
        let (mut stdin, mut stdout, mut stderr) =
            (std::io::stdin().lock(), std::io::stdout().lock(), std::io::stderr());
        let mut io = driver::Io { stdin: &mut stdin, stdout: &mut stdout, stderr: &mut stderr };
        driver::run(&opts, &registry, &mut io)
    };
    for size in STACK_SIZES {
        let work = work.clone();
        if let Ok(handle) = std::thread::Builder::new().name("kiln-opt".into()).stack_size(size).spawn(work) {
            return match handle.join() {
                Ok(status) => ExitCode::from(status),
                Err(_) => {
                    eprintln!("kiln-opt: internal error: the run panicked; please report this input");
                    ExitCode::FAILURE
                }
            };
        }
    }
    ExitCode::from(work())
}
