//! The operation-level parser: tokens, errors, the top level of a file (aliases, the resource
//! block, implicit `builtin.module` wrapping) and end-of-file checks.
//!
//! Op and region parsing ([`ops`]) is iterative over region nesting, so that arbitrarily deep
//! nesting parses (or fails cleanly) without growing the call stack. Types, attributes and
//! locations are delegated to [`TypeAttrParser`] at the current byte offset.

mod asm_impl;
mod ops;
mod resources;
mod values;

use rustc_hash::FxHashMap as HashMap;

use crate::attributes::{AttrKind, Attribute};
use crate::context::Context;
use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::{BlockId, Ir, OpId, OperationState, ValueId};
use crate::module::{Module, Resources};
use crate::syntax::lexer::{self, Token, TokenKind};
use crate::syntax::type_attr::{
    wrong_token_offset, AliasLookup, LocRef, NoAliases, SyntaxError, TypeAttrParser,
};
use crate::types::Type;

pub(crate) use ops::RegionBody;
pub(crate) use values::ValueScopes;

pub use crate::asm::{PResult, ParseError};

impl From<SyntaxError> for ParseError {
    fn from(e: SyntaxError) -> Self {
        ParseError::new(e.offset, e.message)
    }
}

/// What an op or block argument location waits for: a `loc(#alias)` defined later in the file.
enum LocTarget {
    Op(OpId),
    Arg(ValueId),
}

/// The parser state, also the handle custom op parsers work through (see
/// [`crate::syntax::custom`]).
pub(crate) struct Parser<'a, 'c> {
    pub(crate) ctx: &'a Context<'c>,
    pub(crate) src: &'a str,
    file: &'c [u8],
    pub(crate) tok: Token,
    pub(crate) ta: TypeAttrParser<'a, 'c>,
    pub(crate) ir: Ir<'c>,
    pub(crate) scopes: ValueScopes<'a>,
    line_starts: Option<Vec<usize>>,
    attr_aliases: HashMap<String, Attribute<'c>>,
    deferred_locs: Vec<(LocTarget, String, usize)>,
    resources: Resources,
    /// Regions parsed by the custom op being parsed (attached when it is created).
    pub(crate) custom_regions: Vec<Vec<BlockId>>,
    /// Default dialects of the enclosing custom ops (`func` inside `func.func`).
    pub(crate) default_dialects: Vec<&'static str>,
    /// Depth of custom ops whose parsers recurse into regions.
    pub(crate) custom_depth: usize,
}

/// How deeply custom-form ops with regions may nest (their parsers recurse).
pub(crate) const MAX_CUSTOM_DEPTH: usize = 256;

impl<'a, 'c> Parser<'a, 'c> {
    fn new(ctx: &'a Context<'c>, src: &'a str, file_name: &str) -> Self {
        Parser {
            ctx,
            src,
            file: ctx.intern_str(file_name).as_bytes(),
            tok: lexer::lex(src, 0),
            ta: TypeAttrParser::new(ctx),
            // About one op (and one location) per line in MLIR text.
            ir: {
                let lines = src.bytes().filter(|&b| b == b'\n').count() + 1;
                ctx.reserve_attrs(lines);
                Ir::with_capacity(lines)
            },
            scopes: ValueScopes::default(),
            line_starts: None,
            attr_aliases: HashMap::default(),
            deferred_locs: Vec::new(),
            resources: Resources::default(),
            custom_regions: Vec::new(),
            default_dialects: Vec::new(),
            custom_depth: 0,
        }
    }

    // ----- tokens -----

    /// Moves to the next token.
    pub(crate) fn bump(&mut self) {
        self.tok = lexer::lex(self.src, self.tok.end);
    }

    /// Continues lexing at `offset` (after a delegated type or attribute).
    pub(crate) fn reset_to(&mut self, offset: usize) {
        self.tok = lexer::lex(self.src, offset);
    }

