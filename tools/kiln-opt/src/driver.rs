//! One run of kiln-opt: read the input, split it, and for each chunk parse, verify, run the
//! pass pipeline and print; then report diagnostics (or check them against the input's
//! `expected-*` designators), timing and statistics.
//!
//! Each chunk gets a fresh context, as in mlir-opt. Diagnostics go to stderr as they are
//! produced; the output is written once at the end: to stdout whatever succeeded, to a `-o`
//! file only if the whole run succeeded.

use std::io::{Read, Write};
use std::path::Path;
use std::time::Instant;

use bumpalo::Bump;
use kiln_compiler::pass::{parse_pipeline, Instrumentation, PassRegistry, TimingDisplay};
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, Diagnostic, Ir, OpId, Severity, SourceMgr};

use crate::cli::{list_passes, Options, VerifyMode};
use crate::frontend::{self, Style};
use crate::split::{self, Chunk};
use crate::verify_diagnostics::DiagnosticVerifier;

/// The standard streams of a run.
pub struct Io<'a> {
    /// Read when the input is `-`.
    pub stdin: &'a mut dyn Read,
    /// Output IR, dialect and pass lists.
    pub stdout: &'a mut dyn Write,
    /// Diagnostics, IR dumps and reports.
    pub stderr: &'a mut dyn Write,
}

/// Runs kiln-opt with `opts`; returns the exit status (0 success, 1 failure).
pub fn run(opts: &Options, registry: &PassRegistry, io: &mut Io<'_>) -> u8 {
    match run_inner(opts, registry, io) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(message) => {
            let _ = write!(io.stderr, "kiln-opt: error: {message}");
            if !message.ends_with('\n') {
                let _ = writeln!(io.stderr);
            }
            1
        }
    }
}

