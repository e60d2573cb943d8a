//! Scalar literals: integers (with MLIR's range rules), floats (decimal via `f64` then
//! converted to the target format, as MLIR does, or a hex bit pattern) and strings.

use pest::iterators::Pair;

use super::bignum::{negate_words, BigUint};
use super::construct::{first, Builder, Result};
use super::float::Semantics;
use super::grammar::Rule;
use crate::attributes::{AttrKind, Attribute};
use crate::types::{FloatKind, Signedness, Type, TypeKind};

/// A numeric literal as written: sign, token kind and text.
pub(super) struct Number<'i> {
    pub(super) neg: bool,
    pub(super) kind: Rule,
    pub(super) text: &'i str,
    /// Offset of the literal token (after any `-`) in the extent.
    pub(super) at: usize,
}

impl<'i> Number<'i> {
    pub(super) fn new(pair: Pair<'i, Rule>) -> Number<'i> {
        let mut neg = false;
        let mut lit = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::neg => neg = true,
                _ => lit = Some(p),
            }
        }
        let lit = lit.expect("grammar guarantees a literal");
        Number { neg, kind: lit.as_rule(), text: lit.as_str(), at: lit.as_span().start() }
    }
}

/// The integer value of `num` for integer or index type `ty`, stored as
/// [`AttrKind::Integer`] keeps it; `range_msg` is the out-of-range message of the context.
pub(super) fn int_value(
    b: &Builder<'_, '_, '_>,
    num: &Number<'_>,
    ty: Type<'_>,
    range_msg: &str,
) -> Result<i128> {
    let (width, signedness, is_index) = match *ty.kind() {
        TypeKind::Integer { width, signedness } => (width, signedness, false),
        TypeKind::Index => (64, Signedness::Signed, true),
        _ => return Err(b.error_at(num.at, "integer literal not valid for specified type")),
    };
    if num.kind == Rule::float_lit {
        return Err(b.error_at(num.at, "floating point value not valid for specified type"));
    }
    if num.neg && signedness == Signedness::Unsigned {
        return Err(b.error_at(num.at, "negative integer literal not valid for unsigned integer type"));
    }
    let range = || b.error_at(num.at, range_msg);
    if width > 128 {
        return match wide_int_value(b, num, width, signedness, range_msg)? {
            IntValue::Small(v) => Ok(v),
            IntValue::Wide(_) => {
                Err(b.error_at(num.at, "integer elements wider than 128 bits are not supported here"))
            }
        };
    }
    let mag = match num.text.strip_prefix("0x") {
        Some(hex) => u128::from_str_radix(hex, 16),
        None => num.text.parse::<u128>(),
    };
    let Ok(mag) = mag else { return Err(range()) };
    if width == 0 {
        return if num.neg || mag != 0 { Err(range()) } else { Ok(0) };
    }
    if width < 128 && mag >> width != 0 {
        return Err(range());
    }
    let sign_bit = 1u128 << (width - 1);
    let pattern = if num.neg {
        if mag == 0 || mag > sign_bit {
            return Err(range());
        }
        mag.wrapping_neg()
    } else {
        if (signedness == Signedness::Signed || is_index) && mag & sign_bit != 0 {
            return Err(range());
        }
        mag
    };
    let shift = 128 - width;
    Ok(match signedness {
        Signedness::Unsigned => ((pattern << shift) >> shift) as i128,
        _ => ((pattern << shift) as i128) >> shift,
    })
}

/// An integer literal's value: in an `i128` when it fits (as [`AttrKind::Integer`] stores it),
/// otherwise as two's complement 64-bit words (as [`AttrKind::WideInteger`] stores them).
pub(super) enum IntValue {
    /// The value, sign-extended (zero-extended for unsigned types).
    Small(i128),
    /// `ceil(width / 64)` words, little-endian, sign- (or zero-) extended above the width.
    Wide(Vec<u64>),
}

/// The value of `num` for an integer type wider than 128 bits, with MLIR's range rules
/// (`buildAttributeAPInt`): the magnitude must fit the width; a negative value must have the
/// sign bit set once negated; a positive signed value must not.
fn wide_int_value(
    b: &Builder<'_, '_, '_>,
    num: &Number<'_>,
    width: u32,
    signedness: Signedness,
    range_msg: &str,
) -> Result<IntValue> {
    let range = || b.error_at(num.at, range_msg);
    let mag = BigUint::parse(num.text).ok_or_else(range)?;
    let width = u64::from(width);
    if mag.bit_len() > width {
        return Err(range());
    }
    let mut words = mag.to_words(width.div_ceil(64) as usize);
    if num.neg {
        let is_min = mag.bit_len() == width && mag.trailing_zeros() == width - 1;
        if mag.is_zero() || (mag.bit_len() == width && !is_min) {
            return Err(range());
        }
        negate_words(&mut words);
    } else if signedness == Signedness::Signed && mag.bit(width - 1) {
        return Err(range());
    }
    let signed = signedness != Signedness::Unsigned;
    let top_bits = (width % 64) as u32;
    if top_bits != 0 {
        let top = words.last_mut().expect("width > 128 has words");
        let shift = 64 - top_bits;
        *top = if signed { (((*top << shift) as i64) >> shift) as u64 } else { (*top << shift) >> shift };
    }
    let ext = if signed && words[1] >> 63 == 1 { u64::MAX } else { 0 };
    let fits = words[2..].iter().all(|&w| w == ext) && (signed || words[1] >> 63 == 0);
    Ok(if fits {
        IntValue::Small((words[0] as u128 | (words[1] as u128) << 64) as i128)
    } else {
        IntValue::Wide(words)
    })
}

