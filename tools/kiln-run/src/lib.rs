//! `kiln-run`: runs a function of an MLIR module on host tensors and prints (or saves) its
//! results. By default the module is compiled (`kiln-fuse`, `kiln-codegen`, the emitter) and
//! run on the VM, or a `.kbc` bytecode file is loaded and run (a shape class's on inputs of
//! any shape it admits, `--input` files or `--input-shape N=DIMS`); `--interpret` uses the `hl`
//! reference interpreter, the oracle of every correctness test, and `--check` runs both and
//! compares. Inputs come from `.npy` files or from a seed. A function with `?` dims is
//! specialized to its inputs' shapes before it runs (see the `inputs` module).
#![deny(missing_docs)]

mod check;
mod class;
pub mod convert;
mod format;
mod inputs;
mod vm;

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use bumpalo::Bump;
use clap::Parser;
use kiln_compiler::syntax::parse_bytes;
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, Diagnostic, Ir, OpId, SourceMgr};
use kiln_dialects::hl::interp::program::run_function_within;
use kiln_dialects::hl::interp::{encode_npy, Budget, Tensor};

/// kiln-run: run a function of an MLIR module and print its results.
///
/// Dynamic shapes: a function whose arguments have `?` dims runs on inputs of any conforming
/// shape, given as `--input FILE.npy` or, for a random input, as `--input-shape NAME=DIMS`.
/// Before anything runs, every input is checked against the signature (its rank, every static
/// dim, its element type). With `--dynamic-shape=true` (the default) the module is compiled
/// once, as a shape class (one kernel per row shape class, its tiling computed at launch), and
/// run on the inputs' shapes; a module that is not a row class falls back to specialization,
/// with a note on standard error. Specialization (`--dynamic-shape=false`): the function's
/// arguments take the inputs' shapes, shape inference makes every `?` static, and the module
/// is verified again and compiled for them. The interpreter (`--interpret`) and `--check`'s
/// reference run the specialized module.
#[derive(Parser, Debug)]
#[command(name = "kiln-run", version)]
struct Cli {
    /// The module (MLIR text); `-` reads standard input.
    input: PathBuf,
    /// Run on the `hl` reference interpreter instead of the VM.
    #[arg(long)]
    interpret: bool,
    /// Run on both the VM and the interpreter and compare (exit 1 on a mismatch); the VM run
    /// is checked for unsynchronized pipes as well.
    #[arg(long, conflicts_with = "interpret")]
    check: bool,
    /// Print the VM's counters and the simulated device time.
    #[arg(long)]
    stats: bool,
    /// A function with `?` dims compiles once as a shape class and runs on the inputs' shapes
    /// (true, the default), or is specialized to them and compiled for them (false).
    #[arg(long, value_name = "BOOL", default_value_t = true, action = clap::ArgAction::Set)]
    dynamic_shape: bool,
    /// Compile every op as its own kernel (no kiln-fuse), to compare with the fused program;
    /// the same as `--opt-level=0`.
    #[arg(long, conflicts_with = "opt_level")]
    no_fuse: bool,
    /// The fusion level: 0 runs no kiln-fuse (every op its own kernel), 1 fuses elementwise
    /// chains and reductions forward, 2 adds stitched reductions, matmul epilogues and
    /// horizontal fusion (kiln-fuse's opt-level).
    #[arg(long, value_name = "0|1|2", default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=2))]
    opt_level: u8,
    /// Run the VM N times after one warm-up and print the median, min and max wall time.
    #[arg(long, value_name = "N")]
    repeat: Option<usize>,
    /// Write a Chrome/Perfetto trace of the simulated run.
    #[arg(long, value_name = "FILE.json")]
    trace: Option<PathBuf>,
    /// The VM's step budget (one per instruction, vector repeat, 4096 cube MACs or 256 bytes
    /// moved): a run that needs more stops with an error.
    #[arg(long, value_name = "N", default_value_t = kiln_vm::DEFAULT_MAX_STEPS)]
    max_steps: u64,
    /// The target: a name (`ascend910b`, `tiny-npu`) or a path to a target TOML file.
    #[arg(long, default_value = kiln_targets::DEFAULT_TARGET)]
    target: String,
    /// The function to run (default: the first `func.func` with a body).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Input tensors as `.npy` files, in argument order; missing ones are drawn from `--seed`.
    /// Each must have the argument's rank, element type and static dims; a `?` dim takes any
    /// size.
    #[arg(long = "input", value_name = "FILE.npy")]
    inputs: Vec<PathBuf>,
    /// The shape of a random input for an argument with `?` dims: the argument's number or
    /// name (its `loc("name")`), then its dims, each at least 1 (`0=2x128`, `x=2x128`;
    /// repeatable).
    #[arg(long = "input-shape", value_name = "NAME=DIMS", value_parser = inputs::parse_input_shape)]
    input_shapes: Vec<inputs::InputShape>,
    /// Seed of the random inputs (floats uniform in [-2, 2), small integers).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write each result as `<DIR>/result<N>.npy`.
    #[arg(long, value_name = "DIR")]
    output_dir: Option<PathBuf>,
    /// How many elements of each result to print (0: only shape and summary).
    #[arg(long, default_value_t = 16)]
    print_limit: usize,
    /// Bound on the bytes of all live tensors (arguments and values): a count of bytes with an
    /// optional `KiB`, `MiB` or `GiB` suffix.
    #[arg(long, value_name = "SIZE", default_value = "1GiB", value_parser = parse_size)]
    max_memory: u64,
    /// Accept ops of dialects that are not registered (they cannot be interpreted).
    #[arg(long)]
    allow_unregistered_dialect: bool,
}

