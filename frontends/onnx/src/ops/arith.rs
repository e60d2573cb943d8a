//! Short-hands the decompositions use to build `hl` arithmetic on importer values: a unary or
//! binary op, a scalar of a value's element type, a comparison, a reduction.

use kiln_compiler::OpDef;
use kiln_dialects::hl;
use kiln_dialects::hl::attrs::CmpPredicate;

use crate::graph::{Importer, Val};

/// `def(x)`.
pub(super) fn un(imp: &mut Importer<'_, '_, '_, '_>, def: &'static OpDef, x: &Val) -> Result<Val, String> {
    imp.op(def, &[x], &[], None)
}

/// `def(a, b)` with broadcasting.
pub(super) fn bin(
    imp: &mut Importer<'_, '_, '_, '_>,
    def: &'static OpDef,
    a: &Val,
    b: &Val,
) -> Result<Val, String> {
    imp.op(def, &[a, b], &[], None)
}

/// `def(x, c)` for a scalar `c` of `x`'s element type.
pub(super) fn bin_c(
    imp: &mut Importer<'_, '_, '_, '_>,
    def: &'static OpDef,
    x: &Val,
    c: f64,
) -> Result<Val, String> {
    let s = imp.scalar_like(x, c)?;
    bin(imp, def, x, &s)
}

/// `hl.cmp` of `a` and `b`.
pub(super) fn cmp(
    imp: &mut Importer<'_, '_, '_, '_>,
    a: &Val,
    b: &Val,
    p: CmpPredicate,
) -> Result<Val, String> {
    let attr = p.attr(imp.ctx());
    imp.op(&hl::CMP, &[a, b], &[("predicate", attr)], None)
}

/// `hl.cmp` of `x` and a scalar `c` of its element type.
pub(super) fn cmp_c(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    c: f64,
    p: CmpPredicate,
) -> Result<Val, String> {
    let s = imp.scalar_like(x, c)?;
    cmp(imp, x, &s, p)
}

/// `hl.select(c, a, b)`.
pub(super) fn select(imp: &mut Importer<'_, '_, '_, '_>, c: &Val, a: &Val, b: &Val) -> Result<Val, String> {
    imp.op(&hl::SELECT, &[c, a, b], &[], None)
}

/// `def(x) {axes, keep_dims}` (axes in `0..rank`, sorted).
pub(super) fn reduce(
    imp: &mut Importer<'_, '_, '_, '_>,
    def: &'static OpDef,
    x: &Val,
    axes: &[i64],
    keep: bool,
) -> Result<Val, String> {
    let mut attrs = vec![("axes", imp.ints_attr(axes))];
    if keep {
        attrs.push(("keep_dims", imp.bool_attr(true)));
    }
    imp.op(def, &[x], &attrs, None)
}

/// Whether `x` has a float element type; else an error naming `op`.
pub(super) fn require_float(imp: &Importer<'_, '_, '_, '_>, x: &Val, op: &str) -> Result<(), String> {
    if imp.dtype(x)?.is_float() {
        Ok(())
    } else {
        Err(format!("`{op}` needs a float input, not {}", imp.elem(x)))
    }
}
