//! Composite ops, computed directly so that their decompositions can be checked against them:
//! `softmax`, `log_softmax`, `layer_norm`, `rms_norm`, `batch_norm` (inference), `bias_add`,
//! `dropout` (inference) and `swiglu`.
//!
//! Precision: apart from `bias_add` (one `add`) and `dropout` (the identity), each composite
//! is evaluated in `f64` from the exactly widened operands and rounded once to `f32`, then to
//! the dtype: the accurate value, which a decomposition that rounds after every op only
//! approximates (compare decompositions with a tolerance). They require float operands; every
//! parameter tensor must have the operand's type. `epsilon` is added in `f64`.

use super::broadcast::{broadcast_indices, check_broadcasts_to};
use super::elementwise::{binary, BinaryOp};
use super::error::{bail, Result};
use super::index::{normalize_axis, Groups};
use super::lanes::Lanes;
use super::tensor::Tensor;
use kiln_numerics::float::sigmoid_f64;

/// The values of float tensor `x`, widened to `f64`.
fn float_values(op: &str, x: &Tensor) -> Result<Vec<f64>> {
    match x.lanes() {
        Lanes::Float(v) => Ok(v.into_iter().map(f64::from).collect()),
        _ => bail!("`{op}` requires a float operand, got {}", x.dtype()),
    }
}

/// `values` rounded to `f32`, then to `like`'s type, in a tensor of `shape`.
fn pack(values: Vec<f64>, shape: Vec<usize>, like: &Tensor) -> Tensor {
    let lanes = Lanes::Float(values.into_iter().map(|v| v as f32).collect());
    Tensor::from_parts(shape, lanes.pack(like.dtype()))
}

/// The values of parameter `name` broadcast (one-directionally) to `shape`; it must have
/// `x`'s type.
fn param_values(op: &str, name: &str, p: &Tensor, x: &Tensor, shape: &[usize]) -> Result<Vec<f64>> {
    if p.dtype() != x.dtype() {
        bail!("`{op}` {name} has type {}, expected {}", p.dtype(), x.dtype());
    }
    check_broadcasts_to(op, p.shape(), shape)?;
    let values = float_values(op, p)?;
    Ok(broadcast_indices(p.shape(), shape).into_iter().map(|i| values[i]).collect())
}

/// `f` applied to every group of `x`'s elements that share all coordinates outside `axes`
/// (given in row-major order of `axes`), its results written back to the same positions.
fn map_groups(values: &[f64], shape: &[usize], axes: &[usize], f: impl Fn(&[f64]) -> Vec<f64>) -> Vec<f64> {
    let groups = Groups::new(shape, axes);
    let mut out = vec![0.0; values.len()];
    for g in 0..groups.count {
        let group = groups.group(g);
        let inputs: Vec<f64> = group.iter().map(|&i| values[i]).collect();
        for (&i, v) in group.iter().zip(f(&inputs)) {
            out[i] = v;
        }
    }
    out
}

/// `max` of `values` and the sum of `exp(v - max)`, the two halves of a stable softmax.
fn max_and_exp_sum(values: &[f64]) -> (f64, f64) {
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (max, values.iter().map(|v| libm::exp(v - max)).sum())
}

/// `exp(x - max) / sum(exp(x - max))` along `axis`.
pub fn softmax(x: &Tensor, axis: i64) -> Result<Tensor> {
    let axis = normalize_axis("softmax", axis, x.rank())?;
    let values = float_values("softmax", x)?;
    let out = map_groups(&values, x.shape(), &[axis], |g| {
        let (max, sum) = max_and_exp_sum(g);
        g.iter().map(|v| libm::exp(v - max) / sum).collect()
    });
    Ok(pack(out, x.shape().to_vec(), x))
}

/// `x - max - log(sum(exp(x - max)))` along `axis`.
pub fn log_softmax(x: &Tensor, axis: i64) -> Result<Tensor> {
    let axis = normalize_axis("log_softmax", axis, x.rank())?;
    let values = float_values("log_softmax", x)?;
    let out = map_groups(&values, x.shape(), &[axis], |g| {
        let (max, sum) = max_and_exp_sum(g);
        g.iter().map(|v| v - max - libm::log(sum)).collect()
    });
    Ok(pack(out, x.shape().to_vec(), x))
}

/// The normalized dims `axis..rank` of `x` (as ONNX's `LayerNormalization`), with the optional
/// `gamma`/`beta` broadcast to their shape.
struct TrailingNorm {
    axes: Vec<usize>,
    gamma: Option<Vec<f64>>,
    beta: Option<Vec<f64>>,
}

