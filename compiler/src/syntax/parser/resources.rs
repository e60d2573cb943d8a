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
