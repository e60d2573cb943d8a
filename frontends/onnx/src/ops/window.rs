//! Window ops over the spatial dims of N C spatial... tensors: `Conv` (1-D and 2-D; a following
//! `BatchNormalization` folded into constant weights), `ConvTranspose` (1-D and 2-D, as a
//! stride-1 convolution of the input with zeros inserted), `MaxPool` / `AveragePool` /
//! `LpPool` (1-D, 2-D and 3-D) and the global pools. `hl` has 2-D windows only: a 1-D window
//! is a 2-D one of height 1; a 3-D pool is a 2-D pool over (H, W) then one over D, which is the
//! same maximum, and the same average since a box window's tap count (inside the input or the
//! padded input) is the product of its counts per axis.

use kiln_dialects::hl;
use kiln_dialects::hl::interp::{DType, Tensor};
use onnx_protobuf::NodeProto;

use super::arith::{bin, bin_c, reduce, require_float, un};
use super::layout::slice_dims;
use super::{attr_float, attr_int, attr_ints, attr_str};
use crate::graph::{Importer, Val};

/// The window of a conv or pool over `nd` spatial dims, each list one entry per dim.
#[derive(Clone, Debug)]
struct Window {
    kernel: Vec<i64>,
    strides: Vec<i64>,
    dilation: Vec<i64>,
    begin: Vec<i64>,
    end: Vec<i64>,
}

impl Window {
    /// `[d0, d1]` as the 2-D op's attribute (padding: `[top, left, bottom, right]`).
    fn padding(&self) -> Vec<i64> {
        [self.begin.as_slice(), self.end.as_slice()].concat()
    }

    /// The window as a 2-D one of height 1 (a 1-D window).
    fn lifted(&self) -> Window {
        let one = |v: &[i64], x: i64| [&[x], v].concat();
        Window {
            kernel: one(&self.kernel, 1),
            strides: one(&self.strides, 1),
            dilation: one(&self.dilation, 1),
            begin: one(&self.begin, 0),
            end: one(&self.end, 0),
        }
    }

    /// The window's spatial dims `dims` only.
    fn dims(&self, dims: std::ops::Range<usize>) -> Window {
        Window {
            kernel: self.kernel[dims.clone()].to_vec(),
            strides: self.strides[dims.clone()].to_vec(),
            dilation: self.dilation[dims.clone()].to_vec(),
            begin: self.begin[dims.clone()].to_vec(),
            end: self.end[dims].to_vec(),
        }
    }

    /// The extent of the window along dim `i`.
    fn extent(&self, i: usize) -> i64 {
        (self.kernel[i] - 1) * self.dilation[i] + 1
    }
}

/// `nd` integers >= 1 of attribute `name` (default all 1).
fn per_dim(node: &NodeProto, name: &str, nd: usize) -> Result<Vec<i64>, String> {
    let v = attr_ints(node, name)?.unwrap_or_else(|| vec![1; nd]);
    if v.len() != nd || v.iter().any(|&x| x < 1) {
        return Err(format!("`{name}` {v:?} must be {nd} integers >= 1"));
    }
    Ok(v)
}

