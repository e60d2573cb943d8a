//! Custom assembly format of `builtin.module`, as mlir-opt prints it:
//! `module @name attributes {foo.x = 1 : i32} { ... }`.

use kiln_compiler::ir::OperationState;
use kiln_compiler::syntax::custom::{CustomSyntax, OpAsmParser, OpAsmPrinter, PResult};
use kiln_compiler::OpId;

/// `module (@name)? (attributes {...})? { body }`.
pub static MODULE_SYNTAX: CustomSyntax =
    CustomSyntax { parse: parse_module, print: print_module, default_dialect: Some("builtin") };

fn parse_module<'a, 'c>(p: &mut dyn OpAsmParser<'a, 'c>, state: &mut OperationState<'c>) -> PResult<()> {
    if p.at_symbol() {
        let name = p.parse_symbol_name()?;
        state.attrs.push((p.context().intern_str("sym_name"), p.context().str_attr(&name)));
    }
    p.parse_optional_attr_dict_with_keyword(state)?;
    p.move_inherent(state);
    // As MLIR's module parser: the body sees enclosing names (no name shadowing).
    p.parse_region(&[], false)?;
    p.ensure_entry_block();
    Ok(())
}

fn print_module(p: &mut OpAsmPrinter<'_, '_>, op: OpId) {
    p.print_op_name(op);
    let attrs = p.op_attrs(op);
    if let Some(name) = attrs.iter().find(|a| a.name == "sym_name").and_then(|a| a.value.as_str()) {
        p.write(" ");
        p.print_symbol_name(name);
    }
    p.print_optional_attr_dict_with_keyword(&attrs, &["sym_name"]);
    p.write(" ");
    p.print_region(op, 0, false, false);
}
