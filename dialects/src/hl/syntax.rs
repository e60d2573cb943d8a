//! The custom assembly format shared by every `hl` op:
//!
//! ```mlir
//! %2 = hl.add %0, %1 : tensor<4x?xf16>                                  // all types equal
//! %1 = hl.reduce_sum %0 {axes = [1]} : tensor<8x128xf32> -> tensor<8xf32>
//! %2 = hl.add %0, %1 : tensor<4x1xf32>, tensor<1x5xf32> -> tensor<4x5xf32>
//! %0 = hl.constant dense<1.000000e+00> : tensor<4xf32>                  // type from the value
//! %0 = hl.iota {dimension = 0 : i64} : tensor<4xi32>                    // no operands
//! %1, %2 = hl.split %0 {axis = 0 : i64, sizes = [1, 3]} : tensor<4xf32> -> tensor<1xf32>, tensor<3xf32>
//! ```
//!
//! Operands, then the attribute dictionary (inherent attributes included), then `:` and either
//! one type (every operand and the single result have it) or the operand types, `->` and the
//! result types.

use kiln_compiler::syntax::custom::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult};
use kiln_compiler::{AttrKind, NamedAttr, OpId, OperationState};

/// The `hl` custom syntax.
pub static HL_SYNTAX: CustomSyntax = CustomSyntax { parse, print, default_dialect: None };

fn parse<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    if state.name == "hl.constant" {
        let value = p.parse_attribute()?;
        let AttrKind::DenseElements { ty, .. } = *value.kind() else {
            return Err(p.error(at, "expected a dense elements attribute"));
        };
        let name = p.context().intern_str("value");
        state.properties = Some(p.context().dict_attr(&[NamedAttr { name, value }]));
        p.parse_optional_attr_dict(state)?;
        state.result_types = vec![ty];
        return Ok(());
    }
    let operands = p.parse_operand_list()?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let types_at = p.offset();
    let types = p.parse_type_list()?;
    let (operand_types, results) = if p.parse_optional_punct("->") {
        (types, p.parse_type_list()?)
    } else if let [t] = types.as_slice() {
        (vec![*t; operands.len()], vec![*t])
    } else {
        return Err(
            p.error(types_at, "expected one type, or operand types followed by '->' and the result types")
        );
    };
    state.operands = p.resolve_operands(&operands, &operand_types, at)?;
    state.result_types = results;
    Ok(())
}

fn print<'p, 'c>(pr: &mut OpAsmPrinter<'p, 'c>, op: OpId) {
    pr.print_op_name(op);
    let ir = pr.ir();
    let attrs = pr.op_attrs(op);
    let result = ir.value_type(ir.results(op)[0]);
    if ir.op(op).name == "hl.constant" {
        if let Some(value) = ir.attr(op, "value") {
            pr.write(" ");
            pr.print_attribute(value);
            pr.print_optional_attr_dict(&attrs, &["value"]);
            return;
        }
    }
    let operands = ir.operands(op);
    if !operands.is_empty() {
        pr.write(" ");
        pr.print_operands(operands);
    }
    pr.print_optional_attr_dict(&attrs, &[]);
    pr.write(" : ");
    let types: Vec<_> = operands.iter().map(|&v| ir.value_type(v)).collect();
    let results: Vec<_> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
    if results.len() == 1 && types.iter().all(|&t| t == result) {
        pr.print_type(result);
    } else {
        pr.print_types(types);
        pr.write(" -> ");
        pr.print_types(results);
    }
}
