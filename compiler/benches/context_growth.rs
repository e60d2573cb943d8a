//! Peak memory of a long-lived [`OwnedContext`] that keeps seeing new shapes, as an eager JIT
//! session does: 10^5 calls, each building (and dropping) a small kernel over a tensor shape
//! no earlier call used (its tensor type, function type, name and locations), once without a
//! budget and once with one. Each run is a child process so that its peak RSS (`VmHWM` in
//! `/proc/self/status`) is its own; the peak is printed after 10^3, 10^4 and 10^5 shapes, so
//! a plateau shows as equal figures.
//!
//! Run: `cargo bench -p kiln-compiler --bench context_growth` (optionally `-- SHAPES BUDGET`,
//! defaults 100000 and 1048576 bytes).

use std::process::Command;
use std::time::Instant;

use kiln_compiler::ir::{Ir, OperationState};
use kiln_compiler::{Context, DialectRegistry, FloatKind, OwnedContext};

/// The child's mode, set by the parent: the budget in bytes, or `none`.
const MODE_VAR: &str = "KILN_CONTEXT_GROWTH_BUDGET";
const CHECKPOINTS: [usize; 3] = [1_000, 10_000, 100_000];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let shapes: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    match std::env::var(MODE_VAR) {
        Ok(mode) => child(shapes, mode.parse().ok()),
        Err(_) => {
            let budget: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1 << 20);
            println!("{shapes} distinct shapes through one OwnedContext; peak RSS (VmHWM) after n shapes");
            for mode in ["none".to_string(), budget.to_string()] {
                let exe = std::env::current_exe().expect("the bench knows its own path");
                let out = Command::new(exe)
                    .arg(shapes.to_string())
                    .env(MODE_VAR, &mode)
                    .output()
                    .expect("the bench can run itself");
                print!("{}", String::from_utf8_lossy(&out.stdout));
                eprint!("{}", String::from_utf8_lossy(&out.stderr));
            }
        }
    }
}

fn child(shapes: usize, budget: Option<usize>) {
    let mut owner = OwnedContext::new(DialectRegistry::new());
    owner.set_budget(budget);
    owner.with(|ctx| ctx.set_allow_unregistered(true));
    let mut peaks = Vec::new();
    let start = Instant::now();
    for i in 0..shapes {
        let ops = owner.with(|ctx| build_kernel(ctx, i));
        assert_eq!(ops, 6);
        if CHECKPOINTS.contains(&(i + 1)) {
            peaks.push(format!("{}: {} KiB", i + 1, vm_hwm_kib()));
        }
    }
    let per_shape = start.elapsed().as_secs_f64() * 1e6 / shapes.max(1) as f64;
    let label = budget.map_or("no budget".to_string(), |b| format!("budget {} KiB", b / 1024));
    println!(
        "  {label:>16}: {}; {} generation(s), {} KiB interned at the end, {per_shape:.1} us/shape",
        peaks.join(", "),
        owner.generation(),
        owner.interned_bytes() / 1024,
    );
}

/// A kernel over `tensor<(i+1)x7xf32>`: a named source op and a chain of five elementwise
/// ops, each with its own location. Returns the number of ops built.
fn build_kernel(ctx: &Context<'_>, i: usize) -> usize {
    let ty = ctx.tensor_type(&[i as i64 + 1, 7], ctx.float_type(FloatKind::F32));
    let mut ir = Ir::new();
    let block = ir.create_block();
    let mut source = OperationState::new(ctx.intern_str("jit.source"), None, ctx.file_loc("eager", 1, 1));
    source.result_types = vec![ty];
    let fn_type = ctx.function_type(&[ty], &[ty]);
    let name = ctx.str_attr(format!("kernel_{i}").as_bytes());
    source.attrs =
        vec![(ctx.intern_str("sym_name"), name), (ctx.intern_str("function_type"), ctx.type_attr(fn_type))];
    let mut last = ir.create_op(source);
    ir.append_op(block, last);
    for (line, op) in ["jit.exp", "jit.neg", "jit.abs", "jit.tanh", "jit.exp"].iter().enumerate() {
        let mut state =
            OperationState::new(ctx.intern_str(op), None, ctx.file_loc("eager", line as u32 + 2, 1));
        state.operands = vec![ir.results(last)[0]];
        state.result_types = vec![ty];
        last = ir.create_op(state);
        ir.append_op(block, last);
    }
    ir.num_ops()
}

/// This process's peak resident set size in KiB (0 where `/proc` is absent).
fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