/// `Ok(success)`, or `Err` for a usage or I/O error reported without a source location.
fn run_inner(opts: &Options, registry: &PassRegistry, io: &mut Io<'_>) -> Result<bool, String> {
    if opts.show_dialects {
        let names: Vec<&str> = kiln_dialects::all_dialects().dialects().map(|d| d.name).collect();
        writeln!(io.stdout, "Available Dialects: {}", names.join(",")).map_err(|e| e.to_string())?;
        return Ok(true);
    }
    if opts.list_passes {
        write!(io.stdout, "Passes:\n{}", list_passes(registry)).map_err(|e| e.to_string())?;
        return Ok(true);
    }
    let pipeline = opts.pipeline_text()?;
    if let Some(text) = &pipeline {
        let pm = parse_pipeline(text, registry).map_err(|e| format!("invalid pass pipeline: {e}"))?;
        if opts.dump_pass_pipeline {
            let _ = write!(io.stderr, "{}", pm.dump("builtin.module"));
        }
    }
    for name in opts.mlir_print_ir_before.iter().chain(&opts.mlir_print_ir_after) {
        if registry.get(name).is_none() {
            return Err(format!(
                "'{name}' does not refer to a registered pass; registered passes: {}",
                registry.names()
            ));
        }
    }

    let (input, file_name) = read_input(&opts.input, io.stdin)?;
    // One copy of the text lives in the source manager; the bytes are kept apart only when
    // they are not UTF-8 (the parser reports where).
    let (invalid_bytes, text) = match String::from_utf8(input) {
        Ok(text) => (None, text),
        Err(e) => {
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            (Some(e.into_bytes()), text)
        }
    };
    let mut sources = SourceMgr::new();
    sources.add(file_name.clone(), text);
    let text = sources.text(&file_name).unwrap_or_default();
    let input: &[u8] = invalid_bytes.as_deref().unwrap_or(text.as_bytes());

    let chunks = match &opts.split_input_file {
        None => split::whole(input),
        Some(marker) => match split::split_input(input, marker) {
            Ok(chunks) => chunks,
            Err(misses) => {
                let arena = Bump::new();
                let ctx = Context::new(&arena, kiln_dialects::all_dialects());
                for m in misses {
                    let msg = format!("near miss with file split marker '{}'", marker.trim());
                    let diag = Diagnostic::error(ctx.file_loc(&file_name, m.line, m.col), msg);
                    let _ = io.stderr.write_all(sources.render(&diag).as_bytes());
                }
                return Ok(false);
            }
        },
    };

    let mut verifier = opts.verify_diagnostics.map(|mode| {
        let mut out = String::new();
        let v = DiagnosticVerifier::new(&file_name, text, &mut out);
        let _ = io.stderr.write_all(out.as_bytes());
        (v, mode)
    });

    let style = Style {
        generic: opts.mlir_print_op_generic,
        debug_info: opts.mlir_print_debuginfo,
        local_scope: opts.mlir_print_local_scope,
        elide_elements_above: opts.mlir_elide_elementsattrs_if_larger,
    };
    let printer = printer_for(style);
    let mut instr = Instrumentation::default();
    instr.verify_each = opts.verify_each();
    instr.print_before = opts.mlir_print_ir_before.clone();
    instr.print_before_all = opts.mlir_print_ir_before_all;
    instr.print_after = opts.mlir_print_ir_after.clone();
    instr.print_after_all = opts.mlir_print_ir_after_all;
    instr.print_after_change = opts.mlir_print_ir_after_change;
    instr.print_after_failure = opts.mlir_print_ir_after_failure;
    instr.module_scope = opts.mlir_print_ir_module_scope;
    instr.tree_dir = opts.mlir_print_ir_tree_dir.clone();
    instr.timing = opts.mlir_timing;
    instr.statistics = opts.mlir_pass_statistics;
    instr.printer = Some(&printer);

    let mut all_ok = true;
    let mut outputs = Vec::with_capacity(chunks.len());
    for chunk in &chunks {
        let job =
            ChunkJob { chunk, file_name: &file_name, opts, registry, pipeline: pipeline.as_deref(), style };
        let mut sink =
            DiagnosticSink { sources: &sources, verifier: verifier.as_mut(), stderr: &mut *io.stderr };
        let (output, ok) = job.process(&mut instr, &mut sink);
        let _ = io.stderr.write_all(instr.log.as_bytes());
        instr.log.clear();
        all_ok &= ok;
        outputs.push(output.unwrap_or_default());
    }

    let output = if outputs.len() == 1 {
        outputs.pop().unwrap_or_default()
    } else {
        outputs.join(&format!("{}\n", opts.output_split_marker))
    };
    let success = match verifier {
        Some((v, _)) => {
            let mut out = String::new();
            let ok = v.finish(&mut out);
            let _ = io.stderr.write_all(out.as_bytes());
            ok
        }
        None => all_ok,
    };
    write_output(&opts.output, &output, success, io.stdout)?;
    if opts.mlir_timing {
        let _ = io.stderr.write_all(
            instr
                .timing_report(match opts.mlir_timing_display {
                    crate::cli::TimingMode::Tree => TimingDisplay::Tree,
                    crate::cli::TimingMode::List => TimingDisplay::List,
                })
                .as_bytes(),
        );
    }
    if opts.mlir_pass_statistics {
        let _ = io.stderr.write_all(instr.statistics_report().as_bytes());
    }
    Ok(success)
}

/// The IR printer used for `--mlir-print-ir-*` dumps.
fn printer_for(style: Style) -> impl for<'c> Fn(&Context<'c>, &Ir<'c>, OpId) -> String {
    move |ctx, ir, op| frontend::print_op(ctx, ir, op, style)
}

fn read_input(path: &Path, stdin: &mut dyn Read) -> Result<(Vec<u8>, String), String> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        stdin.read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok((bytes, "<stdin>".to_string()));
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot open input file '{}': {e}", path.display()))?;
    Ok((bytes, path.to_string_lossy().into_owned()))
}

fn write_output(path: &Path, output: &str, success: bool, stdout: &mut dyn Write) -> Result<(), String> {
    if path.as_os_str() == "-" {
        return stdout.write_all(output.as_bytes()).and_then(|()| stdout.flush()).map_err(|e| e.to_string());
    }
    if !success {
        return Ok(());
    }
    kiln_cli::write_file(path, output.as_bytes())
        .map_err(|e| format!("cannot write output file '{}': {e}", path.display()))
}

/// Where the diagnostics of a chunk go: to the verifier under `--verify-diagnostics`,
/// otherwise rendered to stderr.
struct DiagnosticSink<'a, 'v> {
    sources: &'a SourceMgr,
    verifier: Option<&'a mut (DiagnosticVerifier, VerifyMode)>,
    stderr: &'v mut dyn Write,
}

