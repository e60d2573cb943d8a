//! Contractions and normalizations: `MatMul` (numpy batch broadcasting, 1-D operands),
//! `Gemm`, `Conv` (2-D, bias, `auto_pad`, a following `BatchNormalization` folded into
//! constant weights), `BatchNormalization`, `LayerNormalization` (any axis), `Softmax` /
//! `LogSoftmax`, `MaxPool` / `AveragePool` / `GlobalAveragePool`.

use kiln_dialects::hl;
use kiln_dialects::hl::interp::Tensor;

use super::{attr_float, attr_int, attr_ints, attr_str, norm_axis};
use crate::graph::{Importer, Val};

/// `MatMul(a, b)`: `hl.matmul` for rank 2, `hl.batch_matmul` when either operand has batch
/// dims (it broadcasts them, `[B, S, K] x [K, N]` included); a 1-D operand becomes a matrix
/// whose unit dim the result drops, as numpy's `matmul`.
pub(super) fn matmul(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (mut a, mut b) = (imp.input(node, 0)?, imp.input(node, 1)?);
    let (sa, sb) = (imp.shape(&a), imp.shape(&b));
    if sa.is_empty() || sb.is_empty() {
        return Err("`MatMul` operands must have rank >= 1".into());
    }
    if sa.len() == 1 {
        a = imp.reshape(&a, &[1, sa[0]])?;
    }
    if sb.len() == 1 {
        b = imp.reshape(&b, &[sb[0], 1])?;
    }
    let (ra, rb) = (imp.shape(&a).len(), imp.shape(&b).len());
    let def = if ra == 2 && rb == 2 { &hl::MATMUL } else { &hl::BATCH_MATMUL };
    let y = imp.op(def, &[&a, &b], &[], None)?;
    let mut shape = imp.shape(&y);
    let n = shape.len();
    if sb.len() == 1 {
        shape.remove(n - 1);
    }
    if sa.len() == 1 {
        shape.remove(n - 2);
    }
    Ok(vec![imp.reshape(&y, &shape)?])
}

/// `Gemm(a, b, c?, alpha, beta, transA, transB)`: `alpha * a' b' + beta * c`.
pub(super) fn gemm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (a, b) = (imp.input(node, 0)?, imp.input(node, 1)?);
    let c = imp.opt_input(node, 2)?;
    let (alpha, beta) = (attr_float(node, "alpha", 1.0)?, attr_float(node, "beta", 1.0)?);
    let mut attrs = Vec::new();
    if attr_int(node, "transA", 0)? != 0 {
        attrs.push(("transpose_a", imp.bool_attr(true)));
    }
    if attr_int(node, "transB", 0)? != 0 {
        attrs.push(("transpose_b", imp.bool_attr(true)));
    }
    let mut y = imp.op(&hl::MATMUL, &[&a, &b], &attrs, None)?;
    if alpha != 1.0 {
        let s = imp.scalar_like(&y, alpha)?;
        y = imp.op(&hl::MUL, &[&y, &s], &[], None)?;
    }
    if let Some(mut c) = c {
        if beta != 1.0 {
            let s = imp.scalar_like(&c, beta)?;
            c = imp.op(&hl::MUL, &[&c, &s], &[], None)?;
        }
        y = imp.op(&hl::ADD, &[&y, &c], &[], None)?;
    }
    Ok(vec![y])
}

/// `[top, left, bottom, right]` padding of a 2-D window op from `pads` or `auto_pad`.
fn window_padding(
    node: &onnx_protobuf::NodeProto,
    input: &[i64],
    kernel: &[i64],
    strides: &[i64],
    dilation: &[i64],
) -> Result<Vec<i64>, String> {
    let auto = attr_str(node, "auto_pad", "NOTSET")?;
    match auto.as_str() {
        "NOTSET" => {
            let pads = attr_ints(node, "pads")?.unwrap_or_else(|| vec![0; 4]);
            if pads.len() != 4 || pads.iter().any(|&p| p < 0) {
                return Err(format!("`pads` {pads:?} must be 4 integers >= 0"));
            }
            Ok(pads)
        }
        "VALID" => Ok(vec![0; 4]),
        "SAME_UPPER" | "SAME_LOWER" => {
            let mut begin = [0; 2];
            let mut end = [0; 2];
            for i in 0..2 {
                let out = (input[i] + strides[i] - 1) / strides[i];
                let total = ((out - 1) * strides[i] + (kernel[i] - 1) * dilation[i] + 1 - input[i]).max(0);
                let small = total / 2;
                (begin[i], end[i]) =
                    if auto == "SAME_UPPER" { (small, total - small) } else { (total - small, small) };
            }
            Ok(vec![begin[0], begin[1], end[0], end[1]])
        }
        other => Err(format!("unknown `auto_pad` '{other}'")),
    }
}