/// Runs kiln-run with command-line `args` (program name first); returns the exit status.
pub fn run_main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let (code, out, err) = run_captured(args);
    // A reader that stops early (`kiln-run ... | head`, a FileCheck that failed) closes the
    // pipe: the rest of the output has nowhere to go, which is not an error of the run.
    let _ = std::io::stdout().write_all(out.as_bytes());
    let _ = std::io::stderr().write_all(err.as_bytes());
    code
}

/// Runs kiln-run with command-line `args` as [`run_main`] does, but returns what it would print
/// to standard output and to standard error along with the exit status (for callers that
/// report the reason of a failure, such as tests). Argument errors are printed by the parser.
pub fn run_captured(args: impl IntoIterator<Item = OsString>) -> (ExitCode, String, String) {
    let args: Vec<OsString> = args.into_iter().collect();
    let cli: Cli = match kiln_cli::parse(&args, "kiln-run") {
        Ok(cli) => cli,
        Err(code) => return (code, String::new(), String::new()),
    };
    match run(&cli) {
        Ok((out, note, true)) => (ExitCode::SUCCESS, out, note),
        Ok((out, note, false)) => (ExitCode::FAILURE, out, note),
        Err(message) => (ExitCode::FAILURE, String::new(), message),
    }
}

/// Runs the command; returns what to print, the notes for standard error and whether
/// `--check` found agreement.
fn run(cli: &Cli) -> Result<(String, String, bool), String> {
    let name = cli.input.display().to_string();
    let bytes = if name == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
            .map_err(|e| format!("kiln-run: error: {e}\n"))?;
        b
    } else {
        std::fs::read(&cli.input).map_err(|e| format!("kiln-run: error: cannot read '{name}': {e}\n"))?
    };
    if bytes.starts_with(&kiln_bytecode::format::MAGIC) {
        if cli.interpret || cli.check {
            return Err(
                "kiln-run: error: --interpret and --check need the MLIR module, not bytecode\n".into()
            );
        }
        return vm::run_bytecode(cli, &bytes).map(|out| (out, String::new(), true));
    }
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(cli.allow_unregistered_dialect);
    let mut sm = SourceMgr::new();
    sm.add(name.clone(), String::from_utf8_lossy(&bytes).into_owned());
    let render = |diags: Vec<Diagnostic<'_>>| diags.iter().map(|d| sm.render(d)).collect::<String>();
    let mut module = parse_bytes(&ctx, &bytes, &name).map_err(render)?;
    module.inline_dense_resources(&ctx).map_err(|e| format!("kiln-run: error: {name}: {e}\n"))?;
    verify(&ctx, &module.ir, module.top).map_err(render)?;
    let func = find_entry(&module.ir, module.top, cli.entry.as_deref())?;
    let mut budget = Budget::new(cli.max_memory);
    let args = inputs::inputs(&module.ir, func, cli, &budget)?;
    // The module as written, for a shape class (the interpreter runs the specialized one).
    let class_ir =
        (cli.dynamic_shape && !cli.interpret && kiln_emit::compile::has_dynamic_dims(&module.ir, module.top))
            .then(|| module.ir.clone());
    inputs::specialize(&ctx, &mut module.ir, func, &args).map_err(|d| {
        let shapes: Vec<String> = args.iter().map(|a| format!("{:?}", a.shape())).collect();
        format!(
            "kiln-run: error: cannot specialize the function to the inputs' shapes {}:\n{}",
            shapes.join(", "),
            render(d)
        )
    })?;
    verify(&ctx, &module.ir, module.top).map_err(render)?;
    if cli.check {
        // The reference is the program the back end compiles: after the decompositions.
        kiln_emit::compile::cleanup(&ctx, &mut module.ir, module.top).map_err(render)?;
    }
    let reference = if cli.interpret || cli.check {
        Some(run_function_within(&ctx, &module.ir, func, &args, &mut budget).map_err(|d| render(vec![d]))?)
    } else {
        None
    };
    if cli.interpret {
        let results = reference.expect("interpreted");
        return Ok((print_results(cli, &results)?, String::new(), true));
    }
    let target = kiln_targets::Target::load(&cli.target).map_err(|e| format!("kiln-run: error: {e}\n"))?;
    let opt_level = if cli.no_fuse { 0 } else { cli.opt_level };
    let mut note = String::new();
    let class = match class_ir {
        Some(mut ir) => {
            vm::keep_only_entry(&ctx, &mut ir, module.top, func)?;
            match kiln_emit::compile::compile_class(
                &ctx,
                &mut ir,
                module.top,
                &target,
                &cli.target,
                opt_level,
            ) {
                Ok(program) => {
                    let specs: Result<Vec<_>, _> =
                        args.iter().map(|a| convert::to_host(a).map(|h| h.spec)).collect();
                    match specs.and_then(|s| program.bind(&s).map_err(|e| e.0)) {
                        Ok(_) => Some(program),
                        Err(e) => {
                            // A `?` dim broadcast from 1, say: another shape class.
                            note = format!(
                                "kiln-run: note: the inputs are not in the module's shape class ({e}), specialized to their shapes instead\n"
                            );
                            None
                        }
                    }
                }
                Err(d) => {
                    note = format!(
                        "kiln-run: note: not compiled as a shape class, specialized to the inputs' shapes instead:\n{}",
                        render(d)
                    );
                    None
                }
            }
        }
        None => None,
    };
    let program = match class {
        Some(program) => program,
        None => {
            vm::keep_only_entry(&ctx, &mut module.ir, module.top, func)?;
            kiln_emit::compile::compile(&ctx, &mut module.ir, module.top, &target, &cli.target, opt_level)
                .map_err(render)?
                .into()
        }
    };
    let (results, mut out) = vm::run_program(cli, &target, &program, &args)?;
    out.insert_str(0, &print_results(cli, &results)?);
    let mut agree = true;
    if let Some(reference) = reference {
        let diffs: Vec<String> = results
            .iter()
            .zip(&reference)
            .enumerate()
            .filter_map(|(i, (v, r))| check::first_difference(i, v, r))
            .collect();
        if diffs.is_empty() && results.len() == reference.len() {
            out.push_str(&format!("check: the VM and the interpreter agree on {} results\n", results.len()));
        } else {
            agree = false;
            for d in diffs {
                out.push_str(&format!("check: mismatch: {d}\n"));
            }
        }
    }
    Ok((out, note, agree))
}

