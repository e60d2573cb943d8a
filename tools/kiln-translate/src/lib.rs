//! `kiln-translate`: between `npuvec` IR and kernel bytecode, and from ONNX models to `hl`.
//!
//! - `kiln-translate --emit-bytecode in.mlir -o out.kbc [--target T]` emits a planned module
//!   as bytecode. A module that still has `hl` or `fused` ops is first compiled with
//!   `builtin.module(hl-decompose, hl-canonicalize, cse, dce, kiln-fuse{opt-level=2},
//!   kiln-codegen{target=T})`. The target is `--target`, else the module's `npuvec.target`,
//!   else the default target. The emitted module is validated for the target before it is
//!   written. IR of a shape class (the form `--disassemble` writes for one: kernels with
//!   `npuvec.param_ranges`, a host function with `npuvec.symbols`; `docs/backend.md`,
//!   "Dynamic shapes") is emitted as a class file, with its class section; it skips the IR
//!   verifier, which refuses its `?` GM memrefs, and is checked by the emitter and the
//!   validator.
//! - `kiln-translate --disassemble in.kbc [-o out.mlir]` loads bytecode, static or of a shape
//!   class (decode and validate against the target the file names, or `--target`) and prints
//!   `npuvec` IR that `--emit-bytecode` turns into the identical bytes.
//! - `kiln-translate --import-onnx model.onnx -o model.mlir [--input-shape name=1x128]...
//!   [--initializers-as-args]` imports an ONNX model as an `hl` module (see `kiln_onnx`),
//!   printed with its locations (the node names); an input's symbolic dims that no
//!   `--input-shape` fixes are `?` dims (`kiln-run` specializes them at launch).
//! - With the `mlir` feature (LLVM 22's MLIR libraries, through `kiln-mlir`):
//!   `kiln-translate --import-mlir in.mlir [-o out.mlir]` parses and verifies any upstream MLIR
//!   (custom or generic form) with MLIR itself and converts its TOSA ops to `hl`
//!   (`tosa-to-hl`); `kiln-translate --export-tosa in.mlir [-o out.mlir]` converts `hl` to TOSA
//!   (`hl-decompose, hl-to-tosa`) and has MLIR verify and print it in its custom form.
//!
//! Errors read `kiln-translate: ...` (IR errors as located diagnostics) and exit with 1; the
//! output is written to a temporary file next to it and renamed, so nothing is left half-way.
#![deny(missing_docs)]

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bumpalo::Bump;
use clap::Parser;
use kiln_compiler::syntax::{parse_bytes, print_module, PrintOptions};
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, Diagnostic, SourceMgr};
use kiln_targets::Target;

mod mlir;

