//! Hooks for ops with a custom (pretty) assembly format, and the helpers their parsers and
//! printers use (after MLIR's `OpAsmParser` / `OpAsmPrinter`).
//!
//! A custom parser is called after the op name; it fills an [`OperationState`] (operands
//! resolved to values, result types, attributes, properties) and parses regions through
//! [`OpAsmParser::parse_region`]. A custom printer is called after the result names and prints
//! everything from the op name on; regions go through [`OpAsmPrinter::print_region`].

use crate::attributes::{Attribute, NamedAttr};
use crate::ir::{OpId, OperationState, ValueId};
use crate::syntax::lexer::{self, TokenKind};
use crate::types::Type;

pub use crate::syntax::parser::{OpAsmParser, PResult, ParseError};
pub use crate::syntax::printer::OpAsmPrinter;

pub use crate::syntax::parser::UnresolvedOperand;

/// An op's custom assembly format: how to parse it and print it back.
#[derive(Debug)]
pub struct CustomSyntax {
    /// Parses everything after the op name into `state`.
    pub parse: for<'a, 'c> fn(&mut OpAsmParser<'a, 'c>, &mut OperationState<'c>) -> PResult<()>,
    /// Prints the op from its name on (results are printed already).
    pub print: for<'p, 'c> fn(&mut OpAsmPrinter<'p, 'c>, OpId),
    /// The dialect whose ops may drop their prefix inside this op's regions (`func` for
    /// `func.func`, so that `return` means `func.return`).
    pub default_dialect: Option<&'static str>,
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

impl<'a, 'c> OpAsmParser<'a, 'c> {
    /// The context.
    pub fn context(&self) -> &'a crate::Context<'c> {
        self.ctx
    }

    /// Byte offset of the current token (for error messages).
    pub fn offset(&self) -> usize {
        self.tok.start
    }

    /// Consumes `keyword` if it is next.
    pub fn parse_optional_keyword(&mut self, keyword: &str) -> bool {
        if self.at(TokenKind::BareIdent) && self.text() == keyword {
            self.bump();
            return true;
        }
        false
    }

    /// Consumes a bare identifier, if next, and returns it.
    pub fn parse_optional_bare_keyword(&mut self) -> Option<&'a str> {
        if !self.at(TokenKind::BareIdent) {
            return None;
        }
        let word = self.text();
        self.bump();
        Some(word)
    }

    /// Consumes punctuation (`(`, `)`, `:`, `->`, `,`, `=`, `{`, `}`, `[`, `]`, `<`, `>`) if next.
    pub fn parse_optional_punct(&mut self, punct: &str) -> bool {
        match lexer::punct_kind(punct) {
            Some(kind) => self.eat(kind),
            None => false,
        }
    }

    /// Consumes punctuation or fails with MLIR's "expected '...'".
    pub fn parse_punct(&mut self, punct: &str) -> PResult<()> {
        if self.parse_optional_punct(punct) {
            return Ok(());
        }
        Err(self.wrong_token(&format!("expected '{punct}'")))
    }

    /// Parses `@name` or `@"name"` and returns the symbol's bytes.
    pub fn parse_symbol_name(&mut self) -> PResult<Vec<u8>> {
        if !self.at(TokenKind::AtIdent) {
            return Err(self.wrong_token("expected valid '@'-identifier for symbol name"));
        }
        let text = &self.text()[1..];
        let name = if text.starts_with('"') {
            lexer::decode_string(text, self.tok.start + 1)
                .map_err(|o| ParseError::new(o, "unknown escape in string literal"))?
        } else {
            text.as_bytes().to_vec()
        };
        self.bump();
        Ok(name)
    }

    /// Parses `%name` or `%name#N`.
    pub fn parse_operand(&mut self) -> PResult<UnresolvedOperand<'a>> {
        self.parse_use()
    }

