//! Verifiers of the `npuvec` ops, for what their declarations cannot say: memory spaces,
//! static 2-D on-chip buffers, broadcasting, view sizes, cube shapes, sync operands and kernel
//! references. This file holds the checks they share; the op-specific rules live beside it,
//! one file per family (`dma`, `vector`, `cube`, `sync`, `buffers`, `host`), and the
//! dialect's attributes of a shape class on other ops in `class`.

pub(crate) mod buffers;
pub(crate) mod class;
pub(crate) mod cube;
pub(crate) mod dma;
pub(crate) mod host;
pub(crate) mod sync;
pub(crate) mod vector;

use kiln_compiler::{Diagnostic, Ir, OpId, Type, TypeKind, DYNAMIC};

use super::attrs::{i64_array, Space};

/// What a verifier returns.
pub(crate) type VResult<'c, T = ()> = Result<T, Diagnostic<'c>>;

/// An on-chip buffer: `rows x cols` elements of `elem` (a static 2-D memref in a non-GM space).
#[derive(Clone, Copy)]
pub(crate) struct Buf<'c> {
    pub rows: i64,
    pub cols: i64,
    pub elem: Type<'c>,
}

impl Buf<'_> {
    pub fn shape(&self) -> [i64; 2] {
        [self.rows, self.cols]
    }
}

/// An op error (`'npuvec.add' op <message>`).
pub(crate) fn fail<'c, T>(ir: &Ir<'c>, op: OpId, message: impl std::fmt::Display) -> VResult<'c, T> {
    Err(Diagnostic::op_error(ir, op, message))
}

/// How messages name operand `i`: `operand #2 ('dst')`.
pub(crate) fn operand_name(ir: &Ir<'_>, op: OpId, i: usize) -> String {
    let name = ir.op(op).def.and_then(|d| d.operands.defs().get(i)).map(|d| d.name);
    match name {
        Some(n) => format!("operand #{i} ('{n}')"),
        None => format!("operand #{i}"),
    }
}

/// `#npuvec.space<ub> or #npuvec.space<l1>`.
fn describe_spaces(spaces: &[Space]) -> String {
    let names: Vec<String> = spaces.iter().map(|s| format!("#npuvec.space<{}>", s.keyword())).collect();
    names.join(" or ")
}

/// The `npuvec` memory space of a memref type (see [`Space::of_memory_space`]).
pub(crate) fn space_of(ty: Type<'_>) -> Option<Space> {
    match *ty.kind() {
        TypeKind::MemRef { memory_space, .. } => Space::of_memory_space(memory_space),
        _ => None,
    }
}

/// The static identity-layout memref `ty` in one of `spaces`, with its shape and element type.
fn static_memref<'c>(ty: Type<'c>, spaces: &[Space]) -> Option<(&'c [i64], Type<'c>)> {
    memref_in(ty, spaces).filter(|(shape, _)| shape.iter().all(|&d| d != DYNAMIC))
}

/// The identity-layout memref `ty` in one of `spaces` (`?` dims allowed), with its shape and
/// element type.
fn memref_in<'c>(ty: Type<'c>, spaces: &[Space]) -> Option<(&'c [i64], Type<'c>)> {
    match *ty.kind() {
        TypeKind::MemRef { shape, elem, layout: None, .. }
            if space_of(ty).is_some_and(|s| spaces.contains(&s)) =>
        {
            Some((shape, elem))
        }
        _ => None,
    }
}

/// Checks that `ty` (described by `what`) is an on-chip buffer in one of `spaces`.
pub(crate) fn check_buffer<'c>(
    ir: &Ir<'c>,
    op: OpId,
    what: &str,
    ty: Type<'c>,
    spaces: &[Space],
) -> VResult<'c, Buf<'c>> {
    match static_memref(ty, spaces) {
        Some((&[rows, cols], elem)) => Ok(Buf { rows, cols, elem }),
        _ => fail(
            ir,
            op,
            format!("{what} must be a static 2-D memref in {}, but got '{ty}'", describe_spaces(spaces)),
        ),
    }
}

/// Operand `i` as an on-chip buffer in one of `spaces`.
pub(crate) fn buffer<'c>(ir: &Ir<'c>, op: OpId, i: usize, spaces: &[Space]) -> VResult<'c, Buf<'c>> {
    let ty = ir.value_type(ir.operands(op)[i]);
    check_buffer(ir, op, &operand_name(ir, op, i), ty, spaces)
}

/// Operand `i` as a static memref in GM: its shape and element type.
pub(crate) fn gm_operand<'c>(ir: &Ir<'c>, op: OpId, i: usize) -> VResult<'c, (&'c [i64], Type<'c>)> {
    let ty = ir.value_type(ir.operands(op)[i]);
    check_gm(ir, op, &operand_name(ir, op, i), ty)
}

/// Operand `i` as a memref in GM whose dims may be `?` (the GM view of a load or store, whose
/// size a shape class's extents bound at run time): its element type.
pub(crate) fn gm_view_operand<'c>(ir: &Ir<'c>, op: OpId, i: usize) -> VResult<'c, Type<'c>> {
    let ty = ir.value_type(ir.operands(op)[i]);
    match memref_in(ty, &[Space::Gm]) {
        Some((_, elem)) => Ok(elem),
        None => fail(
            ir,
            op,
            format!("{} must be a memref in #npuvec.space<gm>, but got '{ty}'", operand_name(ir, op, i)),
        ),
    }
}

/// Checks that `ty` (described by `what`) is a static memref in GM.
pub(crate) fn check_gm<'c>(
    ir: &Ir<'c>,
    op: OpId,
    what: &str,
    ty: Type<'c>,
) -> VResult<'c, (&'c [i64], Type<'c>)> {
    static_memref(ty, &[Space::Gm]).map_or_else(
        || fail(ir, op, format!("{what} must be a static memref in #npuvec.space<gm>, but got '{ty}'")),
        Ok,
    )
}

/// Checks that two element types agree: `what` must have element type `want`.
pub(crate) fn same_elem<'c>(ir: &Ir<'c>, op: OpId, what: &str, got: Type<'c>, want: Type<'c>) -> VResult<'c> {
    if got == want {
        return Ok(());
    }
    fail(ir, op, format!("{what} must have element type '{want}', but got '{got}'"))
}

/// Inherent attribute `name` as an `array<i64: ...>` (MLIR's `DenseI64ArrayAttr` wording).
pub(crate) fn i64_array_attr<'c>(ir: &Ir<'c>, op: OpId, name: &str) -> VResult<'c, Vec<i64>> {
    match ir.attr(op, name).and_then(i64_array) {
        Some(values) => Ok(values),
        None => fail(
            ir,
            op,
            format!("attribute '{name}' failed to satisfy constraint: i64 dense array attribute"),
        ),
    }
}

/// `[8, 64]`.
pub(crate) fn dims(shape: &[i64]) -> String {
    let parts: Vec<String> = shape.iter().map(i64::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// Checks that a source and a destination buffer have one shape.
pub(crate) fn same_shape<'c>(ir: &Ir<'c>, op: OpId, src: &Buf<'c>, dst: &Buf<'c>) -> VResult<'c> {
    if src.shape() == dst.shape() {
        return Ok(());
    }
    fail(
        ir,
        op,
        format!(
            "expected source and destination of one shape, but got {} and {}",
            dims(&src.shape()),
            dims(&dst.shape())
        ),
    )
}
