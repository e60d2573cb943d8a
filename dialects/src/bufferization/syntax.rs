//! Custom assembly formats of the `bufferization` ops, in MLIR's spelling:
//!
//! ```mlir
//! %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
//! bufferization.materialize_in_destination %t in writable %m : (tensor<4xf32>, memref<4xf32>) -> ()
//! ```

use kiln_compiler::ir::OperationState;
use kiln_compiler::syntax::custom::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult};
use kiln_compiler::OpId;

/// `bufferization.to_tensor %m attr-dict : memref-type to tensor-type`.
pub static TO_TENSOR_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_to_tensor, print: print_to_tensor, default_dialect: None };

/// `bufferization.materialize_in_destination %t in writable %m attr-dict : (t, m) -> ()`.
pub static MATERIALIZE_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_materialize, print: print_materialize, default_dialect: None };

fn parse_to_tensor<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let buffer = p.parse_operand()?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    let from = p.parse_type()?;
    let kw = p.offset();
    if !p.parse_optional_keyword("to") {
        return Err(p.error(kw, "expected 'to'"));
    }
    let to = p.parse_type()?;
    state.operands = p.resolve_operands(&[buffer], &[from], at)?;
    state.result_types.push(to);
    Ok(())
}

fn print_to_tensor(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.print_op_name(op);
    p.write(" ");
    p.print_operands(ir.operands(op));
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
    p.write(" : ");
    p.print_type(ir.value_type(ir.operands(op)[0]));
    p.write(" to ");
    p.print_type(ir.value_type(ir.results(op)[0]));
}

fn parse_materialize<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    let at = p.offset();
    let source = p.parse_operand()?;
    let kw = p.offset();
    if !p.parse_optional_keyword("in") {
        return Err(p.error(kw, "expected 'in'"));
    }
    let kw = p.offset();
    if !p.parse_optional_keyword("writable") {
        return Err(p.error(kw, "expected 'writable' (the destination is a buffer)"));
    }
    let dest = p.parse_operand()?;
    p.parse_optional_attr_dict(state)?;
    p.parse_punct(":")?;
    p.parse_punct("(")?;
    let t = p.parse_type()?;
    p.parse_punct(",")?;
    let m = p.parse_type()?;
    p.parse_punct(")")?;
    p.parse_punct("->")?;
    p.parse_punct("(")?;
    p.parse_punct(")")?;
    state.operands = p.resolve_operands(&[source, dest], &[t, m], at)?;
    Ok(())
}

fn print_materialize(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.print_op_name(op);
    p.write(" ");
    p.print_operand(ir.operands(op)[0]);
    p.write(" in writable ");
    p.print_operand(ir.operands(op)[1]);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
    p.write(" : (");
    p.print_type(ir.value_type(ir.operands(op)[0]));
    p.write(", ");
    p.print_type(ir.value_type(ir.operands(op)[1]));
    p.write(") -> ()");
}