impl DiagnosticSink<'_, '_> {
    fn report(&mut self, diags: &[Diagnostic<'_>]) {
        for diag in diags {
            let text = match &mut self.verifier {
                Some((v, mode)) => {
                    let mut out = String::new();
                    v.process(diag, self.sources, &mut out);
                    if *mode == VerifyMode::OnlyExpected {
                        out.clear();
                    }
                    out
                }
                None => self.sources.render(diag),
            };
            let _ = self.stderr.write_all(text.as_bytes());
        }
    }
}

/// Everything needed to process one chunk.
struct ChunkJob<'a> {
    chunk: &'a Chunk<'a>,
    file_name: &'a str,
    opts: &'a Options,
    registry: &'a PassRegistry,
    pipeline: Option<&'a str>,
    style: Style,
}

impl ChunkJob<'_> {
    /// Parses, verifies, transforms and prints the chunk: (its output if it got that far,
    /// whether it succeeded without errors).
    fn process(
        &self,
        instr: &mut Instrumentation<'_>,
        sink: &mut DiagnosticSink<'_, '_>,
    ) -> (Option<String>, bool) {
        let arena = Bump::new();
        let ctx = Context::new(&arena, kiln_dialects::all_dialects());
        ctx.set_allow_unregistered(self.opts.allow_unregistered_dialect);
        ctx.set_print_op_on_diagnostic(
            self.opts.mlir_print_op_on_diagnostic && self.opts.verify_diagnostics.is_none(),
        );
        if self.opts.debug || !self.opts.debug_only.is_empty() {
            ctx.set_debug(Some(if self.opts.debug { Vec::new() } else { self.opts.debug_only.clone() }));
        }

        let start = Instant::now();
        let parsed = frontend::parse(&ctx, &self.chunk.text, self.file_name);
        instr.add_time(&["Parser".to_string()], start.elapsed());
        let mut module = match parsed {
            Ok(m) => m,
            Err(diags) => {
                sink.report(&diags);
                return (None, false);
            }
        };
        if self.opts.no_implicit_module {
            if let Err(found) = module.unwrap_implicit() {
                let loc = ctx.file_loc(self.file_name, 0, 0);
                let msg = format!("source must contain a single top-level operation, found: {found}");
                sink.report(&[Diagnostic::error(loc, msg)]);
                return (None, false);
            }
        }
        if let Err(diags) = verify(&ctx, &module.ir, module.top) {
            sink.report(&diags);
            return (None, false);
        }
        if self.opts.verify_roundtrip {
            if let Err(diag) =
                verify_roundtrip(&ctx, &module, self.file_name, self.opts.allow_unregistered_dialect)
            {
                sink.report(&[diag]);
                return (None, false);
            }
        }
        // mlir-opt refuses this while setting up its pass manager (after parsing, before the
        // pipeline), with a message that ends in a newline of its own.
        if self.opts.mlir_print_ir_module_scope && !self.opts.mlir_disable_threading {
            let msg = "IR print for module scope can't be setup on a pass-manager without disabling \
                       multi-threading first.\n";
            sink.report(&[Diagnostic::error(ctx.unknown_loc(), msg)]);
            return (None, false);
        }
        let mut diags = Vec::new();
        let recorded = self.opts.run_reproducer.then(|| reproducer_pipeline(&module)).flatten();
        if self.opts.run_reproducer && recorded.is_none() {
            let loc = module.ir.op(module.top).loc;
            sink.report(&[Diagnostic::error(
                loc,
                "the input has no 'mlir_reproducer' resource with a pipeline",
            )]);
            return (None, false);
        }
        if let Some(text) = recorded.as_deref().or(self.pipeline) {
            let result = match parse_pipeline(text, self.registry) {
                Ok(mut pm) => {
                    let snapshot = self.opts.mlir_pass_pipeline_crash_reproducer.as_ref().map(|_| {
                        let top = module.ir.op(module.top).name;
                        (frontend::print_module(&ctx, &module, self.style), pm.textual(top))
                    });
                    let result = pm.run(&ctx, &mut module.ir, module.top, instr, &mut diags);
                    if let (Err(_), Some(path), Some((ir_text, pipeline))) =
                        (&result, &self.opts.mlir_pass_pipeline_crash_reproducer, snapshot)
                    {
                        let failure = instr.failure.take().unwrap_or_default();
                        diags.push(write_reproducer(&module, path, &ir_text, &pipeline, &failure));
                    }
                    result
                }
                Err(e) => {
                    diags.push(Diagnostic::error(ctx.unknown_loc(), e));
                    Err(kiln_compiler::pass::PassFailed)
                }
            };
            sink.report(&diags);
            if result.is_err() {
                return (None, false);
            }
        }
        let start = Instant::now();
        let mut text = frontend::print_module(&ctx, &module, self.style);
        instr.add_time(&["Output".to_string()], start.elapsed());
        // mlir-opt ends every printed top-level op with an empty line.
        while text.ends_with('\n') {
            text.pop();
        }
        text.push_str("\n\n");
        let errors = diags.iter().any(|d| d.severity == Severity::Error);
        (Some(text), !errors)
    }
}