/// kiln-translate: npuvec IR to kernel bytecode and back.
#[derive(Parser, Debug)]
#[command(name = "kiln-translate", version)]
#[command(group = clap::ArgGroup::new("mode").required(true))]
struct Cli {
    /// The input: MLIR text (`--emit-bytecode`, `--import-mlir`, `--export-tosa`) or bytecode
    /// (`--disassemble`); `-` reads standard input.
    input: PathBuf,
    /// Emit the module as kernel bytecode.
    #[arg(long, group = "mode")]
    emit_bytecode: bool,
    /// Print bytecode as npuvec IR.
    #[arg(long, group = "mode")]
    disassemble: bool,
    /// Import an ONNX model as an `hl` module.
    #[arg(long, group = "mode")]
    import_onnx: bool,
    /// With --import-onnx: the shape of a graph input, replacing symbolic dims
    /// (`name=1x128`; repeatable). Without it, a symbolic dim is a `?` of the signature.
    #[arg(long, value_name = "NAME=DIMS", requires = "import_onnx")]
    input_shape: Vec<String>,
    /// With --import-onnx: floating-point initializers become trailing function arguments
    /// instead of constants.
    #[arg(long, requires = "import_onnx")]
    initializers_as_args: bool,
    /// With --import-onnx: a graph input's value, fixed at import (`name=x.npy`; repeatable):
    /// it becomes a constant, so a shape, axes or pads input it feeds is known.
    #[arg(long, value_name = "NAME=FILE.npy", requires = "import_onnx")]
    constant_input: Vec<String>,
    /// With --import-onnx: compile the imported module in the same process and write kernel
    /// bytecode (as --emit-bytecode on the printed module, without printing and parsing it).
    #[arg(long, requires = "import_onnx")]
    compile: bool,
    /// Read upstream MLIR (parsed and verified by MLIR) and convert its TOSA ops to hl (needs
    /// the `mlir` feature).
    #[arg(long, group = "mode")]
    import_mlir: bool,
    /// Convert hl to TOSA, verified and printed by MLIR (needs the `mlir` feature).
    #[arg(long, group = "mode")]
    export_tosa: bool,
    /// The output file (`-`: standard output, the default except for `--emit-bytecode`).
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// The target: a name (`tiny-npu`) or a TOML file.
    #[arg(long, value_name = "T")]
    target: Option<String>,
    /// Accept ops of dialects that are not registered (read by name).
    #[arg(long)]
    allow_unregistered_dialect: bool,
}

/// Runs kiln-translate with command-line `args` (program name first); returns the exit status.
pub fn translate_main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().collect();
    let cli: Cli = match kiln_cli::parse(&args, "kiln-translate") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprint!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// A `kiln-translate: error: ...` line.
fn error(message: impl std::fmt::Display) -> String {
    format!("kiln-translate: error: {message}\n")
}

fn run(cli: &Cli) -> Result<(), String> {
    let name = cli.input.display().to_string();
    let bytes = if name == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map_err(error)?;
        b
    } else {
        std::fs::read(&cli.input).map_err(|e| error(format!("cannot read '{name}': {e}")))?
    };
    if cli.import_onnx {
        if cli.compile && cli.output.is_none() {
            return Err(error("--compile needs an output file: -o FILE"));
        }
        let data = import_onnx(cli, &bytes)?;
        write_output(cli.output.as_deref(), &data)
    } else if cli.disassemble {
        let text = disassemble(cli, &bytes, &name)?;
        write_output(cli.output.as_deref(), text.as_bytes())
    } else if cli.import_mlir || cli.export_tosa {
        let text = String::from_utf8(bytes).map_err(|_| error(format!("'{name}' is not UTF-8 text")))?;
        let out = mlir::translate(&text, &name, cli.export_tosa)?;
        write_output(cli.output.as_deref(), out.as_bytes())
    } else {
        let Some(out) = cli.output.as_deref() else {
            return Err(error("--emit-bytecode needs an output file: -o FILE"));
        };
        let code = emit_bytecode(cli, &bytes, &name)?;
        write_output(Some(out), &code)
    }
}

/// Loads a target by name or path.
fn load_target(spec: &str) -> Result<Target, String> {
    Target::load(spec).map_err(error)
}

/// The disassembly of a `.kbc` file: a static module's, or a shape class's (the class form,
/// which `--emit-bytecode` reads back).
fn disassemble(cli: &Cli, bytes: &[u8], name: &str) -> Result<String, String> {
    let program = kiln_bytecode::decode_class(bytes).map_err(|e| error(format!("{name}: {e}")))?;
    let target = load_target(cli.target.as_deref().unwrap_or(&program.module.target))?;
    kiln_bytecode::validate_class(&program, &target).map_err(|e| error(format!("{name}: {e}")))?;
    kiln_emit::disassemble_class(&program, &target).map_err(|e| error(format!("{name}: {e}")))
}