/// Two integers of attribute `name` (default `[1, 1]`).
fn pair(node: &onnx_protobuf::NodeProto, name: &str) -> Result<Vec<i64>, String> {
    let v = attr_ints(node, name)?.unwrap_or_else(|| vec![1, 1]);
    if v.len() != 2 || v.iter().any(|&x| x < 1) {
        return Err(format!("`{name}` {v:?} must be 2 integers >= 1 (only 2-D windows are supported)"));
    }
    Ok(v)
}

/// A `BatchNormalization` folded into a conv: its node, and per output channel the scale
/// `gamma / sqrt(var + eps)` and the shift `beta - mean * scale`.
struct FoldedNorm {
    node: usize,
    scale: Vec<f64>,
    shift: Vec<f64>,
}

/// The `BatchNormalization` that is the only reader of `conv`'s output, when its parameters
/// and the conv's weights (and bias) are constants.
fn foldable_batch_norm(
    imp: &Importer<'_, '_, '_, '_>,
    conv: usize,
    w: &Val,
    bias: Option<&Val>,
) -> Result<Option<FoldedNorm>, String> {
    let out = imp.nodes[conv].output.first().map_or("", String::as_str);
    let Some(&[bn]) = imp.users.get(out).map(Vec::as_slice) else { return Ok(None) };
    let node = &imp.nodes[bn];
    let only_y = node.output.first().is_some_and(|o| !o.is_empty())
        && node.output.iter().skip(1).all(String::is_empty);
    if node.op_type != "BatchNormalization"
        || node.input.first().map(String::as_str) != Some(out)
        || imp.outputs.contains(out)
        || !only_y
        || attr_int(node, "training_mode", 0)? != 0
        || w.konst.is_none()
        || bias.is_some_and(|b| b.konst.is_none())
    {
        return Ok(None);
    }
    let params: Vec<Val> = (1..5).map(|i| imp.input(node, i)).collect::<Result<_, _>>()?;
    if params.iter().any(|p| p.konst.is_none()) {
        return Ok(None);
    }
    let eps = attr_float(node, "epsilon", 1e-5)?;
    let p: Vec<Vec<f64>> = params.iter().map(|p| imp.const_f64s(p, "parameter")).collect::<Result<_, _>>()?;
    let (gamma, beta, mean, var) = (&p[0], &p[1], &p[2], &p[3]);
    let scale: Vec<f64> = gamma.iter().zip(var).map(|(g, v)| g / (v + eps).sqrt()).collect();
    let shift: Vec<f64> = beta.iter().zip(mean).zip(&scale).map(|((b, m), s)| b - m * s).collect();
    Ok(Some(FoldedNorm { node: bn, scale, shift }))
}