/// `--verify-roundtrip`: the generic form (with locations) of `module` is the reference; the
/// generic and the custom form are each parsed back in a fresh context and must print that
/// reference again. The error is MLIR's, on the top-level op.
fn verify_roundtrip<'c>(
    ctx: &Context<'c>,
    module: &kiln_compiler::Module<'c>,
    file_name: &str,
    allow_unregistered: bool,
) -> Result<(), Diagnostic<'c>> {
    let generic = Style { generic: true, debug_info: true, ..Style::default() };
    let reference = frontend::print_module(ctx, module, generic);
    let op_error = |msg: String| {
        let name = module.ir.op(module.top).name;
        Diagnostic::error(module.ir.op(module.top).loc, format!("'{name}' op {msg}"))
    };
    for (form, style) in [("generic", generic), ("custom", Style { generic: false, ..generic })] {
        let text = frontend::print_module(ctx, module, style);
        let arena = Bump::new();
        let fresh = Context::new(&arena, kiln_dialects::all_dialects());
        fresh.set_allow_unregistered(allow_unregistered);
        let Ok(back) = frontend::parse(&fresh, text.as_bytes(), file_name) else {
            return Err(op_error(format!("failed to parse {form} content back, cannot verify round-trip.")));
        };
        let again = frontend::print_module(&fresh, &back, generic);
        if again != reference {
            return Err(op_error(format!(
                "{form} roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n{reference}\n=====\n{again}\n>>>>>roundtripped"
            )));
        }
    }
    Ok(())
}

/// Writes mlir-opt's crash reproducer: the IR the pipeline started from, then the pipeline as
/// the `mlir_reproducer` external resource; returns the error that names the failing pass and
/// the file (or says the file could not be written).
fn write_reproducer<'c>(
    module: &kiln_compiler::Module<'c>,
    path: &Path,
    ir_text: &str,
    pipeline: &str,
    failure: &str,
) -> Diagnostic<'c> {
    let escaped = pipeline.replace('\\', "\\\\").replace('"', "\\\"");
    let text = format!(
        "{}\n\n{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      pipeline: \"{escaped}\",\n      disable_threading: true,\n      verify_each: true\n    }}\n  }}\n#-}}\n",
        ir_text.trim_end()
    );
    let loc = module.ir.op(module.top).loc;
    let diag = Diagnostic::error(loc, "Failures have been detected while processing an MLIR pass pipeline");
    match kiln_cli::write_file(path, text.as_bytes()) {
        Ok(()) => diag.with_note(
            loc,
            format!(
                "Pipeline failed while executing [{failure}]: reproducer generated at `{}`",
                path.display()
            ),
        ),
        Err(e) => diag.with_note(loc, format!("cannot write the reproducer '{}': {e}", path.display())),
    }
}

/// The pipeline recorded in a reproducer: `external_resources` -> `mlir_reproducer` ->
/// `pipeline`, a quoted string kept as written.
fn reproducer_pipeline(module: &kiln_compiler::Module<'_>) -> Option<String> {
    let quoted = module.resources.get("external_resources")?.get("mlir_reproducer")?.get("pipeline")?;
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next()? } else { c });
    }
    Some(out)
}
