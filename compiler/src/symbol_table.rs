//! Symbols: ops with a `sym_name` inside the region of a symbol-table op (`builtin.module`),
//! and lookup of (nested) symbol references from any op, as MLIR's `SymbolTable` does.

use indexmap::IndexMap;

use crate::attributes::AttrKind;
use crate::dialect::Trait;
use crate::ir::{Ir, OpId};

/// The symbol name of `op` (its `sym_name` string attribute), if it defines one.
pub fn symbol_name<'c>(ir: &Ir<'c>, op: OpId) -> Option<&'c [u8]> {
    ir.attr(op, "sym_name")?.as_str()
}

/// Whether `op` holds a symbol table (by trait, or — for unregistered ops — never).
pub fn is_symbol_table(ir: &Ir<'_>, op: OpId) -> bool {
    ir.op(op).def.is_some_and(|d| d.has_trait(Trait::SymbolTable))
}

/// The closest op enclosing `op` (or `op` itself) that is a symbol table.
pub fn nearest_symbol_table(ir: &Ir<'_>, op: OpId) -> Option<OpId> {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if is_symbol_table(ir, o) {
            return Some(o);
        }
        cur = ir.parent_op(o);
    }
    None
}

/// The symbols directly inside symbol table `table`, by name, in program order.
pub fn symbols<'c>(ir: &Ir<'c>, table: OpId) -> IndexMap<&'c [u8], OpId> {
    let mut map = IndexMap::new();
    for &r in ir.regions(table) {
        for b in ir.region_blocks(r) {
            for op in ir.block_ops(b) {
                if let Some(name) = symbol_name(ir, op) {
                    map.entry(name).or_insert(op);
                }
            }
        }
    }
    map
}

/// Looks a symbol up directly inside `table`.
pub fn lookup_in(ir: &Ir<'_>, table: OpId, name: &[u8]) -> Option<OpId> {
    for &r in ir.regions(table) {
        for b in ir.region_blocks(r) {
            if let Some(op) = ir.block_ops(b).find(|&op| symbol_name(ir, op) == Some(name)) {
                return Some(op);
            }
        }
    }
    None
}

/// Resolves a symbol reference attribute (`@a` or `@a::@b`) as seen from `from`: the root is
/// looked up in the nearest enclosing symbol table, nested names inside the ops found.
pub fn resolve(ir: &Ir<'_>, from: OpId, symbol: crate::Attribute<'_>) -> Option<OpId> {
    let AttrKind::SymbolRef { root, nested } = *symbol.kind() else { return None };
    let table = nearest_symbol_table(ir, ir.parent_op(from).unwrap_or(from))?;
    let mut found = lookup_in(ir, table, root)?;
    for name in nested {
        found = lookup_in(ir, found, name)?;
    }
    Some(found)
}
