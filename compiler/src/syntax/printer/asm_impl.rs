//! The text printer behind the [`OpAsmPrinter`](crate::asm::OpAsmPrinter) that custom op
//! printers write through.

use super::IrPrinter;
use crate::asm::OpPrinterBackend;
use crate::attributes::{Attribute, NamedAttr};
use crate::ir::{OpId, ValueId};
use crate::syntax::lexer;
use crate::syntax::type_attr::print_attr;
use crate::types::Type;

impl<'c> OpPrinterBackend<'c> for IrPrinter<'_, 'c> {
    fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn print_op_name(&mut self, op: OpId) {
        let name = self.ir.op(op).name;
        let d = self.default_dialect;
        let short = name
            .strip_prefix(d)
            .and_then(|rest| rest.strip_prefix('.'))
            .filter(|rest| !d.is_empty() && !rest.contains('.'));
        self.out.push_str(short.unwrap_or(name));
    }

    fn print_operand(&mut self, v: ValueId) {
        self.names.push_value(&mut self.out, self.ir, v);
    }

    fn print_operands(&mut self, values: &[ValueId]) {
        self.print_value_list(values);
    }

    fn print_type(&mut self, ty: Type<'c>) {
        self.push_type(ty);
    }

    fn print_attribute(&mut self, attr: Attribute<'c>) {
        print_attr(&mut self.out, attr, &self.aliases);
    }

    fn print_symbol_name(&mut self, name: &[u8]) {
        self.out.push('@');
        match std::str::from_utf8(name) {
            Ok(s) if lexer::is_bare_identifier(s) => self.out.push_str(s),
            _ => lexer::print_escaped_string(&mut self.out, name),
        }
    }

    fn print_attr_dict(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str], keyword: bool) {
        let mut kept = attrs.iter().filter(|a| !elided.contains(&a.name)).peekable();
        if kept.peek().is_none() {
            return;
        }
        self.out.push_str(if keyword { " attributes {" } else { " {" });
        for (i, a) in kept.enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.print_named_attr(a.name, a.value);
        }
        self.out.push('}');
    }

    fn print_region_argument(&mut self, v: ValueId) {
        self.print_arg_decl(v);
    }

    fn print_optional_arg_loc(&mut self, v: ValueId) {
        self.print_arg_loc(v);
    }

    fn print_region(&mut self, op: OpId, index: usize, entry_args: bool, terminators: bool) {
        self.print_region_custom(op, index, entry_args, terminators);
    }
}
