//! numpy broadcasting: result shapes, index maps and `broadcast_to`.
//!
//! Shapes are aligned at their trailing dimension; two dims are compatible when equal or when
//! one of them is 1; missing leading dims count as 1. The result dim is the larger one (a 0
//! dim broadcasts only against 1 or 0).

use super::error::{bail, Result};
use super::index::{strided_indices, strides};
use super::tensor::Tensor;

/// The broadcast shape of `shapes`, or an error naming `op` and the incompatible shapes.
pub fn broadcast_shapes(op: &str, shapes: &[&[usize]]) -> Result<Vec<usize>> {
    let rank = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1; rank];
    for shape in shapes {
        let lead = rank - shape.len();
        for (d, &dim) in shape.iter().enumerate() {
            let slot = &mut out[lead + d];
            if *slot == 1 {
                *slot = dim;
            } else if dim != 1 && dim != *slot {
                let listed: Vec<String> = shapes.iter().map(|s| format!("{s:?}")).collect();
                bail!("`{op}` operand shapes {} are not broadcast-compatible", listed.join(", "));
            }
        }
    }
    Ok(out)
}

/// For each element of `to` (row-major), the flat index of the element of `from` it reads.
/// `from` must broadcast to `to` (checked by the caller).
pub(crate) fn broadcast_indices(from: &[usize], to: &[usize]) -> Vec<usize> {
    let lead = to.len() - from.len();
    let from_strides = strides(from);
    let aligned: Vec<usize> = (0..to.len())
        .map(|d| if d < lead || from[d - lead] == 1 { 0 } else { from_strides[d - lead] })
        .collect();
    strided_indices(to, &aligned, 0)
}

/// Checks that `from` broadcasts to exactly `to` (one-directional broadcasting).
pub(crate) fn check_broadcasts_to(op: &str, from: &[usize], to: &[usize]) -> Result<()> {
    let fits =
        from.len() <= to.len() && from.iter().rev().zip(to.iter().rev()).all(|(&f, &t)| f == t || f == 1);
    if !fits {
        bail!("`{op}` cannot broadcast shape {from:?} to {to:?}");
    }
    Ok(())
}

/// `x` repeated along broadcast dims to `shape` (numpy `broadcast_to`).
pub fn broadcast_to(x: &Tensor, shape: &[usize]) -> Result<Tensor> {
    check_broadcasts_to("broadcast_to", x.shape(), shape)?;
    let indices = broadcast_indices(x.shape(), shape);
    Ok(Tensor::from_parts(shape.to_vec(), x.data().gather(&indices)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    #[test]
    fn shapes() {
        assert_eq!(broadcast_shapes("add", &[&[3, 1, 5], &[4, 1]]), Ok(vec![3, 4, 5]));
        assert_eq!(broadcast_shapes("add", &[&[0, 1], &[1, 4]]), Ok(vec![0, 4]));
        assert_eq!(broadcast_shapes("add", &[&[], &[2]]), Ok(vec![2]));
        let err = broadcast_shapes("add", &[&[2, 3], &[4]]).unwrap_err();
        assert_eq!(err.message(), "`add` operand shapes [2, 3], [4] are not broadcast-compatible");
    }

    #[test]
    fn broadcast_to_checks_direction() {
        let x = Tensor::from_i64s(DType::I32, vec![2, 1], &[1, 2]).unwrap();
        let y = broadcast_to(&x, &[3, 2, 2]).unwrap();
        assert_eq!(y.to_f64s(), vec![1., 1., 2., 2., 1., 1., 2., 2., 1., 1., 2., 2.]);
        assert!(broadcast_to(&x, &[2]).is_err());
        assert!(broadcast_to(&x, &[3, 3]).unwrap_err().message().contains("cannot broadcast"));
    }
}
