//! Shape and data movement: `Reshape` (0 and -1), `Flatten`, `Squeeze` / `Unsqueeze` (axes as
//! attribute or input), `Transpose`, `Expand`, `Concat`, `Slice` (inputs, negative steps
//! included), `Split` (sizes as attribute, input or `num_outputs`), `Gather`, `Pad`,
//! `DepthToSpace` / `SpaceToDepth`, `Tile`, `CenterCropPad`.

use kiln_dialects::hl;
use kiln_dialects::hl::infer::broadcast_shapes;
use kiln_dialects::hl::interp::{DType, Tensor};

use kiln_compiler::DYNAMIC;

use super::{attr_int, attr_ints, axes_of, norm_axis};
use crate::dynamic::Size;
use crate::graph::{Importer, Val};

/// `Reshape(data, shape, allowzero)`: `0` copies the input dim (unless `allowzero`), `-1` is
/// inferred. With dynamic dims (in the input or in the shape, a vector of run-time sizes) see
/// [`reshape_dynamic`].
pub(super) fn reshape(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let sizes = imp.sizes(&imp.input(node, 1)?, "input `shape`")?;
    let allow_zero = attr_int(node, "allowzero", 0)? != 0;
    let known: Option<Vec<i64>> =
        sizes.iter().map(|s| if let Size::Known(k) = s { Some(*k) } else { None }).collect();
    let (Some(spec), false) = (known, imp.dims(&x).contains(&DYNAMIC)) else {
        return Ok(vec![reshape_dynamic(imp, &x, &sizes, allow_zero)?]);
    };
    let dims = imp.shape(&x)?;
    let total: i64 = dims.iter().product();
    let mut shape: Vec<i64> = spec
        .iter()
        .enumerate()
        .map(|(i, &d)| if d == 0 && !allow_zero { dims.get(i).copied().unwrap_or(0) } else { d })
        .collect();
    let unknown: Vec<usize> = (0..shape.len()).filter(|&i| shape[i] == -1).collect();
    let known: i64 = shape.iter().filter(|&&d| d != -1).product();
    match unknown[..] {
        [] => {}
        [i] if known > 0 && total % known == 0 => shape[i] = total / known,
        _ => return Err(format!("cannot reshape {dims:?} to {spec:?}")),
    }
    if shape.iter().any(|&d| d < 0) || shape.iter().product::<i64>() != total {
        return Err(format!("cannot reshape {dims:?} to {spec:?}"));
    }
    Ok(vec![imp.reshape(&x, &shape)?])
}

/// `Reshape` of an `x` with `?` dims, or to run-time sizes: each target dim is a static size, a
/// copy of an input dim (`0`, or the size of the symbol of an input dim: tied to that dim), or
/// left to the element count (`-1`, a size computed at run time); at most one may be left.
fn reshape_dynamic(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    sizes: &[Size],
    allow_zero: bool,
) -> Result<Val, String> {
    let dims = imp.dims(x);
    let mut used = vec![false; dims.len()];
    let (mut shape, mut sources) = (Vec::with_capacity(sizes.len()), Vec::with_capacity(sizes.len()));
    for (i, &s) in sizes.iter().enumerate() {
        // The input dim this target dim copies, if any.
        let copy = match s {
            Size::Known(0) if !allow_zero => Some(i).filter(|&i| i < dims.len()),
            Size::Of(sym) => {
                let same = |j: usize| !used[j] && dims[j] == DYNAMIC && imp.syms.dim(x.id, j) == Some(sym);
                Some(i).filter(|&i| i < dims.len() && same(i)).or_else(|| (0..dims.len()).find(|&j| same(j)))
            }
            _ => None,
        };
        let (d, source) = match (s, copy) {
            (_, Some(j)) if dims[j] == DYNAMIC => (DYNAMIC, j as i64),
            (_, Some(j)) => (dims[j], -1),
            (Size::Known(k), None) if k > 0 || (k == 0 && allow_zero) => (k, -1),
            (Size::Known(-1) | Size::Of(_) | Size::Unknown, None) => (DYNAMIC, -1),
            (Size::Known(k), None) => return Err(format!("`shape` has an invalid size {k} (dim #{i})")),
        };
        if source >= 0 {
            used[source as usize] = true;
        }
        shape.push(d);
        sources.push(source);
    }
    imp.reshape_tied(x, &shape, &sources)
}

