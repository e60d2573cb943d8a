//! Verifiers of the vector ops (pipe V): every buffer in UB; sources broadcast against the
//! destination as numpy does (`[R, C]`, `[1, C]`, `[R, 1]`, `[1, 1]` against `[R, C]`) or are
//! scalars of the element type (or wide `f64` / `i64` immediates); reductions, casts and transposes keep their shape rules.

use kiln_compiler::{Context, Ir, OpId, Type};

use super::{buffer, dims, fail, operand_name, same_elem, same_shape, Buf, VResult};
use crate::npuvec::attrs::Space;
use crate::npuvec::FRACTAL;

const UB: &[Space] = &[Space::Ub];

/// The element type of source operand `i`: a UB buffer that broadcasts to `dst`, or a scalar.
fn source<'c>(ir: &Ir<'c>, op: OpId, i: usize, dst: &Buf<'c>) -> VResult<'c, Type<'c>> {
    let ty = ir.value_type(ir.operands(op)[i]);
    if ty.shape().is_none() {
        return Ok(ty);
    }
    let src = buffer(ir, op, i, UB)?;
    let fits = |s: i64, d: i64| s == d || s == 1;
    if !(fits(src.rows, dst.rows) && fits(src.cols, dst.cols)) {
        return fail(
            ir,
            op,
            format!(
                "{} of shape {} does not broadcast to the destination shape {}",
                operand_name(ir, op, i),
                dims(&src.shape()),
                dims(&dst.shape())
            ),
        );
    }
    Ok(src.elem)
}

/// Source `i` must broadcast to `dst` and have element type `elem`.
/// A scalar may also be a wide immediate, `f64` for a float `elem` or `i64` for an integer
/// one: the instruction rounds it to `elem` (bytecode keeps immediates as `f64` / `i64`).
fn source_of<'c>(ir: &Ir<'c>, op: OpId, i: usize, dst: &Buf<'c>, elem: Type<'c>) -> VResult<'c> {
    let got = source(ir, op, i, dst)?;
    let scalar = ir.value_type(ir.operands(op)[i]).shape().is_none();
    let wide = scalar && got.bit_width() == Some(64) && got.is_float() == elem.is_float();
    if wide {
        return Ok(());
    }
    same_elem(ir, op, &operand_name(ir, op, i), got, elem)
}

/// The destination (the last operand) as a UB buffer.
fn dst<'c>(ir: &Ir<'c>, op: OpId) -> VResult<'c, Buf<'c>> {
    buffer(ir, op, ir.operands(op).len() - 1, UB)
}

/// Unary ops and `npuvec.copy`: `src` and `dst` in UB (their types agree by declaration).
pub(crate) fn verify_unary<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    buffer(ir, op, 0, UB)?;
    dst(ir, op).map(drop)
}

/// Binary ops: both sources of `dst`'s element type.
pub(crate) fn verify_binary<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let dst = dst(ir, op)?;
    source_of(ir, op, 0, &dst, dst.elem)?;
    source_of(ir, op, 1, &dst, dst.elem)
}

/// `npuvec.cmp`: sources of one element type, an `i1` destination.
pub(crate) fn verify_cmp<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let dst = dst(ir, op)?;
    if !(dst.elem.is_integer() && dst.elem.bit_width() == Some(1)) {
        return fail(
            ir,
            op,
            format!("{} must have element type 'i1', but got '{}'", operand_name(ir, op, 2), dst.elem),
        );
    }
    let lhs = source(ir, op, 0, &dst)?;
    source_of(ir, op, 1, &dst, lhs)
}

/// `npuvec.select`: an `i1` mask, values of `dst`'s element type.
pub(crate) fn verify_select<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let dst = dst(ir, op)?;
    // The mask is a buffer: the instruction has no immediate mask (a constant condition
    // selects one side at compile time).
    buffer(ir, op, 0, UB)?;
    source_of(ir, op, 0, &dst, ctx.int_type(1))?;
    source_of(ir, op, 1, &dst, dst.elem)?;
    source_of(ir, op, 2, &dst, dst.elem)
}

/// `npuvec.reduce`: `[R, C]` -> `[R, 1]`, one element type (or an f32 accumulator of an f16 / bf16 row).
pub(crate) fn verify_reduce<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let src = buffer(ir, op, 0, UB)?;
    let dst = dst(ir, op)?;
    if dst.shape() != [src.rows, 1] {
        return fail(
            ir,
            op,
            format!(
                "expected destination shape {} for a source of shape {}, but got {}",
                dims(&[src.rows, 1]),
                dims(&src.shape()),
                dims(&dst.shape())
            ),
        );
    }
    // An f16 / bf16 row may fold into an f32 accumulator (rounded once afterwards).
    let wide = dst.elem.bit_width() == Some(32)
        && dst.elem.is_float()
        && src.elem.is_float()
        && src.elem.bit_width() == Some(16);
    if wide {
        return Ok(());
    }
    same_elem(ir, op, &operand_name(ir, op, 1), dst.elem, src.elem)
}

/// `npuvec.broadcast`: a UB buffer source that broadcasts to `dst`, one element type.
pub(crate) fn verify_broadcast<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let dst = dst(ir, op)?;
    buffer(ir, op, 0, UB)?;
    source_of(ir, op, 0, &dst, dst.elem)
}

/// `npuvec.fill`: a UB destination (the scalar's type is checked by declaration).
pub(crate) fn verify_fill<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    dst(ir, op).map(drop)
}

/// `npuvec.cast`: one shape, any element types.
pub(crate) fn verify_cast<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let src = buffer(ir, op, 0, UB)?;
    let dst = dst(ir, op)?;
    same_shape(ir, op, &src, &dst)
}

/// `npuvec.transpose`: `[r, c]` -> `[c, r]` with `r` and `c` multiples of the fractal, one
/// element type.
pub(crate) fn verify_transpose<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let src = buffer(ir, op, 0, UB)?;
    let dst = dst(ir, op)?;
    if src.rows % FRACTAL != 0 || src.cols % FRACTAL != 0 {
        return fail(
            ir,
            op,
            format!("expected source dims that are multiples of {FRACTAL}, but got {}", dims(&src.shape())),
        );
    }
    if dst.shape() != [src.cols, src.rows] {
        return fail(
            ir,
            op,
            format!(
                "expected destination shape {} for a source of shape {}, but got {}",
                dims(&[src.cols, src.rows]),
                dims(&src.shape()),
                dims(&dst.shape())
            ),
        );
    }
    same_elem(ir, op, &operand_name(ir, op, 1), dst.elem, src.elem)
}
