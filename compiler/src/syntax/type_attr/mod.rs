//! The textual syntax of MLIR's builtin types, attributes and locations: a pest grammar
//! (`syntax/type_attr.pest`), the conversion of its pairs into interned values, and printing
//! byte-identical to `mlir-opt` 22.
//!
//! The op-level parser hands over at a byte offset: [`TypeAttrParser::parse_type`],
//! [`TypeAttrParser::parse_attr`] and [`TypeAttrParser::parse_location`] parse a prefix of
//! `src[pos..]` and return the value with its end offset. A cheap scan first delimits the text
//! (balanced brackets and strings) and enforces a nesting limit, so deeply nested input gets a
//! clean error instead of overflowing the stack; results are cached by their source text, so
//! repeated spellings (`tensor<4xf32>`, `1 : i32`) are parsed once.
//!
//! ```text
//! let mut p = TypeAttrParser::new(&ctx);
//! let (ty, end) = p.parse_type("tensor<4x?xf32> loc(...)", 0)?; // end == 15
//! assert_eq!(ty.to_string(), "tensor<4x?xf32>");
//! ```

mod affine;
mod bignum;
mod construct;
mod dense;
mod dialect;
mod errors;
mod fast;
mod float;
mod literal;
mod location;
mod print;
mod scan;
#[cfg(test)]
mod tests;

use rustc_hash::FxHashMap as HashMap;

use pest::Parser as _;

use crate::attributes::Attribute;
use crate::context::Context;
use crate::types::Type;
use construct::{first, Builder};
use grammar::{Grammar, Rule};

pub(crate) use errors::wrong_token_offset;
pub use print::{print_attr, print_location, print_type};

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "syntax/type_attr.pest"]
    pub(super) struct Grammar;
}

/// Texts longer than this are parsed without caching (huge dense literals are rarely repeated).
const CACHE_MAX_KEY: usize = 1024;

/// A syntax or semantic error in a type, attribute or location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset into the source where the error is.
    pub offset: usize,
    /// The message, in MLIR's wording where MLIR has one.
    pub message: String,
}

/// A parsed `loc(...)`: a location, or a reference to a location alias (`loc(#loc3)`), which
/// may be defined later in the file and is resolved by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LocRef<'c> {
    /// An inline location.
    Loc(Attribute<'c>),
    /// `loc(#name)`: the alias name without `#`.
    Alias(String),
}

/// The aliases defined so far (`!name = type`, `#name = attr`), names without the sigil.
#[derive(Default)]
struct Aliases<'c> {
    types: HashMap<String, Type<'c>>,
    attrs: HashMap<String, Attribute<'c>>,
    /// `distinct[N]<...>` attributes by their id in the source.
    distinct: std::cell::RefCell<HashMap<u64, Attribute<'c>>>,
}

/// Parses types, attributes and locations out of a source text, with the aliases defined so far
/// and a cache of results keyed by their source text.
pub struct TypeAttrParser<'a, 'c> {
    ctx: &'a Context<'c>,
    aliases: Aliases<'c>,
    types: HashMap<Box<str>, Type<'c>>,
    attrs: HashMap<Box<str>, Attribute<'c>>,
    locs: HashMap<Box<str>, Attribute<'c>>,
}

impl<'a, 'c> TypeAttrParser<'a, 'c> {
    /// A parser interning into `ctx`, with no aliases.
    pub fn new(ctx: &'a Context<'c>) -> Self {
        TypeAttrParser {
            ctx,
            aliases: Aliases::default(),
            types: HashMap::default(),
            attrs: HashMap::default(),
            locs: HashMap::default(),
        }
    }

    /// Defines `!name` (given without `!`); false if it is already defined.
    pub fn add_type_alias(&mut self, name: &str, ty: Type<'c>) -> bool {
        if self.aliases.types.contains_key(name) {
            return false;
        }
        self.aliases.types.insert(name.to_string(), ty);
        true
    }

    /// Defines `#name` (given without `#`); false if it is already defined.
    pub fn add_attr_alias(&mut self, name: &str, attr: Attribute<'c>) -> bool {
        if self.aliases.attrs.contains_key(name) {
            return false;
        }
        self.aliases.attrs.insert(name.to_string(), attr);
        true
    }

