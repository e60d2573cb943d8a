//! The pass manager: runs passes on an anchor op and nested pass managers on the ops directly
//! nested in it whose name matches, with instrumentation around every pass.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use indexmap::IndexMap;

use super::instrument::display_name;
use super::{Instrumentation, Pass, PassContext, PassFailed, PassOptions};
use crate::context::Context;
use crate::diagnostics::{Diagnostic, Severity};
use crate::ir::{Ir, OpId};
use crate::verifier::verify;

/// One element of a pipeline: a pass with the options it was created with, or a nested manager.
pub(super) enum Entry {
    Pass(Box<dyn Pass>, PassOptions),
    Nested(PassManager),
}

/// A list of passes and nested pass managers anchored on an op name (`None`: any op).
pub struct PassManager {
    anchor: Option<String>,
    entries: Vec<Entry>,
}

impl PassManager {
    /// An empty pass manager for ops named `anchor` (`None`: any op).
    pub fn new(anchor: Option<&str>) -> Self {
        PassManager { anchor: anchor.map(str::to_string), entries: Vec::new() }
    }

    pub(super) fn with_entries(anchor: Option<String>, entries: Vec<Entry>) -> Self {
        PassManager { anchor, entries }
    }

    /// Appends a pass created with `options` (printed back by the pipeline dump).
    pub fn add_pass(&mut self, pass: Box<dyn Pass>, options: PassOptions) {
        self.entries.push(Entry::Pass(pass, options));
    }

    /// Appends a nested pass manager and returns it.
    pub fn nest(&mut self, anchor: &str) -> &mut PassManager {
        self.entries.push(Entry::Nested(PassManager::new(Some(anchor))));
        match self.entries.last_mut() {
            Some(Entry::Nested(pm)) => pm,
            _ => unreachable!("just pushed a nested pass manager"),
        }
    }

    /// Whether there is nothing to run.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Runs the pipeline on `op`. Every diagnostic produced (remarks included) is pushed to
    /// `diagnostics`; `Err` means a pass failed or the IR did not verify after a pass.
    pub fn run<'c>(
        &mut self,
        ctx: &Context<'c>,
        ir: &mut Ir<'c>,
        op: OpId,
        instr: &mut Instrumentation<'_>,
        diagnostics: &mut Vec<Diagnostic<'c>>,
    ) -> Result<(), PassFailed> {
        if let Some(anchor) = &self.anchor {
            let name = ir.op(op).name;
            if name != anchor {
                let msg = format!("can't run '{anchor}' pass manager on '{name}' op");
                diagnostics.push(Diagnostic::error(ir.op(op).loc, msg));
                return Err(PassFailed);
            }
        }
        self.begin_run();
        let mut run = Run { ctx, ir, instr, diagnostics, path: Vec::new(), positions: Vec::new() };
        self.run_entries(&mut run, op)
    }

    /// Tells every pass, nested ones included, that a run starts.
    fn begin_run(&mut self) {
        for entry in &mut self.entries {
            match entry {
                Entry::Pass(pass, _) => pass.begin_run(),
                Entry::Nested(pm) => pm.begin_run(),
            }
        }
    }

    fn run_entries(&mut self, run: &mut Run<'_, '_, '_>, op: OpId) -> Result<(), PassFailed> {
        for (position, entry) in self.entries.iter_mut().enumerate() {
            run.positions.push(position);
            let result = Self::run_entry(entry, run, op);
            run.positions.pop();
            result?;
        }
        Ok(())
    }

    fn run_entry(entry: &mut Entry, run: &mut Run<'_, '_, '_>, op: OpId) -> Result<(), PassFailed> {
        let pm = match entry {
            Entry::Pass(pass, _) => return run.pass(pass.as_mut(), op),
            Entry::Nested(pm) => pm,
        };
        let ir = &*run.ir;
        let children: Vec<OpId> = ir
            .regions(op)
            .iter()
            .flat_map(|&r| ir.region_blocks(r))
            .flat_map(|b| ir.block_ops(b))
            .filter(|&c| pm.anchor.as_deref().is_none_or(|a| ir.op(c).name == a))
            .collect();
        run.path.push(format!("'{}' Pipeline", pm.anchor.as_deref().unwrap_or("any")));
        let start = Instant::now();
        let result = children.into_iter().try_for_each(|child| pm.run_entries(run, child));
        run.instr.add_time(&run.path, start.elapsed());
        run.path.pop();
        result
    }
}

