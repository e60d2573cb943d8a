//! A fast path for the scalar attributes that fill generic-form files and that a cache cannot
//! catch, because nearly every one is different: `0.24489185380347622 : f64`,
//! `-7.773379e+01 : f32`, `42 : i32`. Only forms whose meaning is beyond doubt are taken
//! (decimal floats with digits on both sides of the point, for `f16`/`bf16`/`f32`/`f64`;
//! decimal integers that fit the signed range of `i8`..`i64`/`index`; untyped strings without
//! escapes, which the grammar would walk byte by byte); everything else goes to
//! the grammar, which gives the same result more slowly (a test checks both agree).
//!
//! Attribute dictionaries (`{scale = 0.5 : f64, tag = "w3"}`, unique per op as a whole) are
//! split here into entries whose values go through the cache and the scalar path one by one;
//! anything irregular (a duplicate key, an odd key, a syntax error) falls back to the grammar,
//! which reports it as MLIR does.

use super::float::Semantics;
use super::TypeAttrParser;
use crate::attributes::{AttrKind, Attribute, NamedAttr};
use crate::context::Context;
use crate::types::FloatKind;

/// The attribute spelled by `text` (a whole attribute extent), when it has one of the simple
/// forms above.
pub(super) fn scalar<'c>(ctx: &Context<'c>, text: &str) -> Option<Attribute<'c>> {
    if let Some(body) = plain_string(text) {
        return Some(ctx.attr(AttrKind::String { value: ctx.alloc_bytes(body.as_bytes()), ty: None }));
    }
    let (literal, ty) = text.split_once(" : ")?;
    let digits = literal.strip_prefix('-').unwrap_or(literal);
    let (int_part, rest) = digits.split_at(digits.bytes().take_while(u8::is_ascii_digit).count());
    if int_part.is_empty() {
        return None;
    }
    if rest.is_empty() {
        let (width, index) = match ty {
            "index" => (64, true),
            _ => (ty.strip_prefix('i')?.parse::<u32>().ok().filter(|w| [8, 16, 32, 64].contains(w))?, false),
        };
        let value: i64 = literal.parse().ok()?;
        let half = 1i128 << (width - 1);
        if !(-half..half).contains(&i128::from(value)) {
            return None;
        }
        let ty = if index { ctx.index_type() } else { ctx.int_type(width) };
        return Some(ctx.attr(AttrKind::Integer { value: i128::from(value), ty }));
    }
    let fraction = rest.strip_prefix('.')?;
    let frac_digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
    let exponent = &fraction[frac_digits..];
    let exponent_ok = exponent.is_empty()
        || exponent
            .strip_prefix(['e', 'E'])
            .map(|e| e.strip_prefix(['+', '-']).unwrap_or(e))
            .is_some_and(|e| !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()));
    if frac_digits == 0 || !exponent_ok {
        return None;
    }
    let kind = match ty {
        "f16" => FloatKind::F16,
        "bf16" => FloatKind::BF16,
        "f32" => FloatKind::F32,
        "f64" => FloatKind::F64,
        _ => return None,
    };
    // As MLIR: the decimal is read as an f64, then converted to the target format.
    let value: f64 = literal.parse().ok()?;
    let ty = ctx.float_type(kind);
    Some(ctx.attr(AttrKind::Float { bits: Semantics::of(kind).convert_f64(value), ty }))
}

/// The body of `text` when it is one untyped string literal without escapes (`"w3"`): its
/// bytes are its value.
fn plain_string(text: &str) -> Option<&str> {
    let body = text.strip_prefix('"')?.strip_suffix('"')?;
    (!body.bytes().any(|c| matches!(c, b'"' | b'\\' | b'\n'))).then_some(body)
}