    /// The current token's text.
    pub(crate) fn text(&self) -> &'a str {
        self.tok.text(self.src)
    }

    /// Whether the current token is `kind`.
    pub(crate) fn at(&self, kind: TokenKind) -> bool {
        self.tok.kind == kind
    }

    /// Consumes the current token if it is `kind`.
    pub(crate) fn eat(&mut self, kind: TokenKind) -> bool {
        let hit = self.at(kind);
        if hit {
            self.bump();
        }
        hit
    }

    /// Consumes a `kind` token or fails with `message` (MLIR's `parseToken`).
    pub(crate) fn expect(&mut self, kind: TokenKind, message: &str) -> PResult<()> {
        if self.eat(kind) {
            Ok(())
        } else {
            Err(self.wrong_token(message))
        }
    }

    /// Whether the token after the current one is `kind`.
    pub(crate) fn peek_is(&self, kind: TokenKind) -> bool {
        lexer::lex(self.src, self.tok.end).kind == kind
    }

    /// An "expected ..." error placed as MLIR places it: at the end of the last significant
    /// text before the unexpected token (so errors at end of file point at the last line).
    pub(crate) fn wrong_token(&self, message: &str) -> ParseError {
        // A lone `/` is an error token without a diagnostic of its own in MLIR's lexer.
        if self.tok.kind == TokenKind::Error && self.src.as_bytes().get(self.tok.start) != Some(&b'/') {
            return self.lexer_error();
        }
        let at_eof = self.tok.kind == TokenKind::Eof;
        ParseError::new(wrong_token_offset(self.src, self.tok.start, at_eof), message)
    }

    /// The error of an error token, in the words and at the place of MLIR's lexer.
    fn lexer_error(&self) -> ParseError {
        let (offset, message) = lexer::error_at(self.src.as_bytes(), self.tok.start);
        ParseError::new(offset, message)
    }

    // ----- delegation to the type/attribute parser -----

    /// Parses a type at the current token.
    pub(crate) fn parse_type_here(&mut self) -> PResult<Type<'c>> {
        let (ty, end) = self.ta.parse_type(self.src, self.tok.start)?;
        self.reset_to(end);
        Ok(ty)
    }

    /// Parses an attribute at the current token.
    pub(crate) fn parse_attr_here(&mut self) -> PResult<Attribute<'c>> {
        let (attr, end) = self.ta.parse_attr(self.src, self.tok.start)?;
        self.reset_to(end);
        Ok(attr)
    }

    /// Parses `loc(...)` at the current token: a location, or an alias resolved at the end.
    fn parse_loc_here(&mut self) -> PResult<LocRef<'c>> {
        let (loc, end) = self.ta.parse_location(self.src, self.tok.start)?;
        self.reset_to(end);
        Ok(loc)
    }

    /// Parses an optional trailing `loc(...)`: the location, or the name and offset of an alias
    /// that is not defined yet. `loc` is a keyword in MLIR: a `(` must follow.
    pub(crate) fn parse_trailing_loc(&mut self) -> PResult<Option<Result<Attribute<'c>, (String, usize)>>> {
        if !(self.at(TokenKind::BareIdent) && self.text() == "loc") {
            return Ok(None);
        }
        if !self.peek_is(TokenKind::LParen) {
            self.bump();
            return Err(self.wrong_token("expected '(' in location"));
        }
        let alias_at = lexer::lex(self.src, lexer::lex(self.src, self.tok.end).end).start;
        match self.parse_loc_here()? {
            LocRef::Loc(attr) => Ok(Some(Ok(attr))),
            LocRef::Alias(name) => {
                let name = name.trim_start_matches('#').to_owned();
                match self.attr_aliases.get(&name) {
                    Some(&a) if a.is_location() => Ok(Some(Ok(a))),
                    _ => Ok(Some(Err((name, alias_at)))),
                }
            }
        }
    }

    /// Sets the location of an op or block argument from an optional trailing `loc(...)`.
    pub(crate) fn apply_loc(&mut self, target_op: Option<OpId>, arg: Option<ValueId>) -> PResult<()> {
        let Some(loc) = self.parse_trailing_loc()? else { return Ok(()) };
        let target = match (target_op, arg) {
            (Some(op), _) => LocTarget::Op(op),
            (None, Some(v)) => LocTarget::Arg(v),
            (None, None) => return Ok(()),
        };
        match loc {
            Ok(attr) => self.set_loc(&target, attr),
            Err((name, offset)) => self.deferred_locs.push((target, name, offset)),
        }
        Ok(())
    }

    fn set_loc(&mut self, target: &LocTarget, loc: Attribute<'c>) {
        match *target {
            LocTarget::Op(op) => self.ir.op_mut(op).loc = loc,
            LocTarget::Arg(v) => self.ir.set_value_loc(v, loc),
        }
    }

    // ----- locations of the source -----

    /// `loc("file":line:col)` of a byte offset (columns count bytes, as MLIR's).
    pub(crate) fn loc_at(&mut self, offset: usize) -> Attribute<'c> {
        let (line, col) = self.line_col(offset);
        self.ctx.attr(AttrKind::FileLineColLoc { file: self.file, line, col, end: None })
    }

    fn line_col(&mut self, offset: usize) -> (u32, u32) {
        let src = self.src.as_bytes();
        let starts = self.line_starts.get_or_insert_with(|| {
            let mut v = vec![0];
            v.extend(src.iter().enumerate().filter(|(_, &c)| c == b'\n').map(|(i, _)| i + 1));
            v
        });
        let line = starts.partition_point(|&s| s <= offset);
        let col = offset - starts[line - 1] + 1;
        (line as u32, col as u32)
    }

    /// Turns a parse error into a diagnostic.
    fn diagnostic(&mut self, e: ParseError) -> Diagnostic<'c> {
        let mut d = Diagnostic::error(self.loc_at(e.offset), e.message);
        for (off, msg) in e.notes {
            let loc = self.loc_at(off);
            d.notes.push(Diagnostic::new(Severity::Note, loc, msg));
        }
        d
    }

    /// Prints a type as diagnostics quote it (`'i32'`).
    pub(crate) fn quoted_type(ty: Type<'c>) -> String {
        let mut s = String::from("'");
        crate::syntax::type_attr::print_type(&mut s, ty, &NoAliases as &dyn AliasLookup<'c>);
        s.push('\'');
        s
    }

    // ----- the top level -----

    /// Parses a top-level alias definition `#name = attr` or `!name = type`.
    fn parse_alias_def(&mut self) -> PResult<()> {
        let is_type = self.at(TokenKind::ExclaimIdent);
        let at = self.tok.start;
        let name = &self.text()[1..];
        if name.contains('.') {
            let kind = if is_type { "type" } else { "attribute" };
            return Err(ParseError::new(
                at,
                format!("{kind} names with a '.' are reserved for dialect-defined names"),
            ));
        }
        self.bump();
        let message = if is_type {
            "expected '=' in type alias definition"
        } else {
            "expected '=' in attribute alias definition"
        };
        self.expect(TokenKind::Equal, message)?;
        if is_type {
            let ty = self.parse_type_here()?;
            if !self.ta.add_type_alias(name, ty) {
                return Err(ParseError::new(at, format!("redefinition of type alias id '{name}'")));
            }
            self.ctx.note_type_alias(ty, name);
            return Ok(());
        }
        // (A location is an attribute here, `loc(...)` an inline location, as in MLIR.)
        let attr = self.parse_attr_here()?;
        if self.attr_aliases.insert(name.to_owned(), attr).is_some() || !self.ta.add_attr_alias(name, attr) {
            return Err(ParseError::new(at, format!("redefinition of attribute alias id '{name}'")));
        }
        self.ctx.note_attr_alias(attr, name);
        Ok(())
    }

    /// Resolves `loc(#alias)` references once the whole file is read.
    fn resolve_deferred_locs(&mut self) -> PResult<()> {
        for (target, name, offset) in std::mem::take(&mut self.deferred_locs) {
            let Some(&attr) = self.attr_aliases.get(&name) else {
                return Err(ParseError::new(offset, "operation location alias was never defined"));
            };
            if !attr.is_location() {
                let mut s = String::new();
                crate::syntax::type_attr::print_attr(&mut s, attr, &NoAliases);
                return Err(ParseError::new(offset, format!("expected location, but found '{s}'")));
            }
            self.set_loc(&target, attr);
        }
        Ok(())
    }

    /// Builds the module: the single top-level `builtin.module`, or one wrapping the ops.
    fn finish_module(mut self, top_block: BlockId) -> Module<'c> {
        let ops: Vec<OpId> = self.ir.block_ops(top_block).collect();
        let single_module = ops.len() == 1 && self.ir.op(ops[0]).name == "builtin.module";
        let top = if single_module {
            self.ir.detach_op(ops[0]);
            ops[0]
        } else {
            let loc = self.ctx.attr(AttrKind::FileLineColLoc { file: self.file, line: 0, col: 0, end: None });
            let name = self.ctx.intern_str("builtin.module");
            let mut state = OperationState::new(name, self.ctx.registry().op(name), loc);
            state.num_regions = 1;
            let module = self.ir.create_op(state);
            let region = self.ir.regions(module)[0];
            let block = self.ir.create_block();
            self.ir.append_block(region, block);
            for op in ops {
                self.ir.detach_op(op);
                self.ir.append_op(block, op);
            }
            module
        };
        Module { ir: self.ir, top, resources: self.resources, implicit: !single_module }
    }
}

