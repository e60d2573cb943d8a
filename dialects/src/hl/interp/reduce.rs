//! Reductions over axes (`reduce_sum`, `reduce_max`, `reduce_min`, `reduce_prod`,
//! `reduce_mean`) and `argmax`/`argmin` over one axis.
//!
//! Axes may be any subset of the dims (negative axes count from the end; a repeated axis is an
//! error; an empty list reduces nothing). Reduced dims are dropped, or kept as 1 with
//! `keep_dims`.
//!
//! Order and precision: elements are combined sequentially in row-major order of the reduced
//! axes, starting from the first element. Floats accumulate in `f32` (`f16`/`bf16` inputs are
//! widened exactly and the result is rounded to the dtype once, at the end); numpy sums
//! pairwise, so goldens compare float sums, products and means with a tolerance. Integers
//! wrap. `reduce_max`/`reduce_min` propagate NaN. An empty reduction gives 0 for
//! `reduce_sum`, 1 for `reduce_prod`, NaN for `reduce_mean` (0 / 0), and is an error for
//! `reduce_max`, `reduce_min`, `argmax` and `argmin`, which have no identity.

use super::error::{bail, Result};
use super::index::{normalize_axes, normalize_axis, reduced_shape, Groups};
use super::lanes::{Accum, Lanes};
use super::tensor::{Tensor, TensorData};
use super::DType;
use kiln_numerics::order::{nan_max, nan_min};

/// A reduction over axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Sum (wrapping for integers).
    Sum,
    /// Maximum (NaN-propagating; `any` for `i1`).
    Max,
    /// Minimum (NaN-propagating; `all` for `i1`).
    Min,
    /// Product (wrapping for integers).
    Prod,
    /// Sum divided by the element count, in `f32`; floats only.
    Mean,
}

impl ReduceOp {
    /// The op's name as in `hl` (`reduce_sum`, ...).
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "reduce_sum",
            ReduceOp::Max => "reduce_max",
            ReduceOp::Min => "reduce_min",
            ReduceOp::Prod => "reduce_prod",
            ReduceOp::Mean => "reduce_mean",
        }
    }

    /// Folds one group sequentially; `None` for an empty max/min.
    fn fold<T: Accum>(self, values: impl Iterator<Item = T>) -> Option<T> {
        let combine = match self {
            ReduceOp::Sum | ReduceOp::Mean => T::add,
            ReduceOp::Prod => T::mul,
            ReduceOp::Max => nan_max,
            ReduceOp::Min => nan_min,
        };
        let identity = match self {
            ReduceOp::Sum | ReduceOp::Mean => Some(T::ZERO),
            ReduceOp::Prod => Some(T::ONE),
            ReduceOp::Max | ReduceOp::Min => None,
        };
        values.reduce(combine).or(identity)
    }
}

/// Every group of `groups` folded by `op` over `lanes`.
fn fold_groups<T: Accum>(op: ReduceOp, lanes: &[T], groups: &Groups) -> Result<Vec<T>> {
    (0..groups.count)
        .map(|g| {
            let values = groups.group(g).iter().map(|&i| lanes[i]);
            match op.fold(values) {
                Some(v) => Ok(v),
                None => bail!("`{}` of an empty axis has no identity", op.name()),
            }
        })
        .collect()
}

/// `op` over `axes` of `x`; the result has `x`'s element type.
pub fn reduce(op: ReduceOp, x: &Tensor, axes: &[i64], keep_dims: bool) -> Result<Tensor> {
    let axes = normalize_axes(op.name(), axes, x.rank())?;
    let groups = Groups::new(x.shape(), &axes);
    let data = match (x.lanes(), op) {
        (Lanes::Float(v), ReduceOp::Mean) => {
            let sums = fold_groups(op, &v, &groups)?;
            let count = groups.len as f32;
            f32::pack(sums.into_iter().map(|s| s / count).collect(), x.dtype())
        }
        (Lanes::Float(v), _) => f32::pack(fold_groups(op, &v, &groups)?, x.dtype()),
        (_, ReduceOp::Mean) => bail!("`reduce_mean` requires a float operand, got {}", x.dtype()),
        (Lanes::Int(v), _) => i64::pack(fold_groups(op, &v, &groups)?, x.dtype()),
        (Lanes::Bool(v), ReduceOp::Max | ReduceOp::Min) => {
            let widened: Vec<i64> = v.into_iter().map(i64::from).collect();
            i64::pack(fold_groups(op, &widened, &groups)?, DType::I1)
        }
        (Lanes::Bool(_), _) => bail!("`{}` does not accept i1 operands", op.name()),
    };
    Ok(Tensor::from_parts(reduced_shape(x.shape(), &axes, keep_dims), data))
}

/// The index (as `i64`) of the first largest element along `axis`; NaN counts as larger than
/// everything, so the first NaN wins (numpy's rule). `i1` orders `false < true`.
pub fn argmax(x: &Tensor, axis: i64, keep_dims: bool) -> Result<Tensor> {
    arg_reduce("argmax", x, axis, keep_dims, true)
}

