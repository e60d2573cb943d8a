//! The printer: MLIR's generic form, byte-identical to `mlir-opt --mlir-print-op-generic`,
//! and the custom form of ops that have a [`CustomSyntax`](crate::asm::CustomSyntax).
//!
//! Output goes into one `String`. Region nesting is printed with an explicit stack; only
//! custom printers recurse (through
//! [`OpAsmPrinter::print_region`](crate::asm::OpAsmPrinter::print_region)), and past a fixed depth nested
//! custom ops fall back to the generic form so the call stack stays bounded.

mod aliases;
mod asm_impl;
mod names;

use crate::asm::OpAsmPrinter;
use crate::attributes::{AttrKind, Attribute, NamedAttr};
use crate::context::Context;
use crate::dialect::Trait;
use crate::ir::{BlockId, Ir, OpId};
use crate::module::Module;
use crate::syntax::lexer::{print_escaped_string, print_keyword_or_string};
use crate::syntax::type_attr::{print_attr, print_location, print_type};
use crate::types::{Type, TypeKind};
use aliases::AliasTable;
use names::Names;

/// Printing options (MLIR's `OpPrintingFlags`).
#[derive(Clone, Debug, Default)]
pub struct PrintOptions {
    /// Print every op in the generic form (`--mlir-print-op-generic`).
    pub generic: bool,
    /// Print locations (`--mlir-print-debuginfo`).
    pub debug_info: bool,
    /// Print everything inline: no aliases, no resource section (`--mlir-print-local-scope`).
    pub local_scope: bool,
    /// Print elements attributes with more elements than this, splats aside, as
    /// `dense_resource<__elided__>` (`--mlir-elide-elementsattrs-if-larger`).
    pub elide_elements_above: Option<usize>,
}

/// How deeply custom printers may nest before ops fall back to the generic form.
const MAX_CUSTOM_DEPTH: usize = 128;

/// The printer state, also what the [`OpAsmPrinter`] of custom op printers writes through.
pub(crate) struct IrPrinter<'p, 'c> {
    pub(crate) ctx: &'p Context<'c>,
    pub(crate) ir: &'p Ir<'c>,
    pub(crate) opts: &'p PrintOptions,
    pub(crate) out: String,
    pub(crate) names: Names,
    pub(crate) aliases: AliasTable<'c>,
    /// Indentation of the op being printed.
    pub(crate) indent: usize,
    /// The dialect whose prefix custom op names drop in the current region.
    pub(crate) default_dialect: &'static str,
    /// The op being printed.
    pub(crate) current: Option<OpId>,
    custom_depth: usize,
}

/// One region being printed.
struct Frame {
    owner: OpId,
    region: usize,
    block: Option<BlockId>,
    next: Option<OpId>,
    skip: Option<OpId>,
    indent: usize,
    dialect: &'static str,
    /// The owner is printed generically: after its last region come its attributes and type.
    generic: bool,
    terminators: bool,
}

/// Prints a whole module: aliases, the top op, deferred aliases and resources.
pub fn print_module<'c>(ctx: &Context<'c>, m: &Module<'c>, opts: &PrintOptions) -> String {
    let mut p = IrPrinter::new(ctx, &m.ir, m.top, opts);
    // Reserve generously up front: growing a 10 MB string by doubling copies it again and
    // again, while reserved pages that are never written cost no memory.
    let mut out = String::with_capacity(m.ir.num_ops().saturating_mul(160));
    p.aliases.print_defs(&mut out, false);
    p.out = out;
    p.print_op_tree(m.top);
    p.out.push('\n');
    let mut out = std::mem::take(&mut p.out);
    p.aliases.print_defs(&mut out, true);
    if !opts.local_scope {
        print_resources(&mut out, m, &p.aliases.resource_handles);
    }
    out
}

/// Prints one op (with what it contains) wherever it sits, with no aliases. Values are
/// numbered from the outermost op, so names agree with a print of the whole module; under
/// `local_scope` from the nearest op isolated from above (the op itself if it is), as MLIR's
/// `useLocalScope`, and values defined outside that op print as `<<UNKNOWN SSA VALUE>>`.
pub fn print_op<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId, opts: &PrintOptions) -> String {
    let isolated = |o: OpId| ir.op(o).def.is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove));
    let mut root = op;
    while let Some(parent) = ir.parent_op(root).filter(|_| !(opts.local_scope && isolated(root))) {
        root = parent;
    }
    let mut local = opts.clone();
    local.local_scope = true;
    let mut p = IrPrinter::new(ctx, ir, root, &local);
    p.print_op_tree(op);
    p.out
}