/// The value of a `uint` token (`42`, `0x2A`), `None` past 64 bits (see
/// [`unsigned_value`](crate::syntax::lexer::unsigned_value)).
pub(super) fn uint_value(text: &str) -> Option<u64> {
    crate::syntax::lexer::unsigned_value(text)
}

/// The bit pattern of `num` as a float of `kind`.
pub(super) fn float_bits(b: &Builder<'_, '_, '_>, num: &Number<'_>, kind: FloatKind) -> Result<u128> {
    match num.kind {
        Rule::hex_int => {
            if num.neg {
                return Err(b.error_at(num.at, "hexadecimal float literal should not have a leading minus"));
            }
            match u128::from_str_radix(&num.text[2..], 16) {
                Ok(bits) if super::float::fits(kind, bits) => Ok(bits),
                _ => Err(b.error_at(num.at, "hexadecimal float constant out of range for type")),
            }
        }
        Rule::dec_int => {
            Err(b.error_at(num.at, "unexpected decimal integer literal for a floating point value"))
        }
        _ => {
            let v: f64 =
                num.text.parse().map_err(|_| b.error_at(num.at, "invalid floating point literal"))?;
            Ok(Semantics::of(kind).convert_f64(if num.neg { -v } else { v }))
        }
    }
}

/// A number attribute: `42`, `-1 : i8`, `1.5 : f16`, `0x7FC00000 : f32`; `after` is the offset
/// of the token after it.
pub(super) fn number_attr<'c>(
    b: &Builder<'_, '_, 'c>,
    pair: Pair<'_, Rule>,
    ty: Option<Type<'c>>,
    after: usize,
) -> Result<Attribute<'c>> {
    let num = Number::new(pair);
    if num.kind == Rule::float_lit && ty.is_some_and(|t| !matches!(t.kind(), TypeKind::Float(_))) {
        // MLIR reports this once the type is parsed, at the token after it.
        return Err(b.error_at(after, "floating point value not valid for specified type"));
    }
    let ty = ty.unwrap_or_else(|| match num.kind {
        Rule::float_lit => b.ctx.float_type(FloatKind::F64),
        _ => b.ctx.int_type(64),
    });
    if let TypeKind::Float(kind) = *ty.kind() {
        let bits = float_bits(b, &num, kind)?;
        return Ok(b.ctx.attr(AttrKind::Float { bits, ty }));
    }
    const RANGE: &str = "integer constant out of range for attribute";
    if let TypeKind::Integer { width, signedness } = *ty.kind() {
        if width > 128 && num.kind != Rule::float_lit && !(num.neg && signedness == Signedness::Unsigned) {
            return Ok(match wide_int_value(b, &num, width, signedness, RANGE)? {
                IntValue::Small(value) => b.ctx.attr(AttrKind::Integer { value, ty }),
                IntValue::Wide(words) => {
                    b.ctx.attr(AttrKind::WideInteger { words: b.ctx.alloc_slice(&words), ty })
                }
            });
        }
    }
    let value = int_value(b, &num, ty, RANGE)?;
    Ok(b.ctx.attr(AttrKind::Integer { value, ty }))
}

/// The bytes of a string literal, escapes decoded (`\\`, `\"`, `\n`, `\t`, `\XX`).
pub(super) fn string_value(b: &Builder<'_, '_, '_>, pair: Pair<'_, Rule>) -> Result<Vec<u8>> {
    let body = first(pair);
    let start = body.as_span().start();
    let s = body.as_str().as_bytes();
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            out.push(s[i]);
            i += 1;
            continue;
        }
        let c = s.get(i + 1).copied().unwrap_or(0);
        match c {
            b'\\' | b'"' => out.push(c),
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            _ => {
                let hex = |x: u8| (x as char).to_digit(16);
                match (hex(c), s.get(i + 2).and_then(|&d| hex(d))) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 3;
                        continue;
                    }
                    _ => return Err(b.error_at(start + i, "unknown escape in string literal")),
                }
            }
        }
        i += 2;
    }
    Ok(out)
}
