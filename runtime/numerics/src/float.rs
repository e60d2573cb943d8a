//! Float functions that are not one IEEE 754 primitive. Each is computed in `f64` from the
//! exactly widened `f32` operands, with the portable `libm` (so the bits are the same on every
//! host, whatever its C library), and rounded once to `f32`: "compute in `f32`, round to the
//! dtype" for the device's `f16`/`bf16` ops then rounds that `f32` once more. The result is
//! within one `f32` ulp of the exact value (`rsqrt`: within one rounding of the `f64`
//! quotient). Special values are `libm`'s (C99 Annex F): NaN in gives NaN out (except
//! `pow(x, 0) = pow(1, y) = 1`), and domain errors give NaN.

/// Defines `f32 -> f32` functions computed as `libm`'s `f64` function, rounded to `f32`.
macro_rules! via_f64 {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        ///
        #[doc = concat!("`libm::", stringify!($name), "` of the widened operand, rounded once to `f32`.")]
        #[inline(always)]
        pub fn $name(x: f32) -> f32 {
            libm::$name(f64::from(x)) as f32
        }
    )*};
}

via_f64! {
    /// `e^x` (`exp(-inf) = 0`, overflow gives `inf`).
    exp;
    /// Natural logarithm: `log(±0) = -inf`, `log(x < 0) = NaN`.
    log;
    /// Hyperbolic tangent (`±1` for `±inf`, `tanh(-0) = -0`).
    tanh;
    /// The error function.
    erf;
    /// Sine (NaN for `±inf`).
    sin;
    /// Cosine (NaN for `±inf`).
    cos;
    /// Tangent (NaN for `±inf`).
    tan;
    /// Arcsine (NaN outside `[-1, 1]`).
    asin;
    /// Arccosine (NaN outside `[-1, 1]`).
    acos;
    /// Arctangent.
    atan;
    /// Hyperbolic sine.
    sinh;
    /// Hyperbolic cosine.
    cosh;
    /// Inverse hyperbolic sine.
    asinh;
    /// Inverse hyperbolic cosine (NaN below 1).
    acosh;
    /// Inverse hyperbolic tangent (NaN outside `[-1, 1]`, `±inf` at `±1`).
    atanh;
}

/// `1 / sqrt(x)`: the `f64` quotient of the correctly rounded `f64` square root, rounded to
/// `f32` (`rsqrt(0) = inf`, `rsqrt(x < 0) = NaN`).
#[inline(always)]
pub fn rsqrt(x: f32) -> f32 {
    (1.0 / f64::from(x).sqrt()) as f32
}

/// The logistic function `1 / (1 + e^-x)` in `f64`, with `libm::exp` (0 at `-inf`, 1 at
/// `+inf`, `0.5` at both zeros). The `f64` form for formulas that continue in `f64` (`silu`,
/// `swiglu`); [`sigmoid`] is the `f32` element.
#[inline(always)]
pub fn sigmoid_f64(x: f64) -> f64 {
    1.0 / (1.0 + libm::exp(-x))
}

/// The logistic function of an `f32`: [`sigmoid_f64`] of the widened operand, rounded once.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    sigmoid_f64(f64::from(x)) as f32
}

/// `a ^ b` as C's `pow` (`libm::pow` in `f64`, rounded to `f32`): `pow(x, ±0) = 1` and
/// `pow(1, y) = 1` even for NaN, a negative base with a non-integer exponent gives NaN.
#[inline(always)]
pub fn pow(a: f32, b: f32) -> f32 {
    libm::pow(f64::from(a), f64::from(b)) as f32
}

/// The remainder of the division truncated toward zero, with the sign of `a`: C's `fmod`
/// (exact; `fmod(x, 0)` and `fmod(±inf, y)` are NaN, `fmod(x, ±inf) = x`).
#[inline(always)]
pub fn fmod(a: f32, b: f32) -> f32 {
    libm::fmod(f64::from(a), f64::from(b)) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(exp(1.0), std::f32::consts::E);
        assert_eq!(exp(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp(89.0), f32::INFINITY);
        assert_eq!(log(0.0), f32::NEG_INFINITY);
        assert!(log(-1.0).is_nan());
        assert_eq!(erf(0.5), 0.520_499_9);
        assert_eq!(tanh(f32::INFINITY), 1.0);
        assert!(tanh(-0.0).is_sign_negative());
        assert!(asin(1.5).is_nan() && acosh(0.5).is_nan());
        assert_eq!(atanh(1.0), f32::INFINITY);
        assert!(sin(f32::INFINITY).is_nan());
        assert_eq!(atan(1.0), std::f32::consts::FRAC_PI_4);
        assert_eq!(
            (cos(0.0), cosh(0.0), sinh(0.0), asinh(0.0), acos(1.0), tan(0.0)),
            (1.0, 1.0, 0.0, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn rounded_once_from_f64() {
        for x in [0.1f32, -3.7, 1e-3, 20.5] {
            assert_eq!(exp(x), libm::exp(f64::from(x)) as f32);
            assert_eq!(sin(x), libm::sin(f64::from(x)) as f32);
            assert_eq!(sigmoid(x), (1.0 / (1.0 + libm::exp(-f64::from(x)))) as f32);
        }
        // Not libm's f32 functions, which can be an ulp off the rounded f64 value.
        assert_ne!(exp(0.500_161_5), libm::expf(0.500_161_5));
        assert_ne!(tanh(0.500_323_06), libm::tanhf(0.500_323_06));
    }

    #[test]
    fn rsqrt_and_sigmoid_edges() {
        assert_eq!((rsqrt(4.0), rsqrt(0.0), rsqrt(f32::INFINITY)), (0.5, f32::INFINITY, 0.0));
        assert!(rsqrt(-1.0).is_nan());
        assert_eq!((sigmoid(0.0), sigmoid(-0.0)), (0.5, 0.5));
        assert_eq!((sigmoid(f32::NEG_INFINITY), sigmoid(f32::INFINITY)), (0.0, 1.0));
        assert!(sigmoid(f32::NAN).is_nan());
        assert_eq!(sigmoid_f64(0.0), 0.5);
    }

    #[test]
    fn pow_as_c() {
        assert_eq!((pow(2.0, 10.0), pow(2.0, -1.0), pow(-2.0, 3.0)), (1024.0, 0.5, -8.0));
        assert!(pow(-8.0, 1.0 / 3.0).is_nan());
        assert_eq!((pow(f32::NAN, 0.0), pow(1.0, f32::NAN)), (1.0, 1.0));
        assert!(pow(f32::NAN, 1.0).is_nan());
        assert_eq!((pow(0.0, -1.0), pow(-0.0, -1.0)), (f32::INFINITY, f32::NEG_INFINITY));
    }

    #[test]
    fn fmod_takes_the_sign_of_the_dividend() {
        assert_eq!((fmod(5.5, 2.0), fmod(-5.5, 2.0), fmod(5.5, -2.0)), (1.5, -1.5, 1.5));
        assert!(fmod(1.0, 0.0).is_nan() && fmod(f32::INFINITY, 2.0).is_nan());
        assert_eq!(fmod(3.0, f32::INFINITY), 3.0);
        assert!(fmod(-4.0, 2.0).is_sign_negative());
    }
}