/// A dictionary attribute starting at `src[pos]` (a `{`) and the offset after it, when it is
/// well-formed with bare or quoted-free keys and distinct names; `None` sends it to the grammar.
pub(super) fn dictionary<'c>(
    parser: &mut TypeAttrParser<'_, 'c>,
    src: &str,
    pos: usize,
) -> Option<(Attribute<'c>, usize)> {
    let bytes = src.as_bytes();
    let skip_ws = |i: usize| crate::syntax::lexer::skip_trivia(bytes, i);
    let mut entries: Vec<NamedAttr<'c>> = Vec::new();
    let mut i = skip_ws(pos + 1);
    if bytes.get(i) == Some(&b'}') {
        return Some((parser.ctx.dict_attr(&[]), i + 1));
    }
    loop {
        let key_start = i;
        if !bytes.get(i).is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') {
            return None;
        }
        while bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || b"_$.".contains(b)) {
            i += 1;
        }
        let name = parser.ctx.intern_str(&src[key_start..i]);
        i = skip_ws(i);
        let value = if bytes.get(i) == Some(&b'=') {
            let (value, end) = parser.parse_attr_value(src, skip_ws(i + 1)).ok()?;
            i = skip_ws(end);
            value
        } else {
            parser.ctx.unit_attr()
        };
        if entries.iter().any(|e| e.name == name) {
            return None;
        }
        entries.push(NamedAttr { name, value });
        match bytes.get(i) {
            Some(b',') => i = skip_ws(i + 1),
            Some(b'}') => return Some((parser.ctx.dict_attr(&entries), i + 1)),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use pest::Parser as _;

    use super::super::construct::{first, Builder};
    use super::super::grammar::{Grammar, Rule};
    use super::super::TypeAttrParser;
    use crate::context::Context;
    use crate::dialect::DialectRegistry;

    /// The fast path and the grammar give the same attribute, or the fast path declines.
    #[test]
    fn fast_path_agrees_with_the_grammar() {
        let arena = bumpalo::Bump::new();
        let ctx = Context::new(&arena, DialectRegistry::new());
        let parser = TypeAttrParser::new(&ctx);
        let cases = [
            "0.24489185380347622 : f64",
            "-7.773379e+01 : f32",
            "1.000000e+00 : f16",
            "-3.140000e+00 : bf16",
            "6.550400e+04 : f16",
            "1.0e+39 : f32",
            "1.5E-7 : f64",
            "42 : i32",
            "-128 : i8",
            "127 : i8",
            "9223372036854775807 : i64",
            "-9223372036854775808 : index",
            "7 : i16",
            "\"w3 x\"",
            "\"\"",
            "\"caf\u{e9} // {x}\"",
        ];
        for text in cases {
            let fast = super::scalar(&ctx, text).unwrap_or_else(|| panic!("{text}: fast path declined"));
            let mut pairs = Grammar::parse(Rule::attr_entry, text).unwrap();
            let builder = Builder { ctx: &ctx, aliases: &parser.aliases, base: 0 };
            let slow = builder.attr(first(pairs.next().unwrap())).unwrap_or_else(|_| panic!("{text}"));
            assert_eq!(fast, slow, "{text}");
        }
        for dict in ["{}", "{a = 1 : i32, b, c = \"s\"}", "{scale = 0.5 : f64, tag = \"w3\", z = [1, 2]}"] {
            let mut p = TypeAttrParser::new(&ctx);
            let (fast, end) =
                super::dictionary(&mut p, dict, 0).unwrap_or_else(|| panic!("{dict}: declined"));
            assert_eq!(end, dict.len());
            let mut pairs = Grammar::parse(Rule::attr_entry, dict).unwrap();
            let builder = Builder { ctx: &ctx, aliases: &parser.aliases, base: 0 };
            assert_eq!(fast, builder.attr(first(pairs.next().unwrap())).unwrap(), "{dict}");
        }
        for declined in ["{a = 1, a = 2}", "{\"quoted\" = 1}", "{a = 1 b = 2}", "{1 = 2}"] {
            let mut p = TypeAttrParser::new(&ctx);
            assert!(super::dictionary(&mut p, declined, 0).is_none(), "{declined}");
        }
        for declined in ["128 : i8", "1 : i1", "1. : f32", "0x7FC00000 : f32", "1.5 : f80", "2 : ui8", "1.5"]
        {
            assert!(super::scalar(&ctx, declined).is_none(), "{declined}");
        }
    }
}
