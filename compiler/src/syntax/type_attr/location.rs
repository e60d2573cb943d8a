//! Locations: `loc("file":1:2)`, ranges (`to 3:4`, `to :9`), names, call sites, fused
//! locations, `unknown`, and references to location aliases. Fused locations are normalized as
//! MLIR's `FusedLoc::get` does: unknown members dropped, duplicates removed, nested fused
//! locations with the same metadata flattened, and a single member without metadata unwrapped.

use pest::iterators::Pair;

use super::construct::{Builder, Result};
use super::grammar::Rule;
use super::literal::string_value;
use crate::attributes::{AttrKind, Attribute};

/// Builds the location of a `location` pair whose content is not an alias.
pub(super) fn build<'c>(b: &Builder<'_, '_, 'c>, pair: Pair<'_, Rule>) -> Result<Attribute<'c>> {
    let inner = pair.into_inner().nth(1).expect("grammar: location body");
    b.loc(inner)
}

/// The location of a fused list, normalized.
pub(crate) fn fused<'c>(
    ctx: &crate::Context<'c>,
    locs: &[Attribute<'c>],
    metadata: Option<Attribute<'c>>,
) -> Attribute<'c> {
    let mut members: Vec<Attribute<'c>> = Vec::new();
    let add = |l: Attribute<'c>, members: &mut Vec<Attribute<'c>>| {
        if !matches!(l.kind(), AttrKind::UnknownLoc) && !members.contains(&l) {
            members.push(l);
        }
    };
    for &l in locs {
        match *l.kind() {
            AttrKind::FusedLoc { locs: inner, metadata: m } if m == metadata => {
                for &x in inner {
                    add(x, &mut members);
                }
            }
            _ => add(l, &mut members),
        }
    }
    match (members.len(), metadata) {
        (0, None) => return ctx.unknown_loc(),
        (0, Some(_)) => members.push(ctx.unknown_loc()),
        (1, None) => return members[0],
        _ => {}
    }
    let locs = ctx.alloc_slice(&members);
    ctx.attr(AttrKind::FusedLoc { locs, metadata })
}

impl<'c> Builder<'_, '_, 'c> {
    /// A line or column number: an unsigned integer (decimal or `0x` hex, as MLIR's
    /// `Token::getUnsignedIntegerValue` reads it) that fits in 32 bits; `what` is "line" or
    /// "column" for the message.
    fn int_u32(&self, p: Pair<'_, Rule>, what: &str) -> Result<u32> {
        match super::literal::uint_value(p.as_str()).and_then(|v| u32::try_from(v).ok()) {
            Some(v) => Ok(v),
            None => self.err(&p, format!("expected integer {what} number in FileLineColRange")),
        }
    }

    fn loc(&self, pair: Pair<'_, Rule>) -> Result<Attribute<'c>> {
        let ctx = self.ctx;
        match pair.as_rule() {
            Rule::loc_unknown => Ok(ctx.unknown_loc()),
            // An alias in a location instance: MLIR reports at the token after it.
            Rule::loc_ref | Rule::loc_alias => {
                let name = &pair.as_str()[1..];
                match self.aliases.attrs.get(name) {
                    Some(&a) if a.is_location() => Ok(a),
                    Some(&a) => {
                        let mut s = String::new();
                        super::print::print_attr(&mut s, a, &super::NoAliases);
                        // (MLIR's message has no space before the attribute.)
                        self.err_end(&pair, format!("expected location attribute, but got{s}"))
                    }
                    None => self.err_end(&pair, format!("undefined symbol alias id '{name}'")),
                }
            }
            Rule::loc_callsite => {
                let mut it = pair.into_inner().skip(1);
                let callee = self.loc(it.next().expect("grammar: callee"))?;
                let caller = self.loc(it.nth(1).expect("grammar: caller"))?;
                Ok(ctx.attr(AttrKind::CallSiteLoc { callee, caller }))
            }
            Rule::loc_fused => {
                let mut metadata = None;
                let mut locs = Vec::new();
                for p in pair.into_inner().skip(1) {
                    match p.as_rule() {
                        r if is_loc_rule(r) => locs.push(self.loc(p)?),
                        _ => metadata = Some(self.attr(p)?),
                    }
                }
                Ok(fused(ctx, &locs, metadata))
            }
            Rule::loc_file => {
                let mut it = pair.into_inner();
                let file = ctx.alloc_bytes(&string_value(self, it.next().expect("grammar: file"))?);
                let line = self.int_u32(it.next().expect("grammar: line"), "line")?;
                let col = match it.next() {
                    Some(c) => self.int_u32(c, "column")?,
                    None => 0,
                };
                let mut end = None;
                if let Some(e) = it.nth(1) {
                    let parts: Vec<_> = e.into_inner().collect();
                    end = Some(match &parts[..] {
                        [c] => (line, self.int_u32(c.clone(), "column")?),
                        [l, c] => (self.int_u32(l.clone(), "line")?, self.int_u32(c.clone(), "column")?),
                        _ => unreachable!("grammar: loc_end"),
                    });
                }
                if end == Some((line, col)) {
                    end = None;
                }
                Ok(ctx.attr(AttrKind::FileLineColLoc { file, line, col, end }))
            }
            Rule::loc_name => {
                let mut it = pair.into_inner();
                let name = ctx.alloc_bytes(&string_value(self, it.next().expect("grammar: name"))?);
                let child = match it.next() {
                    Some(c) => Some(self.loc(c)?).filter(|l| !matches!(l.kind(), AttrKind::UnknownLoc)),
                    None => None,
                };
                Ok(ctx.attr(AttrKind::NameLoc { name, child }))
            }
            _ => self.err(&pair, "expected location instance"),
        }
    }

    /// The body of a top-level `loc(...)`.
    pub(super) fn location_body(&self, pair: Pair<'_, Rule>) -> Result<super::LocRef<'c>> {
        let inner = pair.into_inner().nth(1).expect("grammar: location body");
        if inner.as_rule() == Rule::loc_alias {
            return Ok(super::LocRef::Alias(inner.as_str()[1..].to_string()));
        }
        self.loc(inner).map(super::LocRef::Loc)
    }
}

fn is_loc_rule(r: Rule) -> bool {
    matches!(
        r,
        Rule::loc_unknown
            | Rule::loc_callsite
            | Rule::loc_fused
            | Rule::loc_file
            | Rule::loc_name
            | Rule::loc_ref
    )
}
