//! Vectorizable `exp`, `tanh` and `sigmoid` for `f32` lanes: branch-free arithmetic (no calls,
//! no table lookups), so the row loops compile to SIMD code; `exp` and `tanh` in `f32` only (the
//! full `f32` width), `sigmoid` in `f64`.
//!
//! `exp` clamps `x` to `[-104, 104]` (beyond, the `f32` result is 0 or inf), reduces
//! `x = k ln2 + r` (`|r| <= ln2 / 2`; `k` rounded by adding `1.5 * 2^23`, `ln2` split Cody-Waite
//! so that `k * LN2_HI` is exact), evaluates `1 + r + r^2 P(r)` with Cephes' degree-5 minimax
//! `P` and scales by `2^k` built in the exponent bits, in two halves so that subnormal results
//! round once and `k = 128` does not overflow early. `tanh` is Cephes' odd minimax
//! `x + x^3 Q(x^2)` (degree-4 `Q`) for `|x| < 0.625` and `1 - 2 / (e^{2|x|} + 1)` beyond
//! (`|x|` clamped to 10, where the result has rounded to 1, so that `2^k` is one factor), with
//! the sign of `x`; both sides are computed and one is selected, so there is no per-element
//! branch. `sigmoid` is `1 / (1 + e^-x)` in `f64` (Cody-Waite, degree-11 Taylor polynomial),
//! rounded to `f32` once, because its consumers need near bit-exactness: an `f32` form (at
//! most 2 ulps) failed `kiln-run --check` on `examples/llama_block.mlir`, whose `swiglu` errors
//! sum through the 256-term down projection into results up to about 4700 in magnitude, so
//! that an element that cancels to 0.13 was off by 5e-5 (the tolerance there is about 2.3e-5);
//! the `f64` form gives the interpreter's bits on every finite `f32` input (measured).
//!
//! Error bound, measured against `kiln_numerics::float` (`libm`'s `f64` functions rounded to
//! `f32`: the interpreter's results; for `sigmoid` its `f64` formula `1 / (1 + exp(-x))`) over
//! every finite `f32` input (the ignored test `exhaustive_over_every_finite_f32`: `cargo test
//! --release -p kiln-vm -- --ignored`) and asserted on 10^7 inputs in every `cargo test`: at most 1 ulp for `exp`, 1
//! for `tanh`, 0 for `sigmoid` (ulps of the `f32` result, subnormals included; the tests'
//! `BOUNDS`). NaN stays NaN, `±inf` and `±0` map as `libm` maps them.
//!
//! The polynomials and the reduction are written with `f32::mul_add`, which is exactly
//! rounded wherever it runs: one fused instruction in the AVX2+FMA and AVX-512 row loops,
//! `libm`'s `fmaf` in the plain one. So the bits are the same on every host and in every row
//! loop (plain, AVX2, AVX-512; tested below). Fusing took the 16M-element `exp` + `tanh`
//! chain of `benches/vm_vs_c_numpy.sh` from 14.5 to 11.8 ms on a 2-core AVX-512 host.

const LOG2E: f32 = std::f32::consts::LOG2_E;
/// `ln 2` rounded to 16 significant bits: `k * LN2_HI` is exact for the `|k| <= 150` that occur.
const LN2_HI: f32 = 0.693_359_4;
/// `ln 2 - LN2_HI`.
const LN2_LO: f32 = -2.121_944_4e-4;
/// `1.5 * 2^23`: adding it rounds to an integer, which lands in the low mantissa bits.
const ROUNDER: f32 = 12_582_912.0;

/// `2^n` for `-126 <= n <= 127`, from the exponent bits.
#[inline(always)]
fn pow2(n: i32) -> f32 {
    f32::from_bits(((n + 127) as u32) << 23)
}

/// `e^x` (see the module documentation for the method and the bound).
#[inline(always)]
pub(crate) fn exp(x: f32) -> f32 {
    let (e, n) = exp_parts(x.clamp(-104.0, 104.0));
    // `|n| <= 150`: two factors in the normal range; the first product is exact.
    let half = n >> 1;
    e * pow2(half) * pow2(n - half)
}

/// `e^x` for `0 <= x <= 20`, where `2^n` is one normal factor: `exp`'s bits with one scaling.
#[inline(always)]
fn exp_up_to_20(x: f32) -> f32 {
    let (e, n) = exp_parts(x);
    e * pow2(n)
}

