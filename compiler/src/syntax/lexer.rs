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

fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-')
}

/// Whether `s` can be printed as a bare identifier (otherwise it must be quoted).
pub fn is_bare_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && is_ident_start(b[0]) && b[1..].iter().all(|&c| is_ident_char(c))
}

/// Whether `c` separates tokens: whitespace, and NUL, which MLIR's lexer skips as it skips
/// whitespace.
pub fn is_trivia(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0)
}

/// Skips whitespace (see [`is_trivia`]) and `//` comments starting at `pos`; returns the next
/// significant offset.
pub fn skip_trivia(src: &[u8], mut pos: usize) -> usize {
    loop {
        match src.get(pos) {
            Some(&c) if is_trivia(c) => pos += 1,
            Some(b'/') if src.get(pos + 1) == Some(&b'/') => {
                pos += 2;
                while pos < src.len() && src[pos] != b'\n' {
                    pos += 1;
                }
            }
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
        b'"' => match string_end(b, start) {
            Some(end) => tok(TokenKind::String, end),
            None => tok(TokenKind::Error, b.len()),
        },
        b'#' if next == Some(b'-') && b.get(start + 2) == Some(&b'}') => {
            tok(TokenKind::FileMetadataEnd, start + 3)
        }
        b'%' => lex_prefixed(b, start, TokenKind::PercentIdent),
        b'^' => lex_prefixed(b, start, TokenKind::CaretIdent),
        b'#' => lex_prefixed(b, start, TokenKind::HashIdent),
        b'!' => lex_prefixed(b, start, TokenKind::ExclaimIdent),
        b'@' if next == Some(b'"') => match string_end(b, start + 1) {
            Some(end) => tok(TokenKind::AtIdent, end),
            None => tok(TokenKind::Error, b.len()),
        },
        b'@' => lex_prefixed(b, start, TokenKind::AtIdent),
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
    let mut end = start + 1;
    while end < b.len() && is_suffix_char(b[end]) {
        end += 1;
    }
    let kind = if end == start + 1 { TokenKind::Error } else { kind };
    Token { kind, start, end }
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

/// The offset one past the closing quote of the string starting at `start`, or `None` when it
/// is not terminated on its line.
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            b'\n' => return None,
            _ => i += 1,
        }
    }
    None
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
