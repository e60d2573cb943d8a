//! Maximum, minimum, `relu` and `sign` for any ordered element type: `f32`/`f64` lanes
//! (where NaN is unordered) and integer lanes alike.

/// numpy's `maximum`, NaN-propagating as IEEE 754-2019 `maximum`: `a` when `a >= b` or `a` is
/// NaN, else `b`. A tie between `-0.0` and `+0.0` gives `a` (numpy leaves it unspecified: its
/// `f16` and `f32` loops differ). On integers this is `max`.
#[inline(always)]
pub fn nan_max<T: PartialOrd>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    let a_is_nan = a != a;
    if a >= b || a_is_nan {
        a
    } else {
        b
    }
}

/// numpy's `minimum`, NaN-propagating as IEEE 754-2019 `minimum`: `a` when `a <= b` or `a` is
/// NaN, else `b`; a tie between zeros gives `a`. On integers this is `min`.
#[inline(always)]
pub fn nan_min<T: PartialOrd>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    let a_is_nan = a != a;
    if a <= b || a_is_nan {
        a
    } else {
        b
    }
}

/// `relu(x) = nan_max(x, 0)` (numpy's `maximum(x, 0)`): NaN stays NaN and `-0.0` stays `-0.0`.
#[inline(always)]
pub fn relu<T: PartialOrd + From<i8>>(x: T) -> T {
    nan_max(x, T::from(0))
}

/// numpy's `sign`: 1 for `x > 0`, -1 for `x < 0`, `+0.0` (or 0) for zeros of either sign, and
/// NaN for NaN (the operand itself).
#[inline(always)]
pub fn sign<T: PartialOrd + From<i8>>(x: T) -> T {
    let zero = T::from(0);
    if x > zero {
        T::from(1)
    } else if x < zero {
        T::from(-1)
    } else if x == zero {
        zero
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_and_min_propagate_nan_from_either_side() {
        assert!(nan_max(f32::NAN, 1.0).is_nan() && nan_max(1.0, f32::NAN).is_nan());
        assert!(nan_min(f64::NAN, 1.0).is_nan() && nan_min(1.0, f64::NAN).is_nan());
        assert_eq!(nan_max(2.0f32, -3.0), 2.0);
        assert_eq!(nan_min(2.0f32, -3.0), -3.0);
        assert_eq!(nan_max(f32::NEG_INFINITY, -1e30), -1e30);
        assert_eq!((nan_max(7i64, -9), nan_min(7i64, -9)), (7, -9));
    }

    #[test]
    fn zeros_tie_to_the_first_operand() {
        assert!(nan_max(-0.0f32, 0.0).is_sign_negative());
        assert!(nan_max(0.0f32, -0.0).is_sign_positive());
        assert!(nan_min(-0.0f64, 0.0).is_sign_negative());
        assert!(nan_min(0.0f64, -0.0).is_sign_positive());
    }

    #[test]
    fn relu_keeps_nan_and_negative_zero() {
        assert!(relu(f32::NAN).is_nan());
        assert!(relu(-0.0f32).is_sign_negative());
        assert_eq!((relu(-2.5f64), relu(2.5f64)), (0.0, 2.5));
        assert_eq!((relu(i64::MIN), relu(5i32)), (0, 5));
    }

    #[test]
    fn sign_as_numpy() {
        assert_eq!([sign(-3.5f32), sign(0.25f32), sign(f32::NEG_INFINITY)], [-1.0, 1.0, -1.0]);
        assert!(sign(-0.0f32).is_sign_positive() && sign(-0.0f64) == 0.0);
        assert!(sign(f64::NAN).is_nan());
        assert_eq!((sign(i64::MIN), sign(0i64), sign(i32::MAX)), (-1, 0, 1));
    }
}