    /// Parses a possibly empty comma-separated list of operands (no delimiters).
    pub fn parse_operand_list(&mut self) -> PResult<Vec<UnresolvedOperand<'a>>> {
        let mut v = Vec::new();
        if !self.at(TokenKind::PercentIdent) {
            return Ok(v);
        }
        loop {
            v.push(self.parse_use()?);
            if !self.eat(TokenKind::Comma) {
                return Ok(v);
            }
        }
    }

    /// Resolves operands against their types (forward references allowed).
    pub fn resolve_operands(
        &mut self,
        operands: &[UnresolvedOperand<'a>],
        types: &[Type<'c>],
        at: usize,
    ) -> PResult<Vec<ValueId>> {
        if operands.len() != types.len() {
            return Err(ParseError::new(
                at,
                format!("{} operands present, but expected {}", operands.len(), types.len()),
            ));
        }
        let loc = self.loc_at(at);
        let mut out = Vec::with_capacity(operands.len());
        for (u, &ty) in operands.iter().zip(types) {
            out.push(self.scopes.resolve(&mut self.ir, *u, ty, loc)?);
        }
        Ok(out)
    }

    /// Parses a type.
    pub fn parse_type(&mut self) -> PResult<Type<'c>> {
        self.parse_type_here()
    }

    /// Parses an attribute (with its optional `: type`).
    pub fn parse_attribute(&mut self) -> PResult<Attribute<'c>> {
        self.parse_attr_here()
    }

    /// Parses a possibly empty comma-separated type list (no delimiters).
    pub fn parse_type_list(&mut self) -> PResult<Vec<Type<'c>>> {
        let mut v = vec![self.parse_type_here()?];
        while self.eat(TokenKind::Comma) {
            v.push(self.parse_type_here()?);
        }
        Ok(v)
    }

    /// Parses `: type, type` if a colon is next.
    pub fn parse_optional_colon_type_list(&mut self) -> PResult<Vec<Type<'c>>> {
        if !self.eat(TokenKind::Colon) {
            return Ok(Vec::new());
        }
        self.parse_type_list()
    }

    /// Whether the next token is a symbol name (`@name`).
    pub fn at_symbol(&self) -> bool {
        self.at(TokenKind::AtIdent)
    }

    /// Whether the next token is an SSA name (`%name`).
    pub fn at_operand(&self) -> bool {
        self.at(TokenKind::PercentIdent)
    }

    /// Moves the inherent attributes of a registered op from `state.attrs` into its
    /// properties (call after filling `state.attrs`).
    pub fn move_inherent(&self, state: &mut OperationState<'c>) {
        self.move_inherent_attrs(state);
    }

    /// Gives the last parsed region an empty entry block if it has no block (single-block
    /// regions without terminator, like a module body).
    pub fn ensure_entry_block(&mut self) {
        if let Some(blocks) = self.custom_regions.last_mut() {
            if blocks.is_empty() {
                blocks.push(self.ir.create_block());
            }
        }
    }

    /// Whether the next token is `{`.
    pub fn at_lbrace(&self) -> bool {
        self.at(TokenKind::LBrace)
    }

    /// Parses an optional `{...}` attribute dictionary into `state.attrs` (inherent
    /// attributes of registered ops then move into the properties).
    pub fn parse_optional_attr_dict(&mut self, state: &mut OperationState<'c>) -> PResult<()> {
        if !self.at(TokenKind::LBrace) {
            return Ok(());
        }
        let dict = self.parse_attr_here()?;
        state.attrs.extend(dict.as_dict().unwrap_or_default().iter().map(|n| (n.name, n.value)));
        self.move_inherent_attrs(state);
        Ok(())
    }

    /// Parses `attributes {...}` if the keyword is next.
    pub fn parse_optional_attr_dict_with_keyword(&mut self, state: &mut OperationState<'c>) -> PResult<()> {
        if self.parse_optional_keyword("attributes") {
            if !self.at(TokenKind::LBrace) {
                return Err(self.wrong_token("expected '{' in attribute dictionary"));
            }
            return self.parse_optional_attr_dict(state);
        }
        Ok(())
    }

    /// Parses an optional trailing `loc(...)` of an argument (aliases must be defined).
    pub fn parse_optional_arg_loc(&mut self) -> PResult<Option<Attribute<'c>>> {
        match self.parse_trailing_loc()? {
            None => Ok(None),
            Some(Ok(a)) => Ok(Some(a)),
            Some(Err((_, off))) => Err(ParseError::new(off, "operation location alias was never defined")),
        }
    }

    /// Parses a region `{ ... }` whose entry block gets `args` (as in a function body), and
    /// records it as the next region of the op being parsed.
    pub fn parse_region(&mut self, args: &[EntryArg<'a, 'c>], isolated: bool) -> PResult<()> {
        self.expect(TokenKind::LBrace, "expected '{' to begin a region")?;
        self.scopes.push_region(isolated);
        let mut body = crate::syntax::parser::RegionBody::default();
        if !args.is_empty() {
            let block = self.ir.create_block();
            for a in args {
                let loc = match a.loc {
                    Some(l) => l,
                    None => self.loc_at(a.offset),
                };
                let v = self.ir.add_block_arg(block, a.ty, Some(loc));
                self.scopes.define(&mut self.ir, a.name, 0, &[v], a.offset)?;
            }
            body.blocks.push(block);
            body.current = Some(block);
        }
        self.parse_region_body(&mut body, false)?;
        self.expect(TokenKind::RBrace, "expected '}' to end a region")?;
        self.scopes.pop_region()?;
        self.custom_regions.push(body.blocks);
        Ok(())
    }

    /// Records an empty region (no blocks) for the op being parsed.
    pub fn add_empty_region(&mut self) {
        self.custom_regions.push(Vec::new());
    }

    /// An error at `offset`.
    pub fn error(&self, offset: usize, message: impl Into<String>) -> ParseError {
        ParseError::new(offset, message)
    }
}

impl<'p, 'c> OpAsmPrinter<'p, 'c> {
    /// The IR being printed.
    pub fn ir(&self) -> &'p crate::Ir<'c> {
        self.ir
    }

