//! Result type inference of the `hl` ops that index element by element or by tuples
//! (`gather_elements`, `gather_nd`, `scatter_elements`, `scatter_nd`) and of the ops along one
//! axis (`cumsum`, `cumprod`, `topk`).

use kiln_compiler::{Context, Type, DYNAMIC};

use super::{compatible_shapes, operand, InferInput};
use crate::hl::accessors::normalize_axis;

/// Operand `i`, which must be an `i32` or `i64` tensor.
fn indices<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>, i: usize) -> Result<&'c [i64], String> {
    let (shape, elem) = operand(input, i)?;
    if elem != ctx.int_type(32) && elem != ctx.int_type(64) {
        return Err(format!(
            "operand #{i} must be ranked tensor of i32 or i64 values, but got '{}'",
            input.operands[i]
        ));
    }
    Ok(shape)
}

/// Integer attribute `name` (absent: `default`).
fn int(input: &InferInput<'_, '_>, name: &str, default: i64) -> Result<i64, String> {
    match (input.attr)(name) {
        None => Ok(default),
        Some(a) => {
            a.as_int().map(|v| v as i64).ok_or_else(|| format!("attribute '{name}' must be an integer"))
        }
    }
}

/// The `reduction` attribute, which must name a known reduction.
fn reduction(input: &InferInput<'_, '_>) -> Result<(), String> {
    let Some(a) = (input.attr)("reduction") else { return Ok(()) };
    let name = a.as_str().map(String::from_utf8_lossy).unwrap_or_default();
    match crate::hl::interp::ScatterReduction::of(&name) {
        Some(_) => Ok(()),
        None => Err(format!(
            "attribute 'reduction' must be \"none\", \"add\", \"mul\", \"max\" or \"min\", but got {a}"
        )),
    }
}

/// The data's element type and the indices' shape of a `*_elements` op, whose indices have
/// the data's rank and whose `axis` is one of its dims.
fn elements_operands<'c>(
    ctx: &Context<'c>,
    input: &InferInput<'_, 'c>,
) -> Result<(Type<'c>, &'c [i64]), String> {
    let (data, elem) = operand(input, 0)?;
    let idx = indices(ctx, input, 1)?;
    normalize_axis(int(input, "axis", 0)?, data.len())?;
    if idx.len() != data.len() {
        return Err(format!(
            "indices must have the data's rank {}, but got '{}'",
            data.len(),
            input.operands[1]
        ));
    }
    Ok((elem, idx))
}

/// `gather_elements {axis}`: the shape of the indices, of the data's rank.
pub fn gather_elements<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (elem, idx) = elements_operands(ctx, input)?;
    Ok(ctx.tensor_type(idx, elem))
}

/// The `q` of `gather_nd` / `scatter_nd` indices and the checked `batch_dims`.
fn nd(data: &[i64], idx: &[i64], batch_dims: i64) -> Result<(usize, usize), String> {
    let q = *idx.last().ok_or("indices must have rank 1 or more")?;
    let b =
        usize::try_from(batch_dims).map_err(|_| "attribute 'batch_dims' must not be negative".to_string())?;
    if q == DYNAMIC {
        return Err("the last dim of the indices must be static".into());
    }
    let q = q as usize;
    if b >= idx.len() || b + q > data.len() || !compatible_shapes(&data[..b], &idx[..b]) {
        return Err(format!(
            "index tuples of {q} with batch_dims {b} do not fit data of rank {}",
            data.len()
        ));
    }
    Ok((q, b))
}

/// `gather_nd {batch_dims}`: `indices.shape[:-1] ++ data.shape[batch_dims + q:]`.
pub fn gather_nd<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (data, elem) = operand(input, 0)?;
    let idx = indices(ctx, input, 1)?;
    let (q, b) = nd(data, idx, int(input, "batch_dims", 0)?)?;
    let mut shape = idx[..idx.len() - 1].to_vec();
    shape.extend_from_slice(&data[b + q..]);
    Ok(ctx.tensor_type(&shape, elem))
}

/// The updates (operand 2) must have the data's element type and `shape`.
fn updates<'c>(input: &InferInput<'_, 'c>, elem: Type<'c>, shape: &[i64]) -> Result<(), String> {
    let (u, ue) = operand(input, 2)?;
    if ue != elem || !compatible_shapes(u, shape) {
        return Err(format!(
            "updates '{}' must have the data's element type '{elem}' and shape {shape:?}",
            input.operands[2]
        ));
    }
    Ok(())
}

/// `scatter_elements {axis, reduction}`: the data's type; updates shaped as the indices.
pub fn scatter_elements<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (elem, idx) = elements_operands(ctx, input)?;
    updates(input, elem, idx)?;
    reduction(input)?;
    Ok(input.operands[0])
}

/// `scatter_nd {reduction}`: the data's type; updates `indices.shape[:-1] ++ data.shape[q:]`.
pub fn scatter_nd<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (data, elem) = operand(input, 0)?;
    let idx = indices(ctx, input, 1)?;
    let (q, _) = nd(data, idx, 0)?;
    let mut shape = idx[..idx.len() - 1].to_vec();
    shape.extend_from_slice(&data[q..]);
    updates(input, elem, &shape)?;
    reduction(input)?;
    Ok(input.operands[0])
}

/// `cumsum` / `cumprod {axis}`: the operand's type, `axis` valid.
pub fn along_axis<'c>(_: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, _) = operand(input, 0)?;
    let axis = (input.attr)("axis").and_then(|a| a.as_int()).ok_or("requires integer attribute 'axis'")?;
    normalize_axis(axis as i64, shape.len())?;
    Ok(input.operands[0])
}

/// `topk {k, axis}`: the operand's type with `k` along `axis`, and `i64` indices of that shape.
pub fn topk<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Vec<Type<'c>>, String> {
    let (shape, elem) = operand(input, 0)?;
    let axis = normalize_axis(int(input, "axis", -1)?, shape.len())?;
    let k = (input.attr)("k").and_then(|a| a.as_int()).ok_or("requires integer attribute 'k'")?;
    if k < 0 || (shape[axis] != DYNAMIC && k > i128::from(shape[axis])) {
        return Err(format!("attribute 'k' ({k}) must be in 0..={} (dim #{axis})", shape[axis]));
    }
    let mut out = shape.to_vec();
    out[axis] = k as i64;
    Ok(vec![ctx.tensor_type(&out, elem), ctx.tensor_type(&out, ctx.int_type(64))])
}
