//! Lowering a layout kernel that assembles its output from parts: `hl.concat` (each operand
//! into its slice of the output) and `hl.pad` (the operand into the interior, the pad value
//! into the border).
//!
//! A *piece* is a box of the output and what fills it: a value of the box's shape that is
//! loaded (a kernel input: a concat operand, the padded operand) or filled (a splat constant:
//! the pad value, or a splat operand the outliner copied into the kernel). Each piece is one
//! tile loop of `lower_vector.rs` over the model of copying its value (the value as the
//! model's input and output): tile by tile, the value is loaded through its GM buffer (or
//! filled with `npuvec.fill`) and stored through a view of the output's GM buffer, the
//! output's dense strides from the box's first element. The pad border is one box per side
//! of each dim `d` with a pad there: the dims before `d` over the operand's range, `d` over
//! the pad, the dims after `d` whole. The boxes are disjoint and cover the output, so no two
//! tiles, on any cores, write one element.
//!
//! `kiln-codegen-tile` sizes the tile for copying the whole output ([`output_model`]); a box
//! is no larger than the output in any dim, so that tile (its column block cut to the box's
//! columns) fits every piece, and the tile loops' buffers have disjoint lifetimes:
//! `kiln-codegen-plan-ub` overlays them. The loops run one after another on every core;
//! `kiln-codegen-insert-sync` orders the reuse of UB between them.

use kiln_compiler::InsertPoint;
use kiln_dialects::hl;
use rustc_hash::FxHashMap;

use kiln_compiler::{BlockId, Context, Ir, OpId, ValueId};
use kiln_dialects::hl::accessors::{float_value, int_list, normalize_axis};
use kiln_dialects::hl::builder::splat;
use kiln_dialects::hl::canonicalize::splat_element;

use super::build::Builder;
use super::lower_vector::{Feed, KernelIo, TileLoop};
use super::model::{dense_strides, VectorModel, View};
use super::tiling::Tiling;

/// The op of a kernel body that assembles the kernel's output from parts (`hl.concat`,
/// `hl.pad`), when the body holds one.
pub fn assembling_op(ir: &Ir<'_>, body: BlockId) -> Option<OpId> {
    ir.block_ops(body).find(|&o| ir.is_any(o, &[&hl::CONCAT, &hl::PAD]))
}

/// The model the tile of a kernel assembling `op`'s result is sized by: copying the result.
pub fn output_model(ir: &Ir<'_>, op: OpId) -> Result<VectorModel, String> {
    let out = ir.results(op)[0];
    VectorModel::analyze_ops(ir, vec![], &[out], vec![out])
}

/// A box of the output: its first element's index in each dim and the value that fills it
/// (of the box's shape).
struct Piece {
    at: Vec<i64>,
    value: ValueId,
}

/// Lowers the layout kernel `kernel`, whose body assembles its output with `hl.concat` or
/// `hl.pad`, in place.
pub fn lower_layout_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) -> Result<(), String> {
    let (io, tiling) = KernelIo::of(ir, kernel)?;
    let [op] = io.ops.iter().copied().filter(|&o| !ir.is(o, &hl::CONSTANT)).collect::<Vec<_>>()[..] else {
        return Err("a layout kernel assembles one value".into());
    };
    let out = ir.results(op)[0];
    if io.outputs != [out] {
        return Err(format!("'{}' must be the kernel's only output", ir.op(op).name));
    }
    let out_shape = ir.value_type(out).shape().ok_or("a non-tensor value")?.to_vec();
    let out_strides = dense_strides(&out_shape);
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(io.old[0]), ir.op(op).loc);
    let pieces = if b.ir.is(op, &hl::CONCAT) { concat_pieces(b.ir, op)? } else { pad_pieces(&mut b, op)? };
    let mut temporaries = Vec::new();
    for piece in &pieces {
        let v = piece.value;
        let feed = match splat_element(b.ir, v) {
            Some(x) => Feed::Fill(x),
            None => Feed::Gm(*io.gm_of.get(&v).ok_or("a part that is neither an input nor a splat")?),
        };
        temporaries.extend(b.ir.defining_op(v).filter(|d| !io.old.contains(d)));
        let model = VectorModel::analyze_ops(b.ir, vec![], &[v], vec![v])?;
        let tiling = Tiling { col_block: tiling.col_block.min(model.cols()), ..tiling.clone() };
        let base = piece.at.iter().zip(&out_strides).map(|(i, s)| i * s).sum();
        let view = View { source: v, strides: out_strides.clone(), base };
        let feeds = FxHashMap::from_iter([(v, feed)]);
        let out_views = FxHashMap::from_iter([(v, view)]);
        let tile_loop = TileLoop {
            model: &model,
            tiling: &tiling,
            feeds: &feeds,
            out_gm: &io.out_gm,
            out_views: &out_views,
            params: None,
        };
        tile_loop.emit(&mut b)?;
    }
    io.erase(ir);
    for t in temporaries {
        ir.erase_op(t);
    }
    Ok(())
}

/// The pieces of `hl.concat`: each operand at its offset along the axis.
fn concat_pieces(ir: &Ir<'_>, op: OpId) -> Result<Vec<Piece>, String> {
    let rank = ir.value_type(ir.results(op)[0]).shape().ok_or("a non-tensor value")?.len();
    let axis = ir.attr(op, "axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let axis = normalize_axis(axis, rank)?;
    let mut at = 0;
    let mut pieces = Vec::new();
    for &x in ir.operands(op) {
        let len = ir.value_type(x).shape().ok_or("a non-tensor value")?[axis];
        let mut start = vec![0; rank];
        start[axis] = at;
        at += len;
        pieces.push(Piece { at: start, value: x });
    }
    Ok(pieces)
}

/// The pieces of `hl.pad`: the operand in the interior, then a splat constant for each side
/// of each padded dim (created before the builder's insertion point).
fn pad_pieces(b: &mut Builder<'_, '_>, op: OpId) -> Result<Vec<Piece>, String> {
    let x = b.ir.operands(op)[0];
    let xt = b.ir.value_type(x);
    let shape = xt.shape().ok_or("a non-tensor value")?.to_vec();
    let elem = xt.element_type().ok_or("a non-tensor value")?;
    let (low, high) = (int_list(b.ir.attr(op, "low"))?, int_list(b.ir.attr(op, "high"))?);
    let value = b.ir.attr(op, "value").and_then(float_value).unwrap_or(0.0);
    let mut pieces = vec![Piece { at: low.clone(), value: x }];
    for d in 0..shape.len() {
        for (start, len) in [(0, low[d]), (low[d] + shape[d], high[d])] {
            if len == 0 {
                continue;
            }
            let mut at = vec![0; shape.len()];
            let mut dims = vec![0; shape.len()];
            for j in 0..shape.len() {
                (at[j], dims[j]) = match j.cmp(&d) {
                    std::cmp::Ordering::Less => (low[j], shape[j]),
                    std::cmp::Ordering::Equal => (start, len),
                    std::cmp::Ordering::Greater => (0, low[j] + shape[j] + high[j]),
                };
            }
            let ty = b.ctx.tensor_type(&dims, elem);
            let attr = splat(b.ctx, ty, value).ok_or_else(|| format!("no pad value of type {elem}"))?;
            let v = b.value(&hl::CONSTANT, &[], &[("value", attr)], ty);
            pieces.push(Piece { at, value: v });
        }
    }
    Ok(pieces)
}