    /// The context.
    pub fn context(&self) -> &'p crate::Context<'c> {
        self.ctx
    }

    /// Appends raw text.
    pub fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Prints the op's name, dropping the default dialect's prefix (`return` in a function,
    /// `module` at the top).
    pub fn print_op_name(&mut self, op: OpId) {
        let name = self.ir.op(op).name;
        let d = self.default_dialect;
        let short = name
            .strip_prefix(d)
            .and_then(|rest| rest.strip_prefix('.'))
            .filter(|rest| !d.is_empty() && !rest.contains('.'));
        self.out.push_str(short.unwrap_or(name));
    }

    /// Prints a value's name.
    pub fn print_operand(&mut self, v: ValueId) {
        self.names.push_value(&mut self.out, self.ir, v);
    }

    /// Prints `%a, %b`.
    pub fn print_operands(&mut self, values: &[ValueId]) {
        self.print_value_list(values);
    }

    /// Prints a type.
    pub fn print_type(&mut self, ty: Type<'c>) {
        self.push_type(ty);
    }

    /// Prints `t1, t2`.
    pub fn print_types(&mut self, types: impl IntoIterator<Item = Type<'c>>) {
        for (i, t) in types.into_iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.push_type(t);
        }
    }

    /// Prints `(a, b) -> c` or `(a) -> (b, c)` (results parenthesised unless there is
    /// exactly one that is not a function type).
    pub fn print_functional_type(&mut self, inputs: &[Type<'c>], results: &[Type<'c>]) {
        self.out.push('(');
        self.print_types(inputs.iter().copied());
        self.out.push_str(") -> ");
        let single =
            results.len() == 1 && !matches!(results[0].kind(), crate::types::TypeKind::Function { .. });
        if !single {
            self.out.push('(');
        }
        self.print_types(results.iter().copied());
        if !single {
            self.out.push(')');
        }
    }

    /// Prints an attribute.
    pub fn print_attribute(&mut self, attr: Attribute<'c>) {
        crate::syntax::type_attr::print_attr(&mut self.out, attr, &self.aliases);
    }

    /// Prints `@name`, quoted when it is not an identifier.
    pub fn print_symbol_name(&mut self, name: &[u8]) {
        self.out.push('@');
        match std::str::from_utf8(name) {
            Ok(s) if lexer::is_bare_identifier(s) => self.out.push_str(s),
            _ => lexer::print_escaped_string(&mut self.out, name),
        }
    }

    /// Prints ` {a = 1, b}` with the entries not in `elided` (nothing when none remain).
    pub fn print_optional_attr_dict(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str]) {
        self.print_attr_dict_impl(attrs, elided, false);
    }

    /// Prints ` attributes {a = 1}` with the entries not in `elided`.
    pub fn print_optional_attr_dict_with_keyword(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str]) {
        self.print_attr_dict_impl(attrs, elided, true);
    }

    fn print_attr_dict_impl(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str], keyword: bool) {
        let mut kept = attrs.iter().filter(|a| !elided.contains(&a.name)).peekable();
        if kept.peek().is_none() {
            return;
        }
        self.out.push_str(if keyword { " attributes {" } else { " {" });
        for (i, a) in kept.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_named_attr(a.name, a.value);
        }
        self.out.push('}');
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
        self.print_arg_decl(v);
    }

    /// Prints `%arg0: i32` (the name and type only).
    pub fn print_value_and_type(&mut self, v: ValueId) {
        self.print_operand(v);
        self.out.push_str(": ");
        self.push_type(self.ir.value_type(v));
    }

    /// Prints ` loc(...)` of a block argument when printing debug info.
    pub fn print_optional_arg_loc(&mut self, v: ValueId) {
        self.print_arg_loc(v);
    }

    /// Prints region `index` of `op`: `{`, its blocks, `}` at the op's indentation.
    /// `entry_args`: print the entry block's label and arguments; `terminators`: print the
    /// block terminators.
    pub fn print_region(&mut self, op: OpId, index: usize, entry_args: bool, terminators: bool) {
        self.print_region_custom(op, index, entry_args, terminators);
    }
}

/// Parses the format of return-like terminators, `{attrs}? (%a, %b : t1, t2)?`
/// (`func.return`, `fused.yield`).
pub fn parse_return_like<'c>(p: &mut OpAsmParser<'_, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    p.parse_optional_attr_dict(state)?;
    let at = p.offset();
    let operands = p.parse_operand_list()?;
    if !operands.is_empty() {
        p.parse_punct(":")?;
        let types = p.parse_type_list()?;
        state.operands = p.resolve_operands(&operands, &types, at)?;
    }
    Ok(())
}

/// Prints the format of return-like terminators (see [`parse_return_like`]).
pub fn print_return_like(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
    let operands = p.ir().operands(op);
    if !operands.is_empty() {
        p.write(" ");
        p.print_operands(operands);
        p.write(" : ");
        let types: Vec<Type<'_>> = operands.iter().map(|&v| p.ir().value_type(v)).collect();
        p.print_types(types);
    }
}