/// `Flatten(axis)`: `[prod(dims[..axis]), prod(dims[axis..])]` (a side with a `?` dim is `?`:
/// at most one side may have one).
pub(super) fn flatten(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let dims = imp.dims(&x);
    let axis = attr_int(node, "axis", 1)?;
    let axis = if axis == dims.len() as i64 { dims.len() } else { norm_axis(axis, dims.len())? };
    let product = |d: &[i64]| if d.contains(&DYNAMIC) { DYNAMIC } else { d.iter().product() };
    let shape = [product(&dims[..axis]), product(&dims[axis..])];
    Ok(vec![imp.reshape(&x, &shape)?])
}

/// `Unsqueeze(data, axes)`: one `hl.reshape` (axes against the result's rank).
pub(super) fn unsqueeze(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let axes = axes_of(imp, node, 1, "axes")?.ok_or("`axes` is missing")?;
    let dims = imp.dims(&x);
    let rank = dims.len() + axes.len();
    let mut ones = vec![false; rank];
    for &a in &axes {
        let a = norm_axis(a, rank)?;
        if std::mem::replace(&mut ones[a], true) {
            return Err(format!("axis {a} is repeated"));
        }
    }
    // The input's dims keep their order (and `?` sizes) between the inserted ones.
    let mut rest = 0..dims.len();
    let sources: Vec<i64> =
        ones.iter().map(|&one| if one { -1 } else { rest.next().map_or(-1, |j| j as i64) }).collect();
    let shape: Vec<i64> = sources.iter().map(|&j| if j < 0 { 1 } else { dims[j as usize] }).collect();
    Ok(vec![imp.reshape_tied(&x, &shape, &sources)?])
}

/// `Squeeze(data, axes?)`: `hl.squeeze` (all unit dims when no axes are given). The squeezed
/// dims must be static (without axes, every dim: which are 1 decides the result's rank).
pub(super) fn squeeze(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let dims = imp.dims(&x);
    let axes = match axes_of(imp, node, 1, "axes")? {
        Some(axes) => {
            let mut a: Vec<i64> =
                axes.iter().map(|&a| norm_axis(a, dims.len()).map(|a| a as i64)).collect::<Result<_, _>>()?;
            a.sort_unstable();
            a.dedup();
            for &axis in &a {
                if imp.static_dim(&x, axis as usize)? != 1 {
                    return Err(format!("dim {axis} of {dims:?} is not 1"));
                }
            }
            a
        }
        None => {
            let dims = imp.shape(&x)?;
            (0..dims.len() as i64).filter(|&a| dims[a as usize] == 1).collect()
        }
    };
    if axes.is_empty() {
        return Ok(vec![x]);
    }
    let attr = imp.ints_attr(&axes);
    Ok(vec![imp.op(&hl::SQUEEZE, &[&x], &[("axes", attr)], None)?])
}

/// `Transpose(perm)` (default: reversed dims).
pub(super) fn transpose(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let rank = imp.rank(&x) as i64;
    let perm = attr_ints(node, "perm")?.unwrap_or_else(|| (0..rank).rev().collect());
    if perm.iter().copied().eq(0..rank) {
        return Ok(vec![x]);
    }
    let attr = imp.ints_attr(&perm);
    Ok(vec![imp.op(&hl::TRANSPOSE, &[&x], &[("perm", attr)], None)?])
}