/// The results as printed (and written with `--output-dir`).
pub(crate) fn print_results(cli: &Cli, results: &[Tensor]) -> Result<String, String> {
    let mut out = String::new();
    for (i, t) in results.iter().enumerate() {
        out.push_str(&format::describe(i, t, cli.print_limit));
        if let Some(dir) = &cli.output_dir {
            std::fs::create_dir_all(dir).map_err(|e| format!("kiln-run: error: {}: {e}\n", dir.display()))?;
            let path = dir.join(format!("result{i}.npy"));
            kiln_cli::write_file(&path, &encode_npy(t))
                .map_err(|e| format!("kiln-run: error: {}: {e}\n", path.display()))?;
        }
    }
    Ok(out)
}

/// A byte count with an optional binary suffix (`KiB`, `MiB`, `GiB`), e.g. `512MiB`.
fn parse_size(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let shift = match unit {
        "" | "B" => 0,
        "KiB" => 10,
        "MiB" => 20,
        "GiB" => 30,
        _ => return Err(format!("unknown unit '{unit}' (expected B, KiB, MiB or GiB)")),
    };
    let n: u64 = digits.parse().map_err(|_| format!("expected a byte count, but got '{text}'"))?;
    n.checked_mul(1 << shift).ok_or_else(|| format!("'{text}' does not fit in 64 bits"))
}

/// The function to run: `@entry`, or the first `func.func` with a body.
fn find_entry(ir: &Ir<'_>, top: OpId, entry: Option<&str>) -> Result<OpId, String> {
    let funcs: Vec<OpId> = ir
        .regions(top)
        .iter()
        .flat_map(|&r| ir.region_blocks(r).flat_map(|b| ir.block_ops(b)).collect::<Vec<_>>())
        .filter(|&op| ir.is(op, &kiln_dialects::func::FUNC_OP))
        .collect();
    let name = |op: OpId| ir.attr(op, "sym_name").and_then(|a| a.as_str()).map(String::from_utf8_lossy);
    let has_body = |op: OpId| ir.regions(op).first().and_then(|&r| ir.entry_block(r)).is_some();
    let found = match entry {
        Some(e) => funcs.iter().copied().find(|&f| name(f).as_deref() == Some(e)),
        None => funcs.iter().copied().find(|&f| has_body(f)),
    };
    found.ok_or_else(|| match entry {
        Some(e) => format!("kiln-run: error: no function named '@{e}' in the module\n"),
        None => "kiln-run: error: the module has no function with a body\n".to_string(),
    })
}