/// `op` as an error message shows it (MLIR's `Diagnostic::appendOp` for an error): the generic
/// form, local scope, elements attributes of more than 16 elements elided, on a line of its
/// own (a leading newline) when it takes more than one.
pub fn print_op_for_diagnostic<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> String {
    let opts = PrintOptions {
        generic: true,
        local_scope: true,
        elide_elements_above: Some(16),
        ..Default::default()
    };
    let text = print_op(ctx, ir, op, &opts);
    if text.contains('\n') {
        format!("\n{text}")
    } else {
        text
    }
}

/// A resource group (a dialect or external group) and its entries, key and value.
type ResourceGroup<'a> = (&'a str, Vec<(&'a str, &'a str)>);

fn print_resources(out: &mut String, m: &Module<'_>, handles: &indexmap::IndexSet<&str>) {
    let mut sections: Vec<(&str, Vec<ResourceGroup<'_>>)> = Vec::new();
    let dialect_resources = m.resources.get("dialect_resources");
    let mut groups: Vec<ResourceGroup<'_>> = Vec::new();
    // mlir-opt prints the test dialect's group before builtin's.
    if let Some(test) = dialect_resources.and_then(|d| d.get("test")) {
        if !test.is_empty() {
            groups.push(("test", test.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()));
        }
    }
    if let Some(builtin) = dialect_resources.and_then(|d| d.get("builtin")) {
        let entries: Vec<(&str, &str)> =
            handles.iter().filter_map(|h| builtin.get(*h).map(|v| (*h, v.as_str()))).collect();
        if !entries.is_empty() {
            groups.push(("builtin", entries));
        }
    }
    if !groups.is_empty() {
        sections.push(("dialect_resources", groups));
    }
    if let Some(ext) = m.resources.get("external_resources") {
        let groups: Vec<_> = ext
            .iter()
            .filter(|(_, e)| !e.is_empty())
            .map(|(g, e)| (g.as_str(), e.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()))
            .collect();
        if !groups.is_empty() {
            sections.push(("external_resources", groups));
        }
    }
    if sections.is_empty() {
        return;
    }
    out.push_str("\n{-#\n");
    for (si, (section, groups)) in sections.iter().enumerate() {
        if si > 0 {
            out.push_str(",\n");
        }
        out.push_str("  ");
        out.push_str(section);
        out.push_str(": {\n");
        for (gi, (group, entries)) in groups.iter().enumerate() {
            if gi > 0 {
                out.push_str(",\n");
            }
            out.push_str("    ");
            print_keyword_or_string(out, group);
            out.push_str(": {\n");
            for (ei, (key, value)) in entries.iter().enumerate() {
                if ei > 0 {
                    out.push_str(",\n");
                }
                out.push_str("      ");
                print_keyword_or_string(out, key);
                out.push_str(": ");
                out.push_str(value);
            }
            out.push_str("\n    }");
        }
        out.push_str("\n  }");
    }
    out.push_str("\n#-}\n");
}

impl<'p, 'c> IrPrinter<'p, 'c> {
    fn new(ctx: &'p Context<'c>, ir: &'p Ir<'c>, root: OpId, opts: &'p PrintOptions) -> Self {
        let names = Names::new(ir, root, opts.generic);
        let mut aliases = AliasTable::collect(ctx, ir, root, opts.debug_info, !opts.local_scope);
        aliases.elements_limit = opts.elide_elements_above;
        IrPrinter {
            ctx,
            ir,
            opts,
            out: String::new(),
            names,
            aliases,
            indent: 0,
            default_dialect: "builtin",
            current: None,
            custom_depth: 0,
        }
    }

    /// Prints `op` at the current indentation (without a trailing newline).
    pub(crate) fn print_op_tree(&mut self, op: OpId) {
        if let Some(frame) = self.print_op_head(op) {
            self.run(frame);
        }
    }

    /// Prints the ops of the region in `frame` (opened already) and closes it; nested
    /// generic ops are handled on the same loop.
    fn run(&mut self, base: Frame) {
        let mut stack = vec![base];
        while let Some(f) = stack.last_mut() {
            if let Some(op) = f.next {
                f.next = self.ir.next_op(op);
                if f.skip == Some(op) {
                    continue;
                }
                let indent = f.indent + 2;
                self.default_dialect = f.dialect;
                push_indent(&mut self.out, indent);
                self.indent = indent;
                match self.print_op_head(op) {
                    Some(frame) => stack.push(frame),
                    None => self.out.push('\n'),
                }
                continue;
            }
            if let Some(b) = f.block.and_then(|b| self.ir.next_block(b)) {
                let (indent, terminators) = (f.indent, f.terminators);
                f.block = Some(b);
                f.next = self.ir.first_op(b);
                f.skip = self.skipped_terminator(b, terminators);
                self.print_block_header(b, indent);
                continue;
            }
            let f = stack.pop().expect("stack is not empty");
            push_indent(&mut self.out, f.indent);
            self.out.push('}');
            if !f.generic {
                break;
            }
            if f.region + 1 < self.ir.regions(f.owner).len() {
                self.out.push_str(", ");
                let next = self.open_region(f.owner, f.region + 1, f.indent, true, true, true);
                stack.push(Frame { generic: true, ..next });
                continue;
            }
            self.out.push(')');
            self.indent = f.indent;
            self.print_generic_tail(f.owner);
            if !stack.is_empty() {
                self.out.push('\n');
            }
        }
    }

    /// Prints an op up to its first region (generic form with regions: returns the frame of
    /// that region) or completely (returns `None`).
    fn print_op_head(&mut self, op: OpId) -> Option<Frame> {
        self.current = Some(op);
        let data = self.ir.op(op);
        if !self.ir.results(op).is_empty() {
            self.names.push_results(&mut self.out, self.ir, op);
            self.out.push_str(" = ");
        }
        let custom = data.def.and_then(|d| d.syntax);
        if let (Some(syntax), false, true) = (custom, self.opts.generic, self.custom_depth < MAX_CUSTOM_DEPTH)
        {
            self.custom_depth += 1;
            let saved = self.default_dialect;
            let (ir, ctx) = (self.ir, self.ctx);
            (syntax.print)(&mut OpAsmPrinter::new(ir, ctx, self), op);
            self.default_dialect = saved;
            self.custom_depth -= 1;
            self.print_trailing_loc(op);
            return None;
        }
        print_escaped_string(&mut self.out, data.name.as_bytes());
        self.out.push('(');
        self.print_value_list(self.ir.operands(op));
        self.out.push(')');
        let succs = self.ir.successors(op);
        if !succs.is_empty() {
            self.out.push('[');
            for (i, &b) in succs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.names.push_block(&mut self.out, b);
            }
            self.out.push(']');
        }
        if let Some(props) = self.properties_with_defaults(op) {
            if data.def.is_none() || props.as_dict().is_some_and(|d| !d.is_empty()) {
                self.out.push_str(" <");
                print_attr(&mut self.out, props, &self.aliases);
                self.out.push('>');
            }
        }
        if !self.ir.regions(op).is_empty() {
            self.out.push_str(" (");
            let indent = self.indent;
            let frame = self.open_region(op, 0, indent, true, true, true);
            return Some(Frame { generic: true, ..frame });
        }
        self.print_generic_tail(op);
        None
    }

    /// The properties `op` shows in the generic form: its own, and the default of each
    /// inherent attribute with a default value that it does not carry.
    fn properties_with_defaults(&self, op: OpId) -> Option<Attribute<'c>> {
        let data = self.ir.op(op);
        let (Some(def), Some(default)) = (data.def, data.def.and_then(|d| d.default_attr)) else {
            return data.properties;
        };
        let own = data.properties.and_then(|p| p.as_dict()).unwrap_or_default();
        let mut props = own.to_vec();
        for spec in def.attrs {
            if own.iter().all(|a| a.name != spec.name) {
                if let Some(value) = default(self.ctx, spec.name) {
                    props.push(NamedAttr { name: self.ctx.intern_str(spec.name), value });
                }
            }
        }
        if props.len() == own.len() {
            return data.properties;
        }
        props.sort_by(|a, b| a.name.cmp(b.name));
        Some(self.ctx.dict_attr(&props))
    }

    /// ` {attrs} : (types) -> types loc(...)`.
    fn print_generic_tail(&mut self, op: OpId) {
        let data = self.ir.op(op);
        if !data.attrs.is_empty() {
            self.out.push_str(" {");
            for (i, (name, value)) in data.attrs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_named_attr(name, *value);
            }
            self.out.push('}');
        }
        self.out.push_str(" : (");
        for (i, &v) in self.ir.operands(op).iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            print_type(&mut self.out, self.ir.value_type(v), &self.aliases);
        }
        self.out.push_str(") -> ");
        let results = self.ir.results(op);
        let single =
            results.len() == 1 && !matches!(self.ir.value_type(results[0]).kind(), TypeKind::Function { .. });
        if !single {
            self.out.push('(');
        }
        for (i, &v) in results.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            print_type(&mut self.out, self.ir.value_type(v), &self.aliases);
        }
        if !single {
            self.out.push(')');
        }
        self.print_trailing_loc(op);
    }

    fn print_trailing_loc(&mut self, op: OpId) {
        if self.opts.debug_info {
            self.out.push(' ');
            print_location(&mut self.out, self.ir.op(op).loc, &self.aliases);
        }
    }

    /// `name = value`, or `name` for a unit value.
    pub(crate) fn print_named_attr(&mut self, name: &str, value: Attribute<'c>) {
        print_keyword_or_string(&mut self.out, name);
        if !matches!(value.kind(), AttrKind::Unit) {
            self.out.push_str(" = ");
            print_attr(&mut self.out, value, &self.aliases);
        }
    }

    /// `%a, %b`.
    pub(crate) fn print_value_list(&mut self, values: &[crate::ir::ValueId]) {
        for (i, &v) in values.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.names.push_value(&mut self.out, self.ir, v);
        }
    }

    /// Opens region `index` of `owner` (`{`, newline, entry block header if needed) and
    /// returns its frame.
    fn open_region(
        &mut self,
        owner: OpId,
        index: usize,
        indent: usize,
        entry_args: bool,
        terminators: bool,
        empty_block: bool,
    ) -> Frame {
        let region = self.ir.regions(owner)[index];
        let dialect =
            self.ir.op(owner).def.and_then(|d| d.syntax).and_then(|s| s.default_dialect).unwrap_or("");
        self.out.push_str("{\n");
        let entry = self.ir.entry_block(region);
        let mut frame = Frame {
            owner,
            region: index,
            block: entry,
            next: None,
            skip: None,
            indent,
            dialect,
            generic: false,
            terminators,
        };
        if let Some(b) = entry {
            let empty = self.ir.first_op(b).is_none();
            if (empty_block && empty) || (entry_args && !self.ir.block_args(b).is_empty()) {
                self.print_block_header(b, indent);
            }
            frame.next = self.ir.first_op(b);
            frame.skip = self.skipped_terminator(b, terminators);
        }
        frame
    }

    /// Prints a region of a custom op: `{` ... `}` at the current indentation.
    pub(crate) fn print_region_custom(
        &mut self,
        owner: OpId,
        index: usize,
        entry_args: bool,
        terminators: bool,
    ) {
        let (saved_indent, saved_current) = (self.indent, self.current);
        let frame = self.open_region(owner, index, self.indent, entry_args, terminators, false);
        self.run(frame);
        self.indent = saved_indent;
        self.current = saved_current;
    }

    fn skipped_terminator(&self, b: BlockId, terminators: bool) -> Option<OpId> {
        if terminators {
            return None;
        }
        let last = self.ir.last_op(b)?;
        self.ir.op(last).def.is_some_and(|d| d.has_trait(Trait::Terminator)).then_some(last)
    }

    fn print_block_header(&mut self, b: BlockId, indent: usize) {
        push_indent(&mut self.out, indent);
        self.names.push_block(&mut self.out, b);
        let args = self.ir.block_args(b);
        if !args.is_empty() {
            self.out.push('(');
            for (i, &a) in args.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_arg_decl(a);
            }
            self.out.push(')');
        }
        self.out.push(':');
        let is_entry = self.ir.parent_region(b).and_then(|r| self.ir.entry_block(r)) == Some(b);
        let preds = self.names.preds(b);
        match preds.as_slice() {
            [] if is_entry => {}
            [] => self.out.push_str("  // no predecessors"),
            [one] => {
                self.out.push_str("  // pred: ");
                self.names.push_block(&mut self.out, *one);
            }
            many => {
                self.out.push_str("  // ");
                names::push_u32(&mut self.out, many.len() as u32);
                self.out.push_str(" preds: ");
                for (i, &p) in many.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.names.push_block(&mut self.out, p);
                }
            }
        }
        self.out.push('\n');
    }

    /// `%arg0: i32` plus ` loc(...)` (inline, never aliased) with debug info.
    pub(crate) fn print_arg_decl(&mut self, a: crate::ir::ValueId) {
        self.names.push_value(&mut self.out, self.ir, a);
        self.out.push_str(": ");
        print_type(&mut self.out, self.ir.value_type(a), &self.aliases);
        self.print_arg_loc(a);
    }

    /// ` loc(...)` of a block argument, inline, when printing debug info.
    pub(crate) fn print_arg_loc(&mut self, a: crate::ir::ValueId) {
        if self.opts.debug_info {
            let loc = self.ir.value(a).loc.unwrap_or_else(|| self.ctx.unknown_loc());
            self.out.push(' ');
            print_location(&mut self.out, loc, &self.aliases.without(loc));
        }
    }

    /// Prints a type with the current aliases.
    pub(crate) fn push_type(&mut self, ty: Type<'c>) {
        print_type(&mut self.out, ty, &self.aliases);
    }
}

/// Appends `n` spaces.
fn push_indent(out: &mut String, n: usize) {
    const SPACES: &str = "                                                                ";
    let mut n = n;
    while n > SPACES.len() {
        out.push_str(SPACES);
        n -= SPACES.len();
    }
    out.push_str(&SPACES[..n]);
}
