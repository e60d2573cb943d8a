//! Row shape classes on the VM against the `hl` interpreter, the oracle.
//!
//! 300 random programs of the row-class profile (`generator::ROW_CLASS`: `[?, c]` values,
//! elementwise ops, row reductions, broadcasts of rows and of a `[c]` parameter, f32 / f16 /
//! bf16 / i32) are each compiled ONCE per target (`tiny-npu` and `ascend910b`) as a shape class
//! (`hl-decompose, ..., kiln-fuse{opt-level=2}, kiln-codegen{target}`, the class emitter),
//! encoded and loaded back through the validating loader, then run on 5 row counts: 1, an odd
//! count under a tile, one row past a tile (a tail of 1), a tile and a half plus one (more
//! rows than fit a tile, a tail), and more tiles than the kernel's cores (`cores * rows + rows
//! / 2 + 1`), every count capped at 2^17 elements per input (so on `ascend910b`, 48 cores of
//! large tiles, the last count often stays under a tile per core; the test asserts that at
//! least a tenth of the runs have more tiles than cores, and half a tail tile). The
//! results must equal the interpreter's on the program specialized to each row count, element
//! for element (NaN matches NaN), with the sync checker on and no unsynchronized access.

use bumpalo::Bump;
use kiln_compiler::syntax::parse_bytes;
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, Ir, OpId};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::generator::{random_program, ROW_CLASS};
use kiln_dialects::hl::interp::program::run_function_within;
use kiln_dialects::hl::interp::Budget;
use kiln_emit::compile::{cleanup, compile_class};
use kiln_run::convert::to_host;
use kiln_targets::Target;
use kiln_vm::sync_check::SyncChecker;
use kiln_vm::{Vm, VmConfig};

mod common;

use common::{agree, entry, random_args};

const TARGETS: [&str; 2] = ["tiny-npu", "ascend910b"];

/// The most elements of one `[n, c]` input a run may take.
const MAX_ELEMENTS: usize = 1 << 17;

/// The fewest rows per tile and the most cores of the compiled class kernels (from their
/// `npuvec.row_class` and `npuvec.block_dim`); 8 rows on 1 core when no kernel has `?` dims
/// (the program returns an input, say).
fn tile_facts(ir: &Ir<'_>, top: OpId) -> (usize, usize) {
    let mut rows = usize::MAX;
    let mut cores = 1;
    for op in ir.walk(top, kiln_compiler::ir::WalkOrder::PreOrder) {
        let Some(class) = ir.attr(op, "npuvec.row_class") else { continue };
        let r = class.dict_get("rows").and_then(|a| a.as_int()).expect("rows") as usize;
        rows = rows.min(r);
        let b = ir.attr(op, "npuvec.block_dim").and_then(|a| a.as_int()).unwrap_or(1) as usize;
        cores = cores.max(b);
    }
    (if rows == usize::MAX { 8 } else { rows }, cores)
}

/// The row counts a class with `rows` per tile on `cores` cores runs on, for `c` columns.
fn row_counts(rows: usize, cores: usize, c: usize, seed: u64) -> Vec<usize> {
    let cap = (MAX_ELEMENTS / c.max(1)).max(1);
    let odd = 3 + 2 * (seed as usize % 6);
    let many = cores * rows + rows / 2 + 1;
    let counts = [1, odd.min(rows.max(2) - 1).max(1) | 1, rows + 1, rows + rows / 2 + 1, many.min(cap)];
    counts.into_iter().map(|n| n.min(cap)).collect()
}

/// What the runs of one program covered.
#[derive(Default)]
struct Covered {
    /// Runs checked.
    runs: usize,
    /// Runs with a tail tile (rows not a multiple of the tile).
    tails: usize,
    /// Runs with more tiles than the kernel's cores.
    many_tiles: usize,
    /// Programs with a kernel compiled as a row class.
    classes: usize,
}

