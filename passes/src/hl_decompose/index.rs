//! The expansions of the `hl` index ops (part of `hl-decompose`), each exact: pure index
//! arithmetic on `i64`, then one `hl.gather` of rows or one reduction, which the back end lowers.
//!
//! - `argmax(x, axis)` / `argmin` -> `m = reduce_max(x)` (`reduce_min`; NaN-propagating), the
//!   hits `x == m` (and, for floats, `x != x`: a NaN is the largest and the smallest), the
//!   index along `axis` where a hit is, else the axis's size, and the `reduce_min` of those: the
//!   first hit, the first NaN when there is one (the interpreter's rule). `i1` is compared as
//!   `i32` (`false < true`).
//! - `gather_elements(data, indices, axis)` -> `data` flattened to `[N]`, the flat index of each
//!   element (`indices`, made non-negative, times the stride of `axis`, plus the offset of the
//!   element's other coordinates), and `hl.gather` of those elements;
//! - `gather_nd(data, indices, batch_dims)` -> `data` as rows `[R, inner]` (the batch and indexed
//!   dims, then the rest), the row of each index tuple (its batch offset plus the tuple's
//!   components, each made non-negative, times their strides), and `hl.gather` of those rows.
//!
//! An index out of range becomes the row count, which `hl.gather` refuses at run time (an
//! error, never another element), as the interpreter refuses the index.

use kiln_compiler::rewrite::Rewriter;
use kiln_compiler::{OpId, Type, ValueId};
use kiln_dialects::hl::accessors::{bool_attr, normalize_axis, tensor_parts};
use kiln_dialects::hl::attrs::CmpPredicate;
use kiln_dialects::hl::builder::HlBuilder;
use kiln_dialects::hl::interp::{DType, Tensor};
use kiln_dialects::hl::{self as hl};

use super::model::constant;

/// The ops of this module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IndexOp {
    ArgMax,
    ArgMin,
    GatherElements,
    GatherNd,
}

/// Builds the expansion of `op` (a `kind` op) before it.
pub(super) fn expand<'c>(rw: &mut Rewriter<'_, 'c>, op: OpId, kind: IndexOp) -> Result<ValueId, String> {
    let ir = rw.ir();
    let args = ir.operands(op).to_vec();
    let result = ir.value_type(ir.results(op)[0]);
    let int_attr = |n: &str| ir.attr(op, n).and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let (axis, batch_dims, keep) =
        (int_attr("axis"), int_attr("batch_dims"), bool_attr(ir.attr(op, "keep_dims")));
    let mut b = HlBuilder::new(rw, op);
    match kind {
        IndexOp::ArgMax | IndexOp::ArgMin => arg_reduce(&mut b, args[0], axis, keep, kind == IndexOp::ArgMax),
        IndexOp::GatherElements => gather_elements(&mut b, args[0], args[1], axis),
        IndexOp::GatherNd => gather_nd(&mut b, args[0], args[1], batch_dims, result),
    }
}

/// The static shape and element type of `v`.
fn parts<'c>(b: &HlBuilder<'_, '_, 'c>, v: ValueId) -> Result<(Vec<i64>, Type<'c>), String> {
    let (s, e) = tensor_parts(b.rw.ir().value_type(v)).ok_or("operand is not a ranked tensor")?;
    Ok((s.to_vec(), e))
}

/// `v` (an integer tensor) as `i64`.
fn to_i64(b: &mut HlBuilder<'_, '_, '_>, v: ValueId) -> Result<ValueId, String> {
    let (shape, elem) = parts(b, v)?;
    let i64t = b.rw.ctx.int_type(64);
    if elem == i64t {
        return Ok(v);
    }
    let ty = b.rw.ctx.tensor_type(&shape, i64t);
    b.create(&hl::CAST, &[v], &[], Some(ty))
}

/// An `i64` scalar.
fn int(b: &mut HlBuilder<'_, '_, '_>, v: i64) -> Result<ValueId, String> {
    let i64t = b.rw.ctx.int_type(64);
    b.scalar(i64t, v as f64).and_then(|s| {
        if v.unsigned_abs() < 1 << 53 {
            Ok(s)
        } else {
            Err("index beyond 2^53".into())
        }
    })
}

