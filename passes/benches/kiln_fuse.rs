//! Criterion benchmark of `kiln-fuse` on an 8-op chain and on generated graphs of 1k and 10k
//! ops (the mix of `benches/fusion_gen.py`: chains, broadcasts of a parameter, row reductions
//! feeding later ops, several consumers). `benches/fusion_bench.sh` adds the 100k-op point.
//! Run: `cargo bench -p kiln-passes --bench kiln_fuse`.

use bumpalo::Bump;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use kiln_compiler::pass::{parse_pipeline, Instrumentation};
use kiln_compiler::syntax::parse_source;
use kiln_compiler::Context;

/// An `hl` function of `n` ops; `chain` gives a plain elementwise chain.
fn program(n: usize, chain: bool) -> String {
    let (full, row, par) = ("tensor<64x128xf32>", "tensor<64x1xf32>", "tensor<128xf32>");
    let mut out = format!("func.func @g(%x: {full}, %p: {par}) -> {full} {{\n");
    let mut last = "%x".to_string();
    let mut seed = 42u64;
    for i in 0..n {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pick = (seed >> 33) % 10;
        let v = format!("%v{i}");
        let line = if chain || pick < 5 {
            let op = ["exp", "neg", "abs", "tanh"][i % 4];
            format!("  {v} = hl.{op} {last} : {full}\n")
        } else if pick < 7 {
            format!("  {v} = hl.add {last}, %p : {full}, {par} -> {full}\n")
        } else if pick < 9 {
            let r = format!("%r{i}");
            let reduce =
                format!("  {r} = hl.reduce_max {last} {{axes = [1], keep_dims = true}} : {full} -> {row}\n");
            out.push_str(&reduce);
            format!("  {v} = hl.sub {last}, {r} : {full}, {row} -> {full}\n")
        } else {
            format!("  {v} = hl.mul {last}, %x : {full}\n")
        };
        out.push_str(&line);
        last = v;
    }
    out.push_str(&format!("  return {last} : {full}\n}}\n"));
    out
}

fn bench(c: &mut Criterion) {
    let registry = kiln_passes::registry();
    for (name, n, chain) in [("chain-8", 8, true), ("graph-1k", 1_000, false), ("graph-10k", 10_000, false)] {
        let text = program(n, chain);
        let arena = Bump::new();
        let ctx = Context::new(&arena, kiln_dialects::all_dialects());
        let module = parse_source(&ctx, &text, "bench.mlir").unwrap_or_else(|_| panic!("{name} parses"));
        c.bench_function(&format!("kiln-fuse/{name}"), |b| {
            b.iter_batched(
                || module.ir.clone(),
                |mut ir| {
                    let mut pm = parse_pipeline("builtin.module(kiln-fuse{opt-level=2})", &registry).unwrap();
                    let mut instr = Instrumentation::default();
                    let mut diags = Vec::new();
                    pm.run(&ctx, &mut ir, module.top, &mut instr, &mut diags).expect("kiln-fuse runs");
                    ir
                },
                BatchSize::LargeInput,
            )
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
