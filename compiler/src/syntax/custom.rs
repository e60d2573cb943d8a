//! Hooks for ops with a custom (pretty) assembly format, and the helpers their parsers and
//! printers use (after MLIR's `OpAsmParser` / `OpAsmPrinter`).
//!
//! A custom parser is called after the op name with the [`OpAsmParser`] trait (the concrete
//! text parser stays behind it); it fills an [`OperationState`] (operands resolved to values,
//! result types, attributes, properties) and parses regions through
//! [`OpAsmParser::parse_region`]. A custom printer is called after the result names with the
//! [`OpAsmPrinter`] trait and prints everything from the op name on; regions go through
//! [`OpAsmPrinter::print_region`]. The traits are declared in [`crate::asm`], below the
//! dialects that hold the hooks; this module re-exports them with the shared formats.

use crate::ir::{OpId, OperationState};
use crate::types::Type;

pub use crate::asm::{
    AsmResultName, CustomSyntax, EntryArg, OpAsmParser, OpAsmPrinter, PResult, ParseError, UnresolvedOperand,
};

/// Parses the format of return-like terminators, `{attrs}? (%a, %b : t1, t2)?`
/// (`func.return`, `fused.yield`).
pub fn parse_return_like<'a, 'c>(
    p: &mut dyn OpAsmParser<'a, 'c>,
    state: &mut OperationState<'c>,
) -> PResult<()> {
    p.parse_optional_attr_dict(state)?;
    let at = p.offset();
    let operands = p.parse_operand_list()?;
    if !operands.is_empty() {
        p.parse_punct(":")?;
        let types = p.parse_type_list()?;
        state.operands = p.resolve_operands(&operands, &types, at)?;
    }
    Ok(())
}

/// Prints the format of return-like terminators (see [`parse_return_like`]).
pub fn print_return_like(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
    let operands = p.ir().operands(op);
    if !operands.is_empty() {
        p.write(" ");
        p.print_operands(operands);
        p.write(" : ");
        let types: Vec<Type<'_>> = operands.iter().map(|&v| p.ir().value_type(v)).collect();
        p.print_types(types);
    }
}
