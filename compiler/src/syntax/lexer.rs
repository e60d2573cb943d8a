//! A hand-written lexer for MLIR's operation-level tokens, working on byte offsets.
//!
//! The lexer never allocates: a [`Token`] is a kind and a byte range into the source. Types and
//! attributes are not lexed here; the parser hands the byte offset of their first character to
//! the type/attribute parser and resumes lexing at the offset it returns.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// End of input.
    Eof,
    /// A character that starts no token, or an unterminated string.
    Error,
    /// `foo`, `func.func`, `loc` (identifiers and keywords).
    BareIdent,
    /// `%name`, `%0`.
    PercentIdent,
    /// `^bb0`.
    CaretIdent,
    /// `@sym` or `@"sym"`.
    AtIdent,
    /// `#alias`, `#dialect.attr`.
    HashIdent,
    /// `!alias`, `!dialect.type`.
    ExclaimIdent,
    /// `42`, `0x2A`.
    Integer,
    /// `1.5`, `1e3`.
    Float,
    /// `"text"` (the range includes the quotes; escapes undecoded).
    String,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LSquare,
    /// `]`
    RSquare,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `<`
    Less,
    /// `>`
    Greater,
    /// `,`
    Comma,
    /// `=`
    Equal,
    /// `:`
    Colon,
    /// `::`
    ColonColon,
    /// `->`
    Arrow,
    /// `?`
    Question,
    /// `*`
    Star,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `|`
    VerticalBar,
    /// `...`
    Ellipsis,
    /// `{-#`: opens the file metadata block.
    FileMetadataBegin,
    /// `#-}`: closes the file metadata block.
    FileMetadataEnd,
}

/// A token: its kind and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: TokenKind,
    /// Byte offset of the first character.
    pub start: usize,
    /// Byte offset one past the last character.
    pub end: usize,
}

impl Token {
    /// The token's text.
    pub fn text(self, src: &str) -> &str {
        &src[self.start..self.end]
    }
}

/// Whether `c` may start a bare identifier.
pub fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// Whether `c` may continue a bare identifier.
pub fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.')
}

/// MLIR's `id-punct`: the punctuation allowed in a `suffix-id`.
fn is_id_punct(c: u8) -> bool {
    matches!(c, b'$' | b'.' | b'_' | b'-')
}

/// The end of the `suffix-id` starting at `start` (after a `%`, `^`, `#` or `!`), as MLIR's
/// lexer reads it: `digit+ | (letter | id-punct) (letter | id-punct | digit)*`. A suffix that
/// starts with a digit is all digits (`%0$` is `%0` and then a stray `$`); `start` itself when
/// no suffix starts there.
pub fn suffix_id_end(b: &[u8], start: usize) -> usize {
    let mut end = start;
    match b.get(start) {
        Some(c) if c.is_ascii_digit() => {
            while b.get(end).is_some_and(u8::is_ascii_digit) {
                end += 1;
            }
        }
        Some(&c) if c.is_ascii_alphabetic() || is_id_punct(c) => {
            while b.get(end).is_some_and(|&c| c.is_ascii_alphanumeric() || is_id_punct(c)) {
                end += 1;
            }
        }
        _ => {}
    }
    end
}

/// The value of an integer token's text (`42`, `0x2A`) as MLIR's `Token::getUInt64IntegerValue`
/// reads it: decimal, or hexadecimal after `0x`; `None` when it does not fit in 64 bits.
pub fn unsigned_value(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|c| c.is_ascii_hexdigit()) => {
            u64::from_str_radix(hex, 16).ok()
        }
        _ if !text.is_empty() && text.bytes().all(|c| c.is_ascii_digit()) => text.parse().ok(),
        _ => None,
    }
}

/// Whether `s` can be printed as a bare identifier (otherwise it must be quoted).
pub fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && is_ident_start(b[0]) && b[1..].iter().all(|&c| is_ident_char(c))
}

/// Whether `c` separates tokens: whitespace (`' '`, `\t`, `\n`, `\r`), and NUL, which MLIR's
/// lexer skips as it skips whitespace. Other control characters (`\v`, `\f`) are not trivia:
/// MLIR reports them as unexpected characters.
pub fn is_trivia(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0)
}