/// `pred(a, b)` as `i1`.
fn cmp(b: &mut HlBuilder<'_, '_, '_>, pred: CmpPredicate, x: ValueId, y: ValueId) -> Result<ValueId, String> {
    let p = pred.attr(b.rw.ctx);
    b.create(&hl::CMP, &[x, y], &[("predicate", p)], None)
}

/// The coordinate along `dim` of every element of a tensor of `shape`, as an `i64` tensor of
/// `shape`'s rank with only `dim` longer than 1 (it broadcasts).
fn coordinate(b: &mut HlBuilder<'_, '_, '_>, shape: &[i64], dim: usize) -> Result<ValueId, String> {
    let mut dims = vec![1i64; shape.len()];
    dims[dim] = shape[dim];
    let t = Tensor::from_i64s(
        DType::I64,
        dims.iter().map(|&d| d as usize).collect(),
        &(0..shape[dim]).collect::<Vec<_>>(),
    )
    .map_err(|e| e.to_string())?;
    let i64t = b.rw.ctx.int_type(64);
    constant(b, &dims, i64t, &t)
}

/// `i` made non-negative for a dim of `size` (`i + size` for negative `i`), or `out` where it is
/// outside `[-size, size)`.
fn normalized(b: &mut HlBuilder<'_, '_, '_>, i: ValueId, size: i64, out: i64) -> Result<ValueId, String> {
    let (zero, n, bad) = (int(b, 0)?, int(b, size)?, int(b, out)?);
    let negative = cmp(b, CmpPredicate::Lt, i, zero)?;
    let wrapped = b.create(&hl::ADD, &[i, n], &[], None)?;
    let i = b.create(&hl::SELECT, &[negative, wrapped, i], &[], None)?;
    let low = cmp(b, CmpPredicate::Ge, i, zero)?;
    let high = cmp(b, CmpPredicate::Lt, i, n)?;
    let ok = b.create(&hl::AND, &[low, high], &[], None)?;
    b.create(&hl::SELECT, &[ok, i, bad], &[], None)
}

/// `acc + x * scale` (`x` when `acc` is `None` and `scale` is 1).
fn accumulate(
    b: &mut HlBuilder<'_, '_, '_>,
    acc: Option<ValueId>,
    x: ValueId,
    scale: i64,
) -> Result<ValueId, String> {
    let term = if scale == 1 {
        x
    } else {
        let s = int(b, scale)?;
        b.create(&hl::MUL, &[x, s], &[], None)?
    };
    match acc {
        None => Ok(term),
        Some(a) => b.create(&hl::ADD, &[a, term], &[], None),
    }
}

fn arg_reduce(
    b: &mut HlBuilder<'_, '_, '_>,
    x: ValueId,
    axis: i64,
    keep: bool,
    max: bool,
) -> Result<ValueId, String> {
    let (shape, elem) = parts(b, x)?;
    let axis = normalize_axis(axis, shape.len())?;
    let x = if elem.bit_width() == Some(1) {
        let ty = b.rw.ctx.tensor_type(&shape, b.rw.ctx.int_type(32));
        b.create(&hl::CAST, &[x], &[], Some(ty))?
    } else {
        x
    };
    let axes = b.ints(&[axis as i64]);
    let yes = b.yes();
    let reduce = if max { &hl::REDUCE_MAX } else { &hl::REDUCE_MIN };
    let m = b.create(reduce, &[x], &[("axes", axes), ("keep_dims", yes)], None)?;
    let mut hit = cmp(b, CmpPredicate::Eq, x, m)?;
    if elem.is_float() {
        let nan = cmp(b, CmpPredicate::Ne, x, x)?;
        hit = b.create(&hl::OR, &[hit, nan], &[], None)?;
    }
    let at = coordinate(b, &shape, axis)?;
    let size = int(b, shape[axis])?;
    let candidates = b.create(&hl::SELECT, &[hit, at, size], &[], None)?;
    let axes = b.ints(&[axis as i64]);
    let keep = if keep { b.yes() } else { b.rw.ctx.bool_attr(false) };
    b.create(&hl::REDUCE_MIN, &[candidates], &[("axes", axes), ("keep_dims", keep)], None)
}

/// Dense strides of `shape`.
fn strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for j in (0..shape.len().saturating_sub(1)).rev() {
        s[j] = s[j + 1] * shape[j + 1];
    }
    s
}