/// `e^x = e * 2^n` for `x` in `[-104, 104]`: `n` nearest `x / ln 2` and `e = e^r` for the rest.
#[inline(always)]
fn exp_parts(x: f32) -> (f32, i32) {
    let t = x.mul_add(LOG2E, ROUNDER);
    let k = t - ROUNDER;
    let n = (t.to_bits() as i32).wrapping_sub(ROUNDER.to_bits() as i32);
    let r = (-k).mul_add(LN2_LO, (-k).mul_add(LN2_HI, x));
    let mut p: f32 = 1.987_569_2e-4;
    p = p.mul_add(r, 1.398_199_9e-3);
    p = p.mul_add(r, 8.333_452e-3);
    p = p.mul_add(r, 4.166_579_6e-2);
    p = p.mul_add(r, 1.666_666_5e-1);
    p = p.mul_add(r, 0.5);
    (p.mul_add(r * r, r) + 1.0, n)
}

/// `tanh x` (see the module documentation).
#[inline(always)]
pub(crate) fn tanh(x: f32) -> f32 {
    let ax = x.abs();
    let x2 = x * x;
    let mut q: f32 = -5.704_988_7e-3;
    q = q.mul_add(x2, 2.063_909e-2);
    q = q.mul_add(x2, -5.373_971_6e-2);
    q = q.mul_add(x2, 1.333_144_2e-1);
    q = q.mul_add(x2, -0.333_332_8);
    let small = (q * x2).mul_add(ax, ax);
    // Past `|x| = 10` (and already past 9.02) the result rounds to 1; clamping there keeps
    // `e^{2|x|}` in one normal scaling (the same bits as `exp`: its first product is exact).
    let big = 1.0 - 2.0 / (exp_up_to_20(2.0 * ax.clamp(0.0, 10.0)) + 1.0);
    (if ax < 0.625 { small } else { big }).copysign(x)
}

/// `1 / (1 + e^-x)` in `f64`, rounded to `f32` once (see the module documentation).
#[inline(always)]
pub(crate) fn sigmoid(x: f32) -> f32 {
    (1.0 / (1.0 + exp64(-f64::from(x)))) as f32
}

/// `ln 2` split so that `k * LN2_HI_64` is exact for the `|k| <= 2^11` that occur.
const LN2_HI_64: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// `ln 2 - LN2_HI_64`.
const LN2_LO_64: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// `1.5 * 2^52`: adding it rounds to an integer, which lands in the low mantissa bits.
const ROUNDER_64: f64 = 6_755_399_441_055_744.0;