/// Whether `c` ends a `//` comment: MLIR's lexer ends comments at `\n` and at `\r`.
pub fn ends_comment(c: u8) -> bool {
    matches!(c, b'\n' | b'\r')
}

/// The end of the `//` comment starting at `pos`: the offset of the `\n` or `\r` that ends it,
/// or the end of the input.
pub fn comment_end(src: &[u8], pos: usize) -> usize {
    src[pos..].iter().position(|&c| ends_comment(c)).map_or(src.len(), |i| pos + i)
}

/// Skips whitespace (see [`is_trivia`]) and `//` comments starting at `pos`; returns the next
/// significant offset.
pub fn skip_trivia(src: &[u8], mut pos: usize) -> usize {
    loop {
        match src.get(pos) {
            Some(&c) if is_trivia(c) => pos += 1,
            Some(b'/') if src.get(pos + 1) == Some(&b'/') => pos = comment_end(src, pos),
            _ => return pos,
        }
    }
}

/// The token kind of punctuation `p` (`(`, `->`, `::`, ...), if it is one.
pub fn punct_kind(p: &str) -> Option<TokenKind> {
    Some(match p {
        "(" => TokenKind::LParen,
        ")" => TokenKind::RParen,
        "[" => TokenKind::LSquare,
        "]" => TokenKind::RSquare,
        "{" => TokenKind::LBrace,
        "}" => TokenKind::RBrace,
        "<" => TokenKind::Less,
        ">" => TokenKind::Greater,
        "," => TokenKind::Comma,
        "=" => TokenKind::Equal,
        ":" => TokenKind::Colon,
        "::" => TokenKind::ColonColon,
        "->" => TokenKind::Arrow,
        "?" => TokenKind::Question,
        "*" => TokenKind::Star,
        "|" => TokenKind::VerticalBar,
        "..." => TokenKind::Ellipsis,
        _ => return None,
    })
}

/// Lexes one token starting at or after `pos`.
pub fn lex(src: &str, pos: usize) -> Token {
    let b = src.as_bytes();
    let start = skip_trivia(b, pos);
    let tok = |kind, end| Token { kind, start, end };
    let Some(&c) = b.get(start) else { return tok(TokenKind::Eof, start) };
    let next = b.get(start + 1).copied();
    match c {
        b'(' => tok(TokenKind::LParen, start + 1),
        b')' => tok(TokenKind::RParen, start + 1),
        b'[' => tok(TokenKind::LSquare, start + 1),
        b']' => tok(TokenKind::RSquare, start + 1),
        b'{' if next == Some(b'-') && b.get(start + 2) == Some(&b'#') => {
            tok(TokenKind::FileMetadataBegin, start + 3)
        }
        b'{' => tok(TokenKind::LBrace, start + 1),
        b'}' => tok(TokenKind::RBrace, start + 1),
        b'<' => tok(TokenKind::Less, start + 1),
        b'>' => tok(TokenKind::Greater, start + 1),
        b',' => tok(TokenKind::Comma, start + 1),
        b'=' => tok(TokenKind::Equal, start + 1),
        b':' if next == Some(b':') => tok(TokenKind::ColonColon, start + 2),
        b':' => tok(TokenKind::Colon, start + 1),
        b'-' if next == Some(b'>') => tok(TokenKind::Arrow, start + 2),
        b'-' if next.is_some_and(|n| n.is_ascii_digit()) => lex_number(b, start),
        b'-' => tok(TokenKind::Minus, start + 1),
        b'?' => tok(TokenKind::Question, start + 1),
        b'*' => tok(TokenKind::Star, start + 1),
        b'+' => tok(TokenKind::Plus, start + 1),
        b'|' => tok(TokenKind::VerticalBar, start + 1),
        b'.' if next == Some(b'.') && b.get(start + 2) == Some(&b'.') => tok(TokenKind::Ellipsis, start + 3),
        b'"' => match scan_string(b, start) {
            Ok(end) => tok(TokenKind::String, end),
            Err(_) => tok(TokenKind::Error, b.len()),
        },
        b'#' if next == Some(b'-') && b.get(start + 2) == Some(&b'}') => {
            tok(TokenKind::FileMetadataEnd, start + 3)
        }
        b'%' => lex_prefixed(b, start, TokenKind::PercentIdent),
        b'^' => lex_prefixed(b, start, TokenKind::CaretIdent),
        b'#' => lex_prefixed(b, start, TokenKind::HashIdent),
        b'!' => lex_prefixed(b, start, TokenKind::ExclaimIdent),
        b'@' if next == Some(b'"') => match scan_string(b, start + 1) {
            Ok(end) => tok(TokenKind::AtIdent, end),
            Err(_) => tok(TokenKind::Error, b.len()),
        },
        // `@` then a bare identifier; MLIR's `@` identifiers take no `-` and start with a
        // letter or `_`.
        b'@' if next.is_some_and(is_ident_start) => {
            let mut end = start + 2;
            while end < b.len() && is_ident_char(b[end]) {
                end += 1;
            }
            tok(TokenKind::AtIdent, end)
        }
        b'@' => tok(TokenKind::Error, start + 1),
        b'0'..=b'9' => lex_number(b, start),
        c if is_ident_start(c) => {
            let mut end = start + 1;
            while end < b.len() && is_ident_char(b[end]) {
                end += 1;
            }
            tok(TokenKind::BareIdent, end)
        }
        _ => {
            // Keep the error token on a character boundary.
            let len = src[start..].chars().next().map_or(1, char::len_utf8);
            tok(TokenKind::Error, start + len)
        }
    }
}

