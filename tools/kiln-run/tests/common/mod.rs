//! What the VM differentials share: compiling a program with a pipeline, running it on the
//! VM (validating loader, sync checker, recycled buffers) and on the interpreter, and running
//! many generated programs on threads.

use bumpalo::Bump;
use kiln_compiler::syntax::parse_bytes;
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, Ir, OpId};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::program::{dtype_of, run_function_within};
use kiln_dialects::hl::interp::{random_tensor, Budget, Tensor};
use kiln_emit::compile::{cleanup, run_pipeline};
use kiln_run::convert::{from_host, to_host};
use kiln_targets::Target;
use kiln_vm::sync_check::SyncChecker;
use kiln_vm::{HostTensor, Vm, VmConfig};

/// The first function with a body.
pub fn entry(ir: &Ir<'_>, top: OpId) -> OpId {
    ir.regions(top)
        .iter()
        .flat_map(|&r| ir.region_blocks(r).flat_map(|b| ir.block_ops(b)).collect::<Vec<_>>())
        .find(|&op| ir.op(op).name == "func.func")
        .expect("a function")
}

/// Seeded random arguments of function `func` (argument `i` from seed `seed + i`).
pub fn random_args(ir: &Ir<'_>, func: OpId, seed: u64) -> Vec<Tensor> {
    random_args_rows(ir, func, 1, seed)
}

/// [`random_args`] with each `?` dim `rows` long.
pub fn random_args_rows(ir: &Ir<'_>, func: OpId, rows: usize, seed: u64) -> Vec<Tensor> {
    let body = ir.entry_block(ir.regions(func)[0]).expect("a body");
    ir.block_args(body)
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            let (shape, elem) = tensor_parts(ir.value_type(a)).expect("tensor arguments");
            let dims = shape.iter().map(|&d| if d < 0 { rows } else { d as usize }).collect();
            random_tensor(dtype_of(elem).expect("an hl dtype"), dims, seed.wrapping_add(i as u64))
        })
        .collect()
}

