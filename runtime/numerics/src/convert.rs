//! Conversions between the integer and float element types, by the rules of an explicit cast:
//!
//! * float to integer: [`Integer::from_f32`](crate::int::Integer::from_f32) (truncate toward
//!   zero, saturate at the bounds, NaN to 0);
//! * integer to `f32`: Rust's `as`, which rounds the exact integer once, to nearest with ties
//!   to even;
//! * integer to `f16`/`bf16`: [`int_to_f16`], [`int_to_bf16`]: also one rounding of the exact
//!   integer, not two through `f32` (which can differ when the first rounding makes a tie);
//! * float to float: `half`'s `from_f32`, to nearest with ties to even.

use half::{bf16, f16};

/// `v` rounded to `bits` significant bits, nearest with ties to even; the result is exactly
/// representable in `f64` and in any float type with that many significand bits.
fn round_to_bits(v: i64, bits: u32) -> f64 {
    let magnitude = v.unsigned_abs();
    let width = 64 - magnitude.leading_zeros();
    if width <= bits {
        return v as f64;
    }
    let shift = width - bits;
    let kept = magnitude >> shift;
    let rest = magnitude & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let kept = if rest > half || (rest == half && kept & 1 == 1) { kept + 1 } else { kept };
    let rounded = kept as f64 * 2f64.powi(shift as i32);
    if v < 0 {
        -rounded
    } else {
        rounded
    }
}

/// The integer `v` as an `f16`: rounded once to nearest, ties to even (11 significant bits);
/// beyond 65504 (from 65520 on) it is `±inf`.
#[inline]
pub fn int_to_f16(v: i64) -> f16 {
    f16::from_f64(round_to_bits(v, 11))
}

/// The integer `v` as a `bf16`: rounded once to nearest, ties to even (8 significant bits).
#[inline]
pub fn int_to_bf16(v: i64) -> bf16 {
    bf16::from_f64(round_to_bits(v, 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_the_significand_ties_to_even() {
        assert_eq!(round_to_bits(65520, 11), 65536.0);
        assert_eq!(round_to_bits(65519, 11), 65504.0);
        assert_eq!(round_to_bits(-257, 8), -256.0);
        assert_eq!(round_to_bits(259, 8), 260.0);
        assert_eq!(round_to_bits(i64::MIN, 8), -(2f64.powi(63)));
        assert_eq!(round_to_bits(255, 8), 255.0);
    }

    #[test]
    fn to_half_precision() {
        assert_eq!(int_to_f16(65519).to_f32(), 65504.0);
        assert_eq!(int_to_f16(65520).to_f32(), f32::INFINITY);
        assert_eq!(int_to_f16(-70000).to_f32(), f32::NEG_INFINITY);
        assert_eq!(int_to_f16(2049).to_f32(), 2048.0);
        assert_eq!(int_to_f16(2051).to_f32(), 2052.0);
        assert_eq!(int_to_bf16(i64::MAX).to_f32(), 2f32.powi(63));
    }

    #[test]
    fn one_rounding_not_two() {
        // Just above a bf16 tie: rounding through f32 first makes it a tie, which rounds down.
        let x: i64 = (1 << 40) + (1 << 32) + 1;
        assert_eq!(int_to_bf16(x).to_f64(), ((1i64 << 40) + (1 << 33)) as f64);
        assert_eq!(bf16::from_f32(x as f32).to_f64(), (1i64 << 40) as f64);
        let y: i32 = (1 << 24) + (1 << 16) + 1;
        assert_eq!(int_to_bf16(i64::from(y)).to_f32(), ((1 << 24) + (1 << 17)) as f32);
    }
}