/// `Expand(input, shape)`: `hl.broadcast_to` the numpy broadcast of both shapes.
pub(super) fn expand(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let spec = imp.const_ints(&imp.input(node, 1)?, "input `shape`")?;
    let dims = imp.shape(&x)?;
    let shape =
        broadcast_shapes(&dims, &spec).ok_or_else(|| format!("cannot expand {dims:?} to {spec:?}"))?;
    if shape == dims {
        return Ok(vec![x]);
    }
    let ty = imp.ctx().tensor_type(&shape, imp.elem(&x));
    Ok(vec![imp.op(&hl::BROADCAST_TO, &[&x], &[], Some(ty))?])
}

/// `Concat(axis)`: `hl.concat`.
pub(super) fn concat(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let inputs: Vec<Val> = (0..node.input.len()).map(|i| imp.input(node, i)).collect::<Result<_, _>>()?;
    let first = inputs.first().ok_or("`Concat` needs an input")?;
    let axis = norm_axis(attr_int(node, "axis", 0)?, imp.rank(first))?;
    if inputs.len() == 1 {
        return Ok(inputs);
    }
    let refs: Vec<&Val> = inputs.iter().collect();
    let attr = imp.int_attr(axis as i64);
    Ok(vec![imp.op(&hl::CONCAT, &refs, &[("axis", attr)], None)?])
}

/// `hl.slice` of `x` from `starts` to `limits` (one entry per dim) with `strides`.
pub(super) fn slice_dims(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    starts: &[i64],
    limits: &[i64],
    strides: &[i64],
) -> Result<Val, String> {
    if imp.shape(x)? == limits && starts.iter().all(|&s| s == 0) && strides.iter().all(|&s| s == 1) {
        return Ok(x.clone());
    }
    let mut attrs = vec![("starts", imp.ints_attr(starts)), ("limits", imp.ints_attr(limits))];
    if strides.iter().any(|&s| s != 1) {
        attrs.push(("strides", imp.ints_attr(strides)));
    }
    imp.op(&hl::SLICE, &[x], &attrs, None)
}

/// `Slice(data, starts, ends, axes?, steps?)` with constant inputs; starts and ends clamp to
/// the dim as ONNX specifies. Positive steps are one `hl.slice`; an axis with a negative step
/// is an `hl.gather` of the indices it visits. A dynamic dim may only be taken whole (start 0,
/// end past any size, step 1); `hl.slice` names every dim's limit, so with dynamic dims each
/// sliced dim is the middle part of an `hl.split` (step 1) or a gather.
pub(super) fn slice(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let dims = imp.dims(&x);
    let starts = imp.const_ints(&imp.input(node, 1)?, "input `starts`")?;
    let ends = imp.const_ints(&imp.input(node, 2)?, "input `ends`")?;
    let axes = match imp.opt_input(node, 3)? {
        Some(a) => imp.const_ints(&a, "input `axes`")?,
        None => (0..starts.len() as i64).collect(),
    };
    let steps = match imp.opt_input(node, 4)? {
        Some(s) => imp.const_ints(&s, "input `steps`")?,
        None => vec![1; starts.len()],
    };
    if ends.len() != starts.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return Err("`starts`, `ends`, `axes` and `steps` must have one length".into());
    }
    let (mut lo, mut hi, mut st) = (vec![0; dims.len()], dims.clone(), vec![1; dims.len()]);
    let mut reversed = Vec::new();
    for i in 0..starts.len() {
        let a = norm_axis(axes[i], dims.len())?;
        let step = steps[i];
        if dims[a] == DYNAMIC && starts[i] == 0 && ends[i] >= i64::MAX / 2 && step == 1 {
            continue;
        }
        let d = imp.static_dim(&x, a)?;
        if step == 0 {
            return Err("a step must not be 0".into());
        }
        let resolve = |v: i64| if v < 0 { v.saturating_add(d) } else { v };
        if step > 0 {
            lo[a] = resolve(starts[i]).clamp(0, d);
            hi[a] = resolve(ends[i]).clamp(0, d).max(lo[a]);
            st[a] = step;
        } else {
            let (first, stop) = (resolve(starts[i]).clamp(-1, d - 1), resolve(ends[i]).clamp(-1, d - 1));
            let picks: Vec<i64> = (0..).map(|k| first + k * step).take_while(|&p| p > stop).collect();
            reversed.push((a, picks));
        }
    }
    let mut y = if dims.contains(&DYNAMIC) {
        let mut y = x.clone();
        for a in (0..dims.len()).filter(|&a| dims[a] != DYNAMIC && (lo[a], hi[a], st[a]) != (0, dims[a], 1)) {
            y = if st[a] == 1 {
                let parts = [lo[a], hi[a] - lo[a], dims[a] - hi[a]];
                let sizes: Vec<i64> = parts.iter().copied().filter(|&p| p > 0).collect();
                let middle = usize::from(lo[a] > 0);
                let attrs = [("axis", imp.int_attr(a as i64)), ("sizes", imp.ints_attr(&sizes))];
                let mut split =
                    if sizes.len() == 1 { vec![y] } else { imp.op_results(&hl::SPLIT, &[&y], &attrs, None)? };
                split.swap_remove(middle)
            } else {
                let picks: Vec<i64> = (lo[a]..hi[a]).step_by(st[a] as usize).collect();
                gather_indices(imp, &y, a, &picks)?
            };
        }
        y
    } else {
        slice_dims(imp, &x, &lo, &hi, &st)?
    };
    for (a, picks) in reversed {
        y = gather_indices(imp, &y, a, &picks)?;
    }
    Ok(vec![y])
}