    /// The attribute alias `#name` (given without `#`), if defined.
    pub fn attr_alias(&self, name: &str) -> Option<Attribute<'c>> {
        self.aliases.attrs.get(name).copied()
    }

    fn builder(&self, base: usize) -> Builder<'_, 'a, 'c> {
        Builder { ctx: self.ctx, aliases: &self.aliases, base }
    }

    /// Parses the type starting at byte `pos` of `src`; returns it and the offset after it.
    pub fn parse_type(&mut self, src: &str, pos: usize) -> Result<(Type<'c>, usize), SyntaxError> {
        let end = scan::type_extent(src, pos)?;
        let text = &src[pos..end];
        if let Some(&t) = self.types.get(text) {
            return Ok((t, end));
        }
        let input = scan::grammar_input(text);
        let mut pairs = Grammar::parse(Rule::type_entry, &input)
            .map_err(|e| errors::syntax_error(Rule::type_entry, src, pos, end, e))?;
        let ty = self
            .builder(pos)
            .ty(first(pairs.next().expect("grammar: entry")))
            .map_err(|e| errors::place_semantic(src, end, e))?;
        if text.len() <= CACHE_MAX_KEY {
            self.types.insert(text.into(), ty);
        }
        Ok((ty, end))
    }

    /// Parses the attribute starting at byte `pos` of `src`, including its `: type` suffix
    /// where MLIR's grammar has one (`1 : i32`, `"s" : i32`, `dense<...> : tensor<...>`);
    /// returns it and the offset after it.
    pub fn parse_attr(&mut self, src: &str, pos: usize) -> Result<(Attribute<'c>, usize), SyntaxError> {
        if src.as_bytes().get(pos) == Some(&b'{') {
            if let Some(done) = fast::dictionary(self, src, pos) {
                return Ok(done);
            }
        }
        self.parse_attr_value(src, pos)
    }

    /// [`parse_attr`](Self::parse_attr) without the dictionary fast path (used for the values
    /// of a dictionary, so that nesting is the grammar's, which checks its depth).
    fn parse_attr_value(&mut self, src: &str, pos: usize) -> Result<(Attribute<'c>, usize), SyntaxError> {
        let end = scan::attr_extent(src, pos)?;
        let text = &src[pos..end];
        if let Some(&a) = self.attrs.get(text) {
            return Ok((a, end));
        }
        if let Some(a) = fast::scalar(self.ctx, text) {
            return Ok((a, end));
        }
        let input = scan::grammar_input(text);
        let mut pairs = Grammar::parse(Rule::attr_entry, &input)
            .map_err(|e| errors::syntax_error(Rule::attr_entry, src, pos, end, e))?;
        let attr = self
            .builder(pos)
            .attr(first(pairs.next().expect("grammar: entry")))
            .map_err(|e| errors::place_semantic(src, end, e))?;
        if text.len() <= CACHE_MAX_KEY {
            self.attrs.insert(text.into(), attr);
        }
        Ok((attr, end))
    }

    /// Parses the location starting at byte `pos` of `src` (which starts with `loc(`).
    pub fn parse_location(&mut self, src: &str, pos: usize) -> Result<(LocRef<'c>, usize), SyntaxError> {
        let end = scan::loc_extent(src, pos)?;
        let text = &src[pos..end];
        if let Some(&l) = self.locs.get(text) {
            return Ok((LocRef::Loc(l), end));
        }
        let input = scan::grammar_input(text);
        let mut pairs = Grammar::parse(Rule::loc_entry, &input)
            .map_err(|e| errors::syntax_error(Rule::loc_entry, src, pos, end, e))?;
        let loc = self
            .builder(pos)
            .location_body(first(pairs.next().expect("grammar: entry")))
            .map_err(|e| errors::place_semantic(src, end, e))?;
        if let LocRef::Loc(l) = loc {
            if text.len() <= CACHE_MAX_KEY {
                self.locs.insert(text.into(), l);
            }
        }
        Ok((loc, end))
    }
}

/// Names of aliases to print in place of types and attributes.
pub trait AliasLookup<'c> {
    /// The alias of `a`, with its leading `#`.
    fn attr_alias(&self, a: Attribute<'c>) -> Option<&str>;
    /// The alias of `t`, with its leading `!`.
    fn type_alias(&self, t: Type<'c>) -> Option<&str>;
    /// Elements attributes with more elements than this, splats aside, print as
    /// `dense_resource<__elided__>` (`--mlir-elide-elementsattrs-if-larger`); by default none do.
    fn elements_limit(&self) -> Option<usize> {
        None
    }
    /// The id to print for the `distinct[..]<...>` attribute `a`: by default its id in the
    /// context; a module printer numbers them from 0 in print order, as mlir-opt.
    fn distinct_id(&self, a: Attribute<'c>) -> u64 {
        match *a.kind() {
            crate::attributes::AttrKind::Distinct { id, .. } => id,
            _ => 0,
        }
    }
}

/// An [`AliasLookup`] without aliases: everything prints inline.
pub struct NoAliases;

impl<'c> AliasLookup<'c> for NoAliases {
    fn attr_alias(&self, _: Attribute<'c>) -> Option<&str> {
        None
    }
    fn type_alias(&self, _: Type<'c>) -> Option<&str> {
        None
    }
}
