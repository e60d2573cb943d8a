//! The interfaces that dialect hooks are written against, after MLIR's `OpAsmParser`,
//! `OpAsmPrinter`, `DialectAsmParser` and `DialectAsmPrinter`: [`OpAsmParser`] and
//! [`OpAsmPrinter`] for custom op formats ([`CustomSyntax`]), [`DialectAsmParser`] and
//! [`DialectAsmPrinter`] for the parameters of dialect attributes and types
//! ([`AttrDef`](crate::AttrDef)).
//!
//! The module sits below [`dialect`](crate::dialect) and [`dialect_attrs`](crate::dialect_attrs),
//! which hold these hooks, and above the IR data only. Hooks see only these traits,
//! [`ParseError`] and the plain data below; the concrete text parser and printer
//! ([`syntax`](crate::syntax)) implement them. The parser is reached only through
//! [`parse_source`](crate::syntax::parse_source), so a binary that builds IR, runs passes and
//! prints never calls it and the linker drops it.

use crate::attributes::{Attribute, NamedAttr};
use crate::context::Context;
use crate::ir::{Ir, OpId, OperationState, ValueId};
use crate::types::{Type, TypeKind};

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

/// What a custom op printer writes its op through (MLIR's `OpAsmPrinter`): called after the
/// result names, it prints everything from the op name on; regions go through
/// [`print_region`](Self::print_region). `'p` is the printer's borrow of the IR, `'c` the
/// context's lifetime. The text printer ([`syntax`](crate::syntax)) stands behind it.
pub struct OpAsmPrinter<'p, 'c> {
    ir: &'p Ir<'c>,
    ctx: &'p Context<'c>,
    backend: &'p mut dyn OpPrinterBackend<'c>,
}

/// What an [`OpAsmPrinter`] writes with: the printer's state (names, aliases, indentation,
/// the default dialect), implemented by the text printer.
pub(crate) trait OpPrinterBackend<'c> {
    /// Appends raw text.
    fn write(&mut self, s: &str);
    /// See [`OpAsmPrinter::print_op_name`].
    fn print_op_name(&mut self, op: OpId);
    /// See [`OpAsmPrinter::print_operand`].
    fn print_operand(&mut self, v: ValueId);
    /// See [`OpAsmPrinter::print_operands`].
    fn print_operands(&mut self, values: &[ValueId]);
    /// See [`OpAsmPrinter::print_type`].
    fn print_type(&mut self, ty: Type<'c>);
    /// See [`OpAsmPrinter::print_attribute`].
    fn print_attribute(&mut self, attr: Attribute<'c>);
    /// See [`OpAsmPrinter::print_symbol_name`].
    fn print_symbol_name(&mut self, name: &[u8]);
    /// ` {...}` (` attributes {...}` with `keyword`) with the entries not in `elided`.
    fn print_attr_dict(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str], keyword: bool);
    /// See [`OpAsmPrinter::print_region_argument`].
    fn print_region_argument(&mut self, v: ValueId);
    /// See [`OpAsmPrinter::print_optional_arg_loc`].
    fn print_optional_arg_loc(&mut self, v: ValueId);
    /// See [`OpAsmPrinter::print_region`].
    fn print_region(&mut self, op: OpId, index: usize, entry_args: bool, terminators: bool);
}

impl<'p, 'c> OpAsmPrinter<'p, 'c> {
    /// A printer of `ir` writing through `backend`.
    pub(crate) fn new(
        ir: &'p Ir<'c>,
        ctx: &'p Context<'c>,
        backend: &'p mut dyn OpPrinterBackend<'c>,
    ) -> Self {
        OpAsmPrinter { ir, ctx, backend }
    }

    /// The IR being printed.
    pub fn ir(&self) -> &'p Ir<'c> {
        self.ir
    }

    /// The context.
    pub fn context(&self) -> &'p Context<'c> {
        self.ctx
    }

    /// Appends raw text.
    pub fn write(&mut self, s: &str) {
        self.backend.write(s);
    }

    /// Prints the op's name, dropping the default dialect's prefix (`return` in a function,
    /// `module` at the top).
    pub fn print_op_name(&mut self, op: OpId) {
        self.backend.print_op_name(op);
    }

    /// Prints a value's name.
    pub fn print_operand(&mut self, v: ValueId) {
        self.backend.print_operand(v);
    }

    /// Prints `%a, %b`.
    pub fn print_operands(&mut self, values: &[ValueId]) {
        self.backend.print_operands(values);
    }

    /// Prints a type.
    pub fn print_type(&mut self, ty: Type<'c>) {
        self.backend.print_type(ty);
    }

