//! The parser interfaces that dialect hooks are written against, after MLIR's `AsmParser`
//! family: [`OpAsmParser`] for custom op formats ([`CustomSyntax`](super::custom::CustomSyntax))
//! and [`DialectAsmParser`] for the parameters of dialect attributes and types
//! ([`AttrDef`](crate::AttrDef)).
//!
//! Hooks see only these traits, [`ParseError`] and the plain data below; the concrete text
//! parser (`syntax::parser`, `syntax::lexer` and the pest grammar of `syntax::type_attr`)
//! implements them and is reached only through [`parse_source`](super::parse_source). A binary
//! that builds IR, runs passes and prints never calls it, so the linker drops it.

use crate::attributes::Attribute;
use crate::context::Context;
use crate::ir::{OperationState, ValueId};
use crate::types::Type;

/// A parsed `%name` or `%name#N` use, not yet resolved to a value.
#[derive(Clone, Copy, Debug)]
pub struct UnresolvedOperand<'a> {
    /// The name with `%`.
    pub name: &'a str,
    /// The result number.
    pub index: u32,
    /// Offset of the use.
    pub offset: usize,
}

/// A region entry argument parsed from a signature: name, type, optional location.
#[derive(Clone, Copy, Debug)]
pub struct EntryArg<'a, 'c> {
    /// The `%name`.
    pub name: &'a str,
    /// Offset of the name.
    pub offset: usize,
    /// Its type.
    pub ty: Type<'c>,
    /// An explicit `loc(...)`.
    pub loc: Option<Attribute<'c>>,
}

/// What a custom op parser reads its op through (MLIR's `OpAsmParser`): called after the op
/// name, it fills an [`OperationState`] (operands resolved to values, result types,
/// attributes, properties) and parses regions with [`parse_region`](Self::parse_region).
/// `'a` is the source text's lifetime, `'c` the context's.
pub trait OpAsmParser<'a, 'c> {
    /// The context.
    fn context(&self) -> &Context<'c>;

    /// Byte offset of the current token (for error messages).
    fn offset(&self) -> usize;

    /// Consumes `keyword` if it is next.
    fn parse_optional_keyword(&mut self, keyword: &str) -> bool;

    /// Consumes a bare identifier, if next, and returns it.
    fn parse_optional_bare_keyword(&mut self) -> Option<&'a str>;

    /// Consumes punctuation (`(`, `)`, `:`, `->`, `,`, `=`, `{`, `}`, `[`, `]`, `<`, `>`) if next.
    fn parse_optional_punct(&mut self, punct: &str) -> bool;

    /// Consumes punctuation or fails with MLIR's "expected '...'".
    fn parse_punct(&mut self, punct: &str) -> PResult<()>;

    /// Parses `@name` or `@"name"` and returns the symbol's bytes.
    fn parse_symbol_name(&mut self) -> PResult<Vec<u8>>;

    /// Parses `%name` or `%name#N`.
    fn parse_operand(&mut self) -> PResult<UnresolvedOperand<'a>>;

    /// Parses a possibly empty comma-separated list of operands (no delimiters).
    fn parse_operand_list(&mut self) -> PResult<Vec<UnresolvedOperand<'a>>>;

    /// Resolves operands against their types (forward references allowed); `at` locates a
    /// count mismatch.
    fn resolve_operands(
        &mut self,
        operands: &[UnresolvedOperand<'a>],
        types: &[Type<'c>],
        at: usize,
    ) -> PResult<Vec<ValueId>>;

    /// Parses a type.
    fn parse_type(&mut self) -> PResult<Type<'c>>;

    /// Parses an attribute (with its optional `: type`).
    fn parse_attribute(&mut self) -> PResult<Attribute<'c>>;

    /// Parses a non-empty comma-separated type list (no delimiters).
    fn parse_type_list(&mut self) -> PResult<Vec<Type<'c>>>;

    /// Parses `: type, type` if a colon is next.
    fn parse_optional_colon_type_list(&mut self) -> PResult<Vec<Type<'c>>>;

    /// Whether the next token is a symbol name (`@name`).
    fn at_symbol(&self) -> bool;

    /// Whether the next token is an SSA name (`%name`).
    fn at_operand(&self) -> bool;

    /// Whether the next token is `{`.
    fn at_lbrace(&self) -> bool;

    /// Moves the inherent attributes of a registered op from `state.attrs` into its
    /// properties (call after filling `state.attrs`).
    fn move_inherent(&self, state: &mut OperationState<'c>);

    /// Parses an optional `{...}` attribute dictionary into `state.attrs` (inherent
    /// attributes of registered ops then move into the properties).
    fn parse_optional_attr_dict(&mut self, state: &mut OperationState<'c>) -> PResult<()>;

    /// Parses `attributes {...}` if the keyword is next.
    fn parse_optional_attr_dict_with_keyword(&mut self, state: &mut OperationState<'c>) -> PResult<()>;

    /// Parses an optional trailing `loc(...)` of an argument (aliases must be defined).
    fn parse_optional_arg_loc(&mut self) -> PResult<Option<Attribute<'c>>>;

    /// Parses a region `{ ... }` whose entry block gets `args` (as in a function body), and
    /// records it as the next region of the op being parsed.
    fn parse_region(&mut self, args: &[EntryArg<'a, 'c>], isolated: bool) -> PResult<()>;

    /// Gives the last parsed region an empty entry block if it has no block (single-block
    /// regions without terminator, like a module body).
    fn ensure_entry_block(&mut self);

    /// Records an empty region (no blocks) for the op being parsed.
    fn add_empty_region(&mut self);

    /// Gives the last parsed region a block that ends in a terminator: when the region has no
    /// block, or its last block does not end in a terminator, appends an op `name` without
    /// operands at `loc` (MLIR's `ensureTerminator` for `SingleBlockImplicitTerminator` ops
    /// such as `scf.for`, whose `scf.yield` the custom form may leave out).
    fn ensure_terminator(&mut self, name: &'static str, loc: Attribute<'c>);

    /// An error at `offset`.
    fn error(&self, offset: usize, message: &str) -> ParseError {
        ParseError::new(offset, message)
    }
}

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
