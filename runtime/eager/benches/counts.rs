//! The eager benchmarks' three scenarios as plain loops, for instruction counts under
//! callgrind (which the machine's load does not skew): `record N` records N `hl.neg` ops (63
//! per segment, as `record_op`), `hit N` captures the 8-op chain N times from the cache (as
//! `chain8_hit`), `miss N` compiles it N times (as `chain8_miss`). Two runs with different N
//! give the count per iteration without the set-up: (total(N2) - total(N1)) / (N2 - N1); for
//! `hit` and `miss`, take `kiln_vm::host::Vm::run`'s inclusive count off (the VM run, which
//! the goals exclude).
//!
//! ```text
//! cargo bench -p kiln-eager --bench counts --no-run
//! valgrind --tool=callgrind --callgrind-out-file=hit100.out target/release/deps/counts-<hash> hit 100
//! callgrind_annotate --inclusive=yes hit100.out | grep -E 'PROGRAM TOTALS|Vm::run '
//! ```

use std::hint::black_box;

mod common;
use common::{capture, neg_chain, session};

fn scenario(what: &str, n: u64) {
    let data = vec![0.5f32; 1024];
    match what {
        "record" => {
            let s = session("--flush_threshold=64");
            let x = s.tensor(&data, &[1024]).unwrap();
            let mut left = n;
            while left > 0 {
                let k = left.min(63);
                drop(black_box(neg_chain(&x, k)));
                s.sync().unwrap();
                left -= k;
            }
        }
        "hit" => {
            let s = session("");
            let inputs = (s.tensor(&data, &[1024]).unwrap(), s.tensor(&data, &[1024]).unwrap());
            for _ in 0..n {
                black_box(capture(&s, &inputs));
            }
            assert_eq!(s.stats().cache_misses, 1, "hit compiled once");
        }
        "miss" => {
            let s = session("--cache_size=1");
            let shapes: Vec<_> = [&[1024usize][..], &[32, 32][..]]
                .iter()
                .map(|sh| (s.tensor(&data, sh).unwrap(), s.tensor(&data, sh).unwrap()))
                .collect();
            for i in 0..n {
                black_box(capture(&s, &shapes[i as usize % 2]));
            }
            assert_eq!(s.stats().cache_hits, 0, "every miss compiled");
        }
        _ => panic!("usage: counts record|hit|miss N"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map_or("hit", String::as_str);
    let n = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1000);
    scenario(what, n);
}