/// Parses a whole file (see [`crate::syntax::parse_source`]).
pub(crate) fn parse_file<'c>(
    ctx: &Context<'c>,
    src: &str,
    file_name: &str,
) -> Result<Module<'c>, Vec<Diagnostic<'c>>> {
    let mut p = Parser::new(ctx, src, file_name);
    let top_block = p.ir.create_block();
    let result = p.parse_top_level(top_block).and_then(|()| p.resolve_deferred_locs());
    if let Err(e) = result {
        return Err(vec![p.diagnostic(e)]);
    }
    let undeclared = p.scopes.unresolved_forward_refs();
    if !undeclared.is_empty() {
        let errs = undeclared.into_iter().map(|off| ParseError::new(off, "use of undeclared SSA value name"));
        return Err(errs.collect::<Vec<_>>().into_iter().map(|e| p.diagnostic(e)).collect());
    }
    Ok(p.finish_module(top_block))
}

/// Makes text of bytes that are not valid UTF-8: inside string literals each invalid byte
/// becomes the `\XX` escape that stands for it; inside comments it becomes `?`; anywhere else
/// it is an error at its location, as in MLIR's lexer ("unexpected character").
pub(crate) fn escape_invalid_utf8<'c>(
    ctx: &Context<'c>,
    bytes: &[u8],
    file_name: &str,
) -> Result<String, Diagnostic<'c>> {
    #[derive(PartialEq)]
    enum Mode {
        Code,
        Str,
        Comment,
    }
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut mode = Mode::Code;
    let mut rest = bytes;
    let mut base = 0;
    while !rest.is_empty() {
        let chunk = rest.utf8_chunks().next().expect("non-empty input has a chunk");
        let valid = chunk.valid();
        for (i, c) in valid.char_indices() {
            let next = valid.as_bytes().get(i + 1).copied();
            mode = match (&mode, c) {
                (Mode::Code, '"') => Mode::Str,
                (Mode::Code, '/') if next == Some(b'/') => Mode::Comment,
                (Mode::Str, '"') if !escaped(&out) => Mode::Code,
                (Mode::Str, '\n') | (Mode::Comment, '\n' | '\r') => Mode::Code,
                _ => mode,
            };
            out.push(c);
        }
        let bad_at = base + valid.len();
        for &b in chunk.invalid() {
            match mode {
                Mode::Str => out.push_str(&format!("\\{b:02X}")),
                Mode::Comment => out.push('?'),
                Mode::Code => {
                    let line_start = bytes[..bad_at].iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
                    let line = bytes[..bad_at].iter().filter(|&&c| c == b'\n').count() + 1;
                    let loc = ctx.file_loc(file_name, line as u32, (bad_at - line_start + 1) as u32);
                    return Err(Diagnostic::error(loc, "unexpected character"));
                }
            }
        }
        let used = valid.len() + chunk.invalid().len();
        base += used;
        rest = &rest[used..];
    }
    Ok(out)
}

/// Whether the quote about to be pushed after `text` is escaped by an odd run of backslashes.
fn escaped(text: &str) -> bool {
    text.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}