    /// Prints `t1, t2`.
    pub fn print_types(&mut self, types: impl IntoIterator<Item = Type<'c>>) {
        for (i, t) in types.into_iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.print_type(t);
        }
    }

    /// Prints `(a, b) -> c` or `(a) -> (b, c)` (results parenthesised unless there is
    /// exactly one that is not a function type).
    pub fn print_functional_type(&mut self, inputs: &[Type<'c>], results: &[Type<'c>]) {
        self.write("(");
        self.print_types(inputs.iter().copied());
        self.write(") -> ");
        let single = results.len() == 1 && !matches!(results[0].kind(), TypeKind::Function { .. });
        if !single {
            self.write("(");
        }
        self.print_types(results.iter().copied());
        if !single {
            self.write(")");
        }
    }

    /// Prints an attribute.
    pub fn print_attribute(&mut self, attr: Attribute<'c>) {
        self.backend.print_attribute(attr);
    }

    /// Prints `@name`, quoted when it is not an identifier.
    pub fn print_symbol_name(&mut self, name: &[u8]) {
        self.backend.print_symbol_name(name);
    }

    /// Prints ` {a = 1, b}` with the entries not in `elided` (nothing when none remain).
    pub fn print_optional_attr_dict(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str]) {
        self.backend.print_attr_dict(attrs, elided, false);
    }

    /// Prints ` attributes {a = 1}` with the entries not in `elided`.
    pub fn print_optional_attr_dict_with_keyword(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str]) {
        self.backend.print_attr_dict(attrs, elided, true);
    }

    /// The op's attributes: properties and discardable ones merged, sorted by name.
    pub fn op_attrs(&self, op: OpId) -> Vec<NamedAttr<'c>> {
        let data = self.ir.op(op);
        let mut all: Vec<NamedAttr<'c>> =
            data.properties.and_then(|p| p.as_dict()).unwrap_or_default().to_vec();
        all.extend(data.attrs.iter().map(|(&name, &value)| NamedAttr { name, value }));
        all.sort_by(|a, b| a.name.cmp(b.name));
        all
    }

    /// Prints `%arg0: i32` and, with debug info, its location.
    pub fn print_region_argument(&mut self, v: ValueId) {
        self.backend.print_region_argument(v);
    }

    /// Prints `%arg0: i32` (the name and type only).
    pub fn print_value_and_type(&mut self, v: ValueId) {
        self.print_operand(v);
        self.write(": ");
        self.print_type(self.ir.value_type(v));
    }

    /// Prints ` loc(...)` of a block argument when printing debug info.
    pub fn print_optional_arg_loc(&mut self, v: ValueId) {
        self.backend.print_optional_arg_loc(v);
    }

    /// Prints region `index` of `op`: `{`, its blocks, `}` at the op's indentation.
    /// `entry_args`: print the entry block's label and arguments; `terminators`: print the
    /// block terminators.
    pub fn print_region(&mut self, op: OpId, index: usize, entry_args: bool, terminators: bool) {
        self.backend.print_region(op, index, entry_args, terminators);
    }
}

/// What the print hook of a dialect attribute or type writes its parameters with (MLIR's
/// `DialectAsmPrinter`): nested values print as everywhere else, aliases included. The text
/// printer ([`syntax`](crate::syntax)) stands behind it.
pub struct DialectAsmPrinter<'p, 'c> {
    backend: &'p mut dyn ParamPrinterBackend<'c>,
}

/// What a [`DialectAsmPrinter`] writes with, implemented by the text printer.
pub(crate) trait ParamPrinterBackend<'c> {
    /// See [`DialectAsmPrinter::write`].
    fn write(&mut self, s: &str);
    /// See [`DialectAsmPrinter::print_attribute`].
    fn print_attribute(&mut self, attr: Attribute<'c>);
    /// See [`DialectAsmPrinter::print_type`].
    fn print_type(&mut self, ty: Type<'c>);
}

impl<'p, 'c> DialectAsmPrinter<'p, 'c> {
    /// A printer writing through `backend`.
    pub(crate) fn new(backend: &'p mut dyn ParamPrinterBackend<'c>) -> Self {
        DialectAsmPrinter { backend }
    }

    /// Appends raw text (keywords, punctuation).
    pub fn write(&mut self, s: &str) {
        self.backend.write(s);
    }

    /// Prints an attribute with its type suffix.
    pub fn print_attribute(&mut self, attr: Attribute<'c>) {
        self.backend.print_attribute(attr);
    }

    /// Prints a type.
    pub fn print_type(&mut self, ty: Type<'c>) {
        self.backend.print_type(ty);
    }
}

/// An op's custom assembly format: how to parse it and print it back.
#[derive(Debug)]
pub struct CustomSyntax {
    /// Parses everything after the op name into `state`.
    pub parse: for<'a, 'c> fn(&mut dyn OpAsmParser<'a, 'c>, &mut OperationState<'c>) -> PResult<()>,
    /// Prints the op from its name on (results are printed already).
    pub print: for<'p, 'c> fn(&mut OpAsmPrinter<'p, 'c>, OpId),
    /// The dialect whose ops may drop their prefix inside this op's regions (`func` for
    /// `func.func`, so that `return` means `func.return`).
    pub default_dialect: Option<&'static str>,
}

/// The name the custom form gives an op's single result instead of a number (`%c0`, `%cst`,
/// `%alloc`), as MLIR's `OpAsmOpInterface::getAsmResultNames`: an op interface, listed in
/// [`OpDef::interfaces`](crate::OpDef::interfaces). The printer makes the name a valid
/// identifier and unique in its scope (`%c0_0` for a second `%c0`); the generic form keeps
/// numbers.
pub struct AsmResultName(pub for<'c> fn(&Ir<'c>, OpId) -> Option<String>);
