//! Float formats as LLVM's APFloat sees them: decoding and encoding bit patterns of every
//! [`FloatKind`], rounding (to nearest, ties to even), and the two decimal conversions MLIR's
//! printer relies on: `APFloat::toString` (reproduced digit for digit) and correctly rounded
//! decimal parsing, which the printer uses to check that the short form round-trips.

use super::bignum::BigUint;
use crate::types::FloatKind;

/// How a format spends its special encodings.
#[derive(Clone, Copy, PartialEq)]
enum Special {
    /// IEEE 754: all-ones exponent holds infinities and NaNs.
    Ieee,
    /// No infinity; NaN is the all-ones pattern (`FN` formats).
    NanAllOnes,
    /// No infinity, no negative zero; NaN is the negative-zero pattern (`FNUZ` formats).
    NanNegZero,
    /// Every pattern is a finite number (`f4E2M1FN`, `f6...FN`).
    FiniteOnly,
    /// `f8E8M0FNU`: unsigned powers of two, no zero, NaN is all ones.
    ExponentOnly,
}

/// The parameters of a float format, as APFloat's `fltSemantics`.
#[derive(Clone, Copy)]
pub(crate) struct Semantics {
    bits: u32,
    /// Significand bits including the integer bit.
    precision: u32,
    min_exp: i32,
    max_exp: i32,
    special: Special,
}

/// A decoded float: `Finite` is `sig * 2^(exp - (precision - 1))`, `exp >= min_exp`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value {
    Zero(bool),
    Inf(bool),
    NaN,
    Finite { neg: bool, exp: i32, sig: u128 },
}

impl Semantics {
    pub(crate) fn of(kind: FloatKind) -> Semantics {
        use FloatKind::*;
        use Special::*;
        let (bits, precision, min_exp, max_exp, special) = match kind {
            F4E2M1FN => (4, 2, 0, 2, FiniteOnly),
            F6E2M3FN => (6, 4, 0, 2, FiniteOnly),
            F6E3M2FN => (6, 3, -2, 4, FiniteOnly),
            F8E5M2 => (8, 3, -14, 15, Ieee),
            F8E4M3 => (8, 4, -6, 7, Ieee),
            F8E4M3FN => (8, 4, -6, 8, NanAllOnes),
            F8E5M2FNUZ => (8, 3, -15, 15, NanNegZero),
            F8E4M3FNUZ => (8, 4, -7, 7, NanNegZero),
            F8E4M3B11FNUZ => (8, 4, -10, 4, NanNegZero),
            F8E3M4 => (8, 5, -2, 3, Ieee),
            F8E8M0FNU => (8, 1, -127, 127, ExponentOnly),
            BF16 => (16, 8, -126, 127, Ieee),
            F16 => (16, 11, -14, 15, Ieee),
            TF32 => (19, 11, -126, 127, Ieee),
            F32 => (32, 24, -126, 127, Ieee),
            F64 => (64, 53, -1022, 1023, Ieee),
            F80 => (80, 64, -16382, 16383, Ieee),
            F128 => (128, 113, -16382, 16383, Ieee),
        };
        Semantics { bits, precision, min_exp, max_exp, special }
    }

    fn is_f80(self) -> bool {
        self.bits == 80
    }

    /// Width of the stored fraction field.
    fn frac_bits(self) -> u32 {
        if self.is_f80() {
            64
        } else {
            self.precision - 1
        }
    }

    fn exp_bits(self) -> u32 {
        match self.special {
            Special::ExponentOnly => 8,
            _ => self.bits - 1 - self.frac_bits(),
        }
    }

    fn bias(self) -> i32 {
        match self.special {
            Special::ExponentOnly => 127,
            _ => 1 - self.min_exp,
        }
    }

    fn sign_bit(self) -> u128 {
        match self.special {
            Special::ExponentOnly => 0,
            _ => 1u128 << (self.bits - 1),
        }
    }

    fn mask(self) -> u128 {
        if self.bits == 128 {
            u128::MAX
        } else {
            (1u128 << self.bits) - 1
        }
    }

    fn nan_bits(self) -> u128 {
        let all_exp = ((1u128 << self.exp_bits()) - 1) << self.frac_bits();
        match self.special {
            Special::Ieee if self.is_f80() => all_exp | (3u128 << 62),
            Special::Ieee => all_exp | (1u128 << (self.frac_bits() - 1)),
            Special::NanAllOnes | Special::ExponentOnly => self.mask() & !self.sign_bit(),
            Special::NanNegZero => self.sign_bit(),
            Special::FiniteOnly => self.mask() & !self.sign_bit(),
        }
    }