impl TrailingNorm {
    fn new(op: &str, x: &Tensor, axis: i64, gamma: Option<&Tensor>, beta: Option<&Tensor>) -> Result<Self> {
        let first = normalize_axis(op, axis, x.rank())?;
        let norm_shape = &x.shape()[first..];
        let gamma = gamma.map(|g| param_values(op, "gamma", g, x, norm_shape)).transpose()?;
        let beta = beta.map(|b| param_values(op, "beta", b, x, norm_shape)).transpose()?;
        Ok(TrailingNorm { axes: (first..x.rank()).collect(), gamma, beta })
    }

    /// `normalized[j] * gamma[j] + beta[j]`.
    fn affine(&self, j: usize, normalized: f64) -> f64 {
        let scaled = self.gamma.as_ref().map_or(normalized, |g| normalized * g[j]);
        self.beta.as_ref().map_or(scaled, |b| scaled + b[j])
    }
}

/// `(x - mean) / sqrt(var + epsilon) * gamma + beta` over the dims `axis..rank`, with the
/// population variance (divided by the count); `gamma` and `beta` are optional and
/// broadcast to `x.shape()[axis..]`.
pub fn layer_norm(
    x: &Tensor,
    gamma: Option<&Tensor>,
    beta: Option<&Tensor>,
    axis: i64,
    epsilon: f64,
) -> Result<Tensor> {
    let norm = TrailingNorm::new("layer_norm", x, axis, gamma, beta)?;
    let values = float_values("layer_norm", x)?;
    let out = map_groups(&values, x.shape(), &norm.axes, |g| {
        let count = g.len() as f64;
        let mean = g.iter().sum::<f64>() / count;
        let var = g.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / count;
        let scale = 1.0 / (var + epsilon).sqrt();
        g.iter().enumerate().map(|(j, v)| norm.affine(j, (v - mean) * scale)).collect()
    });
    Ok(pack(out, x.shape().to_vec(), x))
}

/// `x / sqrt(mean(x^2) + epsilon) * gamma` over the dims `axis..rank`; `gamma` is optional
/// and broadcasts to `x.shape()[axis..]`.
pub fn rms_norm(x: &Tensor, gamma: Option<&Tensor>, axis: i64, epsilon: f64) -> Result<Tensor> {
    let norm = TrailingNorm::new("rms_norm", x, axis, gamma, None)?;
    let values = float_values("rms_norm", x)?;
    let out = map_groups(&values, x.shape(), &norm.axes, |g| {
        let mean_square = g.iter().map(|v| v * v).sum::<f64>() / g.len() as f64;
        let scale = 1.0 / (mean_square + epsilon).sqrt();
        g.iter().enumerate().map(|(j, v)| norm.affine(j, v * scale)).collect()
    });
    Ok(pack(out, x.shape().to_vec(), x))
}

/// Inference batch normalization: `(x - mean[c]) / sqrt(var[c] + epsilon) * gamma[c] +
/// beta[c]` where `c` is the index along dim 1 of `x` (`[N, C, ...]`, rank >= 2) and the four
/// statistics are `[C]`.
pub fn batch_norm(
    x: &Tensor,
    mean: &Tensor,
    var: &Tensor,
    gamma: &Tensor,
    beta: &Tensor,
    epsilon: f64,
) -> Result<Tensor> {
    if x.rank() < 2 {
        bail!("`batch_norm` requires an operand of rank >= 2, got rank {}", x.rank());
    }
    let channels = x.shape()[1];
    let mut stats = Vec::with_capacity(4);
    for (name, t) in [("mean", mean), ("var", var), ("gamma", gamma), ("beta", beta)] {
        if t.shape() != [channels] {
            bail!("`batch_norm` {name} must have shape [{channels}], got {:?}", t.shape());
        }
        stats.push(param_values("batch_norm", name, t, x, &[channels])?);
    }
    let inner: usize = x.shape()[2..].iter().product();
    let values = float_values("batch_norm", x)?;
    let out = values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let c = (i / inner) % channels;
            (v - stats[0][c]) / (stats[1][c] + epsilon).sqrt() * stats[2][c] + stats[3][c]
        })
        .collect();
    Ok(pack(out, x.shape().to_vec(), x))
}

/// `x + bias` with the rank-1 `bias` (of length `x.shape()[axis]`) laid along `axis`: one
/// elementwise `add`, rounded as `add` is.
pub fn bias_add(x: &Tensor, bias: &Tensor, axis: i64) -> Result<Tensor> {
    let axis = normalize_axis("bias_add", axis, x.rank())?;
    if bias.shape() != [x.shape()[axis]] {
        bail!("`bias_add` bias must have shape [{}], got {:?}", x.shape()[axis], bias.shape());
    }
    let mut shape = vec![1; x.rank() - axis];
    shape[0] = x.shape()[axis];
    let laid = Tensor::from_parts(shape, bias.data().clone());
    binary(BinaryOp::Add, x, &laid)
}

