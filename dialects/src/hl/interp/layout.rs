//! Layout ops: `reshape`, `transpose`, `slice`, `concat`, `expand_dims`, `squeeze`.
//!
//! They move elements without changing them (bit-exact for every type) and validate their
//! attributes against the operand's shape.

use super::error::{bail, Result};
use super::index::{normalize_axes, normalize_axis, strided_indices, strides};
use super::tensor::{Tensor, TensorData};

/// `x`'s elements, in row-major order, under the explicit `shape` (no `-1` placeholder: `hl`
/// result types are static); the element counts must agree.
pub fn reshape(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let count: usize = shape.iter().product();
    if count != x.numel() {
        bail!(
            "`reshape` cannot turn shape {:?} ({} elements) into {:?} ({count} elements)",
            x.shape(),
            x.numel(),
            shape
        );
    }
    Ok(Tensor::from_parts(shape.to_vec(), x.data().clone()))
}

/// The dims of `x` permuted: result dim `i` is operand dim `perm[i]`; `perm` must be a
/// permutation of `0..rank`.
pub fn transpose(x: &Tensor, perm: &[usize]) -> Result<Tensor> {
    let rank = x.rank();
    let mut seen = vec![false; rank];
    if perm.len() != rank || perm.iter().any(|&p| p >= rank || std::mem::replace(&mut seen[p], true)) {
        bail!("`transpose` permutation {perm:?} is not a permutation of 0..{rank}");
    }
    let all_strides = strides(x.shape());
    let shape: Vec<usize> = perm.iter().map(|&p| x.shape()[p]).collect();
    let view_strides: Vec<usize> = perm.iter().map(|&p| all_strides[p]).collect();
    let indices = strided_indices(&shape, &view_strides, 0);
    Ok(Tensor::from_parts(shape, x.data().gather(&indices)))
}

/// The elements `starts[d], starts[d] + strides[d], ...` below `limits[d]` of every dim `d`
/// (StableHLO's `slice`): one entry per dim, `starts[d] <= limits[d] <= dim`, strides >= 1.
/// Result dim `d` is `ceil((limits[d] - starts[d]) / strides[d])`.
pub fn slice(x: &Tensor, starts: &[usize], limits: &[usize], steps: &[usize]) -> Result<Tensor> {
    let rank = x.rank();
    if starts.len() != rank || limits.len() != rank || steps.len() != rank {
        bail!(
            "`slice` needs one start, limit and stride per dim of rank {rank}, got {}, {} and {}",
            starts.len(),
            limits.len(),
            steps.len()
        );
    }
    for d in 0..rank {
        if starts[d] > limits[d] || limits[d] > x.shape()[d] || steps[d] == 0 {
            bail!(
                "`slice` dim {d} of size {} has invalid start {}, limit {}, stride {}",
                x.shape()[d],
                starts[d],
                limits[d],
                steps[d]
            );
        }
    }
    let all_strides = strides(x.shape());
    let shape: Vec<usize> = (0..rank).map(|d| (limits[d] - starts[d]).div_ceil(steps[d])).collect();
    let view_strides: Vec<usize> = (0..rank).map(|d| all_strides[d] * steps[d]).collect();
    let offset = (0..rank).map(|d| starts[d] * all_strides[d]).sum();
    let indices = strided_indices(&shape, &view_strides, offset);
    Ok(Tensor::from_parts(shape, x.data().gather(&indices)))
}

/// `inputs` joined along `axis`: at least one input, all of one type and rank, equal in every
/// other dim.
pub fn concat(inputs: &[&Tensor], axis: i64) -> Result<Tensor> {
    let Some(first) = inputs.first() else { bail!("`concat` needs at least one operand") };
    let axis = normalize_axis("concat", axis, first.rank())?;
    for (k, t) in inputs.iter().enumerate() {
        if t.dtype() != first.dtype() {
            bail!("`concat` operand types differ: {} vs {} (operand #{k})", first.dtype(), t.dtype());
        }
        let same =
            t.rank() == first.rank() && (0..t.rank()).all(|d| d == axis || t.shape()[d] == first.shape()[d]);
        if !same {
            bail!(
                "`concat` operand #{k} has shape {:?}, incompatible with {:?} along axis {axis}",
                t.shape(),
                first.shape()
            );
        }
    }
    let outer: usize = first.shape()[..axis].iter().product();
    let inner: usize = first.shape()[axis + 1..].iter().product();
    let mut bases = Vec::with_capacity(inputs.len());
    let mut base = 0;
    for t in inputs {
        bases.push(base);
        base += t.numel();
    }
    let mut indices = Vec::with_capacity(base);
    for o in 0..outer {
        for (t, &b) in inputs.iter().zip(&bases) {
            let block = t.shape()[axis] * inner;
            indices.extend(b + o * block..b + (o + 1) * block);
        }
    }
    let mut shape = first.shape().to_vec();
    shape[axis] = inputs.iter().map(|t| t.shape()[axis]).sum();
    let parts: Vec<&TensorData> = inputs.iter().map(|t| t.data()).collect();
    Ok(Tensor::from_parts(shape, TensorData::concat(&parts)?.gather(&indices)))
}

