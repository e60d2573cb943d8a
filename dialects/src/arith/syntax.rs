//! Custom assembly formats of the `arith` ops, as mlir-opt 22 prints them:
//!
//! ```mlir
//! %c0 = arith.constant 0 : index
//! %0 = arith.addi %a, %b overflow<nsw> : index
//! %1 = arith.divui %a, %b exact : index
//! %2 = arith.cmpi slt, %a, %b : index
//! %3 = arith.select %2, %a, %b : index
//! %4 = arith.index_cast %a : index to i32
//! ```
//!
//! `arith.constant` names its result as MLIR's `getAsmResultNames` does: `%c<value>` for an
//! `index`, `%c<value>_<type>` for another integer, `%true` / `%false` for an `i1`, `%cst`
//! for anything else.

use kiln_compiler::ir::OperationState;
use kiln_compiler::syntax::custom::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult};
use kiln_compiler::types::{Type, TypeKind};
use kiln_compiler::{AttrKind, Context, OpId};

use super::attrs::{flag_bits, flags_text, overflow_attr, overflow_bits, CMPI_PREDICATES, OVERFLOW_EXPECTED};

/// The result name of an `arith.constant` (see the module documentation).
pub(crate) fn constant_name(ir: &kiln_compiler::Ir<'_>, op: OpId) -> Option<String> {
    let value = ir.attr(op, "value")?;
    let AttrKind::Integer { value, ty } = *value.kind() else { return Some("cst".into()) };
    Some(match *ty.kind() {
        TypeKind::Integer { width: 1, .. } => (if value != 0 { "true" } else { "false" }).into(),
        TypeKind::Integer { .. } => format!("c{value}_{ty}"),
        _ => format!("c{value}"),
    })
}

/// `arith.constant attr-dict value`.
pub static CONSTANT_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_constant, print: print_constant, default_dialect: None };

/// `%lhs, %rhs attr-dict : type` (`minsi`, `remui`, ...).
pub static BINARY_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_binary, print: print_binary, default_dialect: None };

/// `%lhs, %rhs (overflow<flags>)? attr-dict : type` (`addi`, `subi`, `muli`).
pub static OVERFLOW_BINARY_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_overflow_binary, print: print_overflow_binary, default_dialect: None };

/// `%lhs, %rhs (exact)? attr-dict : type` (`divui`, `divsi`).
pub static EXACT_BINARY_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_exact_binary, print: print_exact_binary, default_dialect: None };

/// `predicate, %lhs, %rhs attr-dict : type`.
pub static CMPI_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_cmpi, print: print_cmpi, default_dialect: None };

/// `%cond, %true, %false attr-dict : (condition type,)? type`.
pub static SELECT_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_select, print: print_select, default_dialect: None };

/// `%in attr-dict : type to type`.
pub static CAST_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_cast, print: print_cast, default_dialect: None };

/// The property of `addi` / `subi` / `muli` holding their flags.
pub(crate) const OVERFLOW: &str = "overflowFlags";
/// The property of `divui` / `divsi` marking an exact division.
pub(crate) const EXACT: &str = "isExact";

/// The type of a scalar or elements attribute (the value of an `arith.constant`).
pub(crate) fn attr_type(attr: kiln_compiler::Attribute<'_>) -> Option<Type<'_>> {
    match *attr.kind() {
        AttrKind::Integer { ty, .. }
        | AttrKind::WideInteger { ty, .. }
        | AttrKind::Float { ty, .. }
        | AttrKind::DenseElements { ty, .. }
        | AttrKind::DenseResource { ty, .. } => Some(ty),
        AttrKind::String { ty, .. } => ty,
        _ => None,
    }
}

fn parse_constant<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    p.parse_optional_attr_dict(state)?;
    let at = p.offset();
    let value = p.parse_attribute()?;
    let Some(ty) = attr_type(value) else {
        return Err(p.error(at, "expected attribute with a type"));
    };
    state.result_types.push(ty);
    state.attrs.push((p.context().intern_str("value"), value));
    p.move_inherent(state);
    Ok(())
}

