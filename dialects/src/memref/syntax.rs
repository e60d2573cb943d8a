//! Custom assembly formats of the `memref` ops, as mlir-opt 22 prints them:
//!
//! ```mlir
//! %alloc = memref.alloc(%n) {alignment = 64 : i64} : memref<?x8xf32>
//! %0 = memref.load %alloc[%i, %j] : memref<?x8xf32>
//! memref.store %0, %alloc[%i, %j] : memref<?x8xf32>
//! memref.dealloc %alloc : memref<?x8xf32>
//! ```
//!
//! `memref.alloc` names its result `%alloc` (MLIR's `getAsmResultNames`).

use kiln_compiler::attributes::NamedAttr;
use kiln_compiler::dialect::{operand_group, OPERAND_SEGMENTS};
use kiln_compiler::ir::OperationState;
use kiln_compiler::syntax::custom::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult};
use kiln_compiler::types::Type;
use kiln_compiler::{AttrKind, OpId};

/// `memref.alloc(%sizes) ([%symbols])? attr-dict : type`.
pub static ALLOC_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_alloc, print: print_alloc, default_dialect: None };

/// `memref.dealloc %m attr-dict : type`.
pub static DEALLOC_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_dealloc, print: print_dealloc, default_dialect: None };

/// `memref.load %m[%indices] attr-dict : type`.
pub static LOAD_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_load, print: print_load, default_dialect: None };

/// `memref.store %v, %m[%indices] attr-dict : type`.
pub static STORE_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_store, print: print_store, default_dialect: None };

fn parse_alloc<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    p.parse_punct("(")?;
    let at = p.offset();
    let sizes = p.parse_operand_list()?;
    p.parse_punct(")")?;
    let sym_at = p.offset();
    let mut symbols = Vec::new();
    if p.parse_optional_punct("[") {
        symbols = p.parse_operand_list()?;
        p.parse_punct("]")?;
    }
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let ty = p.parse_type()?;
    let index = p.context().index_type();
    state.operands = p.resolve_operands(&sizes, &vec![index; sizes.len()], at)?;
    state.operands.extend(p.resolve_operands(&symbols, &vec![index; symbols.len()], sym_at)?);
    state.result_types.push(ty);
    // The segment sizes are a property the form implies.
    let ctx = p.context();
    let bytes: Vec<u8> =
        [sizes.len(), symbols.len()].iter().flat_map(|&n| (n as i32).to_le_bytes()).collect();
    let segments =
        ctx.attr(AttrKind::DenseArray { elem: ctx.int_type(32), len: 2, bytes: ctx.alloc_bytes(&bytes) });
    let mut props: Vec<NamedAttr<'c>> =
        state.properties.and_then(|d| d.as_dict()).unwrap_or_default().to_vec();
    props.push(NamedAttr { name: ctx.intern_str(OPERAND_SEGMENTS), value: segments });
    state.properties = Some(ctx.dict_attr(&props));
    Ok(())
}

fn print_alloc(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.print_op_name(op);
    p.write("(");
    p.print_operands(operand_group(ir, op, "dynamicSizes").unwrap_or_default());
    p.write(")");
    let symbols = operand_group(ir, op, "symbolOperands").unwrap_or_default();
    if !symbols.is_empty() {
        p.write("[");
        p.print_operands(symbols);
        p.write("]");
    }
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[OPERAND_SEGMENTS]);
    print_colon_type(p, ir.results(op).first().map(|&r| ir.value_type(r)));
}

fn print_colon_type<'c>(p: &mut OpAsmPrinter<'_, 'c>, ty: Option<Type<'c>>) {
    p.write(" : ");
    if let Some(ty) = ty {
        p.print_type(ty);
    }
}

fn parse_dealloc<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let memref = p.parse_operand()?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let ty = p.parse_type()?;
    state.operands = p.resolve_operands(&[memref], &[ty], at)?;
    Ok(())
}

fn print_dealloc(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.print_op_name(op);
    p.write(" ");
    p.print_operands(ir.operands(op));
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
    print_colon_type(p, ir.operands(op).first().map(|&v| ir.value_type(v)));
}

/// Parses `%m[%i, ...] attr-dict : type` into the memref and index operands.
fn parse_access<'a, 'c>(
    p: &mut dyn OpAsmParser<'a, 'c>,
    state: &mut OperationState<'c>,
) -> PResult<Type<'c>> {
    let at = p.offset();
    let memref = p.parse_operand()?;
    p.parse_punct("[")?;
    let index_at = p.offset();
    let indices = p.parse_operand_list()?;
    p.parse_punct("]")?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let ty = p.parse_type()?;
    state.operands.extend(p.resolve_operands(&[memref], &[ty], at)?);
    let index = p.context().index_type();
    state.operands.extend(p.resolve_operands(&indices, &vec![index; indices.len()], index_at)?);
    Ok(ty)
}

/// Prints `%m[%i, ...] attr-dict : type`.
fn print_access(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let memref = operand_group(ir, op, "memref").unwrap_or_default();
    p.print_operands(memref);
    p.write("[");
    p.print_operands(operand_group(ir, op, "indices").unwrap_or_default());
    p.write("]");
    let attrs = p.op_attrs(op);
    // As mlir-opt, the custom form leaves out the default `nontemporal = false`.
    let default = ir.attr(op, "nontemporal").is_some_and(|a| a.as_int() == Some(0));
    p.print_optional_attr_dict(&attrs, if default { &["nontemporal"] } else { &[] });
    print_colon_type(p, memref.first().map(|&v| ir.value_type(v)));
}

fn parse_load<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let ty = parse_access(p, state)?;
    let Some(elem) = ty.element_type() else {
        return Err(p.error(at, "invalid kind of type specified: expected builtin.memref"));
    };
    state.result_types.push(elem);
    Ok(())
}

fn print_load(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    p.write(" ");
    print_access(p, op);
}

fn parse_store<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let value = p.parse_operand()?;
    p.parse_punct(",")?;
    let mut access = OperationState::new(state.name, state.def, state.loc);
    let ty = parse_access(p, &mut access)?;
    let Some(elem) = ty.element_type() else {
        return Err(p.error(at, "invalid kind of type specified: expected builtin.memref"));
    };
    state.operands = p.resolve_operands(&[value], &[elem], at)?;
    state.operands.append(&mut access.operands);
    state.attrs = access.attrs;
    state.properties = access.properties;
    Ok(())
}

fn print_store(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    p.write(" ");
    if let Some(&value) = p.ir().operands(op).first() {
        p.print_operand(value);
    }
    p.write(", ");
    print_access(p, op);
}
