//! Shape classes in the compile cache (`--dynamic_shape`): many shapes of one class compile
//! once and give what the static path (`--dynamic_shape=false`, a compile per shape) and a
//! plain reference give; a segment that is not a row class is refused once and runs per
//! shape; the static session behaves as it always did.

use kiln_dialects::hl::interp::SplitMix64 as Rng;
use kiln_eager::{Flags, Session, Stats, Tensor};

fn session(flags: &str) -> Session {
    Session::new(Flags::parse(flags).unwrap().flags).unwrap()
}

/// Row counts: 1, odd sizes, tails, and more rows than fit the UB at once (768 f32 columns).
const ROWS: &[usize] =
    &[1, 2, 3, 5, 7, 16, 17, 31, 64, 100, 127, 128, 129, 255, 300, 513, 700, 1000, 1023, 2049];

fn data(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n).map(|_| rng.range(-3000, 3000) as f32 / 1000.0).collect()
}

fn softmax_ref(x: &[f32], cols: usize) -> Vec<f32> {
    x.chunks(cols)
        .flat_map(|row| {
            let m = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let e: Vec<f64> = row.iter().map(|&v| f64::from(v - m).exp()).collect();
            let s: f64 = e.iter().sum();
            e.into_iter().map(move |v| (v / s) as f32)
        })
        .collect()
}

fn close(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 2e-6 + 2e-5 * w.abs(), "{what}: element {i}: {g} vs {w}");
    }
}

fn class_counts(s: &Stats) -> (u64, u64, u64) {
    (s.class_compiles, s.class_hits, s.class_refusals)
}

/// A softmax (decomposed into a reduction, a broadcast and elementwise ops) and a scaled add
/// of a row bias after it, over (n, 768) for every n of [`ROWS`].
fn run_softmax(s: &Session, rng: &mut Rng, n: usize, bias: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let cols = bias.len();
    let x = data(rng, n * cols);
    let t: Tensor = s.tensor(&x, &[n, cols]).unwrap();
    let b = s.tensor(bias, &[cols]).unwrap();
    let y = t.softmax(-1).unwrap().mul(2.0).unwrap().add(&b).unwrap();
    let want: Vec<f32> =
        softmax_ref(&x, cols).iter().zip(bias.iter().cycle()).map(|(&v, &c)| v * 2.0 + c).collect();
    (y.to_vec::<f32>().unwrap(), want)
}

#[test]
fn the_shapes_of_a_class_compile_once_and_agree_with_the_static_path() {
    let cols = 768;
    let mut rng = Rng(41);
    let bias = data(&mut rng, cols);
    let dynamic = session("--opt_level=2");
    let fixed = session("--opt_level=2 --dynamic_shape=false");
    for &n in ROWS {
        let seed = rng.next_u64();
        let (got, want) = run_softmax(&dynamic, &mut Rng(seed), n, &bias);
        close(&got, &want, &format!("dynamic, {n} rows"));
        let (fixed_got, _) = run_softmax(&fixed, &mut Rng(seed), n, &bias);
        close(&got, &fixed_got, &format!("dynamic against static, {n} rows"));
    }
    let (d, f) = (dynamic.stats(), fixed.stats());
    // One row is a class of its own (no row dim to erase): compiled exactly. Every other
    // shape is the one class's: one compile, then bindings.
    assert_eq!(class_counts(&d), (1, ROWS.len() as u64 - 2, 0), "{d:?}");
    assert_eq!(d.cache_misses, 2, "{d:?}");
    assert_eq!(class_counts(&f), (0, 0, 0), "{f:?}");
    assert_eq!(f.cache_misses, ROWS.len() as u64, "the static path compiles every shape");
    // A shape met again is an exact hit in either session.
    run_softmax(&dynamic, &mut rng, 17, &bias);
    assert_eq!((dynamic.stats().cache_hits, dynamic.stats().cache_misses), (d.cache_hits + 1, 2));
}

#[test]
fn a_segment_that_is_not_a_row_class_is_refused_once_and_runs_per_shape() {
    // A sum over the rows reduces along the row dim: not a row class.
    let s = session("--opt_level=2");
    let mut rng = Rng(7);
    for n in [3usize, 9, 40, 41, 200] {
        let x = data(&mut rng, n * 64);
        let t = s.tensor(&x, &[n, 64]).unwrap();
        let got = t.exp().unwrap().sum(&[0], false).unwrap().to_vec::<f32>().unwrap();
        let want: Vec<f32> =
            (0..64).map(|c| (0..n).map(|r| f64::from(x[r * 64 + c]).exp()).sum::<f64>() as f32).collect();
        close(&got, &want, &format!("{n} rows"));
    }
    let st = s.stats();
    assert_eq!(class_counts(&st), (0, 0, 1), "{st:?}");
    assert_eq!(st.cache_misses, 5, "every shape compiles exactly, the class is not retried");
}

#[test]
fn elementwise_chains_stay_per_shape_on_the_direct_path() {
    let s = session("");
    let mut rng = Rng(3);
    for n in [2usize, 3, 4] {
        let x = data(&mut rng, n * 96);
        let t = s.tensor(&x, &[n, 96]).unwrap();
        // The product is dropped before the read: one output, a plain chain.
        let y = {
            let m = t.mul(3.0).unwrap();
            m.abs().unwrap()
        };
        let got = y.to_vec::<f32>().unwrap();
        close(&got, &x.iter().map(|v| (v * 3.0).abs()).collect::<Vec<_>>(), "direct");
    }
    let st = s.stats();
    assert_eq!((st.cache_misses, st.direct_compiles), (3, 3));
    assert_eq!(class_counts(&st), (0, 0, 0));
}