/// What a pipeline run carries from pass to pass.
struct Run<'r, 'c, 'p> {
    ctx: &'r Context<'c>,
    ir: &'r mut Ir<'c>,
    instr: &'r mut Instrumentation<'p>,
    diagnostics: &'r mut Vec<Diagnostic<'c>>,
    /// The pipeline nesting, for timing and statistics (`'func.func' Pipeline`, `Cse`).
    path: Vec<String>,
    /// The position of the running entry in each enclosing pipeline (for tree-dir file names).
    positions: Vec<usize>,
}

impl<'c> Run<'_, 'c, '_> {
    /// Runs one pass on `op` with the instrumentation around it.
    fn pass(&mut self, pass: &mut dyn Pass, op: OpId) -> Result<(), PassFailed> {
        let Run { ctx, ir, instr, diagnostics, path, positions } = self;
        let ctx: &Context<'c> = ctx;
        let info = pass.info();
        let name = ir.op(op).name;
        if let Some(anchor) = info.anchor {
            if anchor != name {
                let msg = format!("can't run '{}' pass on '{name}' op: it runs on '{anchor}' ops", info.name);
                diagnostics.push(Diagnostic::error(ir.op(op).loc, msg));
                return Err(PassFailed);
            }
        }
        let printer = instr.printer;
        // What dumps show: the op the pass runs on, or the whole top-level op.
        let mut shown = op;
        while let Some(parent) = ir.parent_op(shown).filter(|_| instr.module_scope) {
            shown = parent;
        }
        let dump_file = instr.tree_dir.as_ref().map(|dir| tree_dump_path(ir, dir, op, positions, info.name));
        let dump_file = dump_file.as_deref();
        let described = match ir.attr(op, "sym_name").and_then(|a| a.as_str()) {
            Some(sym) => format!("'{name}' operation: @{}", String::from_utf8_lossy(sym)),
            None => format!("'{name}' operation"),
        };
        let scope = if shown == op { String::new() } else { format!(" ({described})") };
        if let Some(print) = printer.filter(|_| instr.wants_before(info.name)) {
            let text = print(ctx, ir, shown);
            instr.dump("Before", info.name, false, &scope, dump_file, &text);
        }
        let before = printer.filter(|_| instr.print_after_change).map(|print| print(ctx, ir, shown));
        let errors_before = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        let mut stats = IndexMap::new();
        let start = Instant::now();
        let result = pass.run(&mut PassContext { ctx, ir, diagnostics, statistics: &mut stats }, op);
        path.push(display_name(info.name));
        instr.add_time(path, start.elapsed());
        instr.add_stats(path, stats);
        path.pop();
        let errors_after = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        let failed = result.is_err() || errors_after > errors_before;
        if failed && instr.failure.is_none() {
            instr.failure = Some(format!("`{}` on {described}", display_name(info.name)));
        }
        if failed {
            if errors_after == errors_before {
                diagnostics.push(Diagnostic::error(ir.op(op).loc, format!("pass '{}' failed", info.name)));
            }
            if let Some(print) = printer.filter(|_| instr.print_after_failure) {
                let text = print(ctx, ir, shown);
                instr.dump("After", info.name, true, &scope, dump_file, &text);
            }
            return Err(PassFailed);
        }
        if instr.verify_each {
            if let Err(errors) = verify(ctx, ir, op) {
                diagnostics.extend(errors);
                instr.failure.get_or_insert_with(|| format!("`{}` on {described}", display_name(info.name)));
                if let Some(print) = printer.filter(|_| instr.print_after_failure) {
                    let text = print(ctx, ir, shown);
                    instr.dump("After", info.name, true, &scope, dump_file, &text);
                }
                return Err(PassFailed);
            }
        }
        if let Some(print) = printer.filter(|_| instr.wants_after(info.name)) {
            let text = print(ctx, ir, shown);
            if before.as_deref() != Some(text.as_str()) || !instr.print_after_change {
                instr.dump("After", info.name, false, &scope, dump_file, &text);
            }
        }
        Ok(())
    }
}