    /// Decodes a bit pattern.
    pub(crate) fn decode(self, bits: u128) -> Value {
        let bits = bits & self.mask();
        let neg = bits & self.sign_bit() != 0;
        let frac = bits & ((1u128 << self.frac_bits()) - 1);
        let field = ((bits >> self.frac_bits()) & ((1u128 << self.exp_bits()) - 1)) as i32;
        let all_ones = (1i32 << self.exp_bits()) - 1;
        match self.special {
            Special::ExponentOnly => {
                return if field == all_ones {
                    Value::NaN
                } else {
                    Value::Finite { neg: false, exp: field - 127, sig: 1 }
                };
            }
            Special::Ieee if field == all_ones => {
                let inf = if self.is_f80() { 1u128 << 63 } else { 0 };
                return if frac == inf { Value::Inf(neg) } else { Value::NaN };
            }
            Special::NanAllOnes if field == all_ones && frac == (1u128 << self.frac_bits()) - 1 => {
                return Value::NaN
            }
            Special::NanNegZero if neg && field == 0 && frac == 0 => return Value::NaN,
            _ => {}
        }
        if field == 0 {
            if frac == 0 {
                return Value::Zero(neg);
            }
            return Value::Finite { neg, exp: self.min_exp, sig: frac };
        }
        let sig = if self.is_f80() {
            if frac >> 63 == 0 {
                return Value::NaN;
            }
            frac
        } else {
            frac | (1u128 << (self.precision - 1))
        };
        Value::Finite { neg, exp: field - self.bias(), sig }
    }

    fn encode_finite(self, neg: bool, exp: i32, sig: u128) -> u128 {
        if self.special == Special::ExponentOnly {
            return (exp + 127) as u128;
        }
        let sign = if neg { self.sign_bit() } else { 0 };
        let normal = sig >> (self.precision - 1) != 0;
        let field = if normal { (exp + self.bias()) as u128 } else { 0 };
        let frac = if self.is_f80() { sig } else { sig & ((1u128 << (self.precision - 1)) - 1) };
        sign | (field << self.frac_bits()) | frac
    }

    fn largest(self, neg: bool) -> u128 {
        let sig = (1u128 << self.precision) - 1;
        let sig = if self.special == Special::NanAllOnes { sig - 1 } else { sig };
        self.encode_finite(neg && self.special != Special::ExponentOnly, self.max_exp, sig)
    }

    /// The bits of a zero (`+0` where the format has no negative zero or no zero at all).
    pub(crate) fn zero(self, neg: bool) -> u128 {
        match self.special {
            Special::ExponentOnly => 0,
            Special::NanNegZero => 0,
            _ if neg => self.sign_bit(),
            _ => 0,
        }
    }

    /// The bits of an infinity (or what the format has instead: NaN or the largest value).
    pub(crate) fn inf(self, neg: bool) -> u128 {
        match self.special {
            Special::Ieee => {
                let all = ((1u128 << self.exp_bits()) - 1) << self.frac_bits();
                let int_bit = if self.is_f80() { 1u128 << 63 } else { 0 };
                all | int_bit | if neg { self.sign_bit() } else { 0 }
            }
            Special::NanAllOnes if neg => self.nan_bits() | self.sign_bit(),
            Special::NanAllOnes | Special::NanNegZero | Special::ExponentOnly => self.nan_bits(),
            Special::FiniteOnly => self.largest(neg),
        }
    }

