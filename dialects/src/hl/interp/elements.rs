//! Element-wise indexing (ONNX `GatherElements`, `GatherND`, `ScatterElements`, `ScatterND`):
//! result elements are operand elements picked, or operand elements with updates written in,
//! at positions an integer index tensor gives.
//!
//! Gathers move elements unchanged (bit-exact for every type). A scatter without reduction
//! writes the updates in index order (a later duplicate wins); with a reduction it combines
//! the current element with each update in index order, in the accumulation domain (`f32` for
//! floats, rounded to the element type once at the end; wrapping `i64` for integers). A
//! negative index counts from the end; an index out of range is an error.

use super::error::{bail, Result};
use super::index::{normalize_axis, strides};
use super::lanes::Lanes;
use super::tensor::Tensor;
use kiln_numerics::order::{nan_max, nan_min};

/// How a scatter combines an update with the element it lands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScatterReduction {
    /// The update replaces the element.
    None,
    /// Sum.
    Add,
    /// Product.
    Mul,
    /// Maximum (NaN propagates).
    Max,
    /// Minimum (NaN propagates).
    Min,
}

impl ScatterReduction {
    /// The reduction named `name` (`none`, `add`, `mul`, `max`, `min`).
    pub fn of(name: &str) -> Option<ScatterReduction> {
        Some(match name {
            "none" => ScatterReduction::None,
            "add" => ScatterReduction::Add,
            "mul" => ScatterReduction::Mul,
            "max" => ScatterReduction::Max,
            "min" => ScatterReduction::Min,
            _ => return None,
        })
    }

    fn float(self, a: f32, b: f32) -> f32 {
        match self {
            ScatterReduction::None => b,
            ScatterReduction::Add => a + b,
            ScatterReduction::Mul => a * b,
            ScatterReduction::Max => nan_max(a, b),
            ScatterReduction::Min => nan_min(a, b),
        }
    }

    fn int(self, a: i64, b: i64) -> i64 {
        match self {
            ScatterReduction::None => b,
            ScatterReduction::Add => a.wrapping_add(b),
            ScatterReduction::Mul => a.wrapping_mul(b),
            ScatterReduction::Max => a.max(b),
            ScatterReduction::Min => a.min(b),
        }
    }
}

/// The integer elements of `indices` (`op` names the op in errors).
fn index_values(op: &str, indices: &Tensor) -> Result<Vec<i64>> {
    match indices.lanes() {
        Lanes::Int(v) if indices.dtype().is_int() => Ok(v),
        _ => bail!("`{op}` indices must be integers, got {}", indices.dtype()),
    }
}

/// Index `v` into a dim of `size` (negative counts from the end).
fn resolve(op: &str, v: i64, size: usize) -> Result<usize> {
    let r = if v < 0 { v + size as i64 } else { v };
    if r < 0 || r >= size as i64 {
        bail!("`{op}` index {v} is out of range for a dim of size {size}");
    }
    Ok(r as usize)
}

/// For every element of `indices` (of the operand's rank), the flat position in a tensor of
/// `shape` that has the index along `axis` and the element's own coordinates elsewhere.
fn element_positions(op: &str, shape: &[usize], indices: &Tensor, axis: i64) -> Result<Vec<usize>> {
    let axis = normalize_axis(op, axis, shape.len())?;
    if indices.rank() != shape.len() {
        bail!("`{op}` indices must have the operand's rank {}, got {}", shape.len(), indices.rank());
    }
    if indices.shape().iter().zip(shape).enumerate().any(|(d, (&i, &s))| d != axis && i > s) {
        bail!("`{op}` indices shape {:?} exceeds the operand's {:?}", indices.shape(), shape);
    }
    let values = index_values(op, indices)?;
    let (from, to) = (strides(indices.shape()), strides(shape));
    values
        .iter()
        .enumerate()
        .map(|(flat, &v)| {
            let mut pos = 0;
            for d in 0..shape.len() {
                let c = (flat / from[d]) % indices.shape()[d].max(1);
                let c = if d == axis { resolve(op, v, shape[d])? } else { c };
                pos += c * to[d];
            }
            Ok(pos)
        })
        .collect()
}

/// ONNX `GatherElements`: `out[i][j][k] = data[index[i][j][k]][j][k]` for `axis = 0` (and so
/// on); the result has the shape of `indices`.
pub fn gather_elements(data: &Tensor, indices: &Tensor, axis: i64) -> Result<Tensor> {
    let picks = element_positions("gather_elements", data.shape(), indices, axis)?;
    Ok(Tensor::from_parts(indices.shape().to_vec(), data.data().gather(&picks)))
}

/// `data` with `updates[i][j][k]` combined into `data[index[i][j][k]][j][k]` (for `axis = 0`;
/// ONNX `ScatterElements`).
pub fn scatter_elements(
    data: &Tensor,
    indices: &Tensor,
    updates: &Tensor,
    axis: i64,
    reduction: ScatterReduction,
) -> Result<Tensor> {
    if updates.shape() != indices.shape() {
        bail!(
            "`scatter_elements` updates shape {:?} differs from indices shape {:?}",
            updates.shape(),
            indices.shape()
        );
    }
    let positions = element_positions("scatter_elements", data.shape(), indices, axis)?;
    scatter(data, updates, &positions, 1, reduction)
}

