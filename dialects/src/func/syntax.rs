//! Custom assembly formats of `func.func`, `func.return` and `func.call`, as mlir-opt 22
//! prints them:
//!
//! ```mlir
//! func.func private @decl(i32, f32 {foo.a}) -> (i32 {foo.r})
//! func.func @f(%arg0: i32 {foo.noalias}) -> i32 attributes {foo} {
//!   %0 = call @g(%arg0) {foo.c} : (i32) -> i32
//!   return %0 : i32
//! }
//! ```

use kiln_compiler::attributes::{Attribute, NamedAttr};
use kiln_compiler::ir::OperationState;
use kiln_compiler::syntax::custom::{
    parse_return_like, print_return_like, CustomSyntax, EntryArg, OpAsmParser, OpAsmPrinter, PResult,
};
use kiln_compiler::types::{Type, TypeKind};
use kiln_compiler::OpId;

/// `func.func (visibility)? @name(args) (-> results)? (attributes {...})? ({ body })?`.
pub static FUNC_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_func, print: print_func, default_dialect: Some("func") };

/// `return (attr-dict)? (%v, ... : types)?`.
pub static RETURN_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_return_like, print: print_return_like, default_dialect: None };

/// `call @callee(%a, ...) (attr-dict)? : (types) -> results`.
pub static CALL_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_call, print: print_call, default_dialect: None };

/// Attributes the function syntax spells itself.
const FUNC_ELIDED: &[&str] = &["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"];

/// `type {attrs}?` (or `%name: type {attrs}? loc(...)?` in a definition).
struct Param<'a, 'c> {
    entry: Option<EntryArg<'a, 'c>>,
    ty: Type<'c>,
    attrs: Attribute<'c>,
}

fn parse_param<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, named: bool) -> PResult<Param<'a, 'c>> {
    let mut entry = None;
    let ty = if named {
        let offset = p.offset();
        let operand = p.parse_operand()?;
        p.parse_punct(":")?;
        let ty = p.parse_type()?;
        entry = Some(EntryArg { name: operand.name, offset, ty, loc: None });
        ty
    } else {
        p.parse_type()?
    };
    let attrs = if p.at_lbrace() { p.parse_attribute()? } else { p.context().dict_attr(&[]) };
    if let Some(e) = entry.as_mut() {
        e.loc = p.parse_optional_arg_loc()?;
    }
    Ok(Param { entry, ty, attrs })
}

fn parse_func<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let mut props: Vec<NamedAttr<'c>> = Vec::new();
    for vis in ["private", "public", "nested"] {
        if p.parse_optional_keyword(vis) {
            props.push(NamedAttr {
                name: p.context().intern_str("sym_visibility"),
                value: p.context().str_attr(vis.as_bytes()),
            });
        }
    }
    let name = p.parse_symbol_name()?;
    props.push(NamedAttr { name: p.context().intern_str("sym_name"), value: p.context().str_attr(&name) });
    p.parse_punct("(")?;
    let mut args = Vec::new();
    if !p.parse_optional_punct(")") {
        let named = p.at_operand();
        loop {
            args.push(parse_param(p, named)?);
            if !p.parse_optional_punct(",") {
                break;
            }
        }
        p.parse_punct(")")?;
    }
    let mut results = Vec::new();
    if p.parse_optional_punct("->") {
        if p.parse_optional_punct("(") {
            if !p.parse_optional_punct(")") {
                loop {
                    results.push(parse_param(p, false)?);
                    if !p.parse_optional_punct(",") {
                        break;
                    }
                }
                p.parse_punct(")")?;
            }
        } else {
            results.push(Param { entry: None, ty: p.parse_type()?, attrs: p.context().dict_attr(&[]) });
        }
    }
    let inputs: Vec<Type<'c>> = args.iter().map(|a| a.ty).collect();
    let outputs: Vec<Type<'c>> = results.iter().map(|r| r.ty).collect();
    let fn_ty = p.context().function_type(&inputs, &outputs);
    props.push(NamedAttr {
        name: p.context().intern_str("function_type"),
        value: p.context().type_attr(fn_ty),
    });
    for (key, list) in [("arg_attrs", &args), ("res_attrs", &results)] {
        if list.iter().any(|a| a.attrs.as_dict().is_some_and(|d| !d.is_empty())) {
            let items: Vec<Attribute<'c>> = list.iter().map(|a| a.attrs).collect();
            props
                .push(NamedAttr { name: p.context().intern_str(key), value: p.context().array_attr(&items) });
        }
    }
    p.parse_optional_attr_dict_with_keyword(state)?;
    state.attrs.extend(props.iter().map(|n| (n.name, n.value)));
    p.move_inherent(state);
    if p.at_lbrace() {
        let entries: Vec<EntryArg<'_, 'c>> = args.iter().filter_map(|a| a.entry).collect();
        // As MLIR's function parser: no name shadowing, so values from outside resolve and
        // the verifier reports the use (`using value defined outside the region`).
        p.parse_region(&entries, false)?;
    } else {
        p.add_empty_region();
    }
    Ok(())
}