impl PassManager {
    /// The pipeline as `mlir-opt --dump-pass-pipeline` prints it: a header with the number of
    /// top-level entries, then one entry per line, nested managers indented, every pass with
    /// all its options (see [`PassOptions::render`]), so the text pastes back into `-p`.
    /// A manager anchored on any op prints as `top` (the name of the op it will run on).
    pub fn dump(&self, top: &str) -> String {
        let mut out = format!("Pass Manager with {} passes:\n", self.entries.len());
        self.dump_into(&mut out, 0, top);
        out.push('\n');
        out
    }

    fn dump_into(&self, out: &mut String, indent: usize, top: &str) {
        out.push_str(self.anchor.as_deref().unwrap_or(top));
        out.push_str("(\n");
        for (i, e) in self.entries.iter().enumerate() {
            out.push_str(&" ".repeat(indent + 2));
            match e {
                Entry::Pass(p, options) => {
                    out.push_str(p.info().name);
                    out.push_str(&options.render());
                }
                Entry::Nested(pm) => pm.dump_into(out, indent + 2, "any"),
            }
            out.push_str(if i + 1 < self.entries.len() { ",\n" } else { "\n" });
        }
        out.push_str(&" ".repeat(indent));
        out.push(')');
    }
}

impl PassManager {
    /// The pipeline in textual form on one line, with every pass's options, e.g.
    /// `builtin.module(func.func(cse, canonicalize{max-iterations=10}))`; a manager anchored
    /// on any op prints as `top`, so that the text runs the same passes on a `top` op again.
    pub fn textual(&self, top: &str) -> String {
        let entries: Vec<String> = self
            .entries
            .iter()
            .map(|e| match e {
                Entry::Pass(p, options) => format!("{}{}", p.info().name, options.render()),
                Entry::Nested(pm) => pm.to_string(),
            })
            .collect();
        format!("{}({})", self.anchor.as_deref().unwrap_or(top), entries.join(", "))
    }
}

impl fmt::Display for PassManager {
    /// [`PassManager::textual`], a manager for any op printing as `any`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.textual("any"))
    }
}

/// Where `--mlir-print-ir-tree-dir` puts the dumps of a pass on `op`, as mlir-opt names them:
/// one folder per op from the top-level op down (`builtin_module_no-symbol-name/func_func_f`),
/// and a file named by the pass's position in each enclosing pipeline and its argument
/// (`0_1_canonicalize.mlir`).
fn tree_dump_path(ir: &Ir<'_>, dir: &Path, op: OpId, positions: &[usize], pass: &str) -> PathBuf {
    let mut chain = vec![op];
    while let Some(parent) = ir.parent_op(*chain.last().unwrap_or(&op)) {
        chain.push(parent);
    }
    let mut path = dir.to_path_buf();
    for &o in chain.iter().rev() {
        let name = ir.op(o).name.replace('.', "_");
        let sym = ir.attr(o, "sym_name").and_then(|a| a.as_str());
        let sym =
            sym.map_or_else(|| "no-symbol-name".to_string(), |s| String::from_utf8_lossy(s).into_owned());
        path.push(format!("{name}_{sym}"));
    }
    let index: Vec<String> = positions.iter().map(usize::to_string).collect();
    path.push(format!("{}_{pass}.mlir", index.join("_")));
    path
}
