//! Cheap pre-scanning of a type, attribute or location: finds where it ends (so that the text
//! can key the parse cache and pest can parse exactly that extent) and enforces the nesting
//! limit before any recursive parsing happens.
//!
//! An extent is a *segment* (balanced brackets and strings, ending at top-level whitespace,
//! `,` `=` `:` `->`, a string after its start, or an unmatched closer), extended by `-> results` after a parenthesized
//! type list and by `: type` after literals that take a type suffix. As MLIR reads tokens,
//! whitespace and comments may separate a keyword from its bracket (`tensor <4xf32>`,
//! `loc\r(...)`) and a `-` from its number; a symbol reference (`@a :: @b`) and a `#`/`!`
//! identifier with a numeric suffix (`#0`) end where MLIR's lexer ends them.

use super::SyntaxError;
use crate::syntax::lexer::is_trivia;

/// Deepest bracket nesting accepted; deeper input is reported, not parsed.
pub(crate) const MAX_NESTING: usize = 256;

/// The end of the string literal starting at `i`. One left open (by `\n`, `\v`, `\f` or the end
/// of the input, also right after a `\`) is the lexer's error, found here before the grammar
/// would walk it byte by byte. Other escapes are checked when the value is built, in reading
/// order, so that an error before the string is reported first, as MLIR's lexer would reach it
/// later.
fn skip_string(b: &[u8], i: usize) -> Result<usize, SyntaxError> {
    let open = |offset, message: &str| SyntaxError { offset, message: message.into() };
    let mut i = i + 1;
    loop {
        match b.get(i) {
            None => return Err(open(b.len(), "expected '\"' in string literal")),
            Some(b'"') => return Ok(i + 1),
            Some(b'\n' | 0x0b | 0x0c) => return Err(open(i, "expected '\"' in string literal")),
            Some(b'\\') if matches!(b.get(i + 1), None | Some(b'\n' | 0x0b | 0x0c)) => {
                return Err(open(i, "unknown escape in string literal"))
            }
            Some(b'\\') => i += 2,
            Some(_) => i += 1,
        }
    }
}

/// The first string escape MLIR's lexer refuses in the extent `text` (whose strings are
/// terminated: [`skip_string`] checked them), comments skipped: the offsets of the string and
/// of the escape.
pub(crate) fn first_bad_escape(text: &str) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => match crate::syntax::lexer::scan_string(b, i) {
                Ok(end) => i = end,
                Err((at, _)) => return Some((i, at)),
            },
            b'/' if b.get(i + 1) == Some(&b'/') => i = crate::syntax::lexer::comment_end(b, i),
            _ => i += 1,
        }
    }
    None
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

/// The offset of the `<` that opens the body of the dialect type or attribute whose `!` or `#`
/// is at `i` (`!foo<...>`, `#foo.bar<...>`: the `<` right after the identifier).
fn dialect_body_at(b: &[u8], i: usize) -> Option<usize> {
    let end = crate::syntax::lexer::suffix_id_end(b, i + 1);
    (end > i + 1 && b.get(end) == Some(&b'<')).then_some(end)
}

/// The end of the dialect body whose `<` is at `open`, read as MLIR's `parseDialectSymbolBody`
/// does: brackets must nest (`->` is no bracket), strings are lexed; a NUL byte or the end of
/// the input inside is an error. Errors name the innermost open bracket and are placed at the
/// current token: the `<`, or the last string read. `depth` is the nesting around the body.
fn dialect_body_end(b: &[u8], open: usize, depth: usize) -> Result<usize, SyntaxError> {
    let mut stack: Vec<u8> = Vec::new();
    let mut token = open;
    let mut i = open;
    let unbalanced = |stack: &[u8], token: usize| SyntaxError {
        offset: token,
        message: format!(
            "unbalanced '{}' character in pretty dialect name",
            *stack.last().unwrap_or(&b'<') as char
        ),
    };
    loop {
        let Some(&c) = b.get(i) else { return Err(unbalanced(&stack, token)) };
        i += 1;
        match c {
            0 => return Err(unbalanced(&stack, token)),
            b'<' | b'[' | b'(' | b'{' => {
                stack.push(c);
                if depth + stack.len() > MAX_NESTING {
                    return Err(SyntaxError { offset: i - 1, message: "nesting too deep".into() });
                }
            }
            b'-' if b.get(i) == Some(&b'>') => i += 1,
            b'>' | b']' | b')' | b'}' => {
                let opener = match c {
                    b'>' => b'<',
                    b']' => b'[',
                    b')' => b'(',
                    _ => b'{',
                };
                if stack.last() != Some(&opener) {
                    return Err(unbalanced(&stack, token));
                }
                stack.pop();
                if stack.is_empty() {
                    return Ok(i);
                }
            }
            b'"' => {
                token = i - 1;
                i = crate::syntax::lexer::scan_string(b, i - 1)
                    .map_err(|(offset, message)| SyntaxError { offset, message: message.into() })?;
            }
            _ => {}
        }
    }
}