/// Per index tuple (a row of the last dim of `indices`, after `batch_dims` leading dims shared
/// with `data`), the flat offset in `data` of the slice it picks; and the slice's length.
fn nd_positions(op: &str, data: &Tensor, indices: &Tensor, batch_dims: usize) -> Result<(Vec<usize>, usize)> {
    let (ds, is) = (data.shape(), indices.shape());
    let Some(&depth) = is.last() else { bail!("`{op}` indices must have rank >= 1") };
    if batch_dims >= is.len() || batch_dims + depth > ds.len() || ds[..batch_dims] != is[..batch_dims] {
        bail!("`{op}` indices shape {is:?} does not fit data shape {ds:?} with batch_dims {batch_dims}");
    }
    let values = index_values(op, indices)?;
    let data_strides = strides(ds);
    let slice: usize = ds[batch_dims + depth..].iter().product();
    let per_batch: usize = is[batch_dims..is.len() - 1].iter().product();
    let batch_size: usize = ds[batch_dims..].iter().product();
    let tuples: usize = is[..is.len() - 1].iter().product();
    let mut offsets = Vec::with_capacity(tuples);
    for t in 0..tuples {
        let mut pos = (t / per_batch.max(1)) * batch_size;
        for (k, &v) in values[t * depth..(t + 1) * depth].iter().enumerate() {
            pos += resolve(op, v, ds[batch_dims + k])? * data_strides[batch_dims + k];
        }
        offsets.push(pos);
    }
    Ok((offsets, slice))
}

/// ONNX `GatherND` with `batch_dims`: the slices of `data` at the index tuples in the last dim
/// of `indices`; the result shape is
/// `indices.shape[:-1] ++ data.shape[batch_dims + indices.shape[-1]:]`.
pub fn gather_nd(data: &Tensor, indices: &Tensor, batch_dims: usize) -> Result<Tensor> {
    let (offsets, slice) = nd_positions("gather_nd", data, indices, batch_dims)?;
    let picks: Vec<usize> = offsets.iter().flat_map(|&o| o..o + slice).collect();
    let is = indices.shape();
    let mut shape = is[..is.len() - 1].to_vec();
    shape.extend_from_slice(&data.shape()[batch_dims + is[is.len() - 1]..]);
    Ok(Tensor::from_parts(shape, data.data().gather(&picks)))
}

/// ONNX `ScatterND`: `data` with the slices of `updates` combined in at the index tuples in
/// the last dim of `indices`.
pub fn scatter_nd(
    data: &Tensor,
    indices: &Tensor,
    updates: &Tensor,
    reduction: ScatterReduction,
) -> Result<Tensor> {
    let (offsets, slice) = nd_positions("scatter_nd", data, indices, 0)?;
    if updates.numel() != offsets.len() * slice {
        bail!(
            "`scatter_nd` updates shape {:?} does not fit indices shape {:?}",
            updates.shape(),
            indices.shape()
        );
    }
    scatter(data, updates, &offsets, slice, reduction)
}

/// `data` with the `slice` elements of `updates` from `k * slice` combined in at
/// `positions[k]`, in order.
fn scatter(
    data: &Tensor,
    updates: &Tensor,
    positions: &[usize],
    slice: usize,
    r: ScatterReduction,
) -> Result<Tensor> {
    if updates.dtype() != data.dtype() {
        bail!("`scatter` updates type {} differs from data type {}", updates.dtype(), data.dtype());
    }
    let lanes = match (data.lanes(), updates.lanes()) {
        (Lanes::Float(mut d), Lanes::Float(u)) => {
            for (k, &p) in positions.iter().enumerate() {
                for j in 0..slice {
                    d[p + j] = r.float(d[p + j], u[k * slice + j]);
                }
            }
            Lanes::Float(d)
        }
        (Lanes::Int(mut d), Lanes::Int(u)) => {
            for (k, &p) in positions.iter().enumerate() {
                for j in 0..slice {
                    d[p + j] = r.int(d[p + j], u[k * slice + j]);
                }
            }
            Lanes::Int(d)
        }
        (Lanes::Bool(mut d), Lanes::Bool(u)) if r == ScatterReduction::None => {
            for (k, &p) in positions.iter().enumerate() {
                d[p..p + slice].copy_from_slice(&u[k * slice..(k + 1) * slice]);
            }
            Lanes::Bool(d)
        }
        _ => bail!("`scatter` with a reduction does not accept i1 operands"),
    };
    Ok(Tensor::from_parts(data.shape().to_vec(), lanes.pack(data.dtype())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    fn t(dtype: DType, shape: &[usize], v: &[i64]) -> Tensor {
        Tensor::from_i64s(dtype, shape.to_vec(), v).unwrap()
    }

    #[test]
    fn gathers_and_scatters_follow_onnx() {
        let data = t(DType::I32, &[2, 2], &[1, 2, 3, 4]);
        let idx = t(DType::I64, &[2, 2], &[0, 0, 1, 0]);
        assert_eq!(gather_elements(&data, &idx, 1).unwrap().to_f64s(), vec![1., 1., 4., 3.]);
        let nd = t(DType::I64, &[2, 2], &[0, 0, 1, 1]);
        assert_eq!(gather_nd(&data, &nd, 0).unwrap().to_f64s(), vec![1., 4.]);
        let rows = t(DType::I64, &[2, 1], &[1, -2]);
        assert_eq!(gather_nd(&data, &rows, 0).unwrap().to_f64s(), vec![3., 4., 1., 2.]);
        let upd = t(DType::I32, &[2, 2], &[10, 20, 30, 40]);
        let s = scatter_elements(&data, &idx, &upd, 1, ScatterReduction::Add).unwrap();
        assert_eq!(s.to_f64s(), vec![31., 2., 43., 34.]);
        let s = scatter_nd(&data, &rows, &upd, ScatterReduction::None).unwrap();
        assert_eq!(s.to_f64s(), vec![30., 40., 10., 20.]);
        assert!(gather_elements(&data, &t(DType::I64, &[1, 1], &[2]), 0).is_err());
        assert!(gather_nd(&data, &t(DType::I64, &[1, 3], &[0, 0, 0]), 0).is_err());
    }
}