fn lex_prefixed(b: &[u8], start: usize, kind: TokenKind) -> Token {
    let end = suffix_id_end(b, start + 1);
    let kind = if end == start + 1 { TokenKind::Error } else { kind };
    Token { kind, start, end }
}

/// Where and why lexing fails at `start`, the start of an [`TokenKind::Error`] token: MLIR's
/// lexer message and the offset it reports it at.
pub fn error_at(src: &[u8], start: usize) -> (usize, &'static str) {
    match src.get(start) {
        Some(b'"') => scan_string(src, start).err().unwrap_or((start, "unexpected character")),
        Some(b'@') if src.get(start + 1) == Some(&b'"') => {
            scan_string(src, start + 1).err().unwrap_or((start, "unexpected character"))
        }
        Some(b'@') => (start + 1, "@ identifier expected to start with letter or '_'"),
        Some(b'%') => (start, "invalid SSA name"),
        Some(b'^') => (start, "invalid block name"),
        Some(b'!') => (start, "invalid type identifier"),
        Some(b'#') => (start, "invalid attribute name"),
        Some(b'.') => (start + 1, "expected three consecutive dots for an ellipsis"),
        _ => (start, "unexpected character"),
    }
}

fn lex_number(b: &[u8], start: usize) -> Token {
    let mut end = start;
    if b[end] == b'-' {
        end += 1;
    }
    if b[end] == b'0'
        && matches!(b.get(end + 1), Some(b'x'))
        && b.get(end + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        end += 2;
        while end < b.len() && b[end].is_ascii_hexdigit() {
            end += 1;
        }
        return Token { kind: TokenKind::Integer, start, end };
    }
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    if b.get(end) != Some(&b'.') {
        return Token { kind: TokenKind::Integer, start, end };
    }
    end += 1;
    while end < b.len() && b[end].is_ascii_digit() {
        end += 1;
    }
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut e = end + 1;
        if matches!(b.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        if b.get(e).is_some_and(u8::is_ascii_digit) {
            end = e;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
        }
    }
    Token { kind: TokenKind::Float, start, end }
}