fn print_func(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let attrs = p.op_attrs(op);
    let get = |name: &str| attrs.iter().find(|a| a.name == name).map(|a| a.value);
    p.print_op_name(op);
    p.write(" ");
    if let Some(vis) = get("sym_visibility").and_then(|v| v.as_str()) {
        p.write(std::str::from_utf8(vis).unwrap_or("private"));
        p.write(" ");
    }
    p.print_symbol_name(get("sym_name").and_then(|v| v.as_str()).unwrap_or_default());
    let (inputs, outputs) = match get("function_type").and_then(|t| t.as_type()).map(|t| *t.kind()) {
        Some(TypeKind::Function { inputs, results }) => (inputs, results),
        _ => (&[][..], &[][..]),
    };
    let region = ir.regions(op).first().copied();
    let entry = region.and_then(|r| ir.entry_block(r));
    let arg_attrs = get("arg_attrs").and_then(|a| a.as_array()).unwrap_or_default();
    let res_attrs = get("res_attrs").and_then(|a| a.as_array()).unwrap_or_default();
    p.write("(");
    for (i, &ty) in inputs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        let arg = entry.and_then(|b| ir.block_args(b).get(i).copied());
        match arg {
            Some(v) => p.print_value_and_type(v),
            None => p.print_type(ty),
        }
        print_param_attrs(p, arg_attrs.get(i).copied());
        if let Some(v) = arg {
            p.print_optional_arg_loc(v);
        }
    }
    p.write(")");
    let bare = outputs.len() == 1
        && res_attrs.iter().all(|a| a.as_dict().is_none_or(|d| d.is_empty()))
        && !matches!(outputs[0].kind(), TypeKind::Function { .. });
    if !outputs.is_empty() {
        p.write(if bare { " -> " } else { " -> (" });
        for (i, &ty) in outputs.iter().enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.print_type(ty);
            print_param_attrs(p, res_attrs.get(i).copied());
        }
        if !bare {
            p.write(")");
        }
    }
    p.print_optional_attr_dict_with_keyword(&attrs, FUNC_ELIDED);
    if entry.is_some() {
        p.write(" ");
        p.print_region(op, 0, false, true);
    }
}

fn print_param_attrs<'c>(p: &mut OpAsmPrinter<'_, 'c>, attrs: Option<Attribute<'c>>) {
    if let Some(a) = attrs.filter(|a| a.as_dict().is_some_and(|d| !d.is_empty())) {
        p.write(" ");
        p.print_attribute(a);
    }
}

fn parse_call<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let callee = p.parse_symbol_name()?;
    p.parse_punct("(")?;
    let at = p.offset();
    let operands = p.parse_operand_list()?;
    p.parse_punct(")")?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let type_at = p.offset();
    let fn_ty = p.parse_type()?;
    let TypeKind::Function { inputs, results } = *fn_ty.kind() else {
        return Err(p.error(type_at, "expected function type"));
    };
    state.operands = p.resolve_operands(&operands, inputs, at)?;
    state.result_types.extend_from_slice(results);
    state.attrs.push((p.context().intern_str("callee"), p.context().symbol_ref_attr(&callee)));
    p.move_inherent(state);
    Ok(())
}

fn print_call(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    p.write(" ");
    let attrs = p.op_attrs(op);
    match attrs.iter().find(|a| a.name == "callee").map(|a| a.value) {
        Some(callee) => p.print_attribute(callee),
        None => p.write("@<<missing callee>>"),
    }
    p.write("(");
    p.print_operands(p.ir().operands(op));
    p.write(")");
    p.print_optional_attr_dict(&attrs, &["callee"]);
    p.write(" : ");
    let ir = p.ir();
    let inputs: Vec<Type<'_>> = ir.operands(op).iter().map(|&v| ir.value_type(v)).collect();
    let outputs: Vec<Type<'_>> = ir.results(op).iter().map(|&v| ir.value_type(v)).collect();
    p.print_functional_type(&inputs, &outputs);
}