/// `x` with a new dim of size 1 at `axis`, which ranges over `-(rank + 1)..=rank` (negative
/// counts from the end of the result).
pub fn expand_dims(x: &Tensor, axis: i64) -> Result<Tensor> {
    let axis = normalize_axis("expand_dims", axis, x.rank() + 1)?;
    let mut shape = x.shape().to_vec();
    shape.insert(axis, 1);
    Ok(Tensor::from_parts(shape, x.data().clone()))
}

/// `x` without the size-1 dims `axes` (each must be 1; an empty list removes nothing, as
/// `hl.squeeze` declares).
pub fn squeeze(x: &Tensor, axes: &[i64]) -> Result<Tensor> {
    let axes = normalize_axes("squeeze", axes, x.rank())?;
    if let Some(&d) = axes.iter().find(|&&d| x.shape()[d] != 1) {
        bail!("`squeeze` axis {d} has size {}, not 1", x.shape()[d]);
    }
    let shape = (0..x.rank()).filter(|d| !axes.contains(d)).map(|d| x.shape()[d]).collect();
    Ok(Tensor::from_parts(shape, x.data().clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    fn iota(shape: &[usize]) -> Tensor {
        let n: usize = shape.iter().product();
        Tensor::from_i64s(DType::I32, shape.to_vec(), &(0..n as i64).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn moves() {
        let x = iota(&[2, 3]);
        assert_eq!(transpose(&x, &[1, 0]).unwrap().to_f64s(), vec![0., 3., 1., 4., 2., 5.]);
        assert_eq!(slice(&x, &[0, 1], &[2, 3], &[1, 2]).unwrap().to_f64s(), vec![1., 4.]);
        assert_eq!(slice(&x, &[1, 0], &[1, 3], &[1, 1]).unwrap().shape(), &[0, 3]);
        let c = concat(&[&x, &iota(&[2, 1])], 1).unwrap();
        assert_eq!(c.to_f64s(), vec![0., 1., 2., 0., 3., 4., 5., 1.]);
        assert_eq!(expand_dims(&x, -1).unwrap().shape(), &[2, 3, 1]);
        // As the verifier infers: an empty list removes nothing.
        assert_eq!(squeeze(&iota(&[1, 3, 1]), &[]).unwrap().shape(), &[1, 3, 1]);
        assert_eq!(squeeze(&iota(&[1, 3, 1]), &[-1]).unwrap().shape(), &[1, 3]);
        assert_eq!(reshape(&x, &[3, 2]).unwrap().shape(), &[3, 2]);
    }

    #[test]
    fn errors() {
        let x = iota(&[2, 3]);
        assert!(reshape(&x, &[4]).unwrap_err().message().contains("6 elements"));
        assert!(transpose(&x, &[0, 0]).is_err());
        assert!(transpose(&x, &[0]).is_err());
        assert!(slice(&x, &[0], &[1], &[1]).is_err());
        assert!(slice(&x, &[0, 2], &[2, 1], &[1, 1]).is_err());
        assert!(slice(&x, &[0, 0], &[2, 4], &[1, 1]).is_err());
        assert!(slice(&x, &[0, 0], &[2, 3], &[1, 0]).is_err());
        assert!(concat(&[], 0).is_err());
        assert!(concat(&[&x, &iota(&[3, 3])], 1).unwrap_err().message().contains("operand #1"));
        assert!(concat(&[&x, &Tensor::zeros(DType::F32, vec![2, 3])], 0).is_err());
        assert!(concat(&[&x], 2).is_err());
        assert!(expand_dims(&x, 3).is_err());
        assert_eq!(squeeze(&x, &[0]).unwrap_err().message(), "`squeeze` axis 0 has size 2, not 1");
    }
}