/// Lexes the string literal whose opening quote is at `start`, as MLIR's `lexString`: the
/// offset one past the closing quote, or where and why it fails. A string may not hold `\n`,
/// `\v` or `\f` nor run to the end of the input ("expected '\"' in string literal", at that
/// character); its escapes are `\"`, `\\`, `\n`, `\t` and two hex digits ("unknown escape in
/// string literal", at the backslash). NUL and `\r` stand for themselves.
pub fn scan_string(b: &[u8], start: usize) -> Result<usize, (usize, &'static str)> {
    let mut i = start + 1;
    loop {
        let Some(&c) = b.get(i) else { return Err((b.len(), "expected '\"' in string literal")) };
        match c {
            b'"' => return Ok(i + 1),
            b'\n' | 0x0b | 0x0c => return Err((i, "expected '\"' in string literal")),
            b'\\' => match b.get(i + 1) {
                Some(b'"' | b'\\' | b'n' | b't') => i += 2,
                Some(h) if h.is_ascii_hexdigit() && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit) => i += 3,
                _ => return Err((i, "unknown escape in string literal")),
            },
            _ => i += 1,
        }
    }
}

/// Decodes the body of a string token (with quotes) into bytes: `\"`, `\\`, `\n`, `\t` and
/// `\XX` hex escapes. Returns the offset of a bad escape on failure.
pub fn decode_string(text: &str, start: usize) -> Result<Vec<u8>, usize> {
    let b = text.as_bytes();
    let body = &b[1..b.len() - 1];
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'\\' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        match body.get(i + 1) {
            Some(b'"') => out.push(b'"'),
            Some(b'\\') => out.push(b'\\'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(&h) if h.is_ascii_hexdigit() && body.get(i + 2).is_some_and(u8::is_ascii_hexdigit) => {
                let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                out.push(hex(h) * 16 + hex(body[i + 2]));
                i += 1;
            }
            _ => return Err(start + 1 + i),
        }
        i += 2;
    }
    Ok(out)
}

