//! Two's-complement integer element arithmetic, numpy's rules where numpy has one.
//!
//! Every operation wraps at the width of the lanes it computes in, and narrower element types
//! keep the low bits when they are stored; because wrapping is a ring homomorphism, `i8`/`i32`
//! `add`, `sub`, `mul`, `neg`, `abs` and `pow` computed in wider lanes and then narrowed equal
//! the same operations at the narrow width. Division and the shifts are defined for every
//! operand (no panics, no undefined results): see each function.

/// A two's-complement integer lane type (`i8`, `i32`, `i64`): the primitives the rules of this
/// module are written in.
pub trait Integer: Copy + Ord + From<i8> {
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The width in bits.
    const BITS: u32;
    /// `self + other`, wrapping.
    fn wrapping_add(self, other: Self) -> Self;
    /// `self - other`, wrapping.
    fn wrapping_sub(self, other: Self) -> Self;
    /// `self * other`, wrapping.
    fn wrapping_mul(self, other: Self) -> Self;
    /// `self / other` rounded toward zero, `MIN / -1` wrapping to `MIN`; `other` is not 0.
    fn wrapping_div(self, other: Self) -> Self;
    /// The remainder of [`Integer::wrapping_div`] (`MIN % -1 = 0`); `other` is not 0.
    fn wrapping_rem(self, other: Self) -> Self;
    /// `-self`, wrapping (`-MIN = MIN`).
    fn wrapping_neg(self) -> Self;
    /// `|self|`, wrapping (`|MIN| = MIN`).
    fn wrapping_abs(self) -> Self;
    /// `self << n` for `n < BITS`.
    fn shl_in_range(self, n: Self) -> Self;
    /// `self >> n`, arithmetic, for `0 <= n < BITS`.
    fn shr_in_range(self, n: Self) -> Self;
    /// `x` truncated toward zero and saturated at the type's bounds, NaN giving 0 (Rust's `as`;
    /// numpy leaves out-of-range conversions undefined).
    fn from_f32(x: f32) -> Self;
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Integer for $t {
            const ZERO: $t = 0;
            const ONE: $t = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn wrapping_add(self, other: $t) -> $t {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: $t) -> $t {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn wrapping_mul(self, other: $t) -> $t {
                <$t>::wrapping_mul(self, other)
            }
            #[inline(always)]
            fn wrapping_div(self, other: $t) -> $t {
                <$t>::wrapping_div(self, other)
            }
            #[inline(always)]
            fn wrapping_rem(self, other: $t) -> $t {
                <$t>::wrapping_rem(self, other)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> $t {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn wrapping_abs(self) -> $t {
                <$t>::wrapping_abs(self)
            }
            #[inline(always)]
            fn shl_in_range(self, n: $t) -> $t {
                self << n
            }
            #[inline(always)]
            fn shr_in_range(self, n: $t) -> $t {
                self >> n
            }
            #[inline(always)]
            fn from_f32(x: f32) -> $t {
                x as $t
            }
        }
    )*};
}

integer!(i8, i32, i64);

/// `a + b`, wrapping.
#[inline(always)]
pub fn add<T: Integer>(a: T, b: T) -> T {
    a.wrapping_add(b)
}

/// `a - b`, wrapping.
#[inline(always)]
pub fn sub<T: Integer>(a: T, b: T) -> T {
    a.wrapping_sub(b)
}

/// `a * b`, wrapping.
#[inline(always)]
pub fn mul<T: Integer>(a: T, b: T) -> T {
    a.wrapping_mul(b)
}

/// `-a`, wrapping: `neg(MIN) = MIN`.
#[inline(always)]
pub fn neg<T: Integer>(a: T) -> T {
    a.wrapping_neg()
}

/// `|a|`, wrapping as numpy's `abs`: `abs(MIN) = MIN`.
#[inline(always)]
pub fn abs<T: Integer>(a: T) -> T {
    a.wrapping_abs()
}

/// `a / b` truncated toward zero; `b == 0` gives 0 (numpy's result, with a warning there) and
/// `MIN / -1` wraps to `MIN`.
#[inline(always)]
pub fn div<T: Integer>(a: T, b: T) -> T {
    if b == T::ZERO {
        T::ZERO
    } else {
        a.wrapping_div(b)
    }
}

/// The remainder of [`div`], with the sign of `a` (C's `%`, not numpy's floored `mod`): 0 for
/// `b == 0` and for `MIN % -1`.
#[inline(always)]
pub fn rem<T: Integer>(a: T, b: T) -> T {
    if b == T::ZERO {
        T::ZERO
    } else {
        a.wrapping_rem(b)
    }
}

/// `base ^ exp` by squaring, with wrapping multiplication (`pow(0, 0) = 1`). A negative
/// exponent, which numpy refuses for integers, gives 1 for base 1, `±1` for base -1 (by the
/// exponent's parity) and 0 for every other base: the real power truncated toward zero, and
/// 0 also for base 0, whose real power is infinite.
#[inline(always)]
pub fn pow<T: Integer>(base: T, exp: T) -> T {
    if exp < T::ZERO {
        return if base == T::ONE {
            T::ONE
        } else if base == T::ONE.wrapping_neg() {
            if exp.wrapping_rem(T::from(2)) == T::ZERO {
                T::ONE
            } else {
                base
            }
        } else {
            T::ZERO
        };
    }
    let (mut result, mut square, mut rest) = (T::ONE, base, exp);
    while rest > T::ZERO {
        if rest.wrapping_rem(T::from(2)) == T::ONE {
            result = result.wrapping_mul(square);
        }
        square = square.wrapping_mul(square);
        rest = rest.shr_in_range(T::ONE);
    }
    result
}

/// `a << b` at the lane's width: 0 when `b` is negative or at least the width (the bits all
/// shift out), so an `i64` shift narrowed to `i32` equals the `i32` shift.
#[inline(always)]
pub fn shl<T: Integer>(a: T, b: T) -> T {
    if b < T::ZERO || b >= width::<T>() {
        T::ZERO
    } else {
        a.shl_in_range(b)
    }
}

/// `a >> b`, arithmetic (sign-propagating): 0 when `b` is negative, and a shift by at least
/// the width gives the sign fill (0 or -1), as a shift by `width - 1` does.
#[inline(always)]
pub fn shr<T: Integer>(a: T, b: T) -> T {
    if b < T::ZERO {
        T::ZERO
    } else {
        a.shr_in_range(b.min(width::<T>().wrapping_sub(T::ONE)))
    }
}

/// `T::BITS` as a `T`.
#[inline(always)]
fn width<T: Integer>() -> T {
    // 8, 32 or 64: an `i8`.
    T::from(T::BITS as i8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_arithmetic() {
        assert_eq!(add(i64::MAX, 1), i64::MIN);
        assert_eq!(sub(i32::MIN, 1), i32::MAX);
        assert_eq!(mul(i32::MAX, 2), -2);
        assert_eq!((neg(i64::MIN), abs(i8::MIN), abs(-5i32)), (i64::MIN, i8::MIN, 5));
        // Computed wide and narrowed equals computed narrow.
        assert_eq!(mul(100_000i64, 300_000) as i32, mul(100_000i32, 300_000));
    }

    #[test]
    fn division_by_zero_and_min_over_minus_one() {
        assert_eq!((div(7i64, 0), rem(7i64, 0), div(0i32, 0)), (0, 0, 0));
        assert_eq!((div(i64::MIN, -1), rem(i64::MIN, -1)), (i64::MIN, 0));
        assert_eq!((div(i32::MIN, -1), rem(i8::MIN, -1)), (i32::MIN, 0));
        // Truncated toward zero, the remainder with the dividend's sign (C, not numpy's `//`).
        assert_eq!((div(-7i64, 2), rem(-7i64, 2)), (-3, -1));
        assert_eq!((div(7i32, -2), rem(7i32, -2)), (-3, 1));
    }

    #[test]
    fn powers() {
        assert_eq!((pow(2i64, 10), pow(0i64, 0), pow(-3i64, 3), pow(5i32, 0)), (1024, 1, -27, 1));
        assert_eq!(pow(3i32, 31), 3i64.pow(31) as i32);
        assert_eq!(pow(3i32, 31), 1_264_544_299);
        assert_eq!((pow(2i64, 64), pow(2i64, 63)), (0, i64::MIN));
        // Negative exponents: the integer part of the real power.
        assert_eq!((pow(2i64, -1), pow(0i64, -1), pow(1i64, -5)), (0, 0, 1));
        assert_eq!((pow(-1i32, -3), pow(-1i32, -2), pow(-1i64, i64::MIN)), (-1, 1, 1));
        assert_eq!(pow(-1i64, i64::MAX), -1);
    }

    #[test]
    fn shifts_outside_the_width() {
        assert_eq!((shl(1i64, 63), shl(1i64, 64), shl(1i64, -1)), (i64::MIN, 0, 0));
        assert_eq!((shl(1i32, 31), shl(1i32, 32), shl(3i8, 7)), (i32::MIN, 0, i8::MIN));
        assert_eq!((shr(-8i64, 1), shr(-8i64, 100), shr(8i64, 100), shr(-8i64, -1)), (-4, -1, 0, 0));
        assert_eq!((shr(i32::MIN, 31), shr(i32::MIN, 32), shr(-1i8, 8)), (-1, -1, -1));
        // An i64 shift narrowed to i32 equals the i32 shift.
        for b in [0i64, 5, 31, 32, 40, 63, 64] {
            assert_eq!(shl(-3i64, b) as i32, shl(-3i32, b as i32), "shl by {b}");
            assert_eq!(shr(-3i64 << 20, b) as i32, shr(-3i32 << 20, b as i32), "shr by {b}");
        }
    }

    #[test]
    fn float_to_integer_truncates_and_saturates() {
        assert_eq!([i8::from_f32(300.0), i8::from_f32(-300.0), i8::from_f32(-2.7)], [127, -128, -2]);
        assert_eq!([i32::from_f32(1e10), i32::from_f32(f32::NEG_INFINITY)], [i32::MAX, i32::MIN]);
        assert_eq!([i64::from_f32(f32::NAN), i64::from_f32(f32::INFINITY)], [0, i64::MAX]);
        assert_eq!([i32::from_f32(-0.0), i32::from_f32(0.999_999_9)], [0, 0]);
    }
}
