//! Contractions: `matmul`, `batch_matmul` and `conv2d` (NCHW activations, OIHW weights).
//!
//! Precision: floats accumulate in `f32` (each product rounded to `f32`, then added; products
//! of `f16`/`bf16` values are exact in `f32`), integers in wrapping `i64`. The products are
//! summed in increasing order of the contracted index (for conv2d: input channel, then kernel
//! row, then kernel column), the optional bias is added to the accumulator last, and the
//! result is rounded to the operand type once, as a cube unit with an `f32` accumulator does.
//! BLAS orders sums differently, so goldens compare float contractions with a tolerance.
//! Operands and bias must share one element type; `i1` is rejected.

use super::broadcast::{broadcast_indices, broadcast_shapes, check_broadcasts_to};
use super::error::{bail, Result};
use super::lanes::Accum;
use super::tensor::{Tensor, TensorData};

/// Runs `$kernel::<T>($args)` with `T` the accumulator of `$dtype`'s domain (`f32` or `i64`).
macro_rules! in_domain {
    ($op:expr, $dtype:expr, $kernel:ident($($arg:expr),*)) => {
        match $dtype {
            d if d.is_float() => $kernel::<f32>($($arg),*),
            d if d.is_int() => $kernel::<i64>($($arg),*),
            d => bail!("`{}` requires float or integer operands, got {d}", $op),
        }
    };
}

/// Checks that every present operand has the type of the first.
fn check_types(op: &str, operands: &[Option<&Tensor>]) -> Result<()> {
    let mut present = operands.iter().flatten();
    if let Some(first) = present.next() {
        if let Some(other) = present.find(|t| t.dtype() != first.dtype()) {
            bail!("`{op}` operand types differ: {} vs {}", first.dtype(), other.dtype());
        }
    }
    Ok(())
}

/// `a @ b` for 2-D operands: `a` is `[M, K]` (`[K, M]` with `transpose_a`), `b` is `[K, N]`
/// (`[N, K]` with `transpose_b`); the optional `bias` broadcasts to `[M, N]`.
pub fn matmul(
    a: &Tensor,
    b: &Tensor,
    transpose_a: bool,
    transpose_b: bool,
    bias: Option<&Tensor>,
) -> Result<Tensor> {
    if a.rank() != 2 || b.rank() != 2 {
        bail!("`matmul` requires rank-2 operands, got ranks {} and {}", a.rank(), b.rank());
    }
    contract("matmul", a, b, transpose_a, transpose_b, bias)
}

/// Batched `a @ b`: the last two dims of each operand are matrices as in [`matmul`], the
/// leading (batch) dims broadcast as in numpy; the result is `batch + [M, N]` and the optional
/// `bias` broadcasts to it.
pub fn batch_matmul(
    a: &Tensor,
    b: &Tensor,
    transpose_a: bool,
    transpose_b: bool,
    bias: Option<&Tensor>,
) -> Result<Tensor> {
    if a.rank() < 2 || b.rank() < 2 {
        bail!("`batch_matmul` requires operands of rank >= 2, got ranks {} and {}", a.rank(), b.rank());
    }
    contract("batch_matmul", a, b, transpose_a, transpose_b, bias)
}