fn print_constant(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &["value"]);
    if let Some(value) = attrs.iter().find(|a| a.name == "value") {
        p.write(" ");
        p.print_attribute(value.value);
    }
}

/// Parses `%a, %b`, then what `middle` reads, then `attr-dict : type`, giving both operands and
/// the result that type.
fn parse_binary_with<'a, 'c>(
    p: &mut dyn OpAsmParser<'a, 'c>,
    state: &mut OperationState<'c>,
    middle: fn(&mut dyn OpAsmParser<'a, 'c>, &mut OperationState<'c>) -> PResult<()>,
) -> PResult<()> {
    let at = p.offset();
    let lhs = p.parse_operand()?;
    p.parse_punct(",")?;
    let rhs = p.parse_operand()?;
    middle(p, state)?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let ty = p.parse_type()?;
    state.operands = p.resolve_operands(&[lhs, rhs], &[ty, ty], at)?;
    state.result_types.push(ty);
    Ok(())
}

/// Prints `name %a, %b`, then what `middle` writes, then the attributes not in `elided` and
/// `: type`.
fn print_binary_with(
    p: &mut OpAsmPrinter<'_, '_>,
    op: OpId,
    middle: fn(&mut OpAsmPrinter<'_, '_>, OpId),
    elided: &[&str],
) {
    p.print_op_name(op);
    p.write(" ");
    p.print_operands(p.ir().operands(op));
    middle(p, op);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, elided);
    print_result_type(p, op);
}

fn print_result_type(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.write(" : ");
    if let Some(&r) = p.ir().results(op).first() {
        p.print_type(p.ir().value_type(r));
    }
}

fn parse_binary<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    parse_binary_with(p, state, |_, _| Ok(()))
}

fn print_binary(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    print_binary_with(p, op, |_, _| {}, &[]);
}

fn parse_overflow_binary<'a, 'c>(
    p: &mut dyn OpAsmParser<'a, 'c>,
    state: &mut OperationState<'c>,
) -> PResult<()> {
    parse_binary_with(p, state, |p, state| {
        let mut bits = 0;
        if p.parse_optional_keyword("overflow") {
            p.parse_punct("<")?;
            loop {
                let at = p.offset();
                let bit = p.parse_optional_bare_keyword().and_then(flag_bits);
                bits |= bit.ok_or_else(|| p.error(at, OVERFLOW_EXPECTED))?;
                if !p.parse_optional_punct(",") {
                    break;
                }
            }
            p.parse_punct(">")?;
        }
        // MLIR's default-valued property: present, `none`, when the form leaves it out.
        state.attrs.push((p.context().intern_str(OVERFLOW), overflow_attr(p.context(), bits)));
        p.move_inherent(state);
        Ok(())
    })
}

fn print_overflow_binary(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let middle = |p: &mut OpAsmPrinter<'_, '_>, op: OpId| {
        let bits = p.ir().attr(op, OVERFLOW).and_then(overflow_bits).unwrap_or(0);
        if bits != 0 {
            p.write(" overflow<");
            p.write(&flags_text(bits));
            p.write(">");
        }
    };
    print_binary_with(p, op, middle, &[OVERFLOW]);
}

fn parse_exact_binary<'a, 'c>(
    p: &mut dyn OpAsmParser<'a, 'c>,
    state: &mut OperationState<'c>,
) -> PResult<()> {
    parse_binary_with(p, state, |p, state| {
        if p.parse_optional_keyword("exact") {
            state.attrs.push((p.context().intern_str(EXACT), p.context().unit_attr()));
            p.move_inherent(state);
        }
        Ok(())
    })
}

fn print_exact_binary(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let middle = |p: &mut OpAsmPrinter<'_, '_>, op: OpId| {
        if p.ir().attr(op, EXACT).is_some() {
            p.write(" exact");
        }
    };
    print_binary_with(p, op, middle, &[EXACT]);
}

