//! `symbol-dce`: erases private symbols that nothing references.
//!
//! Rewrites: inside every symbol table (e.g. `builtin.module`), an op defining a symbol with
//! `sym_visibility = "private"` that no symbol reference anywhere under the pass's root names
//! (by its root name or as a nested reference) is erased; repeated until nothing more dies, so
//! chains of private functions calling each other only from dead code disappear.
//! Assumes: verified IR; references are `SymbolRef` attributes anywhere in attributes or
//! properties (nested in arrays and dictionaries too).
//! Guarantees: public and nested-visibility symbols are kept, and so is every referenced one.

use std::collections::HashSet;

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::{Pass, PassContext, PassInfo, PassOptions};
use kiln_compiler::symbol_table::{is_symbol_table, symbol_name};
use kiln_compiler::{AttrKind, Attribute, Ir, OpId};

/// Registration record.
pub static INFO: PassInfo = PassInfo {
    name: "symbol-dce",
    summary: "Eliminate dead symbols",
    description: "Erases private symbols that are not referenced.",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(SymbolDce)),
};

struct SymbolDce;

impl Pass for SymbolDce {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run<'c>(&mut self, cx: &mut PassContext<'_, 'c>, root: OpId) -> Result<(), ()> {
        let mut total = 0;
        loop {
            let live = referenced(cx.ir, root);
            let dead: Vec<OpId> = cx
                .ir
                .walk(root, WalkOrder::PreOrder)
                .filter(|&op| op != root && is_dead(cx.ir, op, &live))
                .collect();
            if dead.is_empty() {
                break;
            }
            for op in dead {
                if cx.ir.contains_op(op) {
                    cx.ir.erase_op(op);
                    total += 1;
                }
            }
        }
        cx.add_statistic("num-dce'd", "Number of symbols erased", total);
        Ok(())
    }
}

fn is_dead(ir: &Ir<'_>, op: OpId, live: &HashSet<Vec<u8>>) -> bool {
    let Some(name) = symbol_name(ir, op) else { return false };
    let private = ir.attr(op, "sym_visibility").and_then(|v| v.as_str()) == Some(b"private");
    let in_table = ir.parent_op(op).is_some_and(|p| is_symbol_table(ir, p));
    private && in_table && !live.contains(name)
}

/// Every symbol name referenced by an op under `root`, except an op's references to itself.
fn referenced(ir: &Ir<'_>, root: OpId) -> HashSet<Vec<u8>> {
    let mut live = HashSet::new();
    for op in ir.walk(root, WalkOrder::PreOrder) {
        let own = symbol_name(ir, op);
        let data = ir.op(op);
        let mut stack: Vec<Attribute<'_>> = data.attrs.values().copied().collect();
        stack.extend(data.properties);
        while let Some(a) = stack.pop() {
            match *a.kind() {
                AttrKind::SymbolRef { root, nested } => {
                    if Some(root) != own {
                        live.insert(root.to_vec());
                    }
                    live.extend(nested.iter().map(|n| n.to_vec()));
                }
                AttrKind::Array(items) => stack.extend(items),
                AttrKind::Dictionary(entries) => stack.extend(entries.iter().map(|e| e.value)),
                _ => {}
            }
        }
    }
    live
}