/// The end of the segment starting at `pos`.
fn segment(src: &str, pos: usize) -> Result<usize, SyntaxError> {
    let b = src.as_bytes();
    // A `#` or `!` identifier whose suffix is a number is all digits (`#0a` is the alias `#0`,
    // then `a`), as MLIR's lexer reads it; unless `<` follows at once (a dialect body).
    if matches!(b.get(pos), Some(b'#' | b'!')) && b.get(pos + 1).is_some_and(u8::is_ascii_digit) {
        let end = crate::syntax::lexer::suffix_id_end(b, pos + 1);
        if b.get(end) != Some(&b'<') {
            return Ok(end);
        }
    }
    if b.get(pos) == Some(&b'@') {
        return symbol_extent(src, pos);
    }
    let mut stack: Vec<u8> = Vec::new();
    let mut i = pos;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        let top = stack.is_empty();
        match c {
            // The body of a dialect value, read as MLIR reads it.
            b'#' | b'!' if dialect_body_at(b, i).is_some() => {
                let open = dialect_body_at(b, i).unwrap_or(i);
                i = dialect_body_end(b, open, stack.len())?;
                continue;
            }
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
                i = crate::syntax::lexer::comment_end(b, i);
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
            c if top && is_trivia(c) => match continuation(src, pos, i) {
                Some(Continue::Opener(j)) => {
                    stack.push(closer(b[j]));
                    i = j + 1;
                    continue;
                }
                Some(Continue::At(j)) => {
                    i = j;
                    continue;
                }
                None => break,
            },
            b',' | b'=' if top => break,
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

/// Keywords whose body follows in brackets (`tensor<...>`, `loc(...)`, `distinct[0]<...>`): as
/// MLIR's parser reads tokens, whitespace and comments may come between them.
const KEYWORDS_WITH_BODY: [(&str, u8); 14] = [
    ("tensor", b'<'),
    ("memref", b'<'),
    ("vector", b'<'),
    ("complex", b'<'),
    ("tuple", b'<'),
    ("dense", b'<'),
    ("dense_resource", b'<'),
    ("sparse", b'<'),
    ("array", b'<'),
    ("affine_map", b'<'),
    ("affine_set", b'<'),
    ("strided", b'<'),
    ("loc", b'('),
    ("distinct", b'['),
];

/// How a segment goes on after whitespace or a comment.
enum Continue {
    /// At the bracket at this offset, which opens the body of the keyword before it.
    Opener(usize),
    /// At this offset.
    At(usize),
}

/// The closing bracket of `open`.
fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        _ => b'>',
    }
}

/// The end of the symbol reference starting at `pos` (an `@`), as MLIR's lexer and parser read
/// it: `@name` (`[a-zA-Z_][a-zA-Z0-9_$.]*`) or `@"string"`, then `::` and a nested reference, any
/// number of times (`:` `:` are tokens: whitespace and comments may come between them and
/// around them). A `::` not followed by `@` is included, for the grammar to report.
fn symbol_extent(src: &str, pos: usize) -> Result<usize, SyntaxError> {
    let b = src.as_bytes();
    let mut i = pos;
    loop {
        // `i` is at an `@`.
        i = match b.get(i + 1) {
            Some(b'"') => skip_string(b, i + 1)?,
            Some(&c) if crate::syntax::lexer::is_ident_start(c) => {
                let mut end = i + 2;
                while b.get(end).is_some_and(|&c| crate::syntax::lexer::is_ident_char(c)) {
                    end += 1;
                }
                end
            }
            _ => return Ok(i + 1),
        };
        let colon = skip_ws(src, i);
        if b.get(colon) != Some(&b':') {
            return Ok(i);
        }
        match nested_symbol(src, colon) {
            Some(next) if b.get(next) == Some(&b'@') => i = next,
            Some(next) => return Ok(next),
            None => return Ok(i),
        }
    }
}

/// Where the segment `src[pos..i]`, stopped by whitespace or a comment at `i`, goes on: at the
/// bracket after a keyword that takes one (`tensor <4xf32>`, `loc\r(...)`, `distinct[0] <1>`),
/// or at the number after a `-`; `None` when it ends at `i`.
fn continuation(src: &str, pos: usize, i: usize) -> Option<Continue> {
    let b = src.as_bytes();
    let j = skip_ws(src, i);
    let seg = &src[pos..i];
    let opener = *b.get(j)?;
    let after_keyword = KEYWORDS_WITH_BODY.iter().any(|&(k, o)| k == seg && o == opener)
        || (opener == b'<' && seg.starts_with("distinct") && seg.ends_with(']'));
    if after_keyword {
        return Some(Continue::Opener(j));
    }
    // `-` is a token of its own: `- 1`, `-\n1.0` are numbers.
    if seg == "-" && opener.is_ascii_digit() {
        return Some(Continue::At(j));
    }
    None
}

/// At a `:` (offset `i`) after a symbol reference: the offset of the `@` after `::` when a
/// nested reference follows, the offset after `::` when something else does (the grammar
/// reports it), `None` when this is not a `::`.
fn nested_symbol(src: &str, i: usize) -> Option<usize> {
    let b = src.as_bytes();
    let second = skip_ws(src, i + 1);
    if b.get(second) != Some(&b':') {
        return None;
    }
    let next = skip_ws(src, second + 1);
    Some(if b.get(next) == Some(&b'@') { next } else { second + 1 })
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
    let keyword = seg.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
    matches!(seg.as_bytes().first(), Some(b'0'..=b'9' | b'-' | b'"'))
        || (["dense", "dense_resource", "sparse"].contains(&keyword) && seg.len() > keyword.len())
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
