//! The destination-style format shared by the DMA, vector and cube ops:
//!
//! ```mlir
//! npuvec.add ins(%a, %cst : memref<8x64xf32, #npuvec.space<ub>>, f32) outs(%c : memref<8x64xf32, #npuvec.space<ub>>)
//! npuvec.cmp lt ins(%a, %b : ...) outs(%m : ...)
//! npuvec.load ins(%x[%off] : memref<16x64xf32, #npuvec.space<gm>>) outs(%b : ...) sizes [8, 64] strides [64, 1]
//! npuvec.store ins(%b : ...) outs(%y[%off] : memref<?x64xf32, #npuvec.space<gm>>) sizes [8, 64] strides [64, 1] extents [%rows] dims [0]
//! npuvec.mmad ins(%a, %b : ...) outs(%c : ...) {accumulate}
//! ```
//!
//! Operands keep their order: `outs` holds the last operand that is not a subscript (the
//! destination) and its subscripts, `ins` everything before. An `index` operand that follows
//! another operand is written as its subscript (`%x[%off]`, the start of a GM view) and takes
//! no entry in the type list. The op's enum attribute (the first one it declares: `predicate`,
//! `kind`, `round`, `atomic`) is a bare keyword after the op name; `sizes` and `strides` of a
//! GM view follow `outs`, then a load's or store's `extents` operands and their
//! `extent_dims` (`extents [%rows] dims [0]`); other attributes (`zero_pad`, `accumulate`,
//! `relu`) are in the trailing dictionary.

use kiln_compiler::dialect::operand_group;
use kiln_compiler::syntax::custom::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult, UnresolvedOperand};
use kiln_compiler::{AttrConstraint, AttrDef, OpDef, OpId, OperationState, Type, TypeKind, ValueId};

use super::{i64_list, parse_i64_list};

/// The destination-style format.
pub(crate) static DPS_SYNTAX: CustomSyntax = CustomSyntax { parse, print, default_dialect: None };

/// The op's enum attribute, written as a keyword: its name and kind.
fn enum_spec(def: Option<&'static OpDef>) -> Option<(&'static str, &'static AttrDef)> {
    def?.attrs.iter().find_map(|a| match a.constraint {
        AttrConstraint::DialectAttr(d) => Some((a.name, d)),
        _ => None,
    })
}

fn has_view(def: Option<&'static OpDef>) -> bool {
    def.is_some_and(|d| d.attr_spec("sizes").is_some())
}

fn has_extents(def: Option<&'static OpDef>) -> bool {
    def.is_some_and(|d| d.attr_spec("extent_dims").is_some())
}

fn expect_keyword(p: &mut dyn OpAsmParser<'_, '_>, keyword: &str) -> PResult<()> {
    if p.parse_optional_keyword(keyword) {
        return Ok(());
    }
    Err(p.error(p.offset(), &format!("expected '{keyword}'")))
}

/// `(%a, %x[%i] : t1, t2)` or `()`: appends the operands and their types (`None` until the
/// type list gives them).
fn parse_group<'a, 'c>(
    p: &mut dyn OpAsmParser<'a, 'c>,
    operands: &mut Vec<UnresolvedOperand<'a>>,
    types: &mut Vec<Type<'c>>,
) -> PResult<()> {
    p.parse_punct("(")?;
    if p.parse_optional_punct(")") {
        return Ok(());
    }
    let index = p.context().index_type();
    let mut slots = Vec::new();
    loop {
        operands.push(p.parse_operand()?);
        slots.push(types.len());
        types.push(index);
        if p.parse_optional_punct("[") {
            loop {
                operands.push(p.parse_operand()?);
                types.push(index);
                if !p.parse_optional_punct(",") {
                    break;
                }
            }
            p.parse_punct("]")?;
        }
        if !p.parse_optional_punct(",") {
            break;
        }
    }
    p.parse_punct(":")?;
    let at = p.offset();
    let list = p.parse_type_list()?;
    if list.len() != slots.len() {
        return Err(p.error(at, &format!("expected {} types, but got {}", slots.len(), list.len())));
    }
    for (slot, ty) in slots.into_iter().zip(list) {
        types[slot] = ty;
    }
    p.parse_punct(")")
}

