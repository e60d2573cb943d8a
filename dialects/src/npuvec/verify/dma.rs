//! Verifiers of the DMA ops: `npuvec.load` (GM -> UB or L1) and `npuvec.store` (UB -> GM)
//! through a strided GM view (whose GM buffer may have `?` dims, and whose dims may take their
//! sizes from `extents`), and `npuvec.move` (L1 -> L0A or L0B).

use kiln_compiler::dialect::operand_group;
use kiln_compiler::{Context, Ir, OpId, Signedness, TypeKind, ValueId};

use super::{
    buffer, dims, fail, gm_operand, gm_view_operand, i64_array_attr, operand_name, same_elem, same_shape,
    Buf, VResult,
};
use crate::npuvec::attrs::Space;
use crate::npuvec::MAX_VIEW_DIMS;

/// The view attributes `sizes` / `strides` (see [`view_attrs`]) and the extents (see
/// [`verify_extents`]) against the on-chip buffer `buf`: as many elements as the buffer holds
/// (a zero-padded view: a block within it).
fn verify_view<'c>(ir: &Ir<'c>, op: OpId, buf: &Buf<'c>) -> VResult<'c> {
    let sizes = view_attrs(ir, op, "sizes", "strides")?;
    verify_extents(ir, op, &sizes)?;
    if ir.attr(op, "zero_pad").is_some() {
        // A block at the buffer's top left: the last size is its cols, the rest its rows.
        let cols = *sizes.last().expect("at least one size");
        let rows = sizes[..sizes.len() - 1].iter().try_fold(1i64, |n, &s| n.checked_mul(s));
        if rows.is_none_or(|r| r > buf.rows) || cols > buf.cols {
            return fail(
                ir,
                op,
                format!(
                    "zero-padded view sizes {} are a block larger than the buffer's {}x{}",
                    dims(&sizes),
                    buf.rows,
                    buf.cols
                ),
            );
        }
        return Ok(());
    }
    let count = sizes.iter().try_fold(1i64, |n, &s| n.checked_mul(s));
    let elements = buf.rows.checked_mul(buf.cols);
    if count.is_none() || count != elements {
        return fail(
            ir,
            op,
            format!(
                "view sizes {} hold a different number of elements than the buffer's {}x{}",
                dims(&sizes),
                buf.rows,
                buf.cols
            ),
        );
    }
    Ok(())
}

/// The extents of load or store `op`: each `extents` operand with the view dim it sizes
/// (`extent_dims`), in the order of the dims; checked as the verifier does, so that IR that
/// did not go through it (the emitter's input) gets the same located errors.
pub fn view_extents<'c>(ir: &Ir<'c>, op: OpId) -> VResult<'c, Vec<(usize, ValueId)>> {
    let extents = operand_group(ir, op, "extents").unwrap_or_default();
    if extents.is_empty() && ir.attr(op, "extent_dims").is_none() {
        return Ok(Vec::new());
    }
    let sizes = view_attrs(ir, op, "sizes", "strides")?;
    let dims = verify_extents(ir, op, &sizes)?;
    Ok(dims.into_iter().map(|d| d as usize).zip(extents.iter().copied()).collect())
}

/// The extents of a load or store against its view's `sizes`: one `extent_dims` entry per
/// `extents` operand, strictly increasing dims of the view; the dims.
fn verify_extents<'c>(ir: &Ir<'c>, op: OpId, sizes: &[i64]) -> VResult<'c, Vec<i64>> {
    let count = operand_group(ir, op, "extents").map_or(0, <[_]>::len);
    let extent_dims = match ir.attr(op, "extent_dims") {
        None => Vec::new(),
        Some(_) => i64_array_attr(ir, op, "extent_dims")?,
    };
    if extent_dims.len() != count {
        return fail(
            ir,
            op,
            format!("expected {count} 'extent_dims' (one per extent operand), but got {}", extent_dims.len()),
        );
    }
    if extent_dims.windows(2).any(|w| w[0] >= w[1]) {
        return fail(
            ir,
            op,
            format!("expected strictly increasing 'extent_dims', but got {}", dims(&extent_dims)),
        );
    }
    if let Some(d) = extent_dims.iter().find(|&&d| d < 0 || d >= sizes.len() as i64) {
        return fail(
            ir,
            op,
            format!("expected 'extent_dims' to be dims of the view (0 to {}), but got {d}", sizes.len() - 1),
        );
    }
    Ok(extent_dims)
}

