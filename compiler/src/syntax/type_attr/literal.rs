//! Scalar literals: integers (with MLIR's range rules), floats (decimal via `f64` then
//! converted to the target format, as MLIR does, or a hex bit pattern) and strings.

use pest::iterators::Pair;

use super::build::{first, Builder, Result};
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
    let wide = || b.error_at(num.at, "integer attributes wider than 128 bits are not supported");
    let mag = match num.text.strip_prefix("0x") {
        Some(hex) => u128::from_str_radix(hex, 16),
        None => num.text.parse::<u128>(),
    };
    let Ok(mag) = mag else {
        return Err(if width > 128 { wide() } else { range() });
    };
    if width > 128 {
        let limit = if num.neg { 1u128 << 127 } else { (1u128 << 127) - 1 };
        if mag > limit {
            return Err(wide());
        }
        return Ok(if num.neg { (mag as i128).wrapping_neg() } else { mag as i128 });
    }
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
    let value = int_value(b, &num, ty, "integer constant out of range for attribute")?;
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