/// The shared body of `matmul` and `batch_matmul` (ranks already checked).
fn contract(
    op: &str,
    a: &Tensor,
    b: &Tensor,
    transpose_a: bool,
    transpose_b: bool,
    bias: Option<&Tensor>,
) -> Result<Tensor> {
    check_types(op, &[Some(a), Some(b), bias])?;
    let (ra, rb) = (a.rank(), b.rank());
    let (a_rows, a_cols) = (a.shape()[ra - 2], a.shape()[ra - 1]);
    let (b_rows, b_cols) = (b.shape()[rb - 2], b.shape()[rb - 1]);
    let (m, k) = if transpose_a { (a_cols, a_rows) } else { (a_rows, a_cols) };
    let (kb, n) = if transpose_b { (b_cols, b_rows) } else { (b_rows, b_cols) };
    if k != kb {
        bail!(
            "`{op}` contraction dims differ: {k} vs {kb} (shapes {:?} and {:?}, transpose_a={transpose_a}, transpose_b={transpose_b})",
            a.shape(),
            b.shape()
        );
    }
    let batch = broadcast_shapes(op, &[&a.shape()[..ra - 2], &b.shape()[..rb - 2]])?;
    let a_batches = broadcast_indices(&a.shape()[..ra - 2], &batch);
    let b_batches = broadcast_indices(&b.shape()[..rb - 2], &batch);
    let mut shape = batch;
    shape.extend([m, n]);
    let bias_index = match bias {
        Some(t) => {
            check_broadcasts_to(op, t.shape(), &shape)?;
            broadcast_indices(t.shape(), &shape)
        }
        None => vec![],
    };
    let plan = Contraction { m, k, n, transpose_a, transpose_b, a_batches, b_batches, bias_index };
    let data = in_domain!(op, a.dtype(), contraction_kernel(a, b, bias, &plan));
    Ok(Tensor::from_parts(shape, data))
}

/// The index arithmetic of a (batched) matrix product.
struct Contraction {
    m: usize,
    k: usize,
    n: usize,
    transpose_a: bool,
    transpose_b: bool,
    /// Per result batch, the batch index read from `a` (resp. `b`).
    a_batches: Vec<usize>,
    b_batches: Vec<usize>,
    /// Per result element, the bias element it adds (empty without bias).
    bias_index: Vec<usize>,
}

/// The products of `plan`, accumulated in `T`, packed into `a`'s type.
fn contraction_kernel<T: Accum>(
    a: &Tensor,
    b: &Tensor,
    bias: Option<&Tensor>,
    plan: &Contraction,
) -> TensorData {
    let Contraction { m, k, n, transpose_a, transpose_b, .. } = *plan;
    let (x, y, c) = (T::widen(a), T::widen(b), bias.map(T::widen));
    let mut out = Vec::with_capacity(plan.a_batches.len() * m * n);
    for (&ab, &bb) in plan.a_batches.iter().zip(&plan.b_batches) {
        for i in 0..m {
            for j in 0..n {
                let dot = (0..k).fold(T::ZERO, |acc, p| {
                    let xa = ab * m * k + if transpose_a { p * m + i } else { i * k + p };
                    let yb = bb * k * n + if transpose_b { j * k + p } else { p * n + j };
                    acc.add(x[xa].mul(y[yb]))
                });
                let bias_value = c.as_ref().map(|c| c[plan.bias_index[out.len()]]);
                out.push(bias_value.map_or(dot, |v| dot.add(v)));
            }
        }
    }
    T::pack(out, a.dtype())
}

/// The attributes of [`conv2d`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conv2dParams {
    /// Step between output positions, `[height, width]`, each >= 1.
    pub strides: [usize; 2],
    /// Implicit zero padding, `[top, left, bottom, right]` (ONNX's `pads` order).
    pub padding: [usize; 4],
    /// Spacing between kernel taps, `[height, width]`, each >= 1.
    pub dilation: [usize; 2],
    /// Number of channel groups; input and output channels must both be divisible by it.
    pub groups: usize,
}

impl Default for Conv2dParams {
    /// Unit strides and dilation, no padding, one group.
    fn default() -> Self {
        Conv2dParams { strides: [1, 1], padding: [0; 4], dilation: [1, 1], groups: 1 }
    }
}

