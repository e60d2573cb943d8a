//! Running compiled programs on the VM: inputs, the sync checker (`--check`), counters and the
//! cost model (`--stats`), wall-time repeats (`--repeat`).

use std::time::Instant;

use kiln_bytecode::module::Module;
use kiln_bytecode::shape::ClassModule;
use kiln_compiler::{Context, Ir, OpId};
use kiln_dialects::hl::interp::{random_tensor, Tensor};
use kiln_targets::Target;
use kiln_vm::cost::CostModel;
use kiln_vm::sync_check::SyncChecker;
use kiln_vm::{HostTensor, Vm};

use crate::convert::{from_host, interp_type, to_host};
use crate::Cli;

/// Makes every public function but `entry` private and erases those it does not reference
/// (`symbol-dce`), so that the compiled host program is `entry`'s and the back end does not
/// see the others' `hl` ops.
pub fn keep_only_entry<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, top: OpId, entry: OpId) -> Result<(), String> {
    let funcs: Vec<OpId> = ir
        .regions(top)
        .iter()
        .flat_map(|&r| ir.region_blocks(r).flat_map(|b| ir.block_ops(b)).collect::<Vec<_>>())
        .filter(|&op| ir.op(op).name == "func.func" && op != entry && ir.attr(op, "sym_visibility").is_none())
        .collect();
    for f in funcs {
        let vis = ctx.intern_str("sym_visibility");
        let private = ctx.str_attr(b"private");
        let data = ir.op_mut(f);
        let mut entries: Vec<kiln_compiler::NamedAttr<'c>> =
            data.properties.and_then(|p| p.as_dict()).unwrap_or(&[]).to_vec();
        entries.push(kiln_compiler::NamedAttr { name: vis, value: private });
        data.properties = Some(ctx.dict_attr(&entries));
    }
    let mut pm = kiln_compiler::pass::parse_pipeline("builtin.module(symbol-dce)", &kiln_passes::registry())?;
    let mut diags = Vec::new();
    pm.run(ctx, ir, top, &mut kiln_compiler::pass::Instrumentation::default(), &mut diags)
        .map_err(|_| format!("kiln-run: error: symbol-dce failed: {diags:?}\n"))
}

/// Loads bytecode and runs it on seeded or given inputs: a static module, or a program of a
/// shape class on inputs of any shape it admits ([`crate::class`]).
pub fn run_bytecode(cli: &Cli, bytes: &[u8]) -> Result<String, String> {
    let target = Target::load(&cli.target).map_err(|e| format!("kiln-run: error: {e}\n"))?;
    let program = kiln_bytecode::load_class(bytes, &target).map_err(|e| format!("kiln-run: error: {e}\n"))?;
    if !program.class.is_static() {
        return crate::class::run_class_file(cli, &target, &program);
    }
    if !cli.input_shapes.is_empty() {
        return Err(
            "kiln-run: error: --input-shape needs the MLIR module: bytecode has static inputs\n".into()
        );
    }
    let module = program.module;
    let mut args = Vec::new();
    for (i, spec) in module.host.inputs.iter().enumerate() {
        let dtype = interp_type(spec.dtype);
        let t = match cli.inputs.get(i) {
            Some(path) => kiln_dialects::hl::interp::read_npy(path, Some(dtype))
                .map_err(|e| format!("kiln-run: error: {}: {}\n", path.display(), e.message()))?,
            None => {
                let bytes = spec.checked_bytes().filter(|&b| b <= cli.max_memory).ok_or_else(|| {
                    format!("kiln-run: error: input #{i} does not fit --max-memory={}\n", cli.max_memory)
                })?;
                let _ = bytes;
                random_tensor(
                    dtype,
                    spec.shape.iter().map(|&d| d as usize).collect(),
                    cli.seed.wrapping_add(i as u64),
                )
            }
        };
        args.push(t);
    }
    let (results, stats) = run_program(cli, &target, &module.into(), &args)?;
    let mut out = crate::print_results(cli, &results)?;
    out.push_str(&stats);
    Ok(out)
}