/// `hl.gather` of `y` at the constant indices `picks` along `axis`.
fn gather_indices(
    imp: &mut Importer<'_, '_, '_, '_>,
    y: &Val,
    axis: usize,
    picks: &[i64],
) -> Result<Val, String> {
    let t = Tensor::from_i64s(DType::I64, vec![picks.len()], picks).map_err(|e| e.message().to_string())?;
    let idx = imp.constant(t, "slice_indices")?;
    let attr = imp.int_attr(axis as i64);
    imp.op(&hl::GATHER, &[y, &idx], &[("axis", attr)], None)
}

/// `Split(input, split?, axis, num_outputs?)`: one `hl.slice` per output.
pub(super) fn split(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let axis = norm_axis(attr_int(node, "axis", 0)?, imp.rank(&x))?;
    let extent = imp.static_dim(&x, axis)?;
    let sizes = match axes_of(imp, node, 1, "split")? {
        Some(s) => s,
        None => {
            let n = attr_int(node, "num_outputs", node.output.len() as i64)?;
            if n <= 0 {
                return Err("`num_outputs` must be positive".into());
            }
            let chunk = (extent + n - 1) / n;
            (0..n).map(|i| (extent - i * chunk).clamp(0, chunk)).collect()
        }
    };
    if sizes.iter().any(|&s| s < 0) || sizes.iter().sum::<i64>() != extent {
        return Err(format!("split sizes {sizes:?} do not add up to dim {axis} ({extent})"));
    }
    if sizes.len() == 1 {
        return Ok(vec![x]);
    }
    let attrs = [("axis", imp.int_attr(axis as i64)), ("sizes", imp.ints_attr(&sizes))];
    imp.op_results(&hl::SPLIT, &[&x], &attrs, None)
}

/// `Gather(data, indices, axis)`: `hl.gather` (folded when both are constants).
pub(super) fn gather(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (x, i) = (imp.input(node, 0)?, imp.input(node, 1)?);
    let axis = norm_axis(attr_int(node, "axis", 0)?, imp.rank(&x))?;
    let attr = imp.int_attr(axis as i64);
    Ok(vec![imp.op(&hl::GATHER, &[&x, &i], &[("axis", attr)], None)?])
}

/// The source index of position `i` (from `-low`) of a dim of `n` elements padded in `mode`:
/// `edge` repeats the border element, `reflect` mirrors without repeating it, `wrap` cycles.
fn padded_source(mode: &str, i: i64, n: i64) -> i64 {
    match mode {
        "edge" => i.clamp(0, n - 1),
        "wrap" => i.rem_euclid(n),
        _ if n == 1 => 0,
        _ => {
            let j = i.rem_euclid(2 * (n - 1));
            if j < n {
                j
            } else {
                2 * (n - 1) - j
            }
        }
    }
}