/// `Conv` (2-D, NCHW): `hl.conv2d` (the bias its third operand); a `BatchNormalization` that
/// only reads it is folded into constant weights: `w' = w * s`, `b' = b * s + (beta - mean * s)`
/// with `s = gamma / sqrt(var + epsilon)`.
pub(super) fn conv(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let nodes = imp.nodes;
    let node = &nodes[index];
    let x = imp.input(node, 0)?;
    let mut w = imp.input(node, 1)?;
    let mut bias = imp.opt_input(node, 2)?;
    let (xs, ws) = (imp.shape(&x), imp.shape(&w));
    if xs.len() != 4 || ws.len() != 4 {
        return Err("only 2-D convolutions (rank-4 input and weights) are supported".into());
    }
    let strides = pair(node, "strides")?;
    let dilation = pair(node, "dilations")?;
    let groups = attr_int(node, "group", 1)?;
    let padding = window_padding(node, &xs[2..], &ws[2..], &strides, &dilation)?;
    let mut bn_output = None;
    if let Some(FoldedNorm { node: bn, scale, shift }) = foldable_batch_norm(imp, index, &w, bias.as_ref())? {
        let out_c = ws[0] as usize;
        if scale.len() != out_c {
            return Err(format!(
                "the folded `BatchNormalization` has {} channels, the conv {out_c}",
                scale.len()
            ));
        }
        let wt = w.konst.as_ref().ok_or("weights")?;
        let per = wt.numel() / out_c.max(1);
        let wv: Vec<f64> = wt.to_f64s().iter().enumerate().map(|(i, v)| v * scale[i / per.max(1)]).collect();
        let old_b = match &bias {
            Some(b) => imp.const_f64s(b, "bias")?,
            None => vec![0.0; out_c],
        };
        let bv: Vec<f64> = old_b.iter().zip(&scale).zip(&shift).map(|((b, s), t)| b * s + t).collect();
        let dtype = wt.dtype();
        let err = |e: kiln_dialects::hl::interp::InterpError| e.message().to_string();
        let wname = format!("{}_folded", node.input[1]);
        w = imp.constant(Tensor::from_f64s(dtype, wt.shape().to_vec(), &wv).map_err(err)?, &wname)?;
        bias = Some(imp.constant(Tensor::from_f64s(dtype, vec![out_c], &bv).map_err(err)?, "bias_folded")?);
        bn_output = Some((bn, nodes[bn].output[0].as_str()));
    }
    let mut attrs = Vec::new();
    if strides != [1, 1] {
        attrs.push(("strides", imp.ints_attr(&strides)));
    }
    if padding.iter().any(|&p| p != 0) {
        attrs.push(("padding", imp.ints_attr(&padding)));
    }
    if dilation != [1, 1] {
        attrs.push(("dilation", imp.ints_attr(&dilation)));
    }
    if groups != 1 {
        attrs.push(("groups", imp.int_attr(groups)));
    }
    let mut operands = vec![&x, &w];
    operands.extend(bias.as_ref());
    let y = imp.op(&hl::CONV2D, &operands, &attrs, None)?;
    if let Some((bn, name)) = bn_output {
        imp.done.insert(bn);
        imp.bind(name, y.clone());
    }
    Ok(vec![y])
}

/// `v` (of `c` elements) as `[c, 1, ...]` against a rank-`rank` NC... input.
pub(super) fn per_channel(imp: &mut Importer<'_, '_, '_, '_>, v: &Val, rank: usize) -> Result<Val, String> {
    let c = imp.shape(v).iter().product::<i64>();
    let mut shape = vec![1; rank.saturating_sub(1).max(1)];
    shape[0] = c;
    imp.reshape(v, &shape)
}

/// `BatchNormalization(x, scale, b, mean, var)` at inference: `hl.batch_norm` with per-channel
/// operands.
pub(super) fn batch_norm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    if attr_int(node, "training_mode", 0)? != 0 {
        return Err("only inference (`training_mode = 0`) is supported".into());
    }
    let x = imp.input(node, 0)?;
    let rank = imp.shape(&x).len();
    let mut p = Vec::with_capacity(4);
    for i in 1..5 {
        let v = imp.input(node, i)?;
        p.push(per_channel(imp, &v, rank)?);
    }
    let eps = imp.f32_attr(attr_float(node, "epsilon", 1e-5)?);
    let (gamma, beta, mean, var) = (&p[0], &p[1], &p[2], &p[3]);
    Ok(vec![imp.op(&hl::BATCH_NORM, &[&x, mean, var, gamma, beta], &[("epsilon", eps)], None)?])
}