/// Runs `program` (a static module or a shape class, bound to the inputs' shapes) on `args`;
/// returns the results and what `--stats` / `--repeat` / `--check` print.
pub fn run_program(
    cli: &Cli,
    target: &Target,
    program: &ClassModule,
    args: &[Tensor],
) -> Result<(Vec<Tensor>, String), String> {
    let module = &program.module;
    let inputs: Vec<HostTensor> =
        args.iter().map(to_host).collect::<Result<_, _>>().map_err(|e| format!("kiln-run: error: {e}\n"))?;
    let config = kiln_vm::VmConfig {
        max_gm_bytes: cli.max_memory,
        max_steps: cli.max_steps,
        ..kiln_vm::VmConfig::default()
    };
    let vm = Vm::with_config(target, config);
    let mut out = String::new();
    let observe = cli.check || cli.stats || cli.trace.is_some();
    let outputs = if observe {
        let mut checker = SyncChecker::new(module, target);
        let mut cost = if cli.trace.is_some() {
            CostModel::recording(module, target)
        } else {
            CostModel::new(module, target)
        };
        let outputs = vm
            .run_class_with(program, &inputs, &mut |e| {
                checker.event(e);
                cost.event(e);
            })
            .map_err(|e| format!("kiln-run: error: {e}\n"))?;
        let reports = checker.finish();
        if cli.check {
            if reports.is_empty() {
                out.push_str("check: no unsynchronized pipe access\n");
            } else {
                for r in &reports {
                    out.push_str(&format!("check: sync: {r}\n"));
                }
            }
        }
        let report = cost.finish();
        if let Some(path) = &cli.trace {
            let json = kiln_vm::trace::chrome_trace(module, &report, kiln_vm::trace::DEFAULT_MAX_SLICES);
            kiln_cli::write_file(path, json.to_string().as_bytes())
                .map_err(|e| format!("kiln-run: error: {}: {e}\n", path.display()))?;
        }
        if cli.stats {
            out.push_str(&stats(module, &outputs.counters, &report));
        }
        if cli.check && !reports.is_empty() {
            return Err(format!("{out}kiln-run: error: {} unsynchronized accesses\n", reports.len()));
        }
        outputs
    } else {
        vm.run_class(program, &inputs).map_err(|e| format!("kiln-run: error: {e}\n"))?
    };
    if let Some(n) = cli.repeat {
        // Each repeat runs the whole program on the same (borrowed) inputs; the previous
        // repeat's output bytes are zeroed and reused as GM, as a caller with `out=` buffers.
        let mut times = Vec::with_capacity(n);
        let mut spare = Vec::new();
        for _ in 0..n {
            let start = Instant::now();
            let borrowed: Vec<&HostTensor> = inputs.iter().collect();
            let repeated = vm
                .run_class_borrowed(program, &borrowed, spare)
                .map_err(|e| format!("kiln-run: error: {e}\n"))?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
            spare = repeated.tensors.into_iter().map(|t| t.bytes).collect();
        }
        times.sort_by(f64::total_cmp);
        if let (Some(min), Some(max)) = (times.first(), times.last()) {
            out.push_str(&format!(
                "vm-time median={:.3} min={min:.3} max={max:.3}\n",
                times[times.len() / 2]
            ));
        }
    }
    let results = outputs
        .tensors
        .iter()
        .map(from_host)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("kiln-run: error: {e}\n"))?;
    Ok((results, out))
}

/// The `--stats` table: per kernel and in total.
fn stats(
    module: &Module,
    counters: &kiln_vm::counters::RunCounters,
    report: &kiln_vm::cost::CostReport,
) -> String {
    let mut out = String::from("stats: kernel launches hbm-read hbm-written dma repeats macs\n");
    for (k, c) in module.kernels.iter().zip(&counters.kernels) {
        out.push_str(&format!(
            "stats: {} {} {} {} {} {} {}\n",
            k.name, c.launches, c.gm_read, c.gm_written, c.dma, c.repeats, c.macs
        ));
    }
    let t = &counters.total;
    out.push_str(&format!(
        "stats: total kernels={} launches={} hbm-bytes={} dma={} repeats={} macs={}\n",
        module.kernels.len(),
        t.launches,
        t.gm_read + t.gm_written,
        t.dma,
        t.repeats,
        t.macs
    ));
    out.push_str(&format!("{report}"));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}
