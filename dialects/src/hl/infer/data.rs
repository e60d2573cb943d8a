//! Result type inference of the `hl` ops that pick, split, pad or generate elements: `gather`,
//! `split`, `pad`, `iota`, `trilu`.

use kiln_compiler::{Context, Type, DYNAMIC};

use super::{declared, operand, InferInput};
use crate::hl::accessors::{float_value, int_list, normalize_axis, number_type};

/// The `axis` attribute (absent: 0) normalized against `rank`.
fn axis(input: &InferInput<'_, '_>, rank: usize) -> Result<usize, String> {
    let axis = (input.attr)("axis").map(|a| a.as_int().ok_or("attribute 'axis' must be an integer"));
    normalize_axis(axis.transpose()?.unwrap_or(0) as i64, rank)
}

/// `gather {axis}`: `data.shape[:axis] ++ indices.shape ++ data.shape[axis + 1:]`, indices
/// `i32` or `i64`.
pub fn gather<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (data, elem) = operand(input, 0)?;
    let (indices, index_elem) = operand(input, 1)?;
    if index_elem != ctx.int_type(32) && index_elem != ctx.int_type(64) {
        return Err(format!(
            "operand #1 must be ranked tensor of i32 or i64 values, but got '{}'",
            input.operands[1]
        ));
    }
    let axis = axis(input, data.len())?;
    let mut shape = data[..axis].to_vec();
    shape.extend_from_slice(indices);
    shape.extend_from_slice(&data[axis + 1..]);
    Ok(ctx.tensor_type(&shape, elem))
}

/// `split {axis, sizes}`: one result per entry of `sizes`, which add up to the `axis` dim.
pub fn split<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Vec<Type<'c>>, String> {
    let (shape, elem) = operand(input, 0)?;
    let axis = axis(input, shape.len())?;
    let sizes = int_list((input.attr)("sizes"))?;
    if sizes.is_empty() || sizes.iter().any(|&s| s < 0) {
        return Err(format!(
            "attribute 'sizes' must be one or more non-negative integers, but got {sizes:?}"
        ));
    }
    let total = sizes.iter().try_fold(0i64, |n, &s| n.checked_add(s)).ok_or("attribute 'sizes' overflows")?;
    if shape[axis] != DYNAMIC && total != shape[axis] {
        return Err(format!(
            "attribute 'sizes' {sizes:?} adds up to {total}, but dim #{axis} has size {}",
            shape[axis]
        ));
    }
    let part = |&size: &i64| {
        let mut out = shape.to_vec();
        out[axis] = size;
        ctx.tensor_type(&out, elem)
    };
    Ok(sizes.iter().map(part).collect())
}

/// `pad {low, high, value}`: dim `d` grows by `low[d] + high[d]`; `value` (default 0) is typed
/// as the element type.
pub fn pad<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let low = int_list((input.attr)("low"))?;
    let high = int_list((input.attr)("high"))?;
    for (name, list) in [("low", &low), ("high", &high)] {
        if list.len() != shape.len() || list.iter().any(|&p| p < 0) {
            return Err(format!(
                "attribute '{name}' must be {} non-negative integers, but got {list:?}",
                shape.len()
            ));
        }
    }
    if let Some(value) = (input.attr)("value") {
        if number_type(value) != Some(elem) || float_value(value).is_none() {
            return Err(format!("attribute 'value' must be a '{elem}' number, but got {value}"));
        }
    }
    let mut out = Vec::with_capacity(shape.len());
    for (d, &n) in shape.iter().enumerate() {
        out.push(if n == DYNAMIC {
            DYNAMIC
        } else {
            n.checked_add(low[d]).and_then(|n| n.checked_add(high[d])).ok_or("padded size overflows")?
        });
    }
    Ok(ctx.tensor_type(&out, elem))
}

/// `iota {dimension}`: the declared type, of int or float elements, with `dimension` one of
/// its dims.
pub fn iota<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem, ty) = declared(input)?;
    if elem == ctx.int_type(1) {
        return Err(format!("result must have integer or float elements, but has type '{ty}'"));
    }
    let dimension =
        (input.attr)("dimension").and_then(|a| a.as_int()).ok_or("requires integer attribute 'dimension'")?;
    if !(0..shape.len() as i128).contains(&i128::from(dimension)) {
        return Err(format!("attribute 'dimension' {dimension} is out of range for rank {}", shape.len()));
    }
    Ok(ty)
}

/// `trilu {upper, k}`: the operand's type, of rank 2 or more.
pub fn trilu<'c>(_: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, _) = operand(input, 0)?;
    if shape.len() < 2 {
        return Err(format!("operand must have rank 2 or more, but got '{}'", input.operands[0]));
    }
    if (input.attr)("k").is_some_and(|k| k.as_int().is_none()) {
        return Err("attribute 'k' must be an integer".into());
    }
    Ok(input.operands[0])
}
