//! Convolutions: `Conv` (1-D and 2-D; a following `BatchNormalization` folded into constant
//! weights), `ConvTranspose` (1-D and 2-D, as a stride-1 convolution of the input with zeros
//! inserted), `CausalConvWithState` (a depthwise 1-D convolution of the past state and the
//! input). `hl.conv2d` is 2-D: a 1-D convolution is a 2-D one of height 1.

use kiln_dialects::hl;
use kiln_dialects::hl::interp::{DType, Tensor};

use super::arith::{bin, un};
use super::elementwise::cast_to;
use super::layout::slice_dims;
use super::window::{lift, pad_or_crop, per_dim, spatial, unlift, window, Window};
use super::{attr_float, attr_int, attr_ints, attr_str};
use crate::graph::{Importer, Val};

/// `hl.conv2d(x, w, bias?)` over a 1-D or 2-D window (stride, padding, dilation, groups).
fn conv_op(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    w: &Val,
    bias: Option<&Val>,
    win: &Window,
    groups: i64,
) -> Result<Val, String> {
    let nd = win.kernel.len();
    let win = if nd == 1 { win.lifted() } else { win.clone() };
    let (x4, w4) = (lift(imp, x)?, lift(imp, w)?);
    let mut attrs = Vec::new();
    if win.strides != [1, 1] {
        attrs.push(("strides", imp.ints_attr(&win.strides)));
    }
    let padding = win.padding();
    if padding.iter().any(|&p| p != 0) {
        attrs.push(("padding", imp.ints_attr(&padding)));
    }
    if win.dilation != [1, 1] {
        attrs.push(("dilation", imp.ints_attr(&win.dilation)));
    }
    if groups != 1 {
        attrs.push(("groups", imp.int_attr(groups)));
    }
    let mut operands = vec![&x4, &w4];
    operands.extend(bias);
    let y = imp.op(&hl::CONV2D, &operands, &attrs, None)?;
    unlift(imp, &y, nd)
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

/// `Conv` (1-D or 2-D, N C spatial...): `hl.conv2d` (the bias its third operand; a 1-D conv is a
/// 2-D one of height 1); a `BatchNormalization` that only reads it is folded into constant
/// weights: `w' = w * s`, `b' = b * s + (beta - mean * s)` with `s = gamma / sqrt(var + eps)`.
pub(super) fn conv(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let nodes = imp.nodes;
    let node = &nodes[index];
    let x = imp.input(node, 0)?;
    let mut w = imp.input(node, 1)?;
    let mut bias = imp.opt_input(node, 2)?;
    spatial(imp, &x, 2, "convolutions")?;
    let (xs, ws) = (imp.shape(&x)?, imp.shape(&w)?);
    if ws.len() != xs.len() {
        return Err(format!("weights of rank {} for an input of rank {}", ws.len(), xs.len()));
    }
    let win = window(node, &xs[2..], ws[2..].to_vec())?;
    let groups = attr_int(node, "group", 1)?;
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
    let y = conv_op(imp, &x, &w, bias.as_ref(), &win, groups)?;
    if let Some((bn, name)) = bn_output {
        imp.done.insert(bn);
        imp.bind(name, y.clone());
    }
    Ok(vec![y])
}

/// `x` (N C spatial...) with `s - 1` zeros inserted between neighbours along each spatial dim.
fn insert_zeros(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, strides: &[i64]) -> Result<Val, String> {
    if strides.iter().all(|&s| s == 1) {
        return Ok(x.clone());
    }
    let d = imp.shape(x)?;
    let mut split = d[..2].to_vec();
    let mut high = vec![0, 0];
    for (i, &s) in strides.iter().enumerate() {
        split.extend([d[2 + i], 1]);
        high.extend([0, s - 1]);
    }
    let y = imp.reshape(x, &split)?;
    let zero = imp.number_attr(imp.elem(x), 0.0);
    let low = vec![0; high.len()];
    let attrs = [("low", imp.ints_attr(&low)), ("high", imp.ints_attr(&high)), ("value", zero)];
    let y = imp.op(&hl::PAD, &[&y], &attrs, None)?;
    let spread: Vec<i64> =
        d[..2].iter().copied().chain(strides.iter().enumerate().map(|(i, s)| d[2 + i] * s)).collect();
    let y = imp.reshape(&y, &spread)?;
    let limits: Vec<i64> = d[..2]
        .iter()
        .copied()
        .chain(strides.iter().enumerate().map(|(i, s)| (d[2 + i] - 1) * s + 1))
        .collect();
    slice_dims(imp, &y, &vec![0; d.len()], &limits, &vec![1; d.len()])
}

/// `ConvTranspose` weights `[C_in, C_out / g, k...]` as the weights of the equivalent
/// convolution: `[C_out, C_in / g, k...]` (per group, input and output channels swapped), each
/// kernel flipped along every spatial dim.
fn transposed_weights(imp: &mut Importer<'_, '_, '_, '_>, w: &Val, groups: i64) -> Result<Val, String> {
    let d = imp.shape(w)?;
    let (cin, cout_g) = (d[0], d[1]);
    if groups < 1 || cin % groups != 0 {
        return Err(format!("{cin} input channels cannot form {groups} groups"));
    }
    let k = &d[2..];
    let grouped: Vec<i64> = [groups, cin / groups, cout_g].iter().chain(k).copied().collect();
    let mut y = imp.reshape(w, &grouped)?;
    let mut perm: Vec<i64> = vec![0, 2, 1];
    perm.extend(3..3 + k.len() as i64);
    let attr = imp.ints_attr(&perm);
    y = imp.op(&hl::TRANSPOSE, &[&y], &[("perm", attr)], None)?;
    let merged: Vec<i64> = [groups * cout_g, cin / groups].iter().chain(k).copied().collect();
    y = imp.reshape(&y, &merged)?;
    for (i, &n) in k.iter().enumerate() {
        if n > 1 {
            y = reverse(imp, &y, 2 + i)?;
        }
    }
    Ok(y)
}

/// `x` reversed along `axis` (an `hl.gather` of the indices from the end).
pub(super) fn reverse(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, axis: usize) -> Result<Val, String> {
    let n = imp.shape(x)?[axis];
    let rev: Vec<i64> = (0..n).rev().collect();
    let idx = Tensor::from_i64s(DType::I64, vec![n as usize], &rev).map_err(|e| e.message().to_string())?;
    let idx = imp.constant(idx, "reversed")?;
    let a = imp.int_attr(axis as i64);
    imp.op(&hl::GATHER, &[x, &idx], &[("axis", a)], None)
}

/// `ConvTranspose` (1-D or 2-D): the stride-1 convolution, with the flipped and transposed
/// weights and the kernel's dilation, of the input with `stride - 1` zeros inserted between
/// neighbours, padded by `extent - 1 - pad_begin` before and to the output size after (the
/// output size from `output_shape`, or `stride * (in - 1) + output_padding + extent - pads`;
/// `auto_pad` `SAME_*` pads as ONNX's reference does).
pub(super) fn conv_transpose(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let w = imp.input(node, 1)?;
    let bias = imp.opt_input(node, 2)?;
    let nd = spatial(imp, &x, 2, "transposed convolutions")?;
    let (xs, ws) = (imp.shape(&x)?, imp.shape(&w)?);
    if ws.len() != xs.len() {
        return Err(format!("weights of rank {} for an input of rank {}", ws.len(), xs.len()));
    }
    let groups = attr_int(node, "group", 1)?;
    let strides = per_dim(node, "strides", nd)?;
    let dilation = per_dim(node, "dilations", nd)?;
    let kernel = ws[2..].to_vec();
    let ext: Vec<i64> = (0..nd).map(|i| (kernel[i] - 1) * dilation[i] + 1).collect();
    let out_pad = attr_ints(node, "output_padding")?.unwrap_or_else(|| vec![0; nd]);
    if out_pad.len() != nd {
        return Err(format!("`output_padding` {out_pad:?} must be {nd} integers"));
    }
    let out_shape = attr_ints(node, "output_shape")?.map(|s| s[s.len().saturating_sub(nd)..].to_vec());
    let auto = attr_str(node, "auto_pad", "NOTSET")?;
    let natural = |i: usize| strides[i] * (xs[2 + i] - 1) + out_pad[i] + ext[i];
    let (begin, out): (Vec<i64>, Vec<i64>) = match auto.as_str() {
        "SAME_UPPER" | "SAME_LOWER" => (0..nd)
            .map(|i| {
                let o = out_shape.as_ref().map_or(xs[2 + i] * strides[i], |s| s[i]);
                let total = natural(i) - o;
                let b = if auto == "SAME_UPPER" { total / 2 } else { total - total / 2 };
                (b, o)
            })
            .unzip(),
        "NOTSET" | "VALID" => {
            let pads = match attr_ints(node, "pads")? {
                Some(p) if auto == "NOTSET" => p,
                _ => vec![0; 2 * nd],
            };
            if pads.len() != 2 * nd {
                return Err(format!("`pads` {pads:?} must be {} integers", 2 * nd));
            }
            (0..nd)
                .map(|i| {
                    let o = out_shape.as_ref().map_or(natural(i) - pads[i] - pads[nd + i], |s| s[i]);
                    (pads[i], o)
                })
                .unzip()
        }
        other => return Err(format!("unknown `auto_pad` '{other}'")),
    };
    if out.iter().any(|&o| o < 1) {
        return Err(format!("the output size {out:?} is empty"));
    }
    let spread = insert_zeros(imp, &x, &strides)?;
    let lo: Vec<i64> = (0..nd).map(|i| ext[i] - 1 - begin[i]).collect();
    let hi: Vec<i64> =
        (0..nd).map(|i| out[i] - ((xs[2 + i] - 1) * strides[i] + 1) - lo[i] + ext[i] - 1).collect();
    let padded = pad_or_crop(imp, &spread, &lo, &hi)?;
    let wt = transposed_weights(imp, &w, groups)?;
    let win = Window { kernel, strides: vec![1; nd], dilation, begin: vec![0; nd], end: vec![0; nd] };
    Ok(vec![conv_op(imp, &padded, &wt, bias.as_ref(), &win, groups)?])
}

/// `CausalConvWithState(input [B, C, L], weight [C, 1, k], bias?, past_state?, activation)`:
/// the depthwise convolution of the past state (zeros without one) followed by the input, with
/// `silu` / `swish` (`x * sigmoid(x)`, in f32 for f16 / bf16) when asked; and the new state,
/// the last `k - 1` positions.
pub(super) fn causal_conv(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let w = imp.input(node, 1)?;
    let bias = imp.opt_input(node, 2)?;
    let (xs, ws) = (imp.shape(&x)?, imp.shape(&w)?);
    if xs.len() != 3 || ws.len() != 3 || ws[0] != xs[1] || ws[1] != 1 {
        return Err(format!("input {xs:?} and weight {ws:?} must be [B, C, L] and [C, 1, k]"));
    }
    let (b, c, k) = (xs[0], xs[1], ws[2]);
    let past = match imp.opt_input(node, 3)? {
        Some(p) => p,
        None => {
            let t = Tensor::zeros(imp.dtype(&x)?, vec![b as usize, c as usize, (k - 1).max(0) as usize]);
            imp.constant(t, "causal_conv_state")?
        }
    };
    let padded = if k > 1 {
        let axis = imp.int_attr(2);
        imp.op(&hl::CONCAT, &[&past, &x], &[("axis", axis)], None)?
    } else {
        x.clone()
    };
    let win = Window { kernel: vec![k], strides: vec![1], dilation: vec![1], begin: vec![0], end: vec![0] };
    let mut y = conv_op(imp, &padded, &w, bias.as_ref(), &win, c)?;
    match attr_str(node, "activation", "none")?.as_str() {
        "none" => {}
        "silu" | "swish" => {
            let elem = imp.elem(&y);
            let f = cast_to(imp, &y, imp.ctx().float_type(kiln_compiler::FloatKind::F32))?;
            let s = un(imp, &hl::SIGMOID, &f)?;
            let m = bin(imp, &hl::MUL, &f, &s)?;
            y = cast_to(imp, &m, elem)?;
        }
        other => return Err(format!("unknown `activation` '{other}' (none, silu, swish)")),
    }
    let total = imp.shape(&padded)?[2];
    let state = if k > 1 {
        slice_dims(imp, &padded, &[0, 0, total - (k - 1)], &[b, c, total], &[1, 1, 1])?
    } else {
        imp.constant(Tensor::zeros(imp.dtype(&x)?, vec![b as usize, c as usize, 0]), "causal_conv_state")?
    };
    Ok(vec![y, state])
}