fn parse<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    if !p.parse_optional_keyword("ins") {
        let at = p.offset();
        let Some((name, def)) = enum_spec(state.def) else { return expect_keyword(p, "ins") };
        let case = p.parse_optional_bare_keyword().and_then(|k| def.cases().iter().position(|c| *c == k));
        let Some(case) = case else {
            return Err(p.error(
                at,
                &format!("expected a {} keyword ({}) or 'ins'", def.summary, def.cases().join(", ")),
            ));
        };
        let attr = p.context().enum_attr(def, case);
        state.attrs.push((p.context().intern_str(name), attr));
        expect_keyword(p, "ins")?;
    }
    let at = p.offset();
    let (mut operands, mut types) = (Vec::new(), Vec::new());
    parse_group(p, &mut operands, &mut types)?;
    expect_keyword(p, "outs")?;
    parse_group(p, &mut operands, &mut types)?;
    if has_view(state.def) && p.parse_optional_keyword("sizes") {
        let sizes = parse_i64_list(p)?;
        expect_keyword(p, "strides")?;
        let strides = parse_i64_list(p)?;
        let ctx = p.context();
        state.attrs.extend([(ctx.intern_str("sizes"), sizes), (ctx.intern_str("strides"), strides)]);
    }
    if has_extents(state.def) && p.parse_optional_keyword("extents") {
        p.parse_punct("[")?;
        if !p.parse_optional_punct("]") {
            loop {
                operands.push(p.parse_operand()?);
                types.push(p.context().index_type());
                if !p.parse_optional_punct(",") {
                    break;
                }
            }
            p.parse_punct("]")?;
        }
        if p.parse_optional_keyword("dims") {
            let extent_dims = parse_i64_list(p)?;
            state.attrs.push((p.context().intern_str("extent_dims"), extent_dims));
        }
    }
    p.parse_optional_attr_dict(state)?;
    p.move_inherent(state);
    state.operands = p.resolve_operands(&operands, &types, at)?;
    Ok(())
}

/// Prints `(%a, %x[%i] : t1, t2)`: `values` with the subscripts that follow each.
fn print_group(
    pr: &mut OpAsmPrinter<'_, '_>,
    values: &[ValueId],
    subscript: &dyn Fn(usize) -> bool,
    first: usize,
) {
    let ir = pr.ir();
    pr.write("(");
    let mut types = Vec::new();
    for (k, &v) in values.iter().enumerate() {
        if subscript(first + k) {
            let opening = k == 0 || !subscript(first + k - 1);
            pr.write(if opening { "[" } else { ", " });
            pr.print_operand(v);
            if !values.get(k + 1).is_some_and(|_| subscript(first + k + 1)) {
                pr.write("]");
            }
            continue;
        }
        if !types.is_empty() {
            pr.write(", ");
        }
        pr.print_operand(v);
        types.push(ir.value_type(v));
    }
    if !types.is_empty() {
        pr.write(" : ");
        pr.print_types(types);
    }
    pr.write(")");
}

fn print(pr: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    pr.print_op_name(op);
    let ir = pr.ir();
    let def = ir.op(op).def;
    let attrs = pr.op_attrs(op);
    let mut elided = Vec::new();
    if let Some((name, kind)) = enum_spec(def) {
        if let Some(case) = ir.attr(op, name).and_then(|a| a.enum_case(kind)) {
            pr.write(" ");
            pr.write(kind.cases()[case]);
            elided.push(name);
        }
    }
    let all = ir.operands(op);
    let extents = operand_group(ir, op, "extents").filter(|e| !e.is_empty() && has_extents(def));
    let operands = &all[..all.len() - extents.map_or(0, <[_]>::len)];
    let subscript = |i: usize| i > 0 && matches!(ir.value_type(operands[i]).kind(), TypeKind::Index);
    let dst = (0..operands.len()).rev().find(|&i| !subscript(i)).unwrap_or(0);
    pr.write(" ins");
    print_group(pr, &operands[..dst], &subscript, 0);
    pr.write(" outs");
    print_group(pr, &operands[dst..], &subscript, dst);
    let view = (ir.attr(op, "sizes").and_then(i64_list), ir.attr(op, "strides").and_then(i64_list));
    if let (true, (Some(sizes), Some(strides))) = (has_view(def), view) {
        pr.write(&format!(" sizes {sizes} strides {strides}"));
        elided.extend(["sizes", "strides"]);
    }
    if let Some(extents) = extents {
        pr.write(" extents [");
        for (k, &v) in extents.iter().enumerate() {
            if k > 0 {
                pr.write(", ");
            }
            pr.print_operand(v);
        }
        pr.write("]");
        if let Some(extent_dims) = ir.attr(op, "extent_dims").and_then(i64_list) {
            pr.write(&format!(" dims {extent_dims}"));
            elided.push("extent_dims");
        }
    }
    pr.print_optional_attr_dict(&attrs, &elided);
}
