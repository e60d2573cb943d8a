//! Ops whose result elements are operand elements (or a fill value) chosen by index: `gather`,
//! `split`, `pad`, `trilu`, and `iota`, whose elements are their own indices.
//!
//! They move elements without changing them (bit-exact for every type); a fill value is
//! converted to the element type as [`Tensor::scalar`] converts it.

use super::error::{bail, Result};
use super::index::{normalize_axis, strides};
use super::layout::slice;
use super::tensor::{Tensor, TensorData};
use super::DType;

/// A tensor of `shape` whose element `i` is `x`'s element `picks[i]`, or `fill` where that is
/// `None`.
fn pick(
    x: &Tensor,
    fill: f64,
    shape: Vec<usize>,
    picks: impl Iterator<Item = Option<usize>>,
) -> Result<Tensor> {
    let filler = Tensor::scalar(x.dtype(), fill);
    let source = TensorData::concat(&[x.data(), filler.data()])?;
    let indices: Vec<usize> = picks.map(|p| p.unwrap_or(x.numel())).collect();
    Ok(Tensor::from_parts(shape, source.gather(&indices)))
}

/// The coordinates of every element of `shape`, in row-major order.
fn coordinates(shape: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let count: usize = shape.iter().product();
    let mut index = vec![0; shape.len()];
    (0..count).map(move |_| {
        let current = index.clone();
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            if index[d] < shape[d] {
                break;
            }
            index[d] = 0;
        }
        current
    })
}

/// ONNX `Gather`: the slices of `data` along `axis` at `indices` (an integer tensor; a
/// negative index counts from the end). The result shape is
/// `data.shape[:axis] ++ indices.shape ++ data.shape[axis + 1:]`; an index out of range is
/// an error.
pub fn gather(data: &Tensor, indices: &Tensor, axis: i64) -> Result<Tensor> {
    let axis = normalize_axis("gather", axis, data.rank())?;
    if !indices.dtype().is_int() {
        bail!("`gather` indices must be integers, got {}", indices.dtype());
    }
    let size = data.shape()[axis];
    let positions: Vec<usize> = indices
        .to_f64s()
        .into_iter()
        .map(|v| {
            let v = v as i64;
            let resolved = if v < 0 { v + size as i64 } else { v };
            if resolved < 0 || resolved >= size as i64 {
                bail!("`gather` index {v} is out of range for dim {axis} of size {size}");
            }
            Ok(resolved as usize)
        })
        .collect::<Result<_>>()?;
    let outer: usize = data.shape()[..axis].iter().product();
    let inner: usize = data.shape()[axis + 1..].iter().product();
    let mut picks = Vec::with_capacity(outer * positions.len() * inner);
    for o in 0..outer {
        for &p in &positions {
            let base = (o * size + p) * inner;
            picks.extend(base..base + inner);
        }
    }
    let mut shape = data.shape()[..axis].to_vec();
    shape.extend_from_slice(indices.shape());
    shape.extend_from_slice(&data.shape()[axis + 1..]);
    Ok(Tensor::from_parts(shape, data.data().gather(&picks)))
}

/// `x` cut along `axis` into consecutive parts of `sizes` (which add up to the dim).
pub fn split(x: &Tensor, axis: i64, sizes: &[usize]) -> Result<Vec<Tensor>> {
    let axis = normalize_axis("split", axis, x.rank())?;
    if sizes.iter().sum::<usize>() != x.shape()[axis] {
        bail!("`split` sizes {sizes:?} do not add up to dim {axis} of size {}", x.shape()[axis]);
    }
    let mut starts = vec![0; x.rank()];
    let mut limits = x.shape().to_vec();
    let steps = vec![1; x.rank()];
    let mut parts = Vec::with_capacity(sizes.len());
    for &size in sizes {
        limits[axis] = starts[axis] + size;
        parts.push(slice(x, &starts, &limits, &steps)?);
        starts[axis] = limits[axis];
    }
    Ok(parts)
}

/// `x` with `low[d]` elements of `value` before and `high[d]` after it along every dim `d`.
pub fn pad(x: &Tensor, low: &[usize], high: &[usize], value: f64) -> Result<Tensor> {
    if low.len() != x.rank() || high.len() != x.rank() {
        bail!(
            "`pad` needs one low and high padding per dim of rank {}, got {} and {}",
            x.rank(),
            low.len(),
            high.len()
        );
    }
    let shape: Vec<usize> = (0..x.rank()).map(|d| x.shape()[d] + low[d] + high[d]).collect();
    let source_strides = strides(x.shape());
    let picks = coordinates(&shape).map(|at| {
        (0..at.len()).try_fold(0, |flat, d| {
            let i = at[d].checked_sub(low[d]).filter(|&i| i < x.shape()[d])?;
            Some(flat + i * source_strides[d])
        })
    });
    let picks: Vec<_> = picks.collect();
    pick(x, value, shape, picks.into_iter())
}