/// `LayerNormalization(x, scale, b?, axis, epsilon)`: `hl.layer_norm` over the last dim; for
/// an earlier `axis` the normalized dims are flattened into one around it.
pub(super) fn layer_norm(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    if node.output.iter().skip(1).any(|o| !o.is_empty()) {
        return super::normalize::layer_norm_stats(imp, index);
    }
    let x = imp.input(node, 0)?;
    let scale = imp.input(node, 1)?;
    let dims = imp.shape(&x);
    let axis = norm_axis(attr_int(node, "axis", -1)?, dims.len())?;
    let eps = imp.f32_attr(attr_float(node, "epsilon", 1e-5)?);
    let inner: i64 = dims[axis..].iter().product();
    let bias = match imp.opt_input(node, 2)? {
        Some(b) => b,
        None => {
            let dtype = imp.dtype(&x)?;
            imp.constant(Tensor::zeros(dtype, vec![inner as usize]), "zero_bias")?
        }
    };
    let mut flat = dims[..axis].to_vec();
    flat.push(inner);
    let xf = imp.reshape(&x, &flat)?;
    let (sf, bf) = (imp.reshape(&scale, &[inner])?, imp.reshape(&bias, &[inner])?);
    let y = imp.op(&hl::LAYER_NORM, &[&xf, &sf, &bf], &[("epsilon", eps)], None)?;
    Ok(vec![imp.reshape(&y, &dims)?])
}

/// `Softmax(axis)` / `LogSoftmax(axis)` (opset 13: one axis, default -1).
pub(super) fn softmax(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let axis = norm_axis(attr_int(node, "axis", -1)?, imp.shape(&x).len())? as i64;
    let def = if node.op_type == "LogSoftmax" { &hl::LOG_SOFTMAX } else { &hl::SOFTMAX };
    let attr = imp.int_attr(axis);
    Ok(vec![imp.op(def, &[&x], &[("axis", attr)], None)?])
}

/// `GlobalAveragePool` (NCHW): `hl.global_avg_pool2d`.
pub(super) fn global_average_pool(
    imp: &mut Importer<'_, '_, '_, '_>,
    index: usize,
) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    if imp.shape(&x).len() != 4 {
        return Err("only 2-D pooling (a rank-4 input) is supported".into());
    }
    Ok(vec![imp.op(&hl::GLOBAL_AVG_POOL2D, &[&x], &[], None)?])
}

/// `MaxPool` / `AveragePool` (2-D, NCHW): `hl.max_pool2d` / `hl.avg_pool2d` with `kernel`,
/// `strides`, `padding` (from `pads` or `auto_pad`), `dilation`, `ceil_mode` and
/// `count_include_pad`. `MaxPool`'s `Indices` output is not supported.
pub(super) fn pool(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    if node.output.iter().skip(1).any(|o| !o.is_empty()) {
        return Err("the `Indices` output is not supported".into());
    }
    let x = imp.input(node, 0)?;
    let xs = imp.shape(&x);
    if xs.len() != 4 {
        return Err("only 2-D pooling (a rank-4 input) is supported".into());
    }
    let kernel = attr_ints(node, "kernel_shape")?.ok_or("attribute `kernel_shape` is missing")?;
    if kernel.len() != 2 || kernel.iter().any(|&k| k < 1) {
        return Err(format!("`kernel_shape` {kernel:?} must be 2 integers >= 1"));
    }
    let strides = pair(node, "strides")?;
    let dilation = pair(node, "dilations")?;
    let padding = window_padding(node, &xs[2..], &kernel, &strides, &dilation)?;
    let max = node.op_type == "MaxPool";
    let mut attrs = vec![("kernel", imp.ints_attr(&kernel)), ("strides", imp.ints_attr(&strides))];
    attrs.push(("padding", imp.ints_attr(&padding)));
    if dilation != [1, 1] {
        attrs.push(("dilation", imp.ints_attr(&dilation)));
    }
    if attr_int(node, "ceil_mode", 0)? != 0 {
        attrs.push(("ceil_mode", imp.bool_attr(true)));
    }
    if !max {
        let include = attr_int(node, "count_include_pad", 0)? != 0;
        attrs.push(("count_include_pad", imp.bool_attr(include)));
    }
    let def = if max { &hl::MAX_POOL2D } else { &hl::AVG_POOL2D };
    Ok(vec![imp.op(def, &[&x], &attrs, None)?])
}