/// `hl.gather` of the rows `rows` (an `i64` tensor) of `data` seen as `[rows, inner]` (rank 1
/// when `inner` is `None`), with result type `ty`.
fn gather_rows<'c>(
    b: &mut HlBuilder<'_, '_, 'c>,
    data: ValueId,
    (count, inner): (i64, Option<i64>),
    rows: ValueId,
    ty: Type<'c>,
) -> Result<ValueId, String> {
    let (_, elem) = parts(b, data)?;
    let table_shape: Vec<i64> = std::iter::once(count).chain(inner).collect();
    let table_ty = b.rw.ctx.tensor_type(&table_shape, elem);
    let table = b.create(&hl::RESHAPE, &[data], &[], Some(table_ty))?;
    let zero = b.rw.ctx.int_attr(0, b.rw.ctx.int_type(64));
    let picked = b.create(&hl::GATHER, &[table, rows], &[("axis", zero)], None)?;
    if b.rw.ir().value_type(picked) == ty {
        Ok(picked)
    } else {
        b.create(&hl::RESHAPE, &[picked], &[], Some(ty))
    }
}

fn gather_elements(
    b: &mut HlBuilder<'_, '_, '_>,
    data: ValueId,
    indices: ValueId,
    axis: i64,
) -> Result<ValueId, String> {
    let (dshape, elem) = parts(b, data)?;
    let (ishape, _) = parts(b, indices)?;
    let axis = normalize_axis(axis, dshape.len())?;
    let count: i64 = dshape.iter().product();
    let st = strides(&dshape);
    let idx = to_i64(b, indices)?;
    let idx = normalized(b, idx, dshape[axis], count)?;
    let mut flat = Some(accumulate(b, None, idx, st[axis])?);
    for j in (0..ishape.len()).filter(|&j| j != axis && ishape[j] > 1) {
        let c = coordinate(b, &ishape, j)?;
        flat = Some(accumulate(b, flat, c, st[j])?);
    }
    let flat = flat.ok_or("no index")?;
    let ty = b.rw.ctx.tensor_type(&ishape, elem);
    gather_rows(b, data, (count, None), flat, ty)
}

fn gather_nd<'c>(
    b: &mut HlBuilder<'_, '_, 'c>,
    data: ValueId,
    indices: ValueId,
    batch_dims: i64,
    result: Type<'c>,
) -> Result<ValueId, String> {
    let (dshape, _) = parts(b, data)?;
    let (ishape, _) = parts(b, indices)?;
    let (nb, q) = (batch_dims as usize, *ishape.last().ok_or("indices of rank 0")? as usize);
    if nb + q > dshape.len() {
        return Err("index tuples longer than the data's dims".into());
    }
    // Rows: the batch and indexed dims; each row holds the remaining dims.
    let rows: i64 = dshape[..nb + q].iter().product();
    let inner: i64 = dshape[nb + q..].iter().product();
    let st = strides(&dshape[..nb + q]);
    let idx = to_i64(b, indices)?;
    let lead = &ishape[..ishape.len() - 1];
    let i64t = b.rw.ctx.int_type(64);
    let mut row = None;
    for m in 0..q {
        let mut starts = vec![0i64; ishape.len()];
        let mut limits = ishape.clone();
        starts[ishape.len() - 1] = m as i64;
        limits[ishape.len() - 1] = m as i64 + 1;
        let (s, l, one) = (b.ints(&starts), b.ints(&limits), b.ints(&vec![1; ishape.len()]));
        let part = b.create(&hl::SLICE, &[idx], &[("starts", s), ("limits", l), ("strides", one)], None)?;
        let ty = b.rw.ctx.tensor_type(lead, i64t);
        let part = b.create(&hl::RESHAPE, &[part], &[], Some(ty))?;
        let part = normalized(b, part, dshape[nb + m], rows)?;
        row = Some(accumulate(b, row, part, st[nb + m])?);
    }
    for j in (0..nb).filter(|&j| lead[j] > 1) {
        let c = coordinate(b, lead, j)?;
        row = Some(accumulate(b, row, c, st[j])?);
    }
    let row = row.ok_or("empty index tuples")?;
    gather_rows(b, data, (rows, (inner > 1 || nb + q < dshape.len()).then_some(inner)), row, result)
}
