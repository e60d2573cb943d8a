//! Dialect attributes and types of registered dialects (`#hl.cmp<lt>`, `!test.pair<i32>`):
//! finding the declared kind, and the [`DialectAsmParser`] that its hook reads the parameters
//! through. Dialects that declare no kinds keep MLIR's opaque form (see `construct.rs`).

use pest::iterators::Pair;
use pest::Parser as _;

use super::construct::{first, Builder, Result};
use super::grammar::{Grammar, Rule};
use super::{errors, scan, SyntaxError};
use crate::asm::{DialectAsmParser, PResult, ParseError};
use crate::attributes::{AttrKind, Attribute};
use crate::context::Context;
use crate::dialect_attrs::ParamSyntax;
use crate::syntax::lexer::{self, Token, TokenKind};
use crate::types::{Type, TypeKind};

/// Where the mnemonic and the parameters of a dialect symbol are, in the extent's text.
struct Parts<'t> {
    namespace: &'t str,
    mnemonic: &'t str,
    mnemonic_at: usize,
    /// The range between `<` and `>`, when there are brackets.
    params: Option<(usize, usize)>,
    /// Just after the mnemonic (where a missing `<` is reported).
    after_mnemonic: usize,
}

/// Splits `dialect_pretty` (`hl.cmp<lt>`) or `dialect_angle` (`hl<cmp<lt>>`) into its parts;
/// `None` when the angle form holds something else than `mnemonic<...>`.
fn parts<'t>(sym: &Pair<'t, Rule>) -> Option<Parts<'t>> {
    let mut it = sym.clone().into_inner();
    let ns = it.next()?;
    let namespace = ns.as_str();
    if sym.as_rule() == Rule::dialect_pretty {
        let name = it.next()?;
        let params = it.next().map(|b| (b.as_span().start(), b.as_span().end()));
        let after = name.as_span().end();
        return Some(Parts {
            namespace,
            mnemonic: name.as_str(),
            mnemonic_at: name.as_span().start(),
            params,
            after_mnemonic: after,
        });
    }
    let body = it.next()?;
    let (start, text) = (body.as_span().start(), body.as_str());
    let len = text.bytes().take_while(|&c| lexer::is_ident_char(c)).count();
    if len == 0 || !lexer::is_ident_start(text.as_bytes()[0]) {
        return None;
    }
    let rest = &text[len..];
    let params = match rest {
        "" => None,
        _ if rest.starts_with('<') && rest.ends_with('>') => Some((start + len + 1, start + text.len() - 1)),
        _ => return None,
    };
    Some(Parts { namespace, mnemonic: &text[..len], mnemonic_at: start, params, after_mnemonic: start + len })
}

impl<'c> Builder<'_, '_, 'c> {
    /// The attribute of a registered dialect's declared kind spelled by `pair` (a
    /// `dialect_attr`), or `None` when the dialect is unknown or declares no attribute kinds,
    /// or, with unregistered dialects allowed, when it lacks the kind: Kiln's dialects are
    /// subsets of MLIR's, and such an attribute (`#arith.fastmath<fast>`) stays opaque, as the
    /// ops they lack stay unregistered ops.
    pub(super) fn dialect_attr(&self, pair: &Pair<'_, Rule>) -> Result<Option<Attribute<'c>>> {
        let sym = first(pair.clone());
        let Some(dialect) = self.ctx.registry().dialect(first(sym.clone()).as_str()) else { return Ok(None) };
        if dialect.attrs.is_empty() {
            return Ok(None);
        }
        let Some(p) = parts(&sym) else { return self.err(&sym, "expected a dialect attribute mnemonic") };
        let Some(def) = dialect.attr_def(p.mnemonic) else {
            if self.ctx.allows_unregistered() {
                return Ok(None);
            }
            let msg = format!("unknown attribute `{}` in dialect `{}`", p.mnemonic, p.namespace);
            return Err(self.error_at(p.mnemonic_at, msg));
        };
        let text = pair.as_span().get_input();
        let params = self.params(text, &p, &def.syntax, &def.full_name())?;
        def.check(&params).map_err(|m| self.error_at(pair.as_span().start(), m))?;
        let params = self.ctx.alloc_slice(&params);
        Ok(Some(self.ctx.attr(AttrKind::Dialect { def, params })))
    }

    /// As [`dialect_attr`](Self::dialect_attr), for a `dialect_type`.
    pub(super) fn dialect_type(&self, pair: &Pair<'_, Rule>) -> Result<Option<Type<'c>>> {
        let sym = first(pair.clone());
        let Some(dialect) = self.ctx.registry().dialect(first(sym.clone()).as_str()) else { return Ok(None) };
        if dialect.types.is_empty() {
            return Ok(None);
        }
        let Some(p) = parts(&sym) else { return self.err(&sym, "expected a dialect type mnemonic") };
        let Some(def) = dialect.type_def(p.mnemonic) else {
            if self.ctx.allows_unregistered() {
                return Ok(None);
            }
            let msg = format!("unknown type `{}` in dialect `{}`", p.mnemonic, p.namespace);
            return Err(self.error_at(p.mnemonic_at, msg));
        };
        let text = pair.as_span().get_input();
        let params = self.params(text, &p, &def.syntax, &def.full_name())?;
        def.check(&params).map_err(|m| self.error_at(pair.as_span().start(), m))?;
        let params = self.ctx.alloc_slice(&params);
        Ok(Some(self.ctx.ty(TypeKind::Dialect { def, params })))
    }

    /// Reads the parameters between the brackets with the kind's syntax.
    fn params(
        &self,
        text: &str,
        p: &Parts<'_>,
        syntax: &ParamSyntax,
        name: &str,
    ) -> Result<Vec<Attribute<'c>>> {
        let (start, end) = match (p.params, syntax) {
            (Some(range), _) => range,
            (None, ParamSyntax::Enum(_)) => return Err(self.error_at(p.after_mnemonic, "expected '<'")),
            (None, ParamSyntax::Custom { .. }) => (p.after_mnemonic, p.after_mnemonic),
        };
        let mut body = BodyParser { b: self, text, tok: lexer::lex(text, start), end };
        let params = match *syntax {
            ParamSyntax::Enum(cases) => {
                let at = body.offset();
                match body.parse_optional_keyword() {
                    Some(k) if cases.contains(&k.as_str()) => vec![self.ctx.int_attr(
                        cases.iter().position(|c| *c == k).unwrap_or_default() as i128,
                        self.ctx.int_type(32),
                    )],
                    _ => {
                        let msg = format!("expected {} to be one of: {}", &name[1..], cases.join(", "));
                        return Err(SyntaxError { offset: at, message: msg });
                    }
                }
            }
            ParamSyntax::Custom { parse, .. } => parse(&mut body).map_err(to_syntax)?,
        };
        if !body.at_end() {
            return Err(SyntaxError { offset: body.offset(), message: "expected '>'".into() });
        }
        Ok(params)
    }
}

fn to_syntax(e: ParseError) -> SyntaxError {
    SyntaxError { offset: e.offset, message: e.message }
}

fn to_parse(e: SyntaxError) -> ParseError {
    ParseError::new(e.offset, e.message)
}

/// Reads the parameters of one dialect value out of its extent's `text`, up to `end` (the
/// closing `>`); offsets it reports are in the whole source.
struct BodyParser<'b, 'p, 'a, 'c> {
    b: &'b Builder<'p, 'a, 'c>,
    text: &'b str,
    tok: Token,
    end: usize,
}

impl<'c> BodyParser<'_, '_, '_, 'c> {
    fn bump(&mut self) {
        self.tok = lexer::lex(self.text, self.tok.end);
    }