pub const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// The compiled module: no `hl` / `fused` op, prints and reparses to the same text, and (with
/// `with_mlir`) mlir-opt 22 accepts its generic form after `npuvec-lower-memory-spaces`.
pub fn check_lowered<'c>(
    ctx: &Context<'c>,
    module: &mut kiln_compiler::Module<'c>,
    with_mlir: bool,
) -> Result<(), String> {
    use kiln_compiler::syntax::{print_module, PrintOptions};
    let ir = &module.ir;
    if let Some(op) = ir.walk(module.top, kiln_compiler::ir::WalkOrder::PreOrder).find(|&o| {
        let n = ir.op(o).name;
        n.starts_with("hl.") || n.starts_with("fused.")
    }) {
        return Err(format!("'{}' is left after kiln-codegen", ir.op(op).name));
    }
    let text = print_module(ctx, module, &PrintOptions::default());
    let again = parse_bytes(ctx, text.as_bytes(), "lowered").map_err(|d| format!("reparse: {d:?}"))?;
    verify(ctx, &again.ir, again.top).map_err(|d| format!("reverify: {d:?}"))?;
    if print_module(ctx, &again, &PrintOptions::default()) != text {
        return Err("the lowered module does not print back identically".into());
    }
    if !with_mlir || !std::path::Path::new(MLIR_OPT).exists() {
        return Ok(());
    }
    let mut pm = kiln_compiler::pass::parse_pipeline(
        "builtin.module(npuvec-lower-memory-spaces)",
        &kiln_passes::registry(),
    )?;
    let mut diags = Vec::new();
    pm.run(ctx, &mut module.ir, module.top, &mut kiln_compiler::pass::Instrumentation::default(), &mut diags)
        .map_err(|_| format!("npuvec-lower-memory-spaces: {diags:?}"))?;
    let generic = print_module(ctx, module, &PrintOptions { generic: true, ..PrintOptions::default() });
    let mut child = std::process::Command::new(MLIR_OPT)
        .args(["--allow-unregistered-dialect", "-o", "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    std::io::Write::write_all(child.stdin.as_mut().expect("piped"), generic.as_bytes())
        .map_err(|e| e.to_string())?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("mlir-opt rejects the generic form: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

/// What [`run_both`] gives: the pairs of results (VM, interpreter), of equal shapes and
/// types, and the kinds of the compiled kernels (`npuvec.kind`).
pub struct Ran {
    /// The results.
    pub pairs: Vec<(Tensor, Tensor)>,
    /// The kernels' kinds, in order.
    pub kinds: Vec<String>,
}

/// Runs one program, compiled by `pipeline` (textual, on `builtin.module`), on the VM and on
/// the interpreter (the cleaned-up program, arguments from `seed`); `Err` for any failure on
/// the way (see `vm_differential.rs`'s header for the checks).
pub fn run_both(
    text: &str,
    target_name: &str,
    pipeline: &str,
    seed: u64,
    with_mlir: bool,
) -> Result<Ran, String> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut module = parse_bytes(&ctx, text.as_bytes(), "program").map_err(|d| format!("{d:?}"))?;
    verify(&ctx, &module.ir, module.top).map_err(|d| format!("{d:?}"))?;
    cleanup(&ctx, &mut module.ir, module.top).map_err(|d| format!("{d:?}"))?;
    let func = entry(&module.ir, module.top);
    let args = random_args(&module.ir, func, seed);
    let reference = run_function_within(&ctx, &module.ir, func, &args, &mut Budget::new(1 << 30))
        .map_err(|d| format!("interpreter: {}", d.message))?;
    let target = Target::load(target_name).map_err(|e| e.to_string())?;
    run_pipeline(&ctx, &mut module.ir, module.top, pipeline)
        .map_err(|d| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))?;
    let program = kiln_emit::emit(&module.ir, module.top, &target).map_err(|d| d.message)?;
    let ir = &module.ir;
    let kinds = ir
        .walk(module.top, kiln_compiler::ir::WalkOrder::PreOrder)
        .filter_map(|o| ir.attr(o, "npuvec.kind").and_then(|a| a.as_str()))
        .map(|k| String::from_utf8_lossy(k).into_owned())
        .collect();
    check_lowered(&ctx, &mut module, with_mlir)?;
    let bytes = kiln_bytecode::encode(&program);
    let loaded = kiln_bytecode::load(&bytes, &target).map_err(|e| format!("loader: {e}"))?;
    // Compared as bytes: a NaN immediate is not equal to itself as a value.
    if kiln_bytecode::encode(&loaded) != bytes {
        return Err("the loaded module differs from the emitted one".into());
    }
    if with_mlir {
        // Disassembly re-emits the identical bytes.
        let text = kiln_emit::disassemble(&loaded, &target).map_err(|e| format!("disassemble: {e}"))?;
        let dis = parse_bytes(&ctx, text.as_bytes(), "disassembly").map_err(|d| format!("{d:?}"))?;
        verify(&ctx, &dis.ir, dis.top).map_err(|d| format!("{d:?}"))?;
        let again = kiln_emit::emit(&dis.ir, dis.top, &target).map_err(|d| d.message)?;
        if kiln_bytecode::encode(&again) != bytes {
            return Err("the disassembly does not re-emit the identical bytes".into());
        }
    }
    let inputs: Vec<_> = args.iter().map(to_host).collect::<Result<_, _>>()?;
    let vm = Vm::with_config(&target, VmConfig { exact_transcendentals: true, ..VmConfig::default() });
    let mut checker = SyncChecker::new(&loaded, &target);
    let outputs = vm.run_with(&loaded, &inputs, &mut |e| checker.event(e)).map_err(|e| format!("vm: {e}"))?;
    if let Some(r) = checker.finish().first() {
        return Err(format!("sync: {r}"));
    }
    // A run with every temporary recycled from a buffer full of other bytes (as `--repeat`
    // gives them) has the same results and counters: one a launch reads is zeroed first, one
    // no launch reads is not.
    let spare = loaded.host.temps.iter().map(|&n| vec![0xA5u8; n as usize]).collect();
    if vm.run_recycling(&loaded, &inputs, spare).map_err(|e| format!("vm, recycling: {e}"))? != outputs {
        return Err("a run on recycled buffers differs".into());
    }
    Ok(Ran { pairs: pairs(&outputs.tensors, reference)?, kinds })
}

/// The VM's `outputs` paired with the interpreter's `reference`; `Err` when their counts, a
/// result's shape or its element type differ.
pub fn pairs(outputs: &[HostTensor], reference: Vec<Tensor>) -> Result<Vec<(Tensor, Tensor)>, String> {
    if outputs.len() != reference.len() {
        return Err(format!("{} results, the interpreter gives {}", outputs.len(), reference.len()));
    }
    let mut pairs = Vec::new();
    for (i, (h, r)) in outputs.iter().zip(reference).enumerate() {
        let v = from_host(h)?;
        if v.shape() != r.shape() || v.dtype() != r.dtype() {
            return Err(format!(
                "result #{i}: {:?} {} vs {:?} {}",
                v.shape(),
                v.dtype().name(),
                r.shape(),
                r.dtype().name()
            ));
        }
        pairs.push((v, r));
    }
    Ok(pairs)
}

/// Whether the VM's results equal the interpreter's in `pairs` (floats by value: `-0 == 0`,
/// NaN matches NaN); `Err` names the first difference.
pub fn equal(pairs: &[(Tensor, Tensor)]) -> Result<(), String> {
    for (i, (v, r)) in pairs.iter().enumerate() {
        let (a, b) = (v.to_f64s(), r.to_f64s());
        if let Some(j) = (0..a.len()).find(|&j| !(a[j] == b[j] || (a[j].is_nan() && b[j].is_nan()))) {
            return Err(format!("result #{i} element {j}: vm {}, interpreter {}", a[j], b[j]));
        }
    }
    Ok(())
}

/// A check of one program: (text, target, opt-level, seed, whether through mlir-opt).
pub type Check<'a> = &'a (dyn Fn(&str, &str, u8, u64, bool) -> Result<(), String> + Sync);

/// The programs `program(s)` for `s` in `seeds` on `threads` threads, each checked by `check` at
/// the (target, opt-level) pairs `combos(s)` (every 50th through mlir-opt); prints the count,
/// the failures (with their seeds) and the time, and fails if any program does.
pub fn run_generated<'a>(
    what: &str,
    seeds: std::ops::Range<u64>,
    threads: u64,
    program: impl Fn(u64) -> String + Sync,
    combos: impl Fn(u64) -> &'a [(&'a str, u8)] + Sync,
    check: Check<'_>,
) {
    let start = std::time::Instant::now();
    let (program, combos) = (&program, &combos);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let seeds = seeds.clone();
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for seed in (seeds.start + t..seeds.end).step_by(threads as usize) {
                        let text = program(seed);
                        for &(target, level) in combos(seed) {
                            if let Err(e) = check(&text, target, level, seed, seed % 50 == 0) {
                                eprintln!(
                                    "FAIL seed {seed} on {target} at opt-level {level}: {}",
                                    e.lines().next().unwrap_or("")
                                );
                                failures.push(format!(
                                    "seed {seed} on {target} at opt-level {level}: {e}\n{text}"
                                ));
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker panicked")).collect()
    });
    let count = seeds.end - seeds.start;
    eprintln!("{count} {what} programs, {} failures, {:.1} s", failures.len(), start.elapsed().as_secs_f64());
    assert!(failures.is_empty(), "{} of {count} programs fail; first:\n{}", failures.len(), failures[0]);
}