/// `x` padded by `low` / `high` per dim in `mode` (`edge`, `reflect`, `wrap`): one `hl.gather`
/// of the source indices per padded dim.
fn pad_by_index(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    low: &[i64],
    high: &[i64],
    mode: &str,
) -> Result<Val, String> {
    let mut y = x.clone();
    for (a, (&l, &h)) in low.iter().zip(high).enumerate() {
        if l == 0 && h == 0 {
            continue;
        }
        let n = imp.shape(&y)?[a];
        if n == 0 {
            return Err(format!("`{mode}` padding of the empty dim {a}"));
        }
        let idx: Vec<i64> = (-l..n + h).map(|i| padded_source(mode, i, n)).collect();
        let t = Tensor::from_i64s(DType::I64, vec![idx.len()], &idx).map_err(|e| e.message().to_string())?;
        let idx = imp.constant(t, "pad_indices")?;
        let attr = imp.int_attr(a as i64);
        y = imp.op(&hl::GATHER, &[&y, &idx], &[("axis", attr)], None)?;
    }
    Ok(y)
}

/// `Pad(data, pads, constant_value?, axes?, mode)`: `hl.pad` in `constant` mode (pads >= 0);
/// `edge`, `reflect` and `wrap` as gathers of the source indices.
pub(super) fn pad(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let mode = super::attr_str(node, "mode", "constant")?;
    if !["constant", "edge", "reflect", "wrap"].contains(&mode.as_str()) {
        return Err(format!("unknown `mode` '{mode}'"));
    }
    let x = imp.input(node, 0)?;
    let rank = imp.rank(&x);
    let pads = imp.const_ints(&imp.input(node, 1)?, "input `pads`")?;
    let axes = match imp.opt_input(node, 3)? {
        Some(a) => imp
            .const_ints(&a, "input `axes`")?
            .iter()
            .map(|&a| norm_axis(a, rank))
            .collect::<Result<_, _>>()?,
        None => (0..rank).collect::<Vec<usize>>(),
    };
    if pads.len() != 2 * axes.len() || pads.iter().any(|&p| p < 0) {
        return Err(format!("`pads` {pads:?} must be 2 integers >= 0 per padded axis"));
    }
    let (mut low, mut high) = (vec![0; rank], vec![0; rank]);
    for (i, &a) in axes.iter().enumerate() {
        low[a] = pads[i];
        high[a] = pads[axes.len() + i];
    }
    if low.iter().chain(&high).all(|&p| p == 0) {
        return Ok(vec![x]);
    }
    if mode != "constant" {
        return Ok(vec![pad_by_index(imp, &x, &low, &high, &mode)?]);
    }
    let value = match imp.opt_input(node, 2)? {
        Some(v) => {
            *imp.const_f64s(&v, "input `constant_value`")?.first().ok_or("`constant_value` is empty")?
        }
        None => 0.0,
    };
    let value = imp.number_attr(imp.elem(&x), value);
    let attrs = [("low", imp.ints_attr(&low)), ("high", imp.ints_attr(&high)), ("value", value)];
    Ok(vec![imp.op(&hl::PAD, &[&x], &attrs, None)?])
}

