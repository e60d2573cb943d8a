//! The windows of convolutions and pools over the spatial dims of N C spatial... tensors, and
//! the pools: `MaxPool` / `AveragePool` / `LpPool` (1-D, 2-D and 3-D) and the global pools.
//! `hl` has 2-D windows only: a 1-D window is a 2-D one of height 1; a 3-D pool is a 2-D pool
//! over (H, W) then one over D, which is the same maximum, and the same average since a box
//! window's tap count (inside the input or the padded input) is the product of its counts per
//! axis.

use kiln_dialects::hl;
use onnx_protobuf::NodeProto;

use super::arith::{bin, bin_c, reduce, require_float, un};
use super::layout::slice_dims;
use super::{attr_int, attr_ints, attr_str};
use crate::graph::{Importer, Val};

/// The window of a conv or pool over `nd` spatial dims, each list one entry per dim.
#[derive(Clone, Debug)]
pub(super) struct Window {
    pub(super) kernel: Vec<i64>,
    pub(super) strides: Vec<i64>,
    pub(super) dilation: Vec<i64>,
    pub(super) begin: Vec<i64>,
    pub(super) end: Vec<i64>,
}

impl Window {
    /// `[d0, d1]` as the 2-D op's attribute (padding: `[top, left, bottom, right]`).
    pub(super) fn padding(&self) -> Vec<i64> {
        [self.begin.as_slice(), self.end.as_slice()].concat()
    }

    /// The window as a 2-D one of height 1 (a 1-D window).
    pub(super) fn lifted(&self) -> Window {
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
pub(super) fn per_dim(node: &NodeProto, name: &str, nd: usize) -> Result<Vec<i64>, String> {
    let v = attr_ints(node, name)?.unwrap_or_else(|| vec![1; nd]);
    if v.len() != nd || v.iter().any(|&x| x < 1) {
        return Err(format!("`{name}` {v:?} must be {nd} integers >= 1"));
    }
    Ok(v)
}

/// The window of `node` over an input of spatial dims `input` with kernel `kernel`: strides,
/// dilations and the padding from `pads` or `auto_pad`.
pub(super) fn window(node: &NodeProto, input: &[i64], kernel: Vec<i64>) -> Result<Window, String> {
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
pub(super) fn spatial(
    imp: &Importer<'_, '_, '_, '_>,
    x: &Val,
    max: usize,
    what: &str,
) -> Result<usize, String> {
    let rank = imp.rank(x);
    match rank.checked_sub(2) {
        Some(nd) if (1..=max).contains(&nd) => Ok(nd),
        _ => Err(format!(
            "{what} of rank-{rank} inputs are not supported (1-D to {max}-D windows: rank 3 to {})",
            max + 2
        )),
    }
}

/// A 1-D operand `[N, C, L]` as `[N, C, 1, L]` (2-D operands unchanged).
pub(super) fn lift(imp: &mut Importer<'_, '_, '_, '_>, x: &Val) -> Result<Val, String> {
    let d = imp.shape(x)?;
    if d.len() != 3 {
        return Ok(x.clone());
    }
    imp.reshape(x, &[d[0], d[1], 1, d[2]])
}

/// A 2-D result back to 1-D when `nd` is 1.
pub(super) fn unlift(imp: &mut Importer<'_, '_, '_, '_>, y: &Val, nd: usize) -> Result<Val, String> {
    let d = imp.shape(y)?;
    if nd != 1 {
        return Ok(y.clone());
    }
    imp.reshape(y, &[d[0], d[1], d[3]])
}

/// `x` padded with `lo` / `hi` zeros on its spatial dims (dims 2..), cropped where negative.
pub(super) fn pad_or_crop(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    lo: &[i64],
    hi: &[i64],
) -> Result<Val, String> {
    let dims = imp.shape(x)?;
    let full = |v: &[i64], f: fn(i64) -> i64| [vec![0, 0], v.iter().map(|&p| f(p)).collect()].concat();
    let (plo, phi) = (full(lo, |p| p.max(0)), full(hi, |p| p.max(0)));
    let mut y = x.clone();
    if plo.iter().chain(&phi).any(|&p| p != 0) {
        let zero = imp.number_attr(imp.elem(x), 0.0);
        let attrs = [("low", imp.ints_attr(&plo)), ("high", imp.ints_attr(&phi)), ("value", zero)];
        y = imp.op(&hl::PAD, &[&y], &attrs, None)?;
    }
    let padded = imp.shape(&y)?;
    let starts = full(lo, |p| (-p).max(0));
    let limits: Vec<i64> =
        (0..dims.len()).map(|i| if i < 2 { padded[i] } else { padded[i] - (-hi[i - 2]).max(0) }).collect();
    slice_dims(imp, &y, &starts, &limits, &vec![1; dims.len()])
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
    let d = imp.shape(x)?;
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
            let (oh, ow) = (imp.shape(&hw)?[2], imp.shape(&hw)?[3]);
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
            let od = imp.shape(&y)?[2];
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
    let win = window(node, &imp.shape(&x)?[2..], kernel)?;
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
    let dims = imp.shape(&x)?;
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
    let rank = imp.rank(&x);
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