/// The window of `node` over an input of spatial dims `input` with kernel `kernel`: strides,
/// dilations and the padding from `pads` or `auto_pad`.
fn window(node: &NodeProto, input: &[i64], kernel: Vec<i64>) -> Result<Window, String> {
    let nd = input.len();
    if kernel.len() != nd || kernel.iter().any(|&k| k < 1) {
        return Err(format!("the kernel {kernel:?} must be {nd} integers >= 1"));
    }
    let strides = per_dim(node, "strides", nd)?;
    let dilation = per_dim(node, "dilations", nd)?;
    let auto = attr_str(node, "auto_pad", "NOTSET")?;
    let (begin, end) = match auto.as_str() {
        "NOTSET" => {
            let pads = attr_ints(node, "pads")?.unwrap_or_else(|| vec![0; 2 * nd]);
            if pads.len() != 2 * nd || pads.iter().any(|&p| p < 0) {
                return Err(format!("`pads` {pads:?} must be {} integers >= 0", 2 * nd));
            }
            (pads[..nd].to_vec(), pads[nd..].to_vec())
        }
        "VALID" => (vec![0; nd], vec![0; nd]),
        "SAME_UPPER" | "SAME_LOWER" => (0..nd)
            .map(|i| {
                let out = (input[i] + strides[i] - 1) / strides[i];
                let total = ((out - 1) * strides[i] + (kernel[i] - 1) * dilation[i] + 1 - input[i]).max(0);
                let small = total / 2;
                if auto == "SAME_UPPER" {
                    (small, total - small)
                } else {
                    (total - small, small)
                }
            })
            .unzip(),
        other => return Err(format!("unknown `auto_pad` '{other}'")),
    };
    Ok(Window { kernel, strides, dilation, begin, end })
}

/// The number of spatial dims of `x` (rank - 2), which must be `1..=max`.
fn spatial(imp: &Importer<'_, '_, '_, '_>, x: &Val, max: usize, what: &str) -> Result<usize, String> {
    let rank = imp.shape(x).len();
    match rank.checked_sub(2) {
        Some(nd) if (1..=max).contains(&nd) => Ok(nd),
        _ => Err(format!(
            "{what} of rank-{rank} inputs are not supported (1-D to {max}-D windows: rank 3 to {})",
            max + 2
        )),
    }
}

/// A 1-D operand `[N, C, L]` as `[N, C, 1, L]` (2-D operands unchanged).
fn lift(imp: &mut Importer<'_, '_, '_, '_>, x: &Val) -> Result<Val, String> {
    let d = imp.shape(x);
    if d.len() != 3 {
        return Ok(x.clone());
    }
    imp.reshape(x, &[d[0], d[1], 1, d[2]])
}

/// A 2-D result back to 1-D when `nd` is 1.
fn unlift(imp: &mut Importer<'_, '_, '_, '_>, y: &Val, nd: usize) -> Result<Val, String> {
    let d = imp.shape(y);
    if nd != 1 {
        return Ok(y.clone());
    }
    imp.reshape(y, &[d[0], d[1], d[3]])
}

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
    let (xs, ws) = (imp.shape(&x), imp.shape(&w));
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

/// `x` padded with `lo` / `hi` zeros on its spatial dims (dims 2..), cropped where negative.
fn pad_or_crop(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, lo: &[i64], hi: &[i64]) -> Result<Val, String> {
    let dims = imp.shape(x);
    let full = |v: &[i64], f: fn(i64) -> i64| [vec![0, 0], v.iter().map(|&p| f(p)).collect()].concat();
    let (plo, phi) = (full(lo, |p| p.max(0)), full(hi, |p| p.max(0)));
    let mut y = x.clone();
    if plo.iter().chain(&phi).any(|&p| p != 0) {
        let zero = imp.number_attr(imp.elem(x), 0.0);
        let attrs = [("low", imp.ints_attr(&plo)), ("high", imp.ints_attr(&phi)), ("value", zero)];
        y = imp.op(&hl::PAD, &[&y], &attrs, None)?;
    }
    let padded = imp.shape(&y);
    let starts = full(lo, |p| (-p).max(0));
    let limits: Vec<i64> =
        (0..dims.len()).map(|i| if i < 2 { padded[i] } else { padded[i] - (-hi[i - 2]).max(0) }).collect();
    slice_dims(imp, &y, &starts, &limits, &vec![1; dims.len()])
}