/// `DepthToSpace(blocksize, mode)` / `SpaceToDepth(blocksize)` on NCHW: a reshape, a transpose
/// and a reshape (DCR or CRD order).
pub(super) fn depth_space(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let d = imp.shape(&x)?;
    let b = attr_int(node, "blocksize", 0)?;
    if d.len() != 4 || b < 1 {
        return Err("the input must be NCHW and `blocksize` positive".into());
    }
    let (n, c, h, w) = (d[0], d[1], d[2], d[3]);
    let crd = super::attr_str(node, "mode", "DCR")? == "CRD";
    let (split, perm, out) = if node.op_type == "DepthToSpace" {
        if c % (b * b) != 0 {
            return Err(format!("{c} channels are not a multiple of blocksize^2 = {}", b * b));
        }
        let cc = c / (b * b);
        if crd {
            (vec![n, cc, b, b, h, w], vec![0, 1, 4, 2, 5, 3], vec![n, cc, h * b, w * b])
        } else {
            (vec![n, b, b, cc, h, w], vec![0, 3, 4, 1, 5, 2], vec![n, cc, h * b, w * b])
        }
    } else {
        if h % b != 0 || w % b != 0 {
            return Err(format!("{h}x{w} is not a multiple of blocksize {b}"));
        }
        let perm = if crd { vec![0, 1, 3, 5, 2, 4] } else { vec![0, 3, 5, 1, 2, 4] };
        (vec![n, c, h / b, b, w / b, b], perm, vec![n, c * b * b, h / b, w / b])
    };
    let r = imp.reshape(&x, &split)?;
    let attr = imp.ints_attr(&perm);
    let t = imp.op(&hl::TRANSPOSE, &[&r], &[("perm", attr)], None)?;
    Ok(vec![imp.reshape(&t, &out)?])
}

/// `Tile(x, repeats const)`: `x` reshaped to `[1, d0, 1, d1, ...]`, broadcast to
/// `[r0, d0, r1, d1, ...]` and reshaped to `[r0 * d0, ...]`.
pub(super) fn tile(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let d = imp.shape(&x)?;
    let r = imp.const_ints(&imp.input(node, 1)?, "input `repeats`")?;
    if r.len() != d.len() || r.iter().any(|&v| v < 0) {
        return Err(format!("`repeats` {r:?} must hold one count >= 0 per dim of {d:?}"));
    }
    let unit: Vec<i64> = d.iter().flat_map(|&v| [1, v]).collect();
    let wide: Vec<i64> = d.iter().zip(&r).flat_map(|(&v, &k)| [k, v]).collect();
    let out: Vec<i64> = d.iter().zip(&r).map(|(&v, &k)| v * k).collect();
    let u = imp.reshape(&x, &unit)?;
    let ty = imp.ctx().tensor_type(&wide, imp.elem(&x));
    let b = if wide == unit { u } else { imp.op(&hl::BROADCAST_TO, &[&u], &[], Some(ty))? };
    Ok(vec![imp.reshape(&b, &out)?])
}

/// `CenterCropPad(x, shape const, axes)`: each listed dim cropped (centered, the extra element
/// at the end) or zero-padded (centered, the extra at the end) to the given size.
pub(super) fn center_crop_pad(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let d = imp.shape(&x)?;
    let target = imp.const_ints(&imp.input(node, 1)?, "input `shape`")?;
    let axes = attr_ints(node, "axes")?.unwrap_or_else(|| (0..d.len() as i64).collect());
    if axes.len() != target.len() {
        return Err("`shape` must have one size per axis".into());
    }
    let (mut lo, mut hi, mut low, mut high) =
        (vec![0; d.len()], d.clone(), vec![0; d.len()], vec![0; d.len()]);
    for (&a, &t) in axes.iter().zip(&target) {
        let a = norm_axis(a, d.len())?;
        if t < d[a] {
            lo[a] = (d[a] - t) / 2;
            hi[a] = lo[a] + t;
        } else {
            low[a] = (t - d[a]) / 2;
            high[a] = t - d[a] - low[a];
        }
    }
    let y = slice_dims(imp, &x, &lo, &hi, &vec![1; d.len()])?;
    if low.iter().chain(&high).all(|&p| p == 0) {
        return Ok(vec![y]);
    }
    let zero = imp.number_attr(imp.elem(&x), 0.0);
    let attrs = [("low", imp.ints_attr(&low)), ("high", imp.ints_attr(&high)), ("value", zero)];
    Ok(vec![imp.op(&hl::PAD, &[&y], &attrs, None)?])
}