/// The index (as `i64`) of the first smallest element along `axis`; NaN counts as smaller than
/// everything, so the first NaN wins (numpy's rule). `i1` orders `false < true`.
pub fn argmin(x: &Tensor, axis: i64, keep_dims: bool) -> Result<Tensor> {
    arg_reduce("argmin", x, axis, keep_dims, false)
}

/// `argmax` (`max`) or `argmin` along `axis`.
fn arg_reduce(op: &str, x: &Tensor, axis: i64, keep_dims: bool, max: bool) -> Result<Tensor> {
    let axis = normalize_axis(op, axis, x.rank())?;
    if x.shape()[axis] == 0 {
        bail!("`{op}` of an empty axis has no identity");
    }
    let groups = Groups::new(x.shape(), &[axis]);
    let out = match x.lanes() {
        Lanes::Float(v) => extreme_positions(&v, &groups, max),
        Lanes::Int(v) => extreme_positions(&v, &groups, max),
        Lanes::Bool(v) => extreme_positions(&v, &groups, max),
    };
    Ok(Tensor::from_parts(reduced_shape(x.shape(), &[axis], keep_dims), TensorData::I64(out)))
}

/// Per group, the position of the first element that no later element beats: a NaN beats
/// every number, nothing beats a NaN, otherwise the larger (`max`) or smaller value wins.
fn extreme_positions<T: PartialOrd + Copy>(lanes: &[T], groups: &Groups, max: bool) -> Vec<i64> {
    #[allow(clippy::eq_op)]
    let is_nan = |v: T| v != v;
    (0..groups.count)
        .map(|g| {
            let group = groups.group(g);
            let mut best = 0;
            for k in 1..group.len() {
                let (candidate, current) = (lanes[group[k]], lanes[group[best]]);
                let better = if max { candidate > current } else { candidate < current };
                if !is_nan(current) && (is_nan(candidate) || better) {
                    best = k;
                }
            }
            best as i64
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(shape: &[usize], values: &[f64]) -> Tensor {
        Tensor::from_f64s(DType::F32, shape.to_vec(), values).unwrap()
    }

    #[test]
    fn sums_over_axis_subsets() {
        let x = f32s(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
        assert_eq!(reduce(ReduceOp::Sum, &x, &[0], false).unwrap().to_f64s(), vec![5., 7., 9.]);
        let all = reduce(ReduceOp::Sum, &x, &[-1, 0], true).unwrap();
        assert_eq!((all.shape(), all.to_f64s()), (&[1usize, 1][..], vec![21.]));
        assert_eq!(reduce(ReduceOp::Mean, &x, &[1], false).unwrap().to_f64s(), vec![2., 5.]);
        assert_eq!(reduce(ReduceOp::Prod, &x, &[], false).unwrap(), x);
        let empty = Tensor::zeros(DType::F32, vec![0, 2]);
        assert_eq!(reduce(ReduceOp::Prod, &empty, &[0], false).unwrap().to_f64s(), vec![1., 1.]);
    }

    #[test]
    fn arg_reductions_follow_numpy() {
        let x = f32s(&[2, 3], &[1., 3., 3., 2., f64::NAN, f64::NAN]);
        assert_eq!(argmax(&x, 1, false).unwrap().to_f64s(), vec![1., 1.]);
        assert_eq!(argmin(&x, -1, true).unwrap().shape(), &[2, 1]);
        assert_eq!(argmin(&x, 1, false).unwrap().to_f64s(), vec![0., 1.]);
        let big = Tensor::from_i64s(DType::I64, vec![2], &[i64::MAX - 1, i64::MAX]).unwrap();
        assert_eq!(argmax(&big, 0, false).unwrap().to_f64s(), vec![1.]);
    }

    #[test]
    fn errors() {
        let x = f32s(&[2, 3], &[0.; 6]);
        assert_eq!(
            reduce(ReduceOp::Sum, &x, &[2], false).unwrap_err().message(),
            "`reduce_sum` axis 2 is out of range for rank 2"
        );
        assert!(reduce(ReduceOp::Sum, &x, &[1, -1], false).unwrap_err().message().contains("repeated"));
        let empty = Tensor::zeros(DType::F32, vec![0, 2]);
        assert!(reduce(ReduceOp::Max, &empty, &[0], false).unwrap_err().message().contains("empty"));
        assert!(argmax(&empty, 0, false).is_err());
        assert!(argmax(&x, -3, false).is_err());
        let i = Tensor::zeros(DType::I32, vec![2]);
        assert!(reduce(ReduceOp::Mean, &i, &[0], false).unwrap_err().message().contains("float"));
        let b = Tensor::zeros(DType::I1, vec![2]);
        assert!(reduce(ReduceOp::Sum, &b, &[0], false).is_err());
        assert_eq!(reduce(ReduceOp::Max, &b, &[0], false).unwrap().dtype(), DType::I1);
    }
}