/// The imported module printed (with locations), or compiled to bytecode with `--compile`.
fn import_onnx(cli: &Cli, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let input_shapes =
        cli.input_shape.iter().map(|s| kiln_onnx::parse_input_shape(s)).collect::<Result<_, _>>();
    let mut constant_inputs = Vec::new();
    for spec in &cli.constant_input {
        let (name, path) = spec
            .rsplit_once('=')
            .ok_or_else(|| error(format!("invalid --constant-input '{spec}': expected 'name=x.npy'")))?;
        let t = kiln_dialects::hl::interp::read_npy(Path::new(path), None)
            .map_err(|e| error(format!("--constant-input {name}: {}", e.message())))?;
        constant_inputs.push((name.to_string(), t));
    }
    let options = kiln_onnx::ImportOptions {
        input_shapes: input_shapes.map_err(error)?,
        initializers_as_args: cli.initializers_as_args,
        constant_inputs,
        dense_weights: cli.compile,
    };
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut module = kiln_onnx::import_model(&ctx, bytes, &cli.input, &options).map_err(error)?;
    if !cli.compile {
        return Ok(print_module(
            &ctx,
            &module,
            &PrintOptions { debug_info: true, ..PrintOptions::default() },
        )
        .into_bytes());
    }
    let sm = SourceMgr::new();
    compile(cli, &ctx, &mut module, &|diags| diags.iter().map(|d| sm.render(d)).collect())
}

fn emit_bytecode(cli: &Cli, bytes: &[u8], name: &str) -> Result<Vec<u8>, String> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(cli.allow_unregistered_dialect);
    let mut sm = SourceMgr::new();
    sm.add(name.to_string(), String::from_utf8_lossy(bytes).into_owned());
    let render = |diags: &[Diagnostic<'_>]| diags.iter().map(|d| sm.render(d)).collect::<String>();
    let mut module = parse_bytes(&ctx, bytes, name).map_err(|d| render(&d))?;
    module.inline_dense_resources(&ctx).map_err(|e| error(format!("{name}: {e}")))?;
    compile(cli, &ctx, &mut module, &render)
}

/// Verifies and compiles `module` for the target (`--target`, the module's `npuvec.target`, or
/// the default) and encodes the bytecode; diagnostics are rendered by `render`.
fn compile<'c>(
    cli: &Cli,
    ctx: &Context<'c>,
    module: &mut kiln_compiler::Module<'c>,
    render: &dyn Fn(&[Diagnostic<'_>]) -> String,
) -> Result<Vec<u8>, String> {
    verify(ctx, &module.ir, module.top).map_err(|d| render(&d))?;
    let named = module.ir.attr(module.top, "npuvec.target").and_then(|a| a.as_str());
    let named = named.map(|n| String::from_utf8_lossy(n).into_owned());
    let spec = cli.target.clone().or(named).unwrap_or_else(|| kiln_targets::DEFAULT_TARGET.to_string());
    let target = load_target(&spec)?;
    let compiled = kiln_emit::compile::compile_class(ctx, &mut module.ir, module.top, &target, &spec, 2)
        .map_err(|d| render(&d))?;
    let invalid = |e| error(format!("the emitted bytecode does not validate for '{}': {e}", target.name));
    if compiled.class.is_static() {
        kiln_bytecode::validate(&compiled.module, &target).map_err(invalid)?;
        return Ok(kiln_bytecode::encode(&compiled.module));
    }
    kiln_bytecode::validate_class(&compiled, &target).map_err(invalid)?;
    Ok(kiln_bytecode::encode_class(&compiled))
}

/// Writes `data` to `path` (`None` or `-`: standard output) with [`kiln_cli::write_file`]:
/// a file is replaced whole or not at all, `/dev/null` and pipes are written in place.
fn write_output(path: Option<&Path>, data: &[u8]) -> Result<(), String> {
    let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
        let mut out = std::io::stdout().lock();
        return out.write_all(data).and_then(|()| out.flush()).map_err(error);
    };
    kiln_cli::write_file(path, data).map_err(|e| error(format!("cannot write '{}': {e}", path.display())))
}