/// ONNX `Trilu` on the last two dims of `x` (rank >= 2): element `[..., i, j]` is kept where
/// `j - i <= k` (lower) or `j - i >= k` (`upper`), and is zero elsewhere.
pub fn trilu(x: &Tensor, upper: bool, k: i64) -> Result<Tensor> {
    if x.rank() < 2 {
        bail!("`trilu` requires rank 2 or more, got rank {}", x.rank());
    }
    let (rows, cols) = (x.shape()[x.rank() - 2], x.shape()[x.rank() - 1]);
    let keep = |flat: usize| {
        let (i, j) = ((flat / cols % rows) as i64, (flat % cols) as i64);
        let diagonal = j - i;
        (if upper { diagonal >= k } else { diagonal <= k }).then_some(flat)
    };
    pick(x, 0.0, x.shape().to_vec(), (0..x.numel()).map(keep))
}

/// A tensor of `shape` whose elements are their index along `dimension`, converted to
/// `dtype` as [`Tensor::from_i64s`] converts.
pub fn iota(dtype: DType, shape: &[usize], dimension: usize) -> Result<Tensor> {
    if dimension >= shape.len() {
        bail!("`iota` dimension {dimension} is out of range for rank {}", shape.len());
    }
    let values: Vec<i64> = coordinates(shape).map(|at| at[dimension] as i64).collect();
    Tensor::from_i64s(dtype, shape.to_vec(), &values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(shape: &[usize]) -> Tensor {
        let n: usize = shape.iter().product();
        Tensor::from_i64s(DType::I32, shape.to_vec(), &(0..n as i64).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn gather_rows_and_negative_indices() {
        let data = ints(&[3, 2]);
        let idx = Tensor::from_i64s(DType::I64, vec![2, 2], &[2, 0, -1, 1]).unwrap();
        let r = gather(&data, &idx, 0).unwrap();
        assert_eq!(r.shape(), &[2, 2, 2]);
        assert_eq!(r.to_f64s(), vec![4., 5., 0., 1., 4., 5., 2., 3.]);
        let r = gather(&data, &Tensor::from_i64s(DType::I32, vec![1], &[1]).unwrap(), 1).unwrap();
        assert_eq!((r.shape(), r.to_f64s()), (&[3usize, 1][..], vec![1., 3., 5.]));
        let bad = Tensor::from_i64s(DType::I32, vec![1], &[3]).unwrap();
        assert_eq!(
            gather(&data, &bad, 0).unwrap_err().message(),
            "`gather` index 3 is out of range for dim 0 of size 3"
        );
        assert!(gather(&data, &Tensor::zeros(DType::F32, vec![1]), 0).is_err());
    }

    #[test]
    fn split_pad_trilu_iota() {
        let x = ints(&[2, 3]);
        let parts = split(&x, -1, &[1, 2]).unwrap();
        assert_eq!(parts[0].to_f64s(), vec![0., 3.]);
        assert_eq!(parts[1].to_f64s(), vec![1., 2., 4., 5.]);
        assert!(split(&x, 1, &[1, 1]).is_err());
        let p = pad(&x, &[1, 0], &[0, 1], 9.0).unwrap();
        assert_eq!(p.shape(), &[3, 4]);
        assert_eq!(p.to_f64s(), vec![9., 9., 9., 9., 0., 1., 2., 9., 3., 4., 5., 9.]);
        let sq = ints(&[3, 3]);
        assert_eq!(trilu(&sq, false, 0).unwrap().to_f64s(), vec![0., 0., 0., 3., 4., 0., 6., 7., 8.]);
        assert_eq!(trilu(&sq, true, 1).unwrap().to_f64s(), vec![0., 1., 2., 0., 0., 5., 0., 0., 0.]);
        assert_eq!(trilu(&sq, false, -1).unwrap().to_f64s(), vec![0., 0., 0., 3., 0., 0., 6., 7., 0.]);
        assert!(trilu(&ints(&[3]), false, 0).is_err());
        assert_eq!(iota(DType::F32, &[2, 3], 1).unwrap().to_f64s(), vec![0., 1., 2., 0., 1., 2.]);
        assert_eq!(iota(DType::I64, &[2, 3], 0).unwrap().to_f64s(), vec![0., 0., 0., 1., 1., 1.]);
        assert!(iota(DType::I32, &[2], 1).is_err());
    }
}
