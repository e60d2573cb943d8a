//! `builtin.unrealized_conversion_cast`, the op materializations build by default, with its
//! custom form as mlir-opt 22 prints it.

use crate::asm::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult};
use crate::dialect::{Arity, OpDef, Trait};
use crate::ir::{OpId, OperationState};
use crate::types::Type;

crate::op_def! {
    /// `builtin.unrealized_conversion_cast`: a cast between the type systems of two stages of a
    /// conversion, with no semantics of its own (MLIR's op of the same name).
    ///
    /// Materializations build it by default; the conversion driver folds the casts it no longer
    /// needs, and a later pass (or a later conversion) resolves the rest.
    ///
    /// Custom form:
    /// ```mlir
    /// %1 = builtin.unrealized_conversion_cast %0 : tensor<4xf32> to memref<4xf32>
    /// ```
    /// Generic form:
    /// ```mlir
    /// %1 = "builtin.unrealized_conversion_cast"(%0) : (tensor<4xf32>) -> memref<4xf32>
    /// ```
    pub static UNREALIZED_CONVERSION_CAST: OpDef = OpDef {
        name: "builtin.unrealized_conversion_cast",
        summary: "An unrealized conversion from one set of types to another",
        operands: Arity::Any,
        results: Arity::AtLeast(1),
        traits: &[Trait::Pure],
        syntax: Some(&CAST_SYNTAX),
        ..OpDef::DEFAULT
    };
}

/// `(%inputs : types)? to types attr-dict`.
static CAST_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_cast, print: print_cast, default_dialect: None };

fn parse_cast<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    if p.at_operand() {
        let at = p.offset();
        let operands = p.parse_operand_list()?;
        p.parse_punct(":")?;
        let types = p.parse_type_list()?;
        state.operands = p.resolve_operands(&operands, &types, at)?;
    }
    let at = p.offset();
    if !p.parse_optional_keyword("to") {
        return Err(p.error(at, "expected 'to'"));
    }
    state.result_types = p.parse_type_list()?;
    p.parse_optional_attr_dict(state)
}

fn print_cast(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    let ir = p.ir();
    let operands = ir.operands(op);
    if !operands.is_empty() {
        p.write(" ");
        p.print_operands(operands);
        p.write(" : ");
        let types: Vec<Type<'_>> = operands.iter().map(|&v| ir.value_type(v)).collect();
        p.print_types(types);
    }
    p.write(" to ");
    let results: Vec<Type<'_>> = ir.results(op).iter().map(|&v| ir.value_type(v)).collect();
    p.print_types(results);
    let attrs = p.op_attrs(op);
    p.print_optional_attr_dict(&attrs, &[]);
}