    fn here(&self) -> bool {
        self.tok.start < self.end && self.tok.end <= self.end
    }

    /// Parses the value whose extent starts at the current token with `entry`, then moves on.
    fn nested<T>(
        &mut self,
        entry: Rule,
        extent: fn(&str, usize) -> std::result::Result<usize, SyntaxError>,
        build: impl FnOnce(&Builder<'_, '_, 'c>, Pair<'_, Rule>) -> Result<T>,
    ) -> PResult<T> {
        let base = self.b.base;
        let local = |e: SyntaxError| ParseError::new(base + e.offset, e.message);
        let pos = self.tok.start;
        let stop = extent(self.text, pos).map_err(local)?.min(self.end);
        let slice = &self.text[pos..stop];
        let input = super::scan::grammar_input(slice);
        let mut pairs = Grammar::parse(entry, &input)
            .map_err(|e| local(errors::syntax_error(entry, self.text, pos, stop, e)))?;
        let inner = Builder { ctx: self.b.ctx, aliases: self.b.aliases, base: base + pos };
        let value = build(&inner, first(pairs.next().expect("grammar: entry"))).map_err(to_parse)?;
        self.tok = lexer::lex(self.text, stop);
        Ok(value)
    }
}

impl<'c> DialectAsmParser<'c> for BodyParser<'_, '_, '_, 'c> {
    fn context(&self) -> &Context<'c> {
        self.b.ctx
    }

    fn offset(&self) -> usize {
        self.b.base + self.tok.start.min(self.end)
    }

    fn at_end(&self) -> bool {
        self.tok.start >= self.end
    }

    fn parse_optional_keyword(&mut self) -> Option<String> {
        if !self.here() || self.tok.kind != TokenKind::BareIdent {
            return None;
        }
        let word = self.tok.text(self.text).to_string();
        self.bump();
        Some(word)
    }

    fn parse_optional_punct(&mut self, punct: &str) -> bool {
        if self.here() && lexer::punct_kind(punct) == Some(self.tok.kind) {
            self.bump();
            return true;
        }
        false
    }

    fn parse_integer(&mut self) -> PResult<i64> {
        let at = self.offset();
        if !self.here() || self.tok.kind != TokenKind::Integer {
            return Err(ParseError::new(at, "expected integer value"));
        }
        let value = self.tok.text(self.text).parse::<i64>();
        let value = value.map_err(|_| ParseError::new(at, "integer value too large"))?;
        self.bump();
        Ok(value)
    }

    fn parse_attribute(&mut self) -> PResult<Attribute<'c>> {
        if !self.here() {
            return Err(ParseError::new(self.offset(), "expected attribute value"));
        }
        self.nested(Rule::attr_entry, scan::attr_extent, |b, p| b.attr(p))
    }

    fn parse_type(&mut self) -> PResult<Type<'c>> {
        if !self.here() {
            return Err(ParseError::new(self.offset(), "expected non-function type"));
        }
        self.nested(Rule::type_entry, scan::type_extent, |b, p| b.ty(p))
    }
}
