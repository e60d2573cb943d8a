//! Hooks for ops with a custom (pretty) assembly format, and the helpers their parsers and
//! printers use (after MLIR's `OpAsmParser` / `OpAsmPrinter`).
//!
//! A custom parser is called after the op name with the [`OpAsmParser`] trait (the concrete
//! text parser stays behind it); it fills an [`OperationState`] (operands resolved to values,
//! result types, attributes, properties) and parses regions through
//! [`OpAsmParser::parse_region`]. A custom printer is called after the result names and prints
//! everything from the op name on; regions go through [`OpAsmPrinter::print_region`].

use crate::attributes::{Attribute, NamedAttr};
use crate::ir::{OpId, OperationState, ValueId};
use crate::syntax::lexer;
use crate::types::Type;

pub use crate::syntax::asm::{EntryArg, OpAsmParser, PResult, ParseError, UnresolvedOperand};
pub use crate::syntax::printer::OpAsmPrinter;

/// The name the custom form gives an op's single result instead of a number (`%c0`, `%cst`,
/// `%alloc`), as MLIR's `OpAsmOpInterface::getAsmResultNames`: an op interface, listed in
/// [`crate::dialect::OpDef::interfaces`]. The printer makes the name a valid identifier and
/// unique in its scope (`%c0_0` for a second `%c0`); the generic form keeps numbers.
pub struct AsmResultName(pub for<'c> fn(&crate::Ir<'c>, OpId) -> Option<String>);

/// An op's custom assembly format: how to parse it and print it back.
#[derive(Debug)]
pub struct CustomSyntax {
    /// Parses everything after the op name into `state`.
    pub parse: for<'a, 'c> fn(&mut dyn OpAsmParser<'a, 'c>, &mut OperationState<'c>) -> PResult<()>,
    /// Prints the op from its name on (results are printed already).
    pub print: for<'p, 'c> fn(&mut OpAsmPrinter<'p, 'c>, OpId),
    /// The dialect whose ops may drop their prefix inside this op's regions (`func` for
    /// `func.func`, so that `return` means `func.return`).
    pub default_dialect: Option<&'static str>,
}

impl<'p, 'c> OpAsmPrinter<'p, 'c> {
    /// The IR being printed.
    pub fn ir(&self) -> &'p crate::Ir<'c> {
        self.ir
    }

    /// The context.
    pub fn context(&self) -> &'p crate::Context<'c> {
        self.ctx
    }

    /// Appends raw text.
    pub fn write(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// Prints the op's name, dropping the default dialect's prefix (`return` in a function,
    /// `module` at the top).
    pub fn print_op_name(&mut self, op: OpId) {
        let name = self.ir.op(op).name;
        let d = self.default_dialect;
        let short = name
            .strip_prefix(d)
            .and_then(|rest| rest.strip_prefix('.'))
            .filter(|rest| !d.is_empty() && !rest.contains('.'));
        self.out.push_str(short.unwrap_or(name));
    }

    /// Prints a value's name.
    pub fn print_operand(&mut self, v: ValueId) {
        self.names.push_value(&mut self.out, self.ir, v);
    }

    /// Prints `%a, %b`.
    pub fn print_operands(&mut self, values: &[ValueId]) {
        self.print_value_list(values);
    }

    /// Prints a type.
    pub fn print_type(&mut self, ty: Type<'c>) {
        self.push_type(ty);
    }

    /// Prints `t1, t2`.
    pub fn print_types(&mut self, types: impl IntoIterator<Item = Type<'c>>) {
        for (i, t) in types.into_iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.push_type(t);
        }
    }

    /// Prints `(a, b) -> c` or `(a) -> (b, c)` (results parenthesised unless there is
    /// exactly one that is not a function type).
    pub fn print_functional_type(&mut self, inputs: &[Type<'c>], results: &[Type<'c>]) {
        self.out.push('(');
        self.print_types(inputs.iter().copied());
        self.out.push_str(") -> ");
        let single =
            results.len() == 1 && !matches!(results[0].kind(), crate::types::TypeKind::Function { .. });
        if !single {
            self.out.push('(');
        }
        self.print_types(results.iter().copied());
        if !single {
            self.out.push(')');
        }
    }

    /// Prints an attribute.
    pub fn print_attribute(&mut self, attr: Attribute<'c>) {
        crate::syntax::type_attr::print_attr(&mut self.out, attr, &self.aliases);
    }

    /// Prints `@name`, quoted when it is not an identifier.
    pub fn print_symbol_name(&mut self, name: &[u8]) {
        self.out.push('@');
        match std::str::from_utf8(name) {
            Ok(s) if lexer::is_bare_identifier(s) => self.out.push_str(s),
            _ => lexer::print_escaped_string(&mut self.out, name),
        }
    }

    /// Prints ` {a = 1, b}` with the entries not in `elided` (nothing when none remain).
    pub fn print_optional_attr_dict(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str]) {
        self.print_attr_dict_impl(attrs, elided, false);
    }

    /// Prints ` attributes {a = 1}` with the entries not in `elided`.
    pub fn print_optional_attr_dict_with_keyword(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str]) {
        self.print_attr_dict_impl(attrs, elided, true);
    }

    fn print_attr_dict_impl(&mut self, attrs: &[NamedAttr<'c>], elided: &[&str], keyword: bool) {
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

    /// The op's attributes: properties and discardable ones merged, sorted by name.
    pub fn op_attrs(&self, op: OpId) -> Vec<NamedAttr<'c>> {
        let data = self.ir.op(op);
        let mut all: Vec<NamedAttr<'c>> =
            data.properties.and_then(|p| p.as_dict()).unwrap_or_default().to_vec();
        all.extend(data.attrs.iter().map(|(&name, &value)| NamedAttr { name, value }));
        all.sort_by(|a, b| a.name.cmp(b.name));
        all
    }

    /// Prints `%arg0: i32` and, with debug info, its location.
    pub fn print_region_argument(&mut self, v: ValueId) {
        self.print_arg_decl(v);
    }

    /// Prints `%arg0: i32` (the name and type only).
    pub fn print_value_and_type(&mut self, v: ValueId) {
        self.print_operand(v);
        self.out.push_str(": ");
        self.push_type(self.ir.value_type(v));
    }

    /// Prints ` loc(...)` of a block argument when printing debug info.
    pub fn print_optional_arg_loc(&mut self, v: ValueId) {
        self.print_arg_loc(v);
    }

    /// Prints region `index` of `op`: `{`, its blocks, `}` at the op's indentation.
    /// `entry_args`: print the entry block's label and arguments; `terminators`: print the
    /// block terminators.
    pub fn print_region(&mut self, op: OpId, index: usize, entry_args: bool, terminators: bool) {
        self.print_region_custom(op, index, entry_args, terminators);
    }
}

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
