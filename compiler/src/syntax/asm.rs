//! The parser interfaces that dialect hooks are written against, after MLIR's `AsmParser`
//! family: [`DialectAsmParser`] for the parameters of dialect attributes and types.
//!
//! Hooks see only these traits and [`ParseError`]; the concrete text parser (lexer, pest
//! grammar, fast paths) implements them.

use crate::attributes::Attribute;
use crate::context::Context;
use crate::types::Type;

/// A parse error: a byte offset, a message and notes at other offsets.
#[derive(Clone, Debug)]
pub struct ParseError {
    /// Byte offset the error points at.
    pub offset: usize,
    /// The message (MLIR's wording).
    pub message: String,
    /// Related places: offset and message.
    pub notes: Vec<(usize, String)>,
}

impl ParseError {
    /// An error at `offset`.
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        ParseError { offset, message: message.into(), notes: Vec::new() }
    }

    /// Attaches a note at `offset`.
    pub fn with_note(mut self, offset: usize, message: impl Into<String>) -> Self {
        self.notes.push((offset, message.into()));
        self
    }
}

/// The result of a parsing step.
pub type PResult<T> = Result<T, ParseError>;

/// Parses the parameters of a dialect attribute or type: the text between `<` and `>` of
/// `#dialect.name<...>` (MLIR's `DialectAsmParser`). Offsets are byte offsets in the source.
pub trait DialectAsmParser<'c> {
    /// The context values are interned in.
    fn context(&self) -> &Context<'c>;

    /// Byte offset of the next token.
    fn offset(&self) -> usize;

    /// Whether every parameter has been read.
    fn at_end(&self) -> bool;

    /// Consumes a bare identifier, if next, and returns it.
    fn parse_optional_keyword(&mut self) -> Option<String>;

    /// Consumes punctuation (`,`, `:`, `=`, `(`, `)`, `[`, `]`, `->`, ...) if next.
    fn parse_optional_punct(&mut self, punct: &str) -> bool;

    /// Parses a (possibly negative) integer that fits an `i64`.
    fn parse_integer(&mut self) -> PResult<i64>;

    /// Parses an attribute (with its `: type` where MLIR's grammar has one).
    fn parse_attribute(&mut self) -> PResult<Attribute<'c>>;

    /// Parses a type.
    fn parse_type(&mut self) -> PResult<Type<'c>>;

    /// An error at `offset`.
    fn error(&self, offset: usize, message: &str) -> ParseError {
        ParseError::new(offset, message)
    }

    /// Consumes a bare identifier or fails with `expected <what>`.
    fn parse_keyword(&mut self, what: &str) -> PResult<String> {
        let at = self.offset();
        self.parse_optional_keyword().ok_or_else(|| self.error(at, &format!("expected {what}")))
    }

    /// Consumes punctuation or fails with MLIR's "expected '...'".
    fn parse_punct(&mut self, punct: &str) -> PResult<()> {
        if self.parse_optional_punct(punct) {
            return Ok(());
        }
        Err(self.error(self.offset(), &format!("expected '{punct}'")))
    }
}