    /// Rounds `m * 2^e` (plus a sticky bit for inexact inputs) to the nearest value, ties to
    /// even, and returns its bits.
    pub(crate) fn round(self, neg: bool, m: &BigUint, e: i64, sticky: bool) -> u128 {
        if m.is_zero() {
            return match self.special {
                Special::ExponentOnly => self.encode_finite(false, self.min_exp, 1),
                _ => self.zero(neg),
            };
        }
        let p = self.precision as i64;
        let top = e + m.bit_len() as i64 - 1;
        let lsb = top.max(self.min_exp as i64) - (p - 1);
        let shift = lsb - e;
        let mut sig;
        if shift > 0 {
            let half = m.bit(shift as u64 - 1);
            let rest = m.low_bits_nonzero(shift as u64 - 1) || sticky;
            let mut q = m.clone();
            q.shr(shift as u64);
            sig = q.to_u128().unwrap_or(u128::MAX);
            if half && (rest || sig & 1 == 1) {
                sig += 1;
            }
        } else {
            let mut q = m.clone();
            q.shl((-shift) as u64);
            sig = q.to_u128().unwrap_or(u128::MAX);
        }
        let mut exp = lsb + p - 1;
        if sig >> p != 0 {
            sig >>= 1;
            exp += 1;
        }
        if sig == 0 {
            return self.zero(neg);
        }
        let all_ones_at_max = self.special == Special::NanAllOnes && sig == (1u128 << p) - 1;
        if exp > self.max_exp as i64 || (exp == self.max_exp as i64 && all_ones_at_max) {
            return self.inf(neg);
        }
        if self.special == Special::NanNegZero && sig == 0 {
            return self.zero(false);
        }
        self.encode_finite(neg, exp as i32, sig)
    }

    /// Converts an `f64` to this format, as `APFloat::convert` with ties to even.
    pub(crate) fn convert_f64(self, v: f64) -> u128 {
        let bits = Semantics::of(FloatKind::F64);
        match bits.decode(v.to_bits() as u128) {
            Value::Zero(neg) => self.round(neg, &BigUint::from_u128(0), 0, false),
            Value::Inf(neg) => self.inf(neg),
            Value::NaN => self.nan_bits(),
            Value::Finite { neg, exp, sig } => {
                self.round(neg, &BigUint::from_u128(sig), exp as i64 - 52, false)
            }
        }
    }