/// 2-D convolution (cross-correlation, as every ML framework): `x` is `[N, C, H, W]`, `w` is
/// `[O, C / groups, KH, KW]`, the optional `bias` is `[O]`; the result is `[N, O, OH, OW]` with
/// `OH = (H + top + bottom - dilation_h * (KH - 1) - 1) / stride_h + 1` (likewise `OW`).
/// Output channel `o` reads input channels of group `o / (O / groups)`.
pub fn conv2d(x: &Tensor, w: &Tensor, bias: Option<&Tensor>, params: &Conv2dParams) -> Result<Tensor> {
    check_types("conv2d", &[Some(x), Some(w), bias])?;
    if x.rank() != 4 || w.rank() != 4 {
        bail!("`conv2d` requires rank-4 input and weight, got ranks {} and {}", x.rank(), w.rank());
    }
    let Conv2dParams { strides: [sh, sw], padding: [pt, pl, pb, pr], dilation: [dh, dw], groups } = *params;
    if sh == 0 || sw == 0 || dh == 0 || dw == 0 || groups == 0 {
        bail!("`conv2d` strides, dilation and groups must be positive, got {params:?}");
    }
    let [nb, c, h, wd] = [x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]];
    let [o, cg, kh, kw] = [w.shape()[0], w.shape()[1], w.shape()[2], w.shape()[3]];
    if c % groups != 0 || o % groups != 0 || cg != c / groups {
        bail!("`conv2d` weight shape {:?} does not match {c} input channels in {groups} groups", w.shape());
    }
    if let Some(t) = bias {
        if t.shape() != [o] {
            bail!("`conv2d` bias must have shape [{o}], got {:?}", t.shape());
        }
    }
    let (span_h, span_w) = (dh * (kh.max(1) - 1) + 1, dw * (kw.max(1) - 1) + 1);
    if kh == 0 || kw == 0 || h + pt + pb < span_h || wd + pl + pr < span_w {
        bail!(
            "`conv2d` kernel {kh}x{kw} with dilation {dh}x{dw} does not fit the padded {}x{} input",
            h + pt + pb,
            wd + pl + pr
        );
    }
    let (oh, ow) = ((h + pt + pb - span_h) / sh + 1, (wd + pl + pr - span_w) / sw + 1);
    let geometry = ConvGeometry {
        input: [nb, c, h, wd],
        kernel: [o, cg, kh, kw],
        output: [oh, ow],
        params: params.clone(),
    };
    let data = in_domain!("conv2d", x.dtype(), conv_kernel(x, w, bias, &geometry));
    Ok(Tensor::from_parts(vec![nb, o, oh, ow], data))
}

/// The validated dims of a convolution.
struct ConvGeometry {
    /// `[N, C, H, W]`.
    input: [usize; 4],
    /// `[O, C / groups, KH, KW]`.
    kernel: [usize; 4],
    /// `[OH, OW]`.
    output: [usize; 2],
    params: Conv2dParams,
}

