//! A minimal unsigned big integer, enough for exact float <-> decimal conversion (APFloat's
//! `toString` multiplies significands by powers of five and divides by powers of ten, and
//! correctly rounded decimal parsing divides by powers of ten) and for integer attributes wider
//! than 128 bits (two's complement 64-bit words, little-endian).

use std::cmp::Ordering;

/// An unsigned integer of any size, little-endian 32-bit limbs, no trailing zero limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BigUint {
    limbs: Vec<u32>,
}

impl BigUint {
    pub(crate) fn from_u128(mut v: u128) -> Self {
        let mut limbs = Vec::new();
        while v != 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        BigUint { limbs }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The number of significant bits (0 for zero).
    pub(crate) fn bit_len(&self) -> u64 {
        match self.limbs.last() {
            None => 0,
            Some(top) => (self.limbs.len() as u64 - 1) * 32 + (32 - top.leading_zeros()) as u64,
        }
    }

    /// The value if it fits in 128 bits.
    pub(crate) fn to_u128(&self) -> Option<u128> {
        if self.limbs.len() > 4 {
            return None;
        }
        Some(self.limbs.iter().rev().fold(0u128, |acc, &l| (acc << 32) | l as u128))
    }

    /// Parses decimal digits, or hex digits after `0x`; `None` on any other character.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let (digits, radix) = match text.strip_prefix("0x") {
            Some(hex) => (hex, 16),
            None => (text, 10),
        };
        let mut v = BigUint { limbs: Vec::new() };
        for c in digits.chars() {
            v.mul_add_small(radix, c.to_digit(radix)?);
        }
        Some(v)
    }

    /// The value of little-endian 64-bit words.
    pub(crate) fn from_words(words: &[u64]) -> Self {
        let mut v = BigUint { limbs: words.iter().flat_map(|&w| [w as u32, (w >> 32) as u32]).collect() };
        v.trim();
        v
    }

    /// The low `n` 64-bit words, little-endian.
    pub(crate) fn to_words(&self, n: usize) -> Vec<u64> {
        let limb = |i: usize| self.limbs.get(i).copied().unwrap_or(0) as u64;
        (0..n).map(|i| limb(2 * i) | limb(2 * i + 1) << 32).collect()
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// `self = self * m + a`.
    pub(crate) fn mul_add_small(&mut self, m: u32, a: u32) {
        let mut carry = a as u64;
        for l in &mut self.limbs {
            let v = *l as u64 * m as u64 + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
        self.trim();
    }

    /// `self /= d`, returning the remainder.
    pub(crate) fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for l in self.limbs.iter_mut().rev() {
            let cur = (rem << 32) | *l as u64;
            *l = (cur / d as u64) as u32;
            rem = cur % d as u64;
        }
        self.trim();
        rem as u32
    }

    /// `self *= 10^n`.
    pub(crate) fn mul_pow10(&mut self, n: u64) {
        self.mul_pow(10, 9, 1_000_000_000, n)
    }

    /// `self *= 5^n`.
    pub(crate) fn mul_pow5(&mut self, n: u64) {
        self.mul_pow(5, 13, 1_220_703_125, n)
    }

    fn mul_pow(&mut self, base: u32, chunk: u64, base_to_chunk: u32, mut n: u64) {
        while n >= chunk {
            self.mul_add_small(base_to_chunk, 0);
            n -= chunk;
        }
        if n > 0 {
            self.mul_add_small(base.pow(n as u32), 0);
        }
    }

    /// `self /= 10^n`, truncating.
    pub(crate) fn div_pow10(&mut self, mut n: u64) {
        while n >= 9 && !self.is_zero() {
            self.div_small(1_000_000_000);
            n -= 9;
        }
        if n > 0 && !self.is_zero() {
            self.div_small(10u32.pow(n as u32));
        }
    }

    /// `self <<= n`.
    pub(crate) fn shl(&mut self, n: u64) {
        if self.is_zero() {
            return;
        }
        let (words, bits) = ((n / 32) as usize, (n % 32) as u32);
        if bits != 0 {
            let mut carry = 0u32;
            for l in &mut self.limbs {
                let v = *l;
                *l = (v << bits) | carry;
                carry = v >> (32 - bits);
            }
            if carry != 0 {
                self.limbs.push(carry);
            }
        }
        self.limbs.splice(0..0, std::iter::repeat_n(0, words));
    }

    /// The number of trailing zero bits (0 for zero).
    pub(crate) fn trailing_zeros(&self) -> u64 {
        let mut n = 0;
        for &l in &self.limbs {
            if l != 0 {
                return n + l.trailing_zeros() as u64;
            }
            n += 32;
        }
        0
    }

    /// `self >>= n`.
    pub(crate) fn shr(&mut self, n: u64) {
        let (words, bits) = ((n / 32) as usize, (n % 32) as u32);
        if words >= self.limbs.len() {
            self.limbs.clear();
            return;
        }
        self.limbs.drain(0..words);
        if bits != 0 {
            for i in 0..self.limbs.len() {
                let hi = self.limbs.get(i + 1).copied().unwrap_or(0);
                self.limbs[i] = (self.limbs[i] >> bits) | (hi << (32 - bits));
            }
        }
        self.trim();
    }

    /// Whether any of the low `n` bits is set.
    pub(crate) fn low_bits_nonzero(&self, n: u64) -> bool {
        let (words, bits) = ((n / 32) as usize, (n % 32) as u32);
        if self.limbs.iter().take(words).any(|&l| l != 0) {
            return true;
        }
        bits != 0 && self.limbs.get(words).is_some_and(|&l| l & ((1u32 << bits) - 1) != 0)
    }

    /// Bit `n`.
    pub(crate) fn bit(&self, n: u64) -> bool {
        self.limbs.get((n / 32) as usize).is_some_and(|&l| l >> (n % 32) & 1 == 1)
    }

    fn sub_assign(&mut self, other: &BigUint) {
        let mut borrow = 0i64;
        for i in 0..self.limbs.len() {
            let v = self.limbs[i] as i64 - other.limbs.get(i).copied().unwrap_or(0) as i64 - borrow;
            borrow = (v < 0) as i64;
            self.limbs[i] = v.rem_euclid(1 << 32) as u32;
        }
        self.trim();
    }

    /// `(self / d, self % d)` by shift-and-subtract; cheap when the quotient is short.
    pub(crate) fn div_rem(mut self, d: &BigUint) -> (BigUint, BigUint) {
        let mut q = BigUint::from_u128(0);
        if d.is_zero() || self.cmp(d) == Ordering::Less {
            return (q, self);
        }
        let shift = self.bit_len() - d.bit_len();
        let mut dd = d.clone();
        dd.shl(shift);
        for i in (0..=shift).rev() {
            if self.cmp(&dd) != Ordering::Less {
                self.sub_assign(&dd);
                let (w, b) = ((i / 32) as usize, i % 32);
                if q.limbs.len() <= w {
                    q.limbs.resize(w + 1, 0);
                }
                q.limbs[w] |= 1 << b;
            }
            dd.shr(1);
        }
        q.trim();
        (q, self)
    }

    /// Decimal digits, most significant first ("0" for zero).
    pub(crate) fn to_decimal(&self) -> Vec<u8> {
        let mut v = self.clone();
        let mut chunks = Vec::new();
        while !v.is_zero() {
            chunks.push(v.div_small(1_000_000_000));
        }
        let mut out = Vec::new();
        for (i, c) in chunks.iter().rev().enumerate() {
            if i == 0 {
                out.extend_from_slice(c.to_string().as_bytes());
            } else {
                out.extend_from_slice(format!("{c:09}").as_bytes());
            }
        }
        if out.is_empty() {
            out.push(b'0');
        }
        out
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

/// Negates a two's complement number in place.
pub(crate) fn negate_words(words: &mut [u64]) {
    let mut carry = true;
    for w in words {
        let (v, c) = (!*w).overflowing_add(carry as u64);
        *w = v;
        carry = c;
    }
}

/// The decimal text of the two's complement `words`, read as signed or unsigned.
pub(crate) fn words_to_decimal(words: &[u64], signed: bool) -> String {
    let negative = signed && words.last().is_some_and(|&w| w >> 63 == 1);
    let mut magnitude = words.to_vec();
    if negative {
        negate_words(&mut magnitude);
    }
    let digits = BigUint::from_words(&magnitude).to_decimal();
    let mut out = String::with_capacity(digits.len() + 1);
    if negative {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&digits).expect("decimal digits are ASCII"));
    out
}
