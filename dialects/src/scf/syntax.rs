//! Custom assembly formats of `scf.for`, `scf.if` and `scf.yield`, as mlir-opt 22 prints them:
//!
//! ```mlir
//! scf.for %arg3 = %c0 to %arg0 step %c1 {
//!   ...
//! }
//! %0 = scf.for %arg3 = %c0 to %c4 step %c1 iter_args(%arg4 = %cst) -> (f32) {
//!   scf.yield %1 : f32
//! }
//! scf.for unsigned %arg3 = %arg0 to %arg1 step %arg2  : i32 {
//! }
//! %1 = scf.if %cond -> (f32) {
//!   scf.yield %a : f32
//! } else {
//!   scf.yield %b : f32
//! }
//! ```
//!
//! A region's `scf.yield` without operands is left out when printing and added back when
//! parsing (MLIR's `SingleBlockImplicitTerminator`); an `scf.if` without `else` has an empty
//! else region. The double space before `: i32` is mlir-opt's.

use kiln_compiler::ir::OperationState;
use kiln_compiler::syntax::custom::{
    parse_return_like, print_return_like, CustomSyntax, EntryArg, OpAsmParser, OpAsmPrinter, PResult,
};
use kiln_compiler::types::{Type, TypeKind};
use kiln_compiler::OpId;

use super::{UNSIGNED_CMP, YIELD_OP};

/// `scf.for (unsigned)? %iv = %lb to %ub step %step (iter_args(%a = %init, ...) -> (types))?
/// (: type)? region attr-dict`.
pub static FOR_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_for, print: print_for, default_dialect: None };

/// `scf.if %cond (-> (types))? region (else region)? attr-dict`.
pub static IF_SYNTAX: CustomSyntax = CustomSyntax { parse: parse_if, print: print_if, default_dialect: None };

/// `scf.yield attr-dict (%v, ... : types)?`.
pub static YIELD_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_return_like, print: print_return_like, default_dialect: None };

/// Parses `-> (t1, t2)` (the parentheses may hold one type or be left out for one type).
fn parse_result_types<'c>(p: &mut dyn OpAsmParser<'_, 'c>) -> PResult<Vec<Type<'c>>> {
    if !p.parse_optional_punct("(") {
        return Ok(vec![p.parse_type()?]);
    }
    if p.parse_optional_punct(")") {
        return Ok(Vec::new());
    }
    let types = p.parse_type_list()?;
    p.parse_punct(")")?;
    Ok(types)
}

fn parse_for<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    if p.parse_optional_keyword("unsigned") {
        state.attrs.push((p.context().intern_str(UNSIGNED_CMP), p.context().unit_attr()));
    }
    let iv_at = p.offset();
    let iv = p.parse_operand()?;
    p.parse_punct("=")?;
    let at = p.offset();
    let lb = p.parse_operand()?;
    expect_keyword(p, "to")?;
    let ub = p.parse_operand()?;
    expect_keyword(p, "step")?;
    let step = p.parse_operand()?;
    let (mut args, mut inits, mut types) = (Vec::new(), Vec::new(), Vec::new());
    let init_at = p.offset();
    if p.parse_optional_keyword("iter_args") {
        p.parse_punct("(")?;
        loop {
            let arg_at = p.offset();
            args.push((p.parse_operand()?.name, arg_at));
            p.parse_punct("=")?;
            inits.push(p.parse_operand()?);
            if !p.parse_optional_punct(",") {
                break;
            }
        }
        p.parse_punct(")")?;
        p.parse_punct("->")?;
        types = parse_result_types(p)?;
    }
    let iv_ty = if p.parse_optional_punct(":") { p.parse_type()? } else { p.context().index_type() };
    let mut operands = p.resolve_operands(&[lb, ub, step], &[iv_ty; 3], at)?;
    operands.extend(p.resolve_operands(&inits, &types, init_at)?);
    state.operands = operands;
    state.result_types = types.clone();
    let mut entry = vec![EntryArg { name: iv.name, offset: iv_at, ty: iv_ty, loc: None }];
    entry.extend(args.iter().zip(&types).map(|(&(name, offset), &ty)| EntryArg {
        name,
        offset,
        ty,
        loc: None,
    }));
    p.parse_region(&entry, false)?;
    p.ensure_terminator(YIELD_OP.name, state.loc);
    p.parse_optional_attr_dict(state)?;
    p.move_inherent(state);
    Ok(())
}

fn expect_keyword(p: &mut dyn OpAsmParser<'_, '_>, keyword: &str) -> PResult<()> {
    if p.parse_optional_keyword(keyword) {
        return Ok(());
    }
    Err(p.error(p.offset(), &format!("expected '{keyword}'")))
}

fn print_for(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.print_op_name(op);
    if ir.attr(op, UNSIGNED_CMP).is_some() {
        p.write(" unsigned");
    }
    let operands = ir.operands(op);
    let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r));
    let block_args = body.map_or(&[][..], |b| ir.block_args(b));
    let (Some(&iv), [lb, ub, step, inits @ ..]) = (block_args.first(), operands) else {
        // Not an `scf.for` the verifier accepts: print what there is, generically enough to see.
        p.write(" <<invalid scf.for>>");
        return;
    };
    p.write(" ");
    p.print_operand(iv);
    for (word, v) in [(" = ", lb), (" to ", ub), (" step ", step)] {
        p.write(word);
        p.print_operand(*v);
    }
    if !inits.is_empty() {
        p.write(" iter_args(");
        for (i, (&arg, &init)) in block_args[1..].iter().zip(inits).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.print_operand(arg);
            p.write(" = ");
            p.print_operand(init);
        }
        p.write(") -> (");
        p.print_types(inits.iter().map(|&v| ir.value_type(v)));
        p.write(")");
    }
    p.write(" ");
    let iv_ty = ir.value_type(iv);
    if !matches!(iv_ty.kind(), TypeKind::Index) {
        p.write(" : ");
        p.print_type(iv_ty);
        p.write(" ");
    }
    p.print_region(op, 0, false, !inits.is_empty());
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[UNSIGNED_CMP]);
}

fn parse_if<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let cond = p.parse_operand()?;
    let i1 = p.context().int_type(1);
    state.operands = p.resolve_operands(&[cond], &[i1], at)?;
    if p.parse_optional_punct("->") {
        state.result_types = parse_result_types(p)?;
    }
    p.parse_region(&[], false)?;
    p.ensure_terminator(YIELD_OP.name, state.loc);
    if p.parse_optional_keyword("else") {
        p.parse_region(&[], false)?;
        p.ensure_terminator(YIELD_OP.name, state.loc);
    } else {
        p.add_empty_region();
    }
    p.parse_optional_attr_dict(state)?;
    Ok(())
}

fn print_if(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.print_op_name(op);
    p.write(" ");
    p.print_operands(ir.operands(op));
    let results = ir.results(op);
    if !results.is_empty() {
        p.write(" -> (");
        p.print_types(results.iter().map(|&v| ir.value_type(v)));
        p.write(")");
    }
    let terminators = !results.is_empty();
    if ir.regions(op).is_empty() {
        return;
    }
    p.write(" ");
    p.print_region(op, 0, false, terminators);
    if ir.regions(op).get(1).is_some_and(|&r| ir.entry_block(r).is_some()) {
        p.write(" else ");
        p.print_region(op, 1, false, terminators);
    }
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
}