/// The convolution of `geometry`, accumulated in `T`, packed into `x`'s type.
fn conv_kernel<T: Accum>(
    x: &Tensor,
    w: &Tensor,
    bias: Option<&Tensor>,
    geometry: &ConvGeometry,
) -> TensorData {
    let ConvGeometry { input: [nb, c, h, wd], kernel: [o, cg, kh, kw], output: [oh, ow], ref params } =
        *geometry;
    let Conv2dParams { strides: [sh, sw], padding: [pt, pl, _, _], dilation: [dh, dw], groups } = *params;
    let (xs, ws, bs) = (T::widen(x), T::widen(w), bias.map(T::widen));
    let mut out = Vec::with_capacity(nb * o * oh * ow);
    for n in 0..nb {
        for oc in 0..o {
            let first_channel = (oc / (o / groups)) * cg;
            for y in 0..oh {
                for z in 0..ow {
                    let mut acc = T::ZERO;
                    for ci in 0..cg {
                        for i in 0..kh {
                            for j in 0..kw {
                                let (row, col) = (y * sh + i * dh, z * sw + j * dw);
                                if row < pt || col < pl || row - pt >= h || col - pl >= wd {
                                    continue;
                                }
                                let xi = ((n * c + first_channel + ci) * h + row - pt) * wd + col - pl;
                                let wi = ((oc * cg + ci) * kh + i) * kw + j;
                                acc = acc.add(xs[xi].mul(ws[wi]));
                            }
                        }
                    }
                    out.push(bs.as_ref().map_or(acc, |b| acc.add(b[oc])));
                }
            }
        }
    }
    T::pack(out, x.dtype())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    fn f32s(shape: &[usize], values: &[f64]) -> Tensor {
        Tensor::from_f64s(DType::F32, shape.to_vec(), values).unwrap()
    }

    #[test]
    fn matmul_with_transposes_and_bias() {
        let a = f32s(&[2, 3], &[1., 2., 3., 4., 5., 6.]);
        let b = f32s(&[3, 1], &[1., 0., -1.]);
        assert_eq!(matmul(&a, &b, false, false, None).unwrap().to_f64s(), vec![-2., -2.]);
        let bias = f32s(&[1], &[10.]);
        let at = f32s(&[3, 2], &[1., 4., 2., 5., 3., 6.]);
        let bt = f32s(&[1, 3], &[1., 0., -1.]);
        let r = matmul(&at, &bt, true, true, Some(&bias)).unwrap();
        assert_eq!((r.shape(), r.to_f64s()), (&[2usize, 1][..], vec![8., 8.]));
        let batched = batch_matmul(&f32s(&[2, 1, 1, 3], &[1., 1., 1., 2., 2., 2.]), &b, false, false, None);
        assert_eq!(batched.unwrap().shape(), &[2, 1, 1, 1]);
    }

    #[test]
    fn conv_with_padding_groups_and_dilation() {
        let x = f32s(&[1, 2, 3, 3], &(0..18).map(f64::from).collect::<Vec<_>>());
        let w = f32s(&[2, 1, 2, 2], &[1., 0., 0., 1., 1., 1., 1., 1.]);
        let params = Conv2dParams { groups: 2, ..Default::default() };
        let y = conv2d(&x, &w, None, &params).unwrap();
        assert_eq!(y.to_f64s(), vec![4., 6., 10., 12., 44., 48., 56., 60.]);
        let params =
            Conv2dParams { padding: [1, 1, 0, 0], dilation: [2, 2], groups: 2, ..Default::default() };
        let y = conv2d(&x, &w, Some(&f32s(&[2], &[0.5, 0.])), &params).unwrap();
        assert_eq!(y.shape(), &[1, 2, 2, 2]);
        assert_eq!(y.to_f64s()[0], 4.5);
    }

    #[test]
    fn errors() {
        let a = f32s(&[2, 3], &[0.; 6]);
        assert!(matmul(&a, &a, false, false, None).unwrap_err().message().contains("contraction"));
        assert!(matmul(&f32s(&[6], &[0.; 6]), &a, false, false, None).is_err());
        assert!(matmul(&a, &a, false, true, Some(&f32s(&[3], &[0.; 3]))).is_err());
        let h = Tensor::zeros(DType::F16, vec![3, 2]);
        assert!(matmul(&a, &h, false, false, None).unwrap_err().message().contains("types differ"));
        let i1 = Tensor::zeros(DType::I1, vec![2, 2]);
        assert!(matmul(&i1, &i1, false, false, None).is_err());
        let l = f32s(&[2, 2, 3], &[0.; 12]);
        let r = f32s(&[3, 3, 2], &[0.; 18]);
        assert!(batch_matmul(&l, &r, false, false, None).unwrap_err().message().contains("broadcast"));
        let x = f32s(&[1, 2, 3, 3], &[0.; 18]);
        let w = f32s(&[2, 2, 4, 1], &[0.; 16]);
        assert!(conv2d(&x, &w, None, &Conv2dParams::default()).unwrap_err().message().contains("fit"));
        let w = f32s(&[3, 1, 1, 1], &[0.; 3]);
        assert!(conv2d(&x, &w, None, &Conv2dParams::default()).is_err());
        let params = Conv2dParams { strides: [0, 1], ..Default::default() };
        assert!(conv2d(&x, &f32s(&[1, 2, 1, 1], &[0.; 2]), None, &params).is_err());
        assert!(conv2d(&a, &a, None, &Conv2dParams::default()).is_err());
    }
}
