//! 2-D pooling on NCHW tensors: `max_pool2d`, `avg_pool2d`, `global_avg_pool2d`.
//!
//! The windowed pools are defined as the composition `hl-decompose` emits, so the lowering is
//! bit-exact by construction: the input is padded (with `-inf`, the lowest integer for
//! integer types, for max; with `+0` for average) to cover every window, one strided slice is
//! taken per kernel tap, and the slices are combined in row-major tap order with `maximum`
//! (max) or `add` (average), each step rounded to the element type as the elementwise ops
//! round; the average then divides by the number of taps counted (inside the input, or inside
//! the padded input with `count_include_pad`). So padded cells never win a max, and add `+0`
//! to a sum. `global_avg_pool2d` is `reduce_mean` over every dim after the first two.

use super::elementwise::{binary, BinaryOp};
use super::error::{bail, Result};
use super::indexed::pad;
use super::layout::slice;
use super::reduce::{reduce, ReduceOp};
use super::tensor::Tensor;

/// The attributes of the windowed pools (ONNX `MaxPool`/`AveragePool`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool2dParams {
    /// Window size, `[height, width]`, each >= 1.
    pub kernel: [usize; 2],
    /// Step between windows, `[height, width]`, each >= 1.
    pub strides: [usize; 2],
    /// Implicit padding, `[top, left, bottom, right]`.
    pub padding: [usize; 4],
    /// Spacing between taps, `[height, width]`, each >= 1.
    pub dilation: [usize; 2],
    /// Output sizes round up (ONNX `ceil_mode`); a window that would start in the bottom or
    /// right padding is dropped.
    pub ceil_mode: bool,
}

impl Pool2dParams {
    /// The extent of the window along spatial axis `a` (0: height, 1: width); `usize::MAX`
    /// when it does not fit.
    fn extent(&self, a: usize) -> usize {
        self.dilation[a].saturating_mul(self.kernel[a].saturating_sub(1)).saturating_add(1)
    }

    /// The output size along spatial axis `a` (0: height, 1: width) of an input of `size`.
    pub fn output_size(&self, a: usize, size: usize) -> Result<usize> {
        if self.kernel.contains(&0) || self.strides.contains(&0) || self.dilation.contains(&0) {
            bail!("pooling kernel, strides and dilation must be positive, got {self:?}");
        }
        let (begin, end, stride) = (self.padding[a], self.padding[a + 2], self.strides[a]);
        let Some(padded) = size.checked_add(begin).and_then(|n| n.checked_add(end)) else {
            bail!("padded pooling input size overflows");
        };
        let extent = self.extent(a);
        let Some(span) = padded.checked_sub(extent) else {
            bail!("pooling window extent {extent} exceeds padded input size {padded}");
        };
        if !self.ceil_mode {
            return Ok(span / stride + 1);
        }
        let out = span.div_ceil(stride) + 1;
        Ok(if (out - 1) * stride >= size + begin { out - 1 } else { out })
    }
}

/// The input padded with `fill` to cover every window (ceil-mode windows included), and the
/// output size `[oh, ow]`.
fn padded(x: &Tensor, p: &Pool2dParams, fill: f64) -> Result<(Tensor, [usize; 2])> {
    if x.rank() != 4 {
        bail!("pooling requires a rank-4 (NCHW) input, got rank {}", x.rank());
    }
    let (h, w) = (x.shape()[2], x.shape()[3]);
    let out = [p.output_size(0, h)?, p.output_size(1, w)?];
    let reach = |a: usize, size: usize| {
        let needed = (out[a] - 1) * p.strides[a] + p.extent(a);
        p.padding[a + 2].max(needed.saturating_sub(size + p.padding[a]))
    };
    let low = [0, 0, p.padding[0], p.padding[1]];
    let high = [0, 0, reach(0, h), reach(1, w)];
    Ok((pad(x, &low, &high, fill)?, out))
}

/// The slice of the padded input read by kernel tap `(i, j)` of every window.
fn tap(padded: &Tensor, p: &Pool2dParams, out: [usize; 2], i: usize, j: usize) -> Result<Tensor> {
    let s = padded.shape();
    let (row, col) = (i * p.dilation[0], j * p.dilation[1]);
    let limits = [s[0], s[1], row + (out[0] - 1) * p.strides[0] + 1, col + (out[1] - 1) * p.strides[1] + 1];
    slice(padded, &[0, 0, row, col], &limits, &[1, 1, p.strides[0], p.strides[1]])
}

/// Every tap's slice combined by `op` in row-major tap order.
fn combine(padded: &Tensor, p: &Pool2dParams, out: [usize; 2], op: BinaryOp) -> Result<Tensor> {
    let mut acc = tap(padded, p, out, 0, 0)?;
    for t in 1..p.kernel[0] * p.kernel[1] {
        acc = binary(op, &acc, &tap(padded, p, out, t / p.kernel[1], t % p.kernel[1])?)?;
    }
    Ok(acc)
}

/// ONNX `MaxPool` of an NCHW tensor (see the module documentation).
pub fn max_pool2d(x: &Tensor, p: &Pool2dParams) -> Result<Tensor> {
    if !x.dtype().is_float() && !x.dtype().is_int() {
        bail!("`max_pool2d` requires float or integer elements, got {}", x.dtype());
    }
    let (padded, out) = padded(x, p, f64::NEG_INFINITY)?;
    combine(&padded, p, out, BinaryOp::Maximum)
}

