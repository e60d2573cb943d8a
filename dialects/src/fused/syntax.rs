//! Custom assembly formats of the `fused` ops:
//!
//! ```mlir
//! %0:2 = fused.region vector (%arg2 = %a, %arg3 = %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {foo} {
//!   ...
//!   fused.yield %1, %2 : tensor<4xf32>, tensor<4xf32>
//! }
//! ```
//!
//! `fused.region` prints its kind as a keyword, then binds each entry argument to its input
//! (`%arg = %input`, as `scf.for`'s `iter_args`), then the functional type `(inputs) ->
//! results` (which also types the entry arguments), other attributes after `attributes`, and
//! the body without its entry block header. A `kind` that is not a `#fused.kind<...>` (invalid
//! IR) stays in the attribute dictionary. Ops in the body keep their dialect prefix
//! (`fused.yield`, `hl.add`): there is no default dialect inside a region.

use kiln_compiler::syntax::custom::{
    parse_return_like, print_return_like, CustomSyntax, EntryArg, OpAsmParser, OpAsmPrinter, PResult,
};
use kiln_compiler::types::{Type, TypeKind};
use kiln_compiler::{OpId, OperationState};

use super::kind::RegionKind;

/// `fused.region kind? (%arg = %in, ...) : (types) -> results (attributes {...})? { body }`.
pub static REGION_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_region, print: print_region, default_dialect: None };

/// `fused.yield (attr-dict)? (%v, ... : types)?`.
pub static YIELD_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_return_like, print: print_return_like, default_dialect: None };

fn parse_region<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let kind_at = p.offset();
    let kind = p.parse_optional_bare_keyword();
    p.parse_punct("(")?;
    let mut bindings = Vec::new();
    let operands_at = p.offset();
    if !p.parse_optional_punct(")") {
        loop {
            let offset = p.offset();
            let arg = p.parse_operand()?;
            p.parse_punct("=")?;
            bindings.push((arg.name, offset, p.parse_operand()?));
            if !p.parse_optional_punct(",") {
                break;
            }
        }
        p.parse_punct(")")?;
    }
    p.parse_punct(":")?;
    let type_at = p.offset();
    let fn_ty = p.parse_type()?;
    let TypeKind::Function { inputs, results } = *fn_ty.kind() else {
        return Err(p.error(type_at, "expected function type"));
    };
    let operands: Vec<_> = bindings.iter().map(|b| b.2).collect();
    state.operands = p.resolve_operands(&operands, inputs, operands_at)?;
    state.result_types.extend_from_slice(results);
    p.parse_optional_attr_dict_with_keyword(state)?;
    if let Some(k) = kind {
        let Some(kind) = RegionKind::from_keyword(k) else {
            return Err(p.error(
                kind_at,
                &format!("expected region kind 'vector', 'cube', 'mix' or 'attention', but got '{k}'"),
            ));
        };
        state.attrs.push((p.context().intern_str("kind"), kind.attr(p.context())));
        p.move_inherent(state);
    }
    let entries: Vec<EntryArg<'a, 'c>> = bindings
        .iter()
        .zip(inputs)
        .map(|(&(name, offset, _), &ty)| EntryArg { name, offset, ty, loc: None })
        .collect();
    p.parse_region(&entries, true)?;
    Ok(())
}

fn print_region(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let attrs = p.op_attrs(op);
    p.print_op_name(op);
    let kind = RegionKind::of_region(ir, op);
    if let Some(k) = kind {
        p.write(" ");
        p.write(k.keyword());
    }
    let entry = ir.regions(op).first().and_then(|&r| ir.entry_block(r));
    let args = entry.map(|b| ir.block_args(b)).unwrap_or_default();
    p.write(" (");
    for (i, &v) in ir.operands(op).iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        // A mismatch of arguments and inputs (invalid IR) still prints something parseable.
        if let Some(&a) = args.get(i) {
            p.print_operand(a);
            p.write(" = ");
        }
        p.print_operand(v);
    }
    p.write(") : ");
    let inputs: Vec<Type<'_>> = ir.operands(op).iter().map(|&v| ir.value_type(v)).collect();
    let outputs: Vec<Type<'_>> = ir.results(op).iter().map(|&v| ir.value_type(v)).collect();
    p.print_functional_type(&inputs, &outputs);
    let elided: &[&str] = if kind.is_some() { &["kind"] } else { &[] };
    p.print_optional_attr_dict_with_keyword(&attrs, elided);
    p.write(" ");
    p.print_region(op, 0, false, true);
}