/// Compiles `text` once as a shape class for `target_name` and runs it on each row count
/// against the interpreter, counting what it covered into `covered`; `Err` is the first
/// disagreement.
fn check(text: &str, target_name: &str, seed: u64, covered: &mut Covered) -> Result<(), String> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut module = parse_bytes(&ctx, text.as_bytes(), "program").map_err(|d| format!("{d:?}"))?;
    verify(&ctx, &module.ir, module.top).map_err(|d| format!("{d:?}"))?;
    cleanup(&ctx, &mut module.ir, module.top).map_err(|d| format!("{d:?}"))?;
    let reference_ir = module.ir.clone();
    let func = entry(&module.ir, module.top);
    let target = Target::load(target_name).map_err(|e| e.to_string())?;
    let program = compile_class(&ctx, &mut module.ir, module.top, &target, target_name, 2)
        .map_err(|d| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>().join("; "))?;
    if program.class.is_static() {
        return Err("the module compiled to static bytecode, not a shape class".into());
    }
    let (rows, cores) = tile_facts(&module.ir, module.top);
    let has_class = module
        .ir
        .walk(module.top, kiln_compiler::ir::WalkOrder::PreOrder)
        .any(|o| module.ir.attr(o, "npuvec.row_class").is_some());
    covered.classes += usize::from(has_class);
    let bytes = kiln_bytecode::encode_class(&program);
    let loaded = kiln_bytecode::load_class(&bytes, &target).map_err(|e| format!("loader: {e}"))?;
    let c = text.split("%x: tensor<?x").nth(1).and_then(|t| t.split('x').next()).and_then(|t| t.parse().ok());
    let vm = Vm::with_config(&target, VmConfig { exact_transcendentals: true, ..VmConfig::default() });
    for n in row_counts(rows, cores, c.unwrap_or(1), seed) {
        let args = random_args(&reference_ir, func, n, seed);
        let mut specialized = reference_ir.clone();
        let body = reference_ir.entry_block(reference_ir.regions(func)[0]).expect("a body");
        let types: Vec<_> = reference_ir
            .block_args(body)
            .iter()
            .map(|&a| {
                let (shape, elem) = tensor_parts(reference_ir.value_type(a)).expect("tensor arguments");
                let dims: Vec<i64> = shape.iter().map(|&d| if d < 0 { n as i64 } else { d }).collect();
                ctx.tensor_type(&dims, elem)
            })
            .collect();
        kiln_passes::hl_infer_shapes::specialize(&ctx, &mut specialized, func, &types)
            .map_err(|d| format!("specialize to {n} rows: {}", d.message))?;
        let reference = run_function_within(&ctx, &specialized, func, &args, &mut Budget::new(1 << 30))
            .map_err(|d| format!("interpreter at {n} rows: {}", d.message))?;
        let inputs: Vec<_> = args.iter().map(to_host).collect::<Result<_, _>>()?;
        let mut checker = SyncChecker::new(&loaded.module, &target);
        let outputs = vm
            .run_class_with(&loaded, &inputs, &mut |e| checker.event(e))
            .map_err(|e| format!("vm at {n} rows: {e}"))?;
        if let Some(r) = checker.finish().first() {
            return Err(format!("sync at {n} rows: {r}"));
        }
        agree(&outputs.tensors, &reference).map_err(|e| format!("at {n} rows (tile {rows}): {e}"))?;
        covered.runs += 1;
        covered.tails += usize::from(n % rows != 0);
        covered.many_tiles += usize::from(n.div_ceil(rows) > cores);
    }
    Ok(())
}

#[test]
fn row_class_programs_compiled_once_agree_with_the_interpreter_on_every_row_count() {
    let programs =
        std::env::var("KILN_ROW_CLASS_PROGRAMS").ok().and_then(|v| v.parse().ok()).unwrap_or(300u64);
    let mut failures = Vec::new();
    let mut c = Covered::default();
    for seed in 0..programs {
        let text = random_program(seed, &ROW_CLASS);
        for target in TARGETS {
            if let Err(e) = check(&text, target, seed, &mut c) {
                eprintln!("FAIL seed {seed} on {target}: {}", e.lines().next().unwrap_or(""));
                failures.push(format!("seed {seed} on {target}: {e}\n{text}"));
            }
        }
    }
    eprintln!(
        "{programs} row-class programs: {} compiles with a class kernel, {} runs ({} with a tail tile, {} with more tiles than cores), {} failures",
        c.classes,
        c.runs,
        c.tails,
        c.many_tiles,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {programs} programs disagree; first:\n{}",
        failures.len(),
        failures[0]
    );
    let (runs, compiles) = (c.runs as u64, programs * 2);
    assert!(runs >= compiles * 5, "only {runs} runs");
    assert!(
        c.classes as u64 * 10 >= compiles * 9,
        "only {} of {compiles} compiles have a class kernel",
        c.classes
    );
    assert!(
        c.tails as u64 * 2 >= runs && c.many_tiles as u64 * 10 >= runs,
        "too few tails or multi-tile runs"
    );
}