/// Dropout at inference: the identity (the drop ratio plays no part).
pub fn dropout(x: &Tensor) -> Tensor {
    x.clone()
}

/// `silu(a) * b` where `a` and `b` are the first and second halves of `x` along `axis` (whose
/// size must be even); the result has half that size along `axis`.
pub fn swiglu(x: &Tensor, axis: i64) -> Result<Tensor> {
    let axis = normalize_axis("swiglu", axis, x.rank())?;
    let size = x.shape()[axis];
    if size % 2 == 1 {
        bail!("`swiglu` axis {axis} has odd size {size}");
    }
    let values = float_values("swiglu", x)?;
    let mut shape = x.shape().to_vec();
    shape[axis] = size / 2;
    let (ins, outs) = (Groups::new(x.shape(), &[axis]), Groups::new(&shape, &[axis]));
    let mut out = vec![0.0; values.len() / 2];
    for g in 0..ins.count {
        let (group, dest) = (ins.group(g), outs.group(g));
        for (j, &o) in dest.iter().enumerate() {
            let (a, b) = (values[group[j]], values[group[j + size / 2]]);
            out[o] = a * sigmoid_f64(a) * b;
        }
    }
    Ok(pack(out, shape, x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::DType;

    fn f32s(shape: &[usize], values: &[f64]) -> Tensor {
        Tensor::from_f64s(DType::F32, shape.to_vec(), values).unwrap()
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn values() {
        let x = f32s(&[2, 2], &[0., 0., 1., 1.]);
        assert_eq!(softmax(&x, 0).unwrap().to_f64s()[0], (1.0 / (1.0 + std::f64::consts::E)) as f32 as f64);
        assert!(close(&log_softmax(&x, 1).unwrap().to_f64s(), &[-std::f64::consts::LN_2; 4]));
        let ln = layer_norm(&f32s(&[1, 2], &[1., 3.]), None, Some(&f32s(&[1], &[1.])), -1, 0.0).unwrap();
        assert_eq!(ln.to_f64s(), vec![0., 2.]);
        let rms = rms_norm(&f32s(&[2], &[3., 4.]), Some(&f32s(&[2], &[1., 2.])), 0, 0.0).unwrap();
        let r = (12.5f64).sqrt();
        assert!(close(&rms.to_f64s(), &[3. / r, 8. / r]));
        let one = f32s(&[2], &[1., 1.]);
        let zero = f32s(&[2], &[0., 0.]);
        let bn = batch_norm(&f32s(&[1, 2, 1], &[2., 3.]), &one, &one, &one, &zero, 0.0).unwrap();
        assert_eq!(bn.to_f64s(), vec![1., 2.]);
        let ba = bias_add(&f32s(&[2, 2], &[0.; 4]), &f32s(&[2], &[1., 2.]), 0).unwrap();
        assert_eq!(ba.to_f64s(), vec![1., 1., 2., 2.]);
        let sw = swiglu(&f32s(&[1, 4], &[0., 1., 5., 6.]), 1).unwrap();
        assert!(close(&sw.to_f64s(), &[0., 6. / (1. + (-1f64).exp())]));
        assert_eq!(dropout(&x), x);
    }

    #[test]
    fn errors() {
        let x = f32s(&[2, 4], &[0.; 8]);
        let i = Tensor::zeros(DType::I32, vec![2, 4]);
        assert_eq!(softmax(&i, 0).unwrap_err().message(), "`softmax` requires a float operand, got i32");
        assert!(softmax(&x, 2).is_err());
        assert!(log_softmax(&x, -3).is_err());
        assert!(layer_norm(&x, Some(&f32s(&[3], &[0.; 3])), None, 1, 1e-5)
            .unwrap_err()
            .message()
            .contains("broadcast"));
        let h = Tensor::zeros(DType::F16, vec![4]);
        assert!(layer_norm(&x, Some(&h), None, -1, 1e-5)
            .unwrap_err()
            .message()
            .contains("gamma has type f16"));
        assert!(rms_norm(&x, None, 5, 1e-5).is_err());
        let c = f32s(&[3], &[0.; 3]);
        let err = batch_norm(&x, &c, &c, &c, &c, 1e-5).unwrap_err();
        assert_eq!(err.message(), "`batch_norm` mean must have shape [4], got [3]");
        assert!(batch_norm(&c, &c, &c, &c, &c, 1e-5).is_err());
        assert!(bias_add(&x, &f32s(&[2], &[0.; 2]), 1).is_err());
        assert!(swiglu(&f32s(&[3], &[0.; 3]), 0).unwrap_err().message().contains("odd"));
    }
}
