//! The attributes of `arith`: the overflow flags of `addi` / `subi` / `muli`
//! (`#arith.overflow<nsw, nuw>`, a bit enum) and the predicates of `cmpi`, which MLIR stores
//! as a plain `i64` integer (`<{predicate = 2 : i64}>`) and the custom form spells as a keyword.

use kiln_compiler::dialect_attrs::{AttrDef, DialectAsmPrinter, ParamSyntax};
use kiln_compiler::syntax::asm::{DialectAsmParser, PResult};
use kiln_compiler::{Attribute, Context};

/// The overflow flags, each a bit of the attribute's one `i32` parameter: `nsw` = 1, `nuw` = 2
/// (MLIR's `IntegerOverflowFlags`); no flag is spelled `none`.
pub static OVERFLOW_FLAGS: AttrDef = AttrDef {
    dialect: "arith",
    name: "overflow",
    summary: "Integer overflow arith flags",
    syntax: ParamSyntax::Custom { parse: parse_overflow, print: print_overflow },
    verify: Some(verify_overflow),
};

/// MLIR's message for an unknown flag.
pub(crate) const OVERFLOW_EXPECTED: &str =
    "expected ::mlir::arith::IntegerOverflowFlags to be one of: none, nsw, nuw";

/// The flag names, bit `i` spelled `FLAG_NAMES[i]`.
const FLAG_NAMES: [&str; 2] = ["nsw", "nuw"];

/// The bit of flag `keyword` (`none` is 0), as MLIR parses a bit enum case.
pub(crate) fn flag_bits(keyword: &str) -> Option<i128> {
    match keyword {
        "none" => Some(0),
        _ => FLAG_NAMES.iter().position(|&n| n == keyword).map(|i| 1 << i),
    }
}

/// `nsw, nuw` (`none` when no bit is set), as MLIR prints a bit enum.
pub(crate) fn flags_text(bits: i128) -> String {
    let set: Vec<&str> =
        FLAG_NAMES.iter().enumerate().filter(|(i, _)| bits & (1 << i) != 0).map(|(_, n)| *n).collect();
    if set.is_empty() {
        "none".into()
    } else {
        set.join(", ")
    }
}

/// The overflow attribute with flag bits `bits`.
pub(crate) fn overflow_attr<'c>(ctx: &Context<'c>, bits: i128) -> Attribute<'c> {
    let param = ctx.int_attr(bits, ctx.int_type(32));
    // The bits come from `flag_bits`, which the verify hook accepts.
    ctx.dialect_attr(&OVERFLOW_FLAGS, &[param]).unwrap_or(param)
}

/// The default of `overflowFlags` (`#arith.overflow<none>`), the ops' one defaulted attribute.
pub(crate) fn default_overflow<'c>(ctx: &Context<'c>, name: &str) -> Option<Attribute<'c>> {
    (name == super::syntax::OVERFLOW).then(|| overflow_attr(ctx, 0))
}

/// The flag bits of an overflow attribute.
pub(crate) fn overflow_bits(attr: Attribute<'_>) -> Option<i128> {
    match attr.as_dialect()? {
        (def, [bits]) if def == &OVERFLOW_FLAGS => bits.as_int(),
        _ => None,
    }
}

fn parse_overflow<'c>(p: &mut dyn DialectAsmParser<'c>) -> PResult<Vec<Attribute<'c>>> {
    let mut bits = 0;
    loop {
        let at = p.offset();
        let keyword = p.parse_keyword("keyword")?;
        let Some(bit) = flag_bits(&keyword) else {
            return Err(p.error(at, OVERFLOW_EXPECTED));
        };
        bits |= bit;
        if !p.parse_optional_punct(",") {
            break;
        }
    }
    Ok(vec![p.context().int_attr(bits, p.context().int_type(32))])
}

fn print_overflow<'c>(p: &mut DialectAsmPrinter<'_, 'c>, params: &[Attribute<'c>]) {
    p.write(&flags_text(params.first().and_then(|a| a.as_int()).unwrap_or(0)));
}

fn verify_overflow(params: &[Attribute<'_>]) -> Result<(), String> {
    match params {
        [bits] if bits.as_int().is_some_and(|b| (0..4).contains(&b)) => Ok(()),
        _ => Err("expected one `i32` of flag bits below 4".into()),
    }
}

/// The predicates of `arith.cmpi`, in the order of their integer values (`eq` = 0 ... `uge` = 9).
pub const CMPI_PREDICATES: [&str; 10] = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
