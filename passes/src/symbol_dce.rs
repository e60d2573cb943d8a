//! `symbol-dce`: erases private symbols that nothing references.
//!
//! Rewrites: inside every symbol table (e.g. `builtin.module`), an op defining a symbol with
//! `sym_visibility = "private"` is erased unless it is live: referenced (by its root name or as
//! a nested reference) from outside every private symbol, or from the body of a live one.
//! Liveness propagates with a worklist, so private functions that only call each other (or
//! themselves) die together.
//! Assumes: verified IR; references are `SymbolRef` attributes anywhere in attributes or
//! properties (nested in arrays and dictionaries too).
//! Guarantees: public and nested-visibility symbols are kept, and so is every referenced one.

use std::collections::{HashMap, HashSet};

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::symbol_table::{is_symbol_table, symbol_name};
use kiln_compiler::{AttrKind, Attribute, Ir, OpId};

kiln_compiler::declare_pass! {
    struct SymbolDce;
    name: "symbol-dce",
    summary: "Eliminate dead symbols",
    description: "Erases private symbols that are not referenced.",

    fn run(&mut self, cx, root) {
        let ir = &*cx.ir;
        // Private symbols directly inside a symbol table may die; everything else is a root.
        let candidates: Vec<OpId> =
            ir.walk(root, WalkOrder::PreOrder).filter(|&op| op != root && is_candidate(ir, op)).collect();
        // References made by each candidate's body, and by everything outside candidates.
        let mut refs_of: HashMap<OpId, HashSet<Vec<u8>>> = HashMap::new();
        let mut live: HashSet<Vec<u8>> = HashSet::new();
        for op in ir.walk(root, WalkOrder::PreOrder) {
            let owner = enclosing_candidate(ir, op, root);
            let sink = match owner {
                Some(c) => refs_of.entry(c).or_default(),
                None => &mut live,
            };
            collect_refs(ir, op, sink);
        }
        // Propagate liveness through the bodies of live candidates (a worklist, not recursion).
        let by_name: HashMap<Vec<u8>, OpId> =
            candidates.iter().filter_map(|&c| Some((symbol_name(ir, c)?.to_vec(), c))).collect();
        let mut worklist: Vec<Vec<u8>> = live.iter().cloned().collect();
        while let Some(name) = worklist.pop() {
            let Some(c) = by_name.get(&name) else { continue };
            for r in refs_of.get(c).into_iter().flatten() {
                if live.insert(r.clone()) {
                    worklist.push(r.clone());
                }
            }
        }
        let dead: Vec<OpId> = candidates
            .into_iter()
            .filter(|&c| symbol_name(ir, c).is_some_and(|n| !live.contains(n)))
            .collect();
        let mut erased = 0;
        for op in dead {
            if cx.ir.contains_op(op) {
                cx.ir.erase_op(op);
                erased += 1;
            }
        }
        cx.add_statistic("num-dce'd", "Number of symbols erased", erased);
        Ok(())
    }
}

/// A private symbol directly inside a symbol table.
fn is_candidate(ir: &Ir<'_>, op: OpId) -> bool {
    symbol_name(ir, op).is_some()
        && ir.attr(op, "sym_visibility").and_then(|v| v.as_str()) == Some(b"private")
        && ir.parent_op(op).is_some_and(|p| is_symbol_table(ir, p))
}

/// The outermost candidate enclosing `op` (or `op` itself), below `root`.
fn enclosing_candidate(ir: &Ir<'_>, op: OpId, root: OpId) -> Option<OpId> {
    let mut found = None;
    let mut cur = Some(op);
    while let Some(o) = cur.filter(|&o| o != root) {
        if is_candidate(ir, o) {
            found = Some(o);
        }
        cur = ir.parent_op(o);
    }
    found
}

/// Adds every symbol name referenced by `op`'s attributes and properties to `out`.
fn collect_refs(ir: &Ir<'_>, op: OpId, out: &mut HashSet<Vec<u8>>) {
    let data = ir.op(op);
    let mut stack: Vec<Attribute<'_>> = data.attrs.values().copied().collect();
    stack.extend(data.properties);
    while let Some(a) = stack.pop() {
        match *a.kind() {
            AttrKind::SymbolRef { root, nested } => {
                out.insert(root.to_vec());
                out.extend(nested.iter().map(|n| n.to_vec()));
            }
            AttrKind::Array(items) => stack.extend(items),
            AttrKind::Dictionary(entries) => stack.extend(entries.iter().map(|e| e.value)),
            _ => {}
        }
    }
}