    /// Parses a decimal literal (`[-+]?digits[.digits][e[-+]digits]`) correctly rounded, as
    /// APFloat's `convertFromString`. Returns `None` on malformed text.
    pub(crate) fn parse_decimal(self, text: &str) -> Option<u128> {
        let (neg, rest) = match text.as_bytes().first()? {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let (mantissa, exp10) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
            None => (rest, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let mut d = BigUint::from_u128(0);
        for c in int.bytes().chain(frac.bytes()) {
            if !c.is_ascii_digit() {
                return None;
            }
            d.mul_add_small(10, (c - b'0') as u32);
        }
        let k = exp10.checked_sub(frac.len() as i64)?;
        if d.is_zero() {
            return Some(self.round(neg, &d, 0, false));
        }
        // Far outside every format's range: avoid building huge powers of ten.
        let magnitude = k + d.bit_len() as i64 * 30103 / 100000;
        if magnitude > 5000 {
            return Some(self.inf(neg));
        }
        if magnitude < -5100 {
            return Some(self.round(neg, &BigUint::from_u128(0), 0, false));
        }
        if k >= 0 {
            d.mul_pow10(k as u64);
            return Some(self.round(neg, &d, 0, false));
        }
        let mut pow = BigUint::from_u128(1);
        pow.mul_pow10((-k) as u64);
        let want = self.precision as i64 + 3 + pow.bit_len() as i64 - d.bit_len() as i64;
        let s = want.max(0);
        d.shl(s as u64);
        let (q, r) = d.div_rem(&pow);
        Some(self.round(neg, &q, -s, !r.is_zero()))
    }
}

/// `APFloat::toString(str, precision, max_padding, truncate_zero)` for a finite value.
pub(crate) fn to_string(sem: Semantics, v: Value, precision: u32, max_padding: u32, trunc: bool) -> String {
    let mut out = String::new();
    let (neg, exp, sig) = match v {
        Value::Inf(neg) => return if neg { "-Inf".into() } else { "+Inf".into() },
        Value::NaN => return "NaN".into(),
        Value::Zero(neg) => {
            if neg {
                out.push('-');
            }
            if max_padding != 0 {
                out.push('0');
            } else if trunc {
                out.push_str("0.0E+0");
            } else {
                out.push_str("0.0");
                for _ in 1..precision {
                    out.push('0');
                }
                out.push_str("e+00");
            }
            return out;
        }
        Value::Finite { neg, exp, sig } => (neg, exp, sig),
    };
    if neg {
        out.push('-');
    }
    let sem_precision = sem.precision;
    let precision = if precision == 0 { 2 + sem_precision * 59 / 196 } else { precision };
    let mut exp = exp as i64 - (sem_precision as i64 - 1);
    let mut n = BigUint::from_u128(sig);
    let tz = n.trailing_zeros();
    exp += tz as i64;
    n.shr(tz);
    if exp > 0 {
        n.shl(exp as u64);
        exp = 0;
    } else if exp < 0 {
        n.mul_pow5((-exp) as u64);
    }
    // AdjustToPrecision on the integer: drop decimal digits that cannot matter (truncating).
    let bits = n.bit_len();
    let required = (precision as u64 * 196).div_ceil(59);
    if bits > required {
        let removable = (bits - required) * 59 / 196;
        if removable > 0 {
            exp += removable as i64;
            n.div_pow10(removable);
        }
    }
    // Digits, least significant first, trailing zeros dropped.
    let mut buffer: Vec<u8> = n.to_decimal();
    buffer.reverse();
    let lead = buffer.iter().take_while(|&&c| c == b'0').count();
    exp += lead as i64;
    buffer.drain(..lead);
    // AdjustToPrecision on the digits: round half up.
    let nd = buffer.len();
    if nd > precision as usize {
        let mut first = nd - precision as usize;
        if buffer[first - 1] < b'5' {
            while first < nd && buffer[first] == b'0' {
                first += 1;
            }
            exp += first as i64;
            buffer.drain(..first);
        } else {
            let mut i = first;
            while i < nd {
                if buffer[i] == b'9' {
                    first += 1;
                    i += 1;
                } else {
                    buffer[i] += 1;
                    break;
                }
            }
            exp += first as i64;
            if first == nd {
                buffer.clear();
                buffer.push(b'1');
            } else {
                buffer.drain(..first);
            }
        }
    }
    let nd = buffer.len() as i64;
    let scientific = if max_padding == 0 {
        true
    } else if exp >= 0 {
        exp > max_padding as i64 || nd + exp > precision as i64
    } else {
        let msd = exp + nd - 1;
        msd < 0 && -msd > max_padding as i64
    };
    let digit = |i: i64| buffer[i as usize] as char;
    if scientific {
        let e = exp + nd - 1;
        out.push(digit(nd - 1));
        out.push('.');
        if nd == 1 && trunc {
            out.push('0');
        } else {
            for i in 1..nd {
                out.push(digit(nd - 1 - i));
            }
        }
        if !trunc && precision as i64 > nd - 1 {
            for _ in 0..(precision as i64 - nd + 1) {
                out.push('0');
            }
        }
        out.push(if trunc { 'E' } else { 'e' });
        out.push(if e >= 0 { '+' } else { '-' });
        let digits = e.unsigned_abs().to_string();
        if !trunc && digits.len() < 2 {
            out.push('0');
        }
        out.push_str(&digits);
        return out;
    }
    if exp >= 0 {
        for i in 0..nd {
            out.push(digit(nd - 1 - i));
        }
        for _ in 0..exp {
            out.push('0');
        }
        return out;
    }
    let whole = exp + nd;
    let mut i = 0;
    if whole > 0 {
        while i < whole {
            out.push(digit(nd - i - 1));
            i += 1;
        }
        out.push('.');
    } else {
        out.push_str("0.");
        for _ in 0..-whole {
            out.push('0');
        }
    }
    while i < nd {
        out.push(digit(nd - i - 1));
        i += 1;
    }
    out
}

/// Formats a float as MLIR's `printFloatValue`: the 6-digit scientific form if it parses back
/// to the same bits, else APFloat's shortest-ish default form if it has a `.`, else the bit
/// pattern in hex.
pub(crate) fn format_float(kind: FloatKind, bits: u128) -> String {
    let sem = Semantics::of(kind);
    let v = sem.decode(bits);
    if !matches!(v, Value::Inf(_) | Value::NaN) {
        let short = to_string(sem, v, 6, 0, false);
        if sem.parse_decimal(&short).map(|b| sem.decode(b)) == Some(v) {
            return short;
        }
        let long = to_string(sem, v, 0, 3, true);
        if long.contains('.') {
            return long;
        }
    }
    format!("0x{:X}", bits & sem.mask())
}

/// Whether `bits` fits the format's width (for hex float literals).
pub(crate) fn fits(kind: FloatKind, bits: u128) -> bool {
    bits & !Semantics::of(kind).mask() == 0
}