/// `e^x` in `f64` for `x` clamped to `[-104, 104]` (beyond, `sigmoid` is 0 or 1): Cody-Waite
/// reduction by `ln 2` and the degree-11 Taylor polynomial (truncation below `7e-15` relative).
#[inline(always)]
fn exp64(x: f64) -> f64 {
    let x = x.clamp(-104.0, 104.0);
    let t = x * std::f64::consts::LOG2_E + ROUNDER_64;
    let k = t - ROUNDER_64;
    let n = t.to_bits() as i64 as i32;
    let r = (x - k * LN2_HI_64) - k * LN2_LO_64;
    let mut p = 1.0 / 39_916_800.0;
    p = p * r + 1.0 / 3_628_800.0;
    p = p * r + 1.0 / 362_880.0;
    p = p * r + 1.0 / 40_320.0;
    p = p * r + 1.0 / 5_040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    let scale = f64::from_bits(((i64::from(n) + 1023) as u64) << 52);
    p * scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::{map, map_plain};
    #[cfg(target_arch = "x86_64")]
    use crate::simd::{map_avx2, map_avx512};
    use kiln_numerics::float as kf;

    /// The distance in ulps between two `f32`s of one sign (NaNs equal).
    fn ulps(a: f32, b: f32) -> u32 {
        if a.is_nan() && b.is_nan() {
            return 0;
        }
        let key = |v: f32| {
            let bits = v.to_bits() as i32;
            if bits < 0 {
                i32::MIN.wrapping_sub(bits)
            } else {
                bits
            }
        };
        key(a).abs_diff(key(b))
    }

    #[test]
    fn special_values() {
        assert_eq!(exp(0.0), 1.0);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp(88.8), f32::INFINITY);
        assert!(exp(f32::NAN).is_nan() && tanh(f32::NAN).is_nan() && sigmoid(f32::NAN).is_nan());
        assert_eq!(tanh(f32::INFINITY), 1.0);
        assert_eq!(tanh(f32::NEG_INFINITY), -1.0);
        assert_eq!(tanh(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(sigmoid(f32::NEG_INFINITY), 0.0);
        assert_eq!(sigmoid(f32::INFINITY), 1.0);
        assert_eq!(sigmoid(-0.0), 0.5);
        // Results that are f32 subnormals, and `e^x` just below the overflow.
        assert!(ulps(exp(-100.0), kf::exp(-100.0)) <= 1);
        assert_eq!(sigmoid(-100.0), kf::sigmoid(-100.0));
        assert!(ulps(exp(88.72), kf::exp(88.72)) <= EXP_ULPS);
        assert!(exp(88.72) < f32::INFINITY && exp(88.73) == f32::INFINITY);
    }

    /// The bounds the module documentation states, in ulps: `exp`, `tanh`, `sigmoid`.
    const BOUNDS: [u32; 3] = [EXP_ULPS, TANH_ULPS, SIGMOID_ULPS];
    const EXP_ULPS: u32 = 1;
    const TANH_ULPS: u32 = 1;
    const SIGMOID_ULPS: u32 = 0;

    /// The largest distance in ulps from the interpreter's `libm` results over `xs`, per
    /// function (`exp`, `tanh`, `sigmoid`), with an input that reaches it.
    fn worst_ulps(xs: impl Iterator<Item = f32>) -> [(u32, f32); 3] {
        let mut worst = [(0, 0.0); 3];
        for x in xs {
            let want = [kf::exp(x), kf::tanh(x), kf::sigmoid(x)];
            let got = [exp(x), tanh(x), sigmoid(x)];
            for k in 0..3 {
                let d = ulps(got[k], want[k]);
                if d > worst[k].0 {
                    worst[k] = (d, x);
                }
            }
        }
        worst
    }

    fn assert_within_bounds(worst: [(u32, f32); 3]) {
        eprintln!("worst ulps and an input reaching them (exp, tanh, sigmoid): {worst:?}");
        assert!(worst.iter().zip(BOUNDS).all(|(w, b)| w.0 <= b), "bounds {BOUNDS:?} exceeded: {worst:?}");
    }

    /// 10^7 inputs: every 863rd bit pattern (all exponents and signs, NaNs included) and as
    /// many uniform in `[-100, 100]`, where `exp` and `tanh` are neither 0, 1 nor inf.
    fn samples() -> Vec<f32> {
        let n = 5_000_000u32;
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut xs: Vec<f32> =
            (0..n).map(|i| f32::from_bits(i.wrapping_mul(863).wrapping_add(12_345))).collect();
        xs.extend((0..n).map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32 * 200.0 - 100.0
        }));
        xs
    }

    #[test]
    fn within_the_bounds_of_libm_on_ten_million_f32() {
        let xs = samples();
        assert_within_bounds(worst_ulps(xs.iter().copied()));
        // Every row loop the host can run (the dispatched one, AVX-512, AVX2, plain) gives the
        // scalar bits (on every 10th sample: the loops are the same per element).
        let xs: Vec<f32> = xs.iter().copied().step_by(10).collect();
        let mut out = vec![0.0; xs.len()];
        let loops = row_loops();
        for f in [exp as fn(f32) -> f32, tanh, sigmoid] {
            for &(path, row_loop) in &loops {
                out.fill(0.0);
                row_loop(&xs, &mut out, f);
                let same = xs.iter().zip(&out).all(|(&x, &y)| f(x).to_bits() == y.to_bits() || y.is_nan());
                assert!(same, "the {path} row loop differs from the scalar function");
            }
        }
    }

    /// The bounds over every finite `f32` (about a minute per core in release:
    /// `cargo test --release -p kiln-vm -- --ignored`).
    #[test]
    #[ignore = "exhaustive: run in release with --ignored"]
    fn exhaustive_over_every_finite_f32() {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        let chunk = (1u64 << 32).div_ceil(threads);
        let worst = std::thread::scope(|scope| {
            let parts: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        let end = ((t + 1) * chunk).min(1 << 32);
                        let xs = (t * chunk..end).map(|b| f32::from_bits(b as u32)).filter(|x| x.is_finite());
                        worst_ulps(xs)
                    })
                })
                .collect();
            let mut worst = [(0, 0.0); 3];
            for part in parts {
                let part = part.join().expect("a worker panicked");
                for k in 0..3 {
                    if part[k].0 > worst[k].0 {
                        worst[k] = part[k];
                    }
                }
            }
            worst
        });
        assert_within_bounds(worst);
    }

    type RowLoop = fn(&[f32], &mut [f32], fn(f32) -> f32);

    /// The row loops this host can run, by name.
    fn row_loops() -> Vec<(&'static str, RowLoop)> {
        let mut loops: Vec<(&'static str, RowLoop)> =
            vec![("dispatched", |s, o, f| map(s, o, f)), ("plain", |s, o, f| map_plain(s, o, f))];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
                // SAFETY: the CPU has AVX2 and FMA (checked just above).
                loops.push(("avx2", |s, o, f| unsafe { map_avx2(s, o, f) }));
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F (checked just above).
                loops.push(("avx512", |s, o, f| unsafe { map_avx512(s, o, f) }));
            }
        }
        eprintln!("row loops tested: {:?}", loops.iter().map(|l| l.0).collect::<Vec<_>>());
        loops
    }
}