/// `x` (N C spatial...) with `s - 1` zeros inserted between neighbours along each spatial dim.
fn insert_zeros(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, strides: &[i64]) -> Result<Val, String> {
    if strides.iter().all(|&s| s == 1) {
        return Ok(x.clone());
    }
    let d = imp.shape(x);
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
    let d = imp.shape(w);
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
    let n = imp.shape(x)[axis];
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
    let (xs, ws) = (imp.shape(&x), imp.shape(&w));
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

/// A 2-D `hl.max_pool2d` / `hl.avg_pool2d` of a rank-4 `x`.
fn pool2d(
    imp: &mut Importer<'_, '_, '_, '_>,
    def: &'static kiln_compiler::OpDef,
    x: &Val,
    win: &Window,
    ceil: bool,
    include_pad: Option<bool>,
) -> Result<Val, String> {
    let mut attrs = vec![("kernel", imp.ints_attr(&win.kernel)), ("strides", imp.ints_attr(&win.strides))];
    attrs.push(("padding", imp.ints_attr(&win.padding())));
    if win.dilation != [1, 1] {
        attrs.push(("dilation", imp.ints_attr(&win.dilation)));
    }
    if ceil {
        attrs.push(("ceil_mode", imp.bool_attr(true)));
    }
    if let Some(include) = include_pad {
        attrs.push(("count_include_pad", imp.bool_attr(include)));
    }
    imp.op(def, &[x], &attrs, None)
}

/// A 1-D, 2-D or 3-D max or average pool of `x` (see the module docs for 1-D and 3-D).
fn pool_nd(
    imp: &mut Importer<'_, '_, '_, '_>,
    def: &'static kiln_compiler::OpDef,
    x: &Val,
    win: &Window,
    ceil: bool,
    include_pad: Option<bool>,
) -> Result<Val, String> {
    let d = imp.shape(x);
    match win.kernel.len() {
        1 => {
            let x4 = lift(imp, x)?;
            let y = pool2d(imp, def, &x4, &win.lifted(), ceil, include_pad)?;
            unlift(imp, &y, 1)
        }
        2 => pool2d(imp, def, x, win, ceil, include_pad),
        _ => {
            let (n, c) = (d[0], d[1]);
            let planes = imp.reshape(x, &[n, c * d[2], d[3], d[4]])?;
            let hw = pool2d(imp, def, &planes, &win.dims(1..3), ceil, include_pad)?;
            let (oh, ow) = (imp.shape(&hw)[2], imp.shape(&hw)[3]);
            let columns = imp.reshape(&hw, &[n, c, d[2], oh * ow])?;
            let depth = win.dims(0..1);
            let dwin = Window {
                kernel: vec![depth.kernel[0], 1],
                strides: vec![depth.strides[0], 1],
                dilation: vec![depth.dilation[0], 1],
                begin: vec![depth.begin[0], 0],
                end: vec![depth.end[0], 0],
            };
            let y = pool2d(imp, def, &columns, &dwin, ceil, include_pad)?;
            let od = imp.shape(&y)[2];
            imp.reshape(&y, &[n, c, od, oh, ow])
        }
    }
}

/// `MaxPool` / `AveragePool` (1-D, 2-D or 3-D): `hl.max_pool2d` / `hl.avg_pool2d` with
/// `kernel`, `strides`, `padding` (from `pads` or `auto_pad`), `dilation`, `ceil_mode` and
/// `count_include_pad`. `MaxPool`'s `Indices` output is not supported.
pub(super) fn pool(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    if node.output.iter().skip(1).any(|o| !o.is_empty()) {
        return Err("the `Indices` output is not supported".into());
    }
    let x = imp.input(node, 0)?;
    spatial(imp, &x, 3, "pools")?;
    let kernel = attr_ints(node, "kernel_shape")?.ok_or("attribute `kernel_shape` is missing")?;
    let win = window(node, &imp.shape(&x)[2..], kernel)?;
    let ceil = attr_int(node, "ceil_mode", 0)? != 0;
    let (def, include) = if node.op_type == "MaxPool" {
        (&hl::MAX_POOL2D, None)
    } else {
        (&hl::AVG_POOL2D, Some(attr_int(node, "count_include_pad", 0)? != 0))
    };
    Ok(vec![pool_nd(imp, def, &x, &win, ceil, include)?])
}

/// `|x|^p` (`x * x` for 2, `|x|` for 1).
fn abs_pow(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, p: i64) -> Result<Val, String> {
    match p {
        2 => bin(imp, &hl::MUL, x, x),
        _ => {
            let a = un(imp, &hl::ABS, x)?;
            if p == 1 {
                Ok(a)
            } else {
                bin_c(imp, &hl::POW, &a, p as f64)
            }
        }
    }
}

/// `s^(1/p)` (`sqrt` for 2).
fn root(imp: &mut Importer<'_, '_, '_, '_>, s: &Val, p: i64) -> Result<Val, String> {
    match p {
        1 => Ok(s.clone()),
        2 => un(imp, &hl::SQRT, s),
        _ => bin_c(imp, &hl::POW, s, 1.0 / p as f64),
    }
}

/// `LpPool(p)` (1-D, 2-D or 3-D): `(sum |x|^p)^(1/p)` over each window, padded cells 0. The
/// input is padded explicitly to cover every window (`ceil_mode`'s too), so every window is
/// whole: its sum is the unpadded average pool times the window size.
pub(super) fn lp_pool(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    require_float(imp, &x, "LpPool")?;
    let nd = spatial(imp, &x, 3, "pools")?;
    let kernel = attr_ints(node, "kernel_shape")?.ok_or("attribute `kernel_shape` is missing")?;
    let dims = imp.shape(&x);
    let mut win = window(node, &dims[2..], kernel)?;
    let p = attr_int(node, "p", 2)?;
    if p < 1 {
        return Err(format!("`p` = {p} must be >= 1"));
    }
    let ceil = attr_int(node, "ceil_mode", 0)? != 0;
    let mut high = win.end.clone();
    for i in 0..nd {
        let padded = dims[2 + i] + win.begin[i] + win.end[i];
        let span = padded - win.extent(i);
        if span < 0 {
            return Err(format!("the window (extent {}) exceeds the padded input ({padded})", win.extent(i)));
        }
        let mut out =
            if ceil { (span + win.strides[i] - 1) / win.strides[i] + 1 } else { span / win.strides[i] + 1 };
        if ceil && (out - 1) * win.strides[i] >= dims[2 + i] + win.begin[i] {
            out -= 1;
        }
        high[i] = high[i].max((out - 1) * win.strides[i] + win.extent(i) - dims[2 + i] - win.begin[i]);
    }
    let a = abs_pow(imp, &x, p)?;
    let a = pad_or_crop(imp, &a, &win.begin, &high)?;
    (win.begin, win.end) = (vec![0; nd], vec![0; nd]);
    let avg = pool_nd(imp, &hl::AVG_POOL2D, &a, &win, false, Some(true))?;
    let sum = bin_c(imp, &hl::MUL, &avg, win.kernel.iter().product::<i64>() as f64)?;
    Ok(vec![root(imp, &sum, p)?])
}

/// `GlobalAveragePool` / `GlobalMaxPool` / `GlobalLpPool(p)`: the mean, maximum or p-norm over
/// every dim after the first two, kept as 1 (`hl.global_avg_pool2d` for the mean).
pub(super) fn global_pool(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let rank = imp.shape(&x).len();
    if rank < 3 {
        return Err(format!("a global pool needs rank 3 or more (N, C, spatial...), not {rank}"));
    }
    let axes: Vec<i64> = (2..rank as i64).collect();
    let y = match node.op_type.as_str() {
        "GlobalAveragePool" => imp.op(&hl::GLOBAL_AVG_POOL2D, &[&x], &[], None)?,
        "GlobalMaxPool" => reduce(imp, &hl::REDUCE_MAX, &x, &axes, true)?,
        _ => {
            require_float(imp, &x, "GlobalLpPool")?;
            let p = attr_int(node, "p", 2)?;
            let a = abs_pow(imp, &x, p)?;
            let s = reduce(imp, &hl::REDUCE_SUM, &a, &axes, true)?;
            root(imp, &s, p)?
        }
    };
    Ok(vec![y])
}