/// Appends `bytes` as an MLIR string literal (quotes included), escaping as MLIR does.
pub fn print_escaped_string(out: &mut String, bytes: &[u8]) {
    out.push('"');
    let mut plain_start = 0;
    for (i, &c) in bytes.iter().enumerate() {
        let printable = (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\';
        if printable {
            continue;
        }
        out.push_str(std::str::from_utf8(&bytes[plain_start..i]).unwrap_or_default());
        plain_start = i + 1;
        match c {
            b'"' => out.push_str("\\22"),
            b'\\' => out.push_str("\\\\"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('\\');
                out.push(HEX[(c >> 4) as usize] as char);
                out.push(HEX[(c & 15) as usize] as char);
            }
        }
    }
    out.push_str(std::str::from_utf8(&bytes[plain_start..]).unwrap_or_default());
    out.push('"');
}

/// Appends `s` bare when it is an identifier, else quoted (MLIR's `printKeywordOrString`).
pub fn print_keyword_or_string(out: &mut String, s: &str) {
    if is_bare_identifier(s) {
        out.push_str(s);
    } else {
        print_escaped_string(out, s.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        let mut pos = 0;
        let mut out = Vec::new();
        loop {
            let t = lex(src, pos);
            out.push(t.kind);
            if matches!(t.kind, TokenKind::Eof | TokenKind::Error) {
                return out;
            }
            pos = t.end;
        }
    }

    #[test]
    fn op_level_tokens() {
        use TokenKind::*;
        assert_eq!(
            kinds("%0:2 = \"a.b\"(%x#1)[^bb1] // c\n {-# #-} @\"q\" -> :: -1.5e3 0x1F"),
            vec![
                PercentIdent,
                Colon,
                Integer,
                Equal,
                String,
                LParen,
                PercentIdent,
                HashIdent,
                RParen,
                LSquare,
                CaretIdent,
                RSquare,
                FileMetadataBegin,
                FileMetadataEnd,
                AtIdent,
                Arrow,
                ColonColon,
                Float,
                Integer,
                Eof
            ]
        );
    }

    fn texts(src: &str) -> Vec<(TokenKind, &str)> {
        let mut pos = 0;
        let mut out = Vec::new();
        loop {
            let t = lex(src, pos);
            if t.kind == TokenKind::Eof {
                return out;
            }
            out.push((t.kind, t.text(src)));
            if t.kind == TokenKind::Error {
                return out;
            }
            pos = t.end;
        }
    }

    #[test]
    fn suffix_ids_are_mlirs() {
        use TokenKind::*;
        // A numeric suffix is all digits: `%0$` is `%0` and a stray `$`.
        assert_eq!(texts("%0$"), vec![(PercentIdent, "%0"), (Error, "$")]);
        assert_eq!(error_at(b"%0$", 2), (2, "unexpected character"));
        assert_eq!(texts("%0abc ^1x #2- !3."), {
            vec![
                (PercentIdent, "%0"),
                (BareIdent, "abc"),
                (CaretIdent, "^1"),
                (BareIdent, "x"),
                (HashIdent, "#2"),
                (Minus, "-"),
                (ExclaimIdent, "!3"),
                (Error, "."),
            ]
        });
        assert_eq!(texts("%a-b.c$_ ^-x #$ !_0"), {
            vec![(PercentIdent, "%a-b.c$_"), (CaretIdent, "^-x"), (HashIdent, "#$"), (ExclaimIdent, "!_0")]
        });
        assert_eq!(texts("%!"), vec![(Error, "%")]);
        assert_eq!(error_at(b"%!", 0), (0, "invalid SSA name"));
        // `@` identifiers: a letter or `_`, then letters, digits, `_`, `$`, `.`; no `-`.
        assert_eq!(texts("@a$.b-c"), vec![(AtIdent, "@a$.b"), (Minus, "-"), (BareIdent, "c")]);
        assert_eq!(texts("@0"), vec![(Error, "@")]);
        assert_eq!(error_at(b"@0", 0), (1, "@ identifier expected to start with letter or '_'"));
    }

    #[test]
    fn punctuation_and_comments_are_mlirs() {
        use TokenKind::*;
        assert_eq!(texts("... | ."), vec![(Ellipsis, "..."), (VerticalBar, "|"), (Error, ".")]);
        assert_eq!(error_at(b".5", 0), (1, "expected three consecutive dots for an ellipsis"));
        // A comment ends at a carriage return as at a newline.
        assert_eq!(texts("// c\r%x // d\n%y"), vec![(PercentIdent, "%x"), (PercentIdent, "%y")]);
        assert_eq!(skip_trivia(b"\0 \t\r\n// c\rx", 0), 10);
        // `\v` and `\f` are not whitespace.
        assert_eq!(texts("\u{b}"), vec![(Error, "\u{b}")]);
    }

    #[test]
    fn strings_are_lexed_as_mlirs() {
        assert_eq!(scan_string(b"\"a\\\"\\\\\\n\\t\\0A\rb\0\"", 0), Ok(17));
        for (text, at, message) in [
            ("\"x\u{b}y\"", 2, "expected '\"' in string literal"),
            ("\"x\u{c}y\"", 2, "expected '\"' in string literal"),
            ("\"x\ny\"", 2, "expected '\"' in string literal"),
            ("\"x", 2, "expected '\"' in string literal"),
            ("\"x\\q\"", 2, "unknown escape in string literal"),
            ("\"x\\4\"", 2, "unknown escape in string literal"),
            ("\"x\\\n\"", 2, "unknown escape in string literal"),
        ] {
            assert_eq!(lex(text, 0).kind, TokenKind::Error, "{text:?}");
            assert_eq!(error_at(text.as_bytes(), 0), (at, message), "{text:?}");
        }
        assert_eq!(error_at(b"@\"x\\q\"", 0), (3, "unknown escape in string literal"));
    }

    #[test]
    fn unsigned_values_are_decimal_or_hex() {
        assert_eq!(unsigned_value("0x10"), Some(16));
        assert_eq!(unsigned_value("007"), Some(7));
        assert_eq!(unsigned_value("0xFFFFFFFFFFFFFFFF"), Some(u64::MAX));
        assert_eq!(unsigned_value("18446744073709551616"), None);
        assert_eq!(unsigned_value("0x"), None);
        assert_eq!(unsigned_value("+1"), None);
    }

    #[test]
    fn strings_round_trip() {
        let decoded = decode_string(r#""a\22b\\\n\0A""#, 0).unwrap();
        assert_eq!(decoded, b"a\"b\\\n\n");
        let mut s = String::new();
        print_escaped_string(&mut s, &decoded);
        assert_eq!(s, r#""a\22b\\\0A\0A""#);
        assert_eq!(lex("\"open", 0).kind, TokenKind::Error);
    }
}