/// The view attributes `sizes_name` / `strides_name` of `op`: the same length (1 to
/// [`MAX_VIEW_DIMS`]), sizes at least 1, strides not negative; the sizes.
fn view_attrs<'c>(ir: &Ir<'c>, op: OpId, sizes_name: &str, strides_name: &str) -> VResult<'c, Vec<i64>> {
    let sizes = i64_array_attr(ir, op, sizes_name)?;
    let strides = i64_array_attr(ir, op, strides_name)?;
    if sizes.is_empty() || sizes.len() > MAX_VIEW_DIMS {
        return fail(ir, op, format!("expected 1 to {MAX_VIEW_DIMS} view dims, but got {}", sizes.len()));
    }
    if strides.len() != sizes.len() {
        return fail(
            ir,
            op,
            format!("expected {} strides (one per size), but got {}", sizes.len(), strides.len()),
        );
    }
    if let Some(s) = sizes.iter().find(|&&s| s < 1) {
        return fail(ir, op, format!("expected view sizes of at least 1, but got {s}"));
    }
    if let Some(s) = strides.iter().find(|&&s| s < 0) {
        return fail(ir, op, format!("expected non-negative view strides, but got {s}"));
    }
    Ok(sizes)
}

/// `npuvec.gather %table, %offset, %indices, %index_offset, %dst`: GM rows by GM indices into
/// UB. `sizes` / `strides` view the table (the first dim is the indexed one, the rest one
/// slice of `dst`'s `C` elements); `index_sizes` / `index_strides` view `dst`'s `R` indices,
/// of `i32` or `i64`.
pub(crate) fn verify_gather<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let (_, elem) = gm_operand(ir, op, 0)?;
    let (_, index) = gm_operand(ir, op, 2)?;
    let dst = buffer(ir, op, 4, &[Space::Ub])?;
    same_elem(ir, op, &operand_name(ir, op, 4), dst.elem, elem)?;
    if !matches!(index.kind(), TypeKind::Integer { width: 32 | 64, signedness: Signedness::Signless }) {
        return fail(
            ir,
            op,
            format!("{} must have element type 'i32' or 'i64', but got '{index}'", operand_name(ir, op, 2)),
        );
    }
    let sizes = view_attrs(ir, op, "sizes", "strides")?;
    let slice = sizes[1..].iter().try_fold(1i64, |n, &s| n.checked_mul(s));
    if slice != Some(dst.cols) {
        return fail(
            ir,
            op,
            format!(
                "table view sizes {} have slices of a different number of elements than the destination's {} cols",
                dims(&sizes),
                dst.cols
            ),
        );
    }
    let index_sizes = view_attrs(ir, op, "index_sizes", "index_strides")?;
    let count = index_sizes.iter().try_fold(1i64, |n, &s| n.checked_mul(s));
    if count != Some(dst.rows) {
        return fail(
            ir,
            op,
            format!(
                "index view sizes {} hold a different number of indices than the destination's {} rows",
                dims(&index_sizes),
                dst.rows
            ),
        );
    }
    Ok(())
}

/// `npuvec.load %gm, %offset, %dst, %extents...`: GM -> UB or L1, one element type.
pub(crate) fn verify_load<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let elem = gm_view_operand(ir, op, 0)?;
    let dst = buffer(ir, op, 2, &[Space::Ub, Space::L1])?;
    same_elem(ir, op, &operand_name(ir, op, 2), dst.elem, elem)?;
    verify_view(ir, op, &dst)
}

/// `npuvec.store %src, %gm, %offset, %extents...`: UB -> GM, one element type.
pub(crate) fn verify_store<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let src = buffer(ir, op, 0, &[Space::Ub])?;
    let elem = gm_view_operand(ir, op, 1)?;
    same_elem(ir, op, &operand_name(ir, op, 0), src.elem, elem)?;
    verify_view(ir, op, &src)
}

/// `npuvec.move %src, %dst`: L1 -> L0A or L0B, one shape and element type.
pub(crate) fn verify_move<'c>(_: &Context<'c>, ir: &Ir<'c>, op: OpId) -> VResult<'c> {
    let src = buffer(ir, op, 0, &[Space::L1])?;
    let dst = buffer(ir, op, 1, &[Space::L0a, Space::L0b])?;
    same_shape(ir, op, &src, &dst)?;
    same_elem(ir, op, &operand_name(ir, op, 1), dst.elem, src.elem)
}
