//! The concrete text parser behind [`OpAsmParser`], the trait custom op formats are written
//! against.

use crate::asm::{EntryArg, OpAsmParser, PResult, ParseError, UnresolvedOperand};
use crate::attributes::Attribute;
use crate::context::Context;
use crate::ir::{OperationState, ValueId};
use crate::syntax::lexer::{self, TokenKind};
use crate::syntax::parser::Parser;
use crate::types::Type;

impl<'a, 'c> OpAsmParser<'a, 'c> for Parser<'a, 'c> {
    /// The context.
    fn context(&self) -> &Context<'c> {
        self.ctx
    }

    /// Byte offset of the current token (for error messages).
    fn offset(&self) -> usize {
        self.tok.start
    }

    /// Consumes `keyword` if it is next.
    fn parse_optional_keyword(&mut self, keyword: &str) -> bool {
        if self.at(TokenKind::BareIdent) && self.text() == keyword {
            self.bump();
            return true;
        }
        false
    }

    /// Consumes a bare identifier, if next, and returns it.
    fn parse_optional_bare_keyword(&mut self) -> Option<&'a str> {
        if !self.at(TokenKind::BareIdent) {
            return None;
        }
        let word = self.text();
        self.bump();
        Some(word)
    }

    /// Consumes punctuation (`(`, `)`, `:`, `->`, `,`, `=`, `{`, `}`, `[`, `]`, `<`, `>`) if next.
    fn parse_optional_punct(&mut self, punct: &str) -> bool {
        match lexer::punct_kind(punct) {
            Some(kind) => self.eat(kind),
            None => false,
        }
    }

    /// Consumes punctuation or fails with MLIR's "expected '...'".
    fn parse_punct(&mut self, punct: &str) -> PResult<()> {
        if self.parse_optional_punct(punct) {
            return Ok(());
        }
        Err(self.wrong_token(&format!("expected '{punct}'")))
    }

    /// Parses `@name` or `@"name"` and returns the symbol's bytes.
    fn parse_symbol_name(&mut self) -> PResult<Vec<u8>> {
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
    fn parse_operand(&mut self) -> PResult<UnresolvedOperand<'a>> {
        self.parse_use()
    }

    /// Parses a possibly empty comma-separated list of operands (no delimiters).
    fn parse_operand_list(&mut self) -> PResult<Vec<UnresolvedOperand<'a>>> {
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
    fn resolve_operands(
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
    fn parse_type(&mut self) -> PResult<Type<'c>> {
        self.parse_type_here()
    }

    /// Parses an attribute (with its optional `: type`).
    fn parse_attribute(&mut self) -> PResult<Attribute<'c>> {
        self.parse_attr_here()
    }

    /// Parses a possibly empty comma-separated type list (no delimiters).
    fn parse_type_list(&mut self) -> PResult<Vec<Type<'c>>> {
        let mut v = vec![self.parse_type_here()?];
        while self.eat(TokenKind::Comma) {
            v.push(self.parse_type_here()?);
        }
        Ok(v)
    }

    /// Parses `: type, type` if a colon is next.
    fn parse_optional_colon_type_list(&mut self) -> PResult<Vec<Type<'c>>> {
        if !self.eat(TokenKind::Colon) {
            return Ok(Vec::new());
        }
        self.parse_type_list()
    }

    /// Whether the next token is a symbol name (`@name`).
    fn at_symbol(&self) -> bool {
        self.at(TokenKind::AtIdent)
    }

    /// Whether the next token is an SSA name (`%name`).
    fn at_operand(&self) -> bool {
        self.at(TokenKind::PercentIdent)
    }

    /// Moves the inherent attributes of a registered op from `state.attrs` into its
    /// properties (call after filling `state.attrs`).
    fn move_inherent(&self, state: &mut OperationState<'c>) {
        self.move_inherent_attrs(state);
    }

    /// Gives the last parsed region an empty entry block if it has no block (single-block
    /// regions without terminator, like a module body).
    fn ensure_entry_block(&mut self) {
        if let Some(blocks) = self.custom_regions.last_mut() {
            if blocks.is_empty() {
                blocks.push(self.ir.create_block());
            }
        }
    }

    /// Whether the next token is `{`.
    fn at_lbrace(&self) -> bool {
        self.at(TokenKind::LBrace)
    }

    /// Parses an optional `{...}` attribute dictionary into `state.attrs` (inherent
    /// attributes of registered ops then move into the properties).
    fn parse_optional_attr_dict(&mut self, state: &mut OperationState<'c>) -> PResult<()> {
        if !self.at(TokenKind::LBrace) {
            return Ok(());
        }
        let dict = self.parse_attr_here()?;
        state.attrs.extend(dict.as_dict().unwrap_or_default().iter().map(|n| (n.name, n.value)));
        self.move_inherent_attrs(state);
        Ok(())
    }

    /// Parses `attributes {...}` if the keyword is next.
    fn parse_optional_attr_dict_with_keyword(&mut self, state: &mut OperationState<'c>) -> PResult<()> {
        if self.parse_optional_keyword("attributes") {
            if !self.at(TokenKind::LBrace) {
                return Err(self.wrong_token("expected '{' in attribute dictionary"));
            }
            return self.parse_optional_attr_dict(state);
        }
        Ok(())
    }

    /// Parses an optional trailing `loc(...)` of an argument (aliases must be defined).
    fn parse_optional_arg_loc(&mut self) -> PResult<Option<Attribute<'c>>> {
        match self.parse_trailing_loc()? {
            None => Ok(None),
            Some(Ok(a)) => Ok(Some(a)),
            Some(Err((_, off))) => Err(ParseError::new(off, "operation location alias was never defined")),
        }
    }

    /// Parses a region `{ ... }` whose entry block gets `args` (as in a function body), and
    /// records it as the next region of the op being parsed. Unless `isolated` (MLIR's
    /// `enableNameShadowing`), the region sees the enclosing names and its arguments may not
    /// reuse one.
    fn parse_region(&mut self, args: &[EntryArg<'a, 'c>], isolated: bool) -> PResult<()> {
        self.expect(TokenKind::LBrace, "expected '{' to begin a region")?;
        if !isolated {
            for a in args {
                if let Some(previous) = self.scopes.reference_offset(a.name) {
                    let message = format!("region entry argument '{}' is already in use", a.name);
                    return Err(
                        ParseError::new(a.offset, message).with_note(previous, "previously referenced here")
                    );
                }
            }
        }
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
    fn add_empty_region(&mut self) {
        self.custom_regions.push(Vec::new());
    }

    /// Appends the implicit terminator `name` to the last parsed region when it lacks one. An
    /// unregistered last op might be a terminator (MLIR's `mightHaveTrait`): none is added.
    fn ensure_terminator(&mut self, name: &'static str, loc: Attribute<'c>) {
        self.ensure_entry_block();
        let Some(&block) = self.custom_regions.last().and_then(|blocks| blocks.last()) else {
            return;
        };
        let ends_in_terminator = self.ir.last_op(block).is_some_and(|last| {
            self.ir.op(last).def.is_none_or(|d| d.has_trait(crate::dialect::Trait::Terminator))
        });
        if !ends_in_terminator {
            let def = self.ctx.registry().op(name);
            let op = self.ir.create_op(OperationState::new(name, def, loc));
            self.ir.append_op(block, op);
        }
    }

    /// An error at `offset`.
    fn error(&self, offset: usize, message: &str) -> ParseError {
        ParseError::new(offset, message)
    }
}
