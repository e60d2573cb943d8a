//! Ops along one axis whose every result element depends on its predecessors: running sums and
//! products (`cumsum`, `cumprod`) and the `k` largest or smallest elements (`topk`).
//!
//! A running sum or product accumulates in `f32` for floats (each result rounded once to the
//! element type) and in wrapping `i64` for integers, in index order (reverse order with
//! `reverse`). `topk` moves elements unchanged.

use super::error::{bail, Result};
use super::index::{normalize_axis, strides};
use super::lanes::Lanes;
use super::tensor::{Tensor, TensorData};

/// The flat indices of every line of `shape` along `axis`, each line in order.
fn lines(shape: &[usize], axis: usize) -> impl Iterator<Item = Vec<usize>> + '_ {
    let st = strides(shape);
    let (len, step) = (shape[axis], st[axis]);
    let outer: usize = shape[..axis].iter().product();
    let inner: usize = shape[axis + 1..].iter().product();
    (0..outer * inner).map(move |l| {
        let base = (l / inner.max(1)) * len * inner + l % inner.max(1);
        (0..len).map(|i| base + i * step).collect()
    })
}

/// A running sum (`product = false`) or product of `x` along `axis`; `exclusive` leaves the
/// element itself out (the first result is 0, or 1), `reverse` runs from the end.
pub fn cumulative(x: &Tensor, axis: i64, product: bool, exclusive: bool, reverse: bool) -> Result<Tensor> {
    let axis = normalize_axis(if product { "cumprod" } else { "cumsum" }, axis, x.rank())?;
    fn run<T: Copy>(
        v: &mut [T],
        shape: &[usize],
        axis: usize,
        init: T,
        f: impl Fn(T, T) -> T,
        ex: bool,
        rev: bool,
    ) {
        for mut line in lines(shape, axis) {
            if rev {
                line.reverse();
            }
            let mut acc = init;
            for i in line {
                let next = f(acc, v[i]);
                v[i] = if ex { acc } else { next };
                acc = next;
            }
        }
    }
    let lanes = match x.lanes() {
        Lanes::Float(mut v) => {
            let f = if product { |a: f32, b: f32| a * b } else { |a: f32, b: f32| a + b };
            run(&mut v, x.shape(), axis, if product { 1.0 } else { 0.0 }, f, exclusive, reverse);
            Lanes::Float(v)
        }
        Lanes::Int(mut v) => {
            let f = if product { i64::wrapping_mul } else { i64::wrapping_add };
            run(&mut v, x.shape(), axis, i64::from(product), f, exclusive, reverse);
            Lanes::Int(v)
        }
        Lanes::Bool(_) => bail!("`cumsum` does not accept i1 operands"),
    };
    Ok(Tensor::from_parts(x.shape().to_vec(), lanes.pack(x.dtype())))
}

/// The `k` largest (or smallest) elements of `x` along `axis`, sorted (largest first, or
/// smallest first), and their `i64` indices: equal elements keep index order; NaN counts as
/// larger than every number.
pub fn topk(x: &Tensor, k: usize, axis: i64, largest: bool) -> Result<Vec<Tensor>> {
    let axis = normalize_axis("topk", axis, x.rank())?;
    let len = x.shape()[axis];
    if k > len {
        bail!("`topk` k = {k} exceeds dim {axis} of size {len}");
    }
    let key: Vec<f64> = match x.lanes() {
        Lanes::Bool(_) => bail!("`topk` does not accept i1 operands"),
        _ => x.to_f64s(),
    };
    let ints = match x.lanes() {
        Lanes::Int(v) => Some(v),
        _ => None,
    };
    use std::cmp::Ordering;
    let order = |a: usize, b: usize| -> Ordering {
        let c = match (&ints, key[a].is_nan(), key[b].is_nan()) {
            (Some(v), ..) => v[a].cmp(&v[b]),
            (None, true, true) => Ordering::Equal,
            (None, true, false) => Ordering::Greater,
            (None, false, true) => Ordering::Less,
            (None, false, false) => key[a].partial_cmp(&key[b]).unwrap_or(Ordering::Equal),
        };
        if largest {
            c.reverse()
        } else {
            c
        }
    };
    let mut shape = x.shape().to_vec();
    shape[axis] = k;
    let (out_step, in_step) = (strides(&shape)[axis], strides(x.shape())[axis]);
    let count: usize = shape.iter().product();
    let inner: usize = shape[axis + 1..].iter().product::<usize>().max(1);
    let (mut picks, mut idx) = (vec![0; count], vec![0i64; count]);
    for (l, mut line) in lines(x.shape(), axis).enumerate() {
        let first = line.first().copied().unwrap_or(0);
        line.sort_by(|&a, &b| order(a, b));
        let base = (l / inner) * k * inner + l % inner;
        for (j, &p) in line.iter().take(k).enumerate() {
            picks[base + j * out_step] = p;
            idx[base + j * out_step] = ((p - first) / in_step) as i64;
        }
    }
    Ok(vec![
        Tensor::from_parts(shape.clone(), x.data().gather(&picks)),
        Tensor::from_parts(shape, TensorData::I64(idx)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    #[test]
    fn running_sums_and_top_elements() {
        let x = Tensor::from_i64s(DType::I32, vec![2, 3], &[1, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(cumulative(&x, 1, false, false, false).unwrap().to_f64s(), vec![1., 3., 6., 4., 9., 15.]);
        assert_eq!(cumulative(&x, 1, false, true, true).unwrap().to_f64s(), vec![5., 3., 0., 11., 6., 0.]);
        assert_eq!(cumulative(&x, 0, true, false, false).unwrap().to_f64s(), vec![1., 2., 3., 4., 10., 18.]);
        let y = Tensor::from_f64s(DType::F32, vec![5], &[1.0, 3.0, f64::NAN, 3.0, -1.0]).unwrap();
        let r = topk(&y, 3, 0, true).unwrap();
        let v = r[0].to_f64s();
        assert!(v[0].is_nan() && v[1] == 3.0 && v[2] == 3.0);
        assert_eq!(r[1].to_f64s(), vec![2., 1., 3.]);
        assert_eq!(topk(&y, 2, 0, false).unwrap()[1].to_f64s(), vec![4., 0.]);
        assert!(topk(&y, 6, 0, true).is_err());
    }
}
