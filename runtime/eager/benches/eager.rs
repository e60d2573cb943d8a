//! Criterion benchmark of the eager session's overheads (VM execution excluded):
//! - `record_op`: recording one op (checked with the `hl` inference) on a 1K-element `f32`
//!   tensor;
//! - `chain8_miss`: an 8-op elementwise chain on 1K elements, recorded and compiled (a cache
//!   miss: `--cache_size=1` and two alternating shapes of 1024 elements), by the direct path;
//!   `chain8_miss_pipeline`: the same through the pass pipeline (`--direct_emit=false`);
//! - `chain8_hit`: the same chain from its first recorded op to the launch being ready when
//!   the cache has it.
//!
//! The flush's own share is [`Stats::prepare_time`] (cache lookup, compile on a miss), so the
//! figures are record time + prepare time, without the VM run.
//! Run: `cargo bench -p kiln-eager --bench eager` (criterion prints the median range).

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use kiln_eager::Tensor;

mod common;
use common::{capture, neg_chain, session};

fn bench(c: &mut Criterion) {
    let data = vec![0.5f32; 1024];
    let s = session("--flush_threshold=64");
    let x = s.tensor(&data, &[1024]).unwrap();
    c.bench_function("record_op", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let n = left.min(63);
                let start = Instant::now();
                let t = neg_chain(&x, n);
                total += start.elapsed();
                drop(t);
                // Nothing reads the chain: the flush compiles and runs nothing.
                s.sync().unwrap();
                left -= n;
            }
            total
        })
    });

    let mut group = c.benchmark_group("eager");
    group.sample_size(20);
    for (name, flags) in
        [("chain8_miss", "--cache_size=1"), ("chain8_miss_pipeline", "--cache_size=1 --direct_emit=false")]
    {
        let s = session(flags);
        let shapes: Vec<(Tensor, Tensor)> = [&[1024usize][..], &[32, 32][..]]
            .iter()
            .map(|sh| (s.tensor(&data, sh).unwrap(), s.tensor(&data, sh).unwrap()))
            .collect();
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| {
                        i += 1;
                        capture(&s, &shapes[i % 2])
                    })
                    .sum()
            })
        });
        assert_eq!(s.stats().cache_hits, 0, "every {name} iteration compiled");
    }
    group.finish();

    let s = session("");
    let inputs = (s.tensor(&data, &[1024]).unwrap(), s.tensor(&data, &[1024]).unwrap());
    capture(&s, &inputs);
    c.bench_function("chain8_hit", |b| b.iter_custom(|iters| (0..iters).map(|_| capture(&s, &inputs)).sum()));
    assert_eq!(s.stats().cache_misses, 1, "chain8_hit compiled once");
}

criterion_group!(benches, bench);
criterion_main!(benches);
