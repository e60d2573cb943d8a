//! Shape arithmetic shared by the kernels: strides, strided index lists, axis normalization
//! and the grouping of elements for reductions along axes.

use super::error::{bail, Result};

/// The row-major strides of `shape`, in elements.
pub(crate) fn strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}

/// The flat source index of every element of a strided view, in row-major order of `shape`:
/// element `(i0, i1, ...)` reads `offset + i0 * strides[0] + i1 * strides[1] + ...`.
///
/// This one walk implements broadcasting (stride 0), transposition (permuted strides), slicing
/// (offset and scaled strides) and the regrouping of reductions.
pub(crate) fn strided_indices(shape: &[usize], strides: &[usize], offset: usize) -> Vec<usize> {
    let count: usize = shape.iter().product();
    let mut out = Vec::with_capacity(count);
    let mut index = vec![0; shape.len()];
    let mut position = offset;
    for _ in 0..count {
        out.push(position);
        for d in (0..shape.len()).rev() {
            index[d] += 1;
            position += strides[d];
            if index[d] < shape[d] {
                break;
            }
            position -= strides[d] * shape[d];
            index[d] = 0;
        }
    }
    out
}

/// `axis` as a dimension index of a rank-`rank` tensor; negative axes count from the end.
pub(crate) fn normalize_axis(op: &str, axis: i64, rank: usize) -> Result<usize> {
    let resolved = if axis < 0 { axis + rank as i64 } else { axis };
    if resolved < 0 || resolved >= rank as i64 {
        bail!("`{op}` axis {axis} is out of range for rank {rank}");
    }
    Ok(resolved as usize)
}

/// Every axis of `axes` normalized; a repeated axis is an error. Keeps the given order.
pub(crate) fn normalize_axes(op: &str, axes: &[i64], rank: usize) -> Result<Vec<usize>> {
    let mut out: Vec<usize> = Vec::with_capacity(axes.len());
    for &axis in axes {
        let resolved = normalize_axis(op, axis, rank)?;
        if out.contains(&resolved) {
            bail!("`{op}` axis {axis} is repeated");
        }
        out.push(resolved);
    }
    Ok(out)
}

/// The elements of a tensor grouped for a reduction over some axes: group `g` holds the
/// elements that share the kept coordinates of output element `g`, in row-major order of the
/// reduced axes (which is the documented summation order).
pub(crate) struct Groups {
    /// Flat source indices, `len` per group, groups in row-major order of the kept axes.
    pub indices: Vec<usize>,
    /// Elements per group (product of the reduced dims; 1 when no axis is reduced).
    pub len: usize,
    /// Number of groups (product of the kept dims).
    pub count: usize,
}

impl Groups {
    /// Groups the elements of a tensor of `shape` by reducing over `axes` (normalized, distinct).
    pub(crate) fn new(shape: &[usize], axes: &[usize]) -> Groups {
        let mut reduced = axes.to_vec();
        reduced.sort_unstable();
        let kept = (0..shape.len()).filter(|d| !reduced.contains(d));
        let order: Vec<usize> = kept.chain(reduced.iter().copied()).collect();
        let all_strides = strides(shape);
        let view_shape: Vec<usize> = order.iter().map(|&d| shape[d]).collect();
        let view_strides: Vec<usize> = order.iter().map(|&d| all_strides[d]).collect();
        let len = reduced.iter().map(|&d| shape[d]).product();
        let count = (0..shape.len()).filter(|d| !reduced.contains(d)).map(|d| shape[d]).product();
        Groups { indices: strided_indices(&view_shape, &view_strides, 0), len, count }
    }

    /// The source indices of group `g`.
    pub(crate) fn group(&self, g: usize) -> &[usize] {
        &self.indices[g * self.len..(g + 1) * self.len]
    }
}

/// The shape after reducing `axes` of `shape`: reduced dims become 1 with `keep_dims`,
/// otherwise they are dropped.
pub(crate) fn reduced_shape(shape: &[usize], axes: &[usize], keep_dims: bool) -> Vec<usize> {
    (0..shape.len())
        .filter_map(|d| match (axes.contains(&d), keep_dims) {
            (false, _) => Some(shape[d]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strided_walks() {
        assert_eq!(strides(&[2, 3, 4]), vec![12, 4, 1]);
        assert_eq!(strided_indices(&[2, 3], &[1, 2], 0), vec![0, 2, 4, 1, 3, 5]);
        assert_eq!(strided_indices(&[2, 2], &[0, 1], 3), vec![3, 4, 3, 4]);
        assert_eq!(strided_indices(&[], &[], 5), vec![5]);
        assert!(strided_indices(&[3, 0], &[0, 1], 0).is_empty());
    }

    #[test]
    fn groups_put_reduced_axes_last() {
        let g = Groups::new(&[2, 3], &[0]);
        assert_eq!((g.count, g.len), (3, 2));
        assert_eq!(g.indices, vec![0, 3, 1, 4, 2, 5]);
        assert_eq!(reduced_shape(&[2, 3], &[0], true), vec![1, 3]);
        assert_eq!(reduced_shape(&[2, 3], &[0], false), vec![3]);
    }

    #[test]
    fn axis_errors() {
        assert_eq!(normalize_axis("f", -1, 3), Ok(2));
        assert!(normalize_axis("f", 3, 3).unwrap_err().message().contains("out of range"));
        assert!(normalize_axis("f", -4, 3).is_err());
        assert!(normalize_axes("f", &[1, -2], 3).unwrap_err().message().contains("repeated"));
    }
}
