//! Cheap pre-scanning of a type, attribute or location: finds where it ends (so that the text
//! can key the parse cache and pest can parse exactly that extent) and enforces the nesting
//! limit before any recursive parsing happens.
//!
//! An extent is a *segment* (balanced brackets and strings, ending at top-level whitespace,
//! `,` `=` `:` `->`, a string after its start, or an unmatched closer), extended by `-> results` after a parenthesized
//! type list and by `: type` after literals that take a type suffix.

use super::SyntaxError;
use crate::syntax::lexer::is_trivia;

/// Deepest bracket nesting accepted; deeper input is reported, not parsed.
pub(crate) const MAX_NESTING: usize = 256;

/// The end of the string literal starting at `i`; one left open (by a newline or the end of
/// the input) is the lexer's error, found here before the grammar would walk it byte by byte.
fn skip_string(b: &[u8], mut i: usize) -> Result<usize, SyntaxError> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Ok(i + 1),
            b'\n' => break,
            _ => i += 1,
        }
    }
    Err(SyntaxError { offset: i.min(b.len()), message: "expected '\"' in string literal".into() })
}

/// The text the grammar parses for an extent: NUL bytes outside string literals, which MLIR's
/// lexer skips as whitespace, become spaces (the grammar's whitespace; one byte for one, so
/// offsets hold).
pub(crate) fn grammar_input(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\0') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = text.as_bytes().to_vec();
    let (mut in_string, mut i) = (false, 0);
    while i < out.len() {
        match out[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            0 if !in_string => out[i] = b' ',
            _ => {}
        }
        i += 1;
    }
    std::borrow::Cow::Owned(String::from_utf8(out).expect("NUL to space keeps UTF-8"))
}

/// Skips whitespace and `//` comments (the lexer's trivia).
pub(crate) fn skip_ws(src: &str, i: usize) -> usize {
    crate::syntax::lexer::skip_trivia(src.as_bytes(), i)
}

/// The end of the segment starting at `pos`.
fn segment(src: &str, pos: usize) -> Result<usize, SyntaxError> {
    let b = src.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut i = pos;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        let top = stack.is_empty();
        match c {
            // A string after the segment's start (other than `@"sym"`) is the next token, as
            // in `#x = [1]"x.r"() ...`.
            b'"' if top && i > pos && b[i - 1] != b'@' => break,
            b'"' => {
                i = skip_string(b, i)?;
                continue;
            }
            b'/' if next == Some(b'/') => {
                if top {
                    break;
                }
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'-' if next == Some(b'>') => {
                if top {
                    break;
                }
                i += 2;
                continue;
            }
            b'<' if next == Some(b'=') && !top => {
                i += 2;
                continue;
            }
            b'<' => stack.push(b'>'),
            b'(' if !top || i == pos || src[pos..i].ends_with("loc") => stack.push(b')'),
            b'[' if top && &src[pos..i] == "distinct" => stack.push(b']'),
            b'[' | b'{' if !top || i == pos => stack.push(if c == b'[' { b']' } else { b'}' }),
            b'(' | b'[' | b'{' => break,
            b'>' => match stack.last() {
                Some(b'>') => {
                    stack.pop();
                }
                Some(_) => {}
                None => break,
            },
            b')' | b']' | b'}' => {
                if stack.last() != Some(&c) {
                    break;
                }
                stack.pop();
            }
            c if top && (is_trivia(c) || c == b',' || c == b'=') => break,
            b':' if top => {
                if next == Some(b':') {
                    i += 2;
                    continue;
                }
                break;
            }
            _ => {}
        }
        if stack.len() > MAX_NESTING {
            return Err(SyntaxError { offset: i, message: "nesting too deep".into() });
        }
        i += 1;
    }
    Ok(i)
}

/// The end of the type starting at `pos` (a function type includes its results).
pub(crate) fn type_extent(src: &str, pos: usize) -> Result<usize, SyntaxError> {
    let end = segment(src, pos)?;
    if src.as_bytes().get(pos) == Some(&b'(') {
        let j = skip_ws(src, end);
        if src[j..].starts_with("->") {
            let k = skip_ws(src, j + 2);
            return segment(src, k);
        }
    }
    Ok(end)
}

fn takes_type_suffix(seg: &str) -> bool {
    matches!(seg.as_bytes().first(), Some(b'0'..=b'9' | b'-' | b'"'))
        || ["dense<", "dense_resource<", "sparse<"].iter().any(|p| seg.starts_with(p))
}

/// The end of the attribute starting at `pos`, including a `: type` suffix where one belongs.
pub(crate) fn attr_extent(src: &str, pos: usize) -> Result<usize, SyntaxError> {
    if src.as_bytes().get(pos) == Some(&b'(') {
        return type_extent(src, pos);
    }
    let end = segment(src, pos)?;
    if takes_type_suffix(&src[pos..end]) {
        let j = skip_ws(src, end);
        let b = src.as_bytes();
        if b.get(j) == Some(&b':') && b.get(j + 1) != Some(&b':') {
            return type_extent(src, skip_ws(src, j + 1));
        }
    }
    Ok(end)
}

/// The end of the location starting at `pos` (`loc(...)`).
pub(crate) fn loc_extent(src: &str, pos: usize) -> Result<usize, SyntaxError> {
    segment(src, pos)
}
