//! Vectorizable `exp`, `tanh` and `sigmoid` for `f32` lanes: branch-free `f64` arithmetic
//! (no calls, no table lookups), so the row loops compile to SIMD code.
//!
//! `exp` reduces `x = k ln2 + r` (`|r| <= ln2 / 2`, Cody-Waite split of `ln2`), evaluates the
//! degree-11 Taylor polynomial of `e^r` (truncation error below `7e-15` relative) and scales by
//! `2^k` through the exponent bits; `tanh` is its odd Taylor polynomial up to `x^9` for
//! `|x| < 1/32` and `(e^{2|x|} - 1) / (e^{2|x|} + 1)` otherwise; `sigmoid` is
//! `1 / (1 + e^-x)`. Everything is computed in `f64` and rounded to `f32` once, like the
//! interpreter's `libm` path (which rounds `libm`'s `f64` result): the two differ only when
//! the exact value lies within the `f64` error (about `2e-14` relative) of an `f32` rounding
//! boundary, and then by one `f32` ulp. Tested: exhaustively over all `f16` and `bf16` inputs
//! and over 10^6 `f32` samples, at most one ulp from `libm` (`tools/kiln-run/tests/vm_ops.rs`
//! and the unit tests below, which also run every row loop the host has: plain, AVX2,
//! AVX-512). Plain multiplies and adds (never a fused multiply-add), so the bits are the same
//! on every host and in every row loop.

const LOG2E: f64 = std::f64::consts::LOG2_E;
/// `ln 2` split so that `k * LN2_HI` is exact for the `|k| <= 2^11` that occur.
const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
/// `ln 2 - LN2_HI`.
const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
/// `1.5 * 2^52`: adding it rounds to an integer, which lands in the low mantissa bits.
const ROUNDER: f64 = 6_755_399_441_055_744.0;

/// `e^x` in `f64` for `x` clamped to `[-104, 104]` (beyond, `f32` results of `exp` and
/// `sigmoid` are 0, 1 or inf).
#[inline(always)]
fn exp64(x: f64) -> f64 {
    let x = x.clamp(-104.0, 104.0);
    let t = x * LOG2E + ROUNDER;
    let k = t - ROUNDER;
    let n = t.to_bits() as i64 as i32;
    let r = (x - k * LN2_HI) - k * LN2_LO;
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

/// `e^x`, within one ulp of `libm::exp` (see the module documentation).
#[inline(always)]
pub(crate) fn exp(x: f32) -> f32 {
    exp64(f64::from(x)) as f32
}

/// `tanh x`, within one ulp of `libm::tanh`.
#[inline(always)]
pub(crate) fn tanh(x: f32) -> f32 {
    let x = f64::from(x);
    let ax = x.abs();
    let x2 = x * x;
    let mut p = 62.0 / 2835.0;
    p = p * x2 - 17.0 / 315.0;
    p = p * x2 + 2.0 / 15.0;
    p = p * x2 - 1.0 / 3.0;
    let small = x + x * x2 * p;
    let e = exp64(2.0 * if ax > 20.0 { 20.0 } else { ax });
    let big = (e - 1.0) / (e + 1.0);
    (if ax < 1.0 / 32.0 { small } else { big }).copysign(x) as f32
}

/// `1 / (1 + e^-x)`, within one ulp of the interpreter's `libm` formula.
#[inline(always)]
pub(crate) fn sigmoid(x: f32) -> f32 {
    (1.0 / (1.0 + exp64(-f64::from(x)))) as f32
}

/// `out[i] = f(src[i])`, compiled for AVX-512 and AVX2 as well and dispatched on the host CPU
/// (the same IEEE operations in wider registers, never fused, so the same bits).
#[inline(always)]
pub(crate) fn map(src: &[f32], out: &mut [f32], f: impl Fn(f32) -> f32 + Copy) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: `map_avx512` only requires AVX-512F, which the CPU has (checked just above).
            return unsafe { map_avx512(src, out, f) };
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `map_avx2` only requires AVX2, which the CPU has (checked just above).
            return unsafe { map_avx2(src, out, f) };
        }
    }
    map_plain(src, out, f)
}

#[inline(always)]
fn map_plain(src: &[f32], out: &mut [f32], f: impl Fn(f32) -> f32) {
    for (o, &x) in out.iter_mut().zip(src) {
        *o = f(x);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn map_avx2(src: &[f32], out: &mut [f32], f: impl Fn(f32) -> f32) {
    map_plain(src, out, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn map_avx512(src: &[f32], out: &mut [f32], f: impl Fn(f32) -> f32) {
    map_plain(src, out, f)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // A result that is an f32 subnormal.
        assert_eq!(ulps(exp(-100.0), libm::exp(-100.0) as f32), 0);
    }

    #[test]
    fn within_one_ulp_of_libm_over_a_million_f32() {
        let mut s = 0x2545F4914F6CDD1Du64;
        let mut worst = [0u32; 3];
        let mut xs = Vec::new();
        for i in 0..1_000_000u32 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Half random bit patterns, half uniform in [-100, 100].
            let x = if i % 2 == 0 {
                f32::from_bits(s as u32)
            } else {
                (s >> 40) as f32 / (1u64 << 24) as f32 * 200.0 - 100.0
            };
            xs.push(x);
            let xd = f64::from(x);
            let want = [libm::exp(xd) as f32, libm::tanh(xd) as f32, (1.0 / (1.0 + libm::exp(-xd))) as f32];
            let got = [exp(x), tanh(x), sigmoid(x)];
            for k in 0..3 {
                worst[k] = worst[k].max(ulps(got[k], want[k]));
            }
        }
        assert!(worst.iter().all(|&w| w <= 1), "worst ulps (exp, tanh, sigmoid): {worst:?}");
        // Every row loop the host can run (the dispatched one, AVX-512, AVX2, plain) gives the
        // scalar bits.
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

    type RowLoop = fn(&[f32], &mut [f32], fn(f32) -> f32);

    /// The row loops this host can run, by name.
    fn row_loops() -> Vec<(&'static str, RowLoop)> {
        let mut loops: Vec<(&'static str, RowLoop)> =
            vec![("dispatched", |s, o, f| map(s, o, f)), ("plain", |s, o, f| map_plain(s, o, f))];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked just above).
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