fn parse_cmpi<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let predicate =
        p.parse_optional_bare_keyword().and_then(|k| CMPI_PREDICATES.iter().position(|&c| c == k));
    let Some(predicate) = predicate else {
        return Err(p.error(
            at,
            "expected string or keyword containing one of the following enum values for attribute 'predicate' \
             [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]",
        ));
    };
    p.parse_punct(",")?;
    let ctx = p.context();
    let value = ctx.int_attr(predicate as i128, ctx.int_type(64));
    state.attrs.push((ctx.intern_str("predicate"), value));
    parse_binary_with(p, state, |_, _| Ok(()))?;
    if let Some(ty) = state.result_types.pop() {
        state.result_types.push(bool_like(p.context(), ty));
    }
    p.move_inherent(state);
    Ok(())
}

/// `i1`, or a vector or tensor of `i1` of the shape of `ty` (the result type of a comparison
/// of `ty`s).
fn bool_like<'c>(ctx: &Context<'c>, ty: Type<'c>) -> Type<'c> {
    let i1 = ctx.int_type(1);
    match *ty.kind() {
        TypeKind::Vector { shape, scalable, .. } => ctx.ty(TypeKind::Vector { shape, scalable, elem: i1 }),
        TypeKind::RankedTensor { shape, encoding, .. } => {
            ctx.ty(TypeKind::RankedTensor { shape, elem: i1, encoding })
        }
        TypeKind::UnrankedTensor { .. } => ctx.ty(TypeKind::UnrankedTensor { elem: i1 }),
        _ => i1,
    }
}

fn print_cmpi(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    p.write(" ");
    let predicate = p.ir().attr(op, "predicate").and_then(|a| a.as_int());
    let keyword = predicate.and_then(|i| usize::try_from(i).ok()).and_then(|i| CMPI_PREDICATES.get(i));
    p.write(keyword.copied().unwrap_or("<<invalid predicate>>"));
    p.write(", ");
    let operands = p.ir().operands(op);
    p.print_operands(operands);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &["predicate"]);
    p.write(" : ");
    if let Some(&lhs) = operands.first() {
        p.print_type(p.ir().value_type(lhs));
    }
}

fn parse_select<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let operands = p.parse_operand_list()?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let types = p.parse_type_list()?;
    let (cond, ty) = match types[..] {
        [ty] => (p.context().int_type(1), ty),
        [cond, ty] => (cond, ty),
        _ => return Err(p.error(at, "expected one or two types")),
    };
    state.operands = p.resolve_operands(&operands, &[cond, ty, ty], at)?;
    state.result_types.push(ty);
    Ok(())
}

fn print_select(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    p.write(" ");
    let operands = p.ir().operands(op);
    p.print_operands(operands);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
    p.write(" : ");
    if let Some(&cond) = operands.first() {
        let ty = p.ir().value_type(cond);
        if !matches!(ty.kind(), TypeKind::Integer { .. }) || ty.bit_width() != Some(1) {
            p.print_type(ty);
            p.write(", ");
        }
    }
    if let Some(&r) = p.ir().results(op).first() {
        p.print_type(p.ir().value_type(r));
    }
}

fn parse_cast<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let input = p.parse_operand()?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let from = p.parse_type()?;
    if !p.parse_optional_keyword("to") {
        return Err(p.error(p.offset(), "expected 'to'"));
    }
    let to = p.parse_type()?;
    state.operands = p.resolve_operands(&[input], &[from], at)?;
    state.result_types.push(to);
    Ok(())
}

fn print_cast(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    p.write(" ");
    let ir = p.ir();
    p.print_operands(ir.operands(op));
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
    p.write(" : ");
    if let (Some(&input), Some(&r)) = (ir.operands(op).first(), ir.results(op).first()) {
        p.print_type(ir.value_type(input));
        p.write(" to ");
        p.print_type(ir.value_type(r));
    }
}