/// The number of taps of each window of axis `a` that lie inside the input (or, with
/// `include_pad`, inside the padded input).
pub fn tap_counts(p: &Pool2dParams, a: usize, size: usize, out: usize, include_pad: bool) -> Vec<usize> {
    let (begin, end) = if include_pad {
        (0, size + p.padding[a] + p.padding[a + 2])
    } else {
        (p.padding[a], size + p.padding[a])
    };
    (0..out)
        .map(|o| {
            (0..p.kernel[a])
                .filter(|&i| (begin..end).contains(&(o * p.strides[a] + i * p.dilation[a])))
                .count()
        })
        .collect()
}

/// ONNX `AveragePool` of an NCHW float tensor (see the module documentation).
pub fn avg_pool2d(x: &Tensor, p: &Pool2dParams, count_include_pad: bool) -> Result<Tensor> {
    if !x.dtype().is_float() {
        bail!("`avg_pool2d` requires float elements, got {}", x.dtype());
    }
    let (padded, out) = padded(x, p, 0.0)?;
    let sum = combine(&padded, p, out, BinaryOp::Add)?;
    let rows = tap_counts(p, 0, x.shape()[2], out[0], count_include_pad);
    let cols = tap_counts(p, 1, x.shape()[3], out[1], count_include_pad);
    let counts: Vec<f64> = rows.iter().flat_map(|&r| cols.iter().map(move |&c| (r * c) as f64)).collect();
    let counts = Tensor::from_f64s(x.dtype(), vec![1, 1, out[0], out[1]], &counts)?;
    binary(BinaryOp::Div, &sum, &counts)
}

/// ONNX `GlobalAveragePool`: the mean over every dim after the first two (kept as size 1).
pub fn global_avg_pool2d(x: &Tensor) -> Result<Tensor> {
    if x.rank() < 3 {
        bail!("`global_avg_pool2d` requires rank 3 or more, got rank {}", x.rank());
    }
    let axes: Vec<i64> = (2..x.rank() as i64).collect();
    reduce(ReduceOp::Mean, x, &axes, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    fn image(h: usize, w: usize) -> Tensor {
        let values: Vec<f64> = (0..h * w).map(|v| v as f64).collect();
        Tensor::from_f64s(DType::F32, vec![1, 1, h, w], &values).unwrap()
    }

    fn params(kernel: usize, stride: usize, pad: usize) -> Pool2dParams {
        Pool2dParams {
            kernel: [kernel; 2],
            strides: [stride; 2],
            padding: [pad; 4],
            dilation: [1, 1],
            ceil_mode: false,
        }
    }

    #[test]
    fn max_pool_with_padding_and_ceil_mode() {
        // 0 1 2 / 3 4 5 / 6 7 8, 2x2 windows, stride 2, pad 1: windows at rows -1..1, 1..3.
        let r = max_pool2d(&image(3, 3), &params(2, 2, 1)).unwrap();
        assert_eq!((r.shape(), r.to_f64s()), (&[1usize, 1, 2, 2][..], vec![0., 2., 6., 8.]));
        let p = Pool2dParams { ceil_mode: true, ..params(2, 2, 0) };
        let r = max_pool2d(&image(3, 3), &p).unwrap();
        assert_eq!(r.to_f64s(), vec![4., 5., 7., 8.]);
        // ceil_mode drops a window that would start in the padding: (3 + 2 - 2) / 2 rounds up
        // to 2, and window 2 would start at row 4 >= 3 + 1.
        let p = Pool2dParams { ceil_mode: true, ..params(2, 2, 1) };
        assert_eq!(p.output_size(0, 3).unwrap(), 2);
        let ints = Tensor::from_i64s(DType::I32, vec![1, 1, 2, 2], &[-5, -7, -9, -6]).unwrap();
        assert_eq!(max_pool2d(&ints, &params(2, 1, 1)).unwrap().to_f64s()[0], -5.0);
    }

    #[test]
    fn avg_pool_counts() {
        // Pad 1, 2x2 windows, stride 2 on 3x3: the corner window holds one input cell.
        let r = avg_pool2d(&image(3, 3), &params(2, 2, 1), false).unwrap();
        assert_eq!(r.to_f64s(), vec![0., 1.5, 4.5, 6.]);
        let r = avg_pool2d(&image(3, 3), &params(2, 2, 1), true).unwrap();
        assert_eq!(r.to_f64s(), vec![0., 0.75, 2.25, 6.]);
        let p = Pool2dParams { ceil_mode: true, ..params(2, 2, 0) };
        // The ceil-mode windows past the input count only their input cells.
        assert_eq!(avg_pool2d(&image(3, 3), &p, true).unwrap().to_f64s(), vec![2., 3.5, 6.5, 8.]);
        let g = global_avg_pool2d(&image(2, 2)).unwrap();
        assert_eq!((g.shape(), g.to_f64s()), (&[1usize, 1, 1, 1][..], vec![1.5]));
        assert!(avg_pool2d(&Tensor::zeros(DType::I32, vec![1, 1, 2, 2]), &params(1, 1, 0), false).is_err());
        assert!(max_pool2d(&image(2, 2), &params(3, 1, 0)).unwrap_err().message().contains("exceeds"));
    }
}
