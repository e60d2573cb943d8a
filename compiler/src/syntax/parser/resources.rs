//! The file metadata block: `{-# dialect_resources: {...}, external_resources: {...} #-}`.
//!
//! Entries are kept as written (`"0x..."`, `true`) in [`Module::resources`](crate::Module),
//! section -> dialect or group -> key -> value.

use indexmap::IndexMap;

use crate::syntax::lexer::{decode_string, TokenKind};
use crate::syntax::parser::{PResult, ParseError, Parser};

impl Parser<'_, '_> {
    /// Parses `{-# ... #-}` at the current token.
    pub(crate) fn parse_resources(&mut self) -> PResult<()> {
        self.bump();
        if !self.eat(TokenKind::FileMetadataEnd) {
            loop {
                let at = self.tok.start;
                let section = self.parse_key("expected identifier key in file metadata dictionary")?;
                if section != "dialect_resources" && section != "external_resources" {
                    return Err(ParseError::new(
                        at,
                        format!("unknown key '{section}' in file metadata dictionary"),
                    ));
                }
                self.expect(TokenKind::Colon, "expected ':'")?;
                self.parse_resource_section(&section)?;
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::FileMetadataEnd, "expected '#-}' to end file metadata")?;
        }
        Ok(())
    }

    /// A `dialect_resources` group must belong to a dialect with resources: `builtin`, a Kiln
    /// dialect, or MLIR's `test` dialect (registered in mlir-opt 22), whose entries are kept
    /// as written (Kiln cannot see which of its attributes refer to them).
    fn parse_resource_section(&mut self, section: &str) -> PResult<()> {
        self.expect(TokenKind::LBrace, "expected '{'")?;
        if self.eat(TokenKind::RBrace) {
            return Ok(());
        }
        loop {
            let at = self.tok.start;
            let owner = self.parse_key("expected identifier key for 'resource' entry")?;
            if section == "dialect_resources"
                && owner != "builtin"
                && owner != "test"
                && self.ctx.registry().dialect(&owner).is_none()
            {
                return Err(ParseError::new(at, format!("dialect '{owner}' is unknown")));
            }
            self.expect(TokenKind::Colon, "expected ':'")?;
            self.expect(TokenKind::LBrace, "expected '{'")?;
            let mut entries = IndexMap::new();
            if !self.eat(TokenKind::RBrace) {
                loop {
                    let key = self.parse_key("expected identifier key for 'resource' entry")?;
                    self.expect(TokenKind::Colon, "expected ':'")?;
                    let value_at = self.tok.start;
                    let value = match self.tok.kind {
                        TokenKind::String => self.text().to_owned(),
                        TokenKind::BareIdent if matches!(self.text(), "true" | "false") => {
                            self.text().to_owned()
                        }
                        _ => {
                            return Err(ParseError::new(
                                self.tok.start,
                                format!("expected string value for key '{key}'"),
                            ))
                        }
                    };
                    self.bump();
                    // Dialect resources are blobs; an external one is when it looks like one.
                    if section == "dialect_resources" || value.starts_with("\"0x") {
                        check_blob(&key, &value, value_at)?;
                    }
                    entries.insert(key, value);
                    if !self.eat(TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(TokenKind::RBrace, "expected '}'")?;
            }
            let sec = self.resources.entry(section.to_owned()).or_default();
            sec.entry(owner).or_default().extend(entries);
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::RBrace, "expected '}'")
    }

    /// A bare identifier or string key.
    fn parse_key(&mut self, message: &str) -> PResult<String> {
        let key = match self.tok.kind {
            TokenKind::BareIdent => self.text().to_owned(),
            TokenKind::String => {
                let bytes = decode_string(self.text(), self.tok.start)
                    .map_err(|o| ParseError::new(o, "unknown escape in string literal"))?;
                String::from_utf8_lossy(&bytes).into_owned()
            }
            _ => return Err(self.wrong_token(message)),
        };
        self.bump();
        Ok(key)
    }
}

/// Checks `value` (a resource value as written) as mlir-opt's blob reader does: a string of
/// `0x` and hex digits whose first four bytes are the alignment, a little-endian power of two.
fn check_blob(key: &str, value: &str, at: usize) -> PResult<()> {
    let not_blob = || ParseError::new(at, format!("expected hex string blob for key '{key}'"));
    if !value.starts_with('"') {
        return Err(not_blob());
    }
    let bytes =
        decode_string(value, at).map_err(|o| ParseError::new(o, "unknown escape in string literal"))?;
    let hex = bytes.strip_prefix(b"0x").ok_or_else(not_blob)?;
    if hex.len() % 2 != 0 || !hex.iter().all(u8::is_ascii_hexdigit) {
        return Err(not_blob());
    }
    let alignment_message =
        format!("expected hex string blob for key '{key}' to encode alignment in first 4 bytes");
    if hex.len() < 8 {
        return Err(ParseError::new(at, alignment_message));
    }
    let digit = |c: u8| (c as char).to_digit(16).expect("checked hex digit");
    let alignment =
        (0..4).fold(0u32, |acc, i| acc | (digit(hex[2 * i]) << 4 | digit(hex[2 * i + 1])) << (8 * i));
    if !alignment.is_power_of_two() {
        return Err(ParseError::new(
            at,
            format!("{alignment_message}, but got non-power-of-2 value: {alignment}"),
        ));
    }
    Ok(())
}
