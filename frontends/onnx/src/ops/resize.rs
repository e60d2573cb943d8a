//! `Resize` (versions 11 to 19) and `Upsample` (9, 10), one axis at a time as ONNX's reference
//! computes them (resizing is separable): for every output position along an axis, the source
//! coordinate (by `coordinate_transformation_mode`), its neighbours (clamped to the input, as
//! edge padding) and their coefficients (nearest, linear or cubic, with `antialias`,
//! `exclude_outside`, `cubic_coeff_a`) are computed at import in f64. `nearest` is an
//! `hl.gather` of the picked indices (exact for every element type); `linear` and `cubic`
//! multiply by the axis's constant `[in, out]` interpolation matrix (`hl.matmul`, the axis moved
//! last). `tf_crop_and_resize`'s positions outside the input take `extrapolation_value`.

use kiln_dialects::hl;
use kiln_dialects::hl::interp::{DType, Tensor};
use onnx_protobuf::NodeProto;

use super::arith::{require_float, select};
use super::{attr_float, attr_int, attr_ints, attr_str, norm_axis};
use crate::graph::{Importer, Val};

/// The interpolation attributes shared by every axis.
struct Mode {
    kind: String,
    transform: String,
    nearest: String,
    cubic_a: f64,
    antialias: bool,
    exclude_outside: bool,
}

/// One axis's plan: per output position, the input indices and their coefficients, and
/// whether it lies outside the crop (`tf_crop_and_resize`).
struct Axis {
    taps: Vec<Vec<(usize, f64)>>,
    outside: Vec<bool>,
}

/// The source coordinate of output position `y` and whether it is outside the crop.
fn source(
    transform: &str,
    y: f64,
    scale: f64,
    input: usize,
    out: usize,
    roi: (f64, f64),
) -> Result<(f64, bool), String> {
    let (len, out_w) = (input as f64, scale * input as f64);
    let x = match transform {
        "align_corners" if out_w == 1.0 => 0.0,
        "align_corners" => y * (len - 1.0) / (out_w - 1.0),
        "asymmetric" => y / scale,
        "tf_crop_and_resize" => {
            let x = if out_w == 1.0 {
                (roi.1 - roi.0) * (len - 1.0) / 2.0
            } else {
                y * (roi.1 - roi.0) * (len - 1.0) / (out_w - 1.0)
            } + roi.0 * (len - 1.0);
            return Ok((x, x < 0.0 || x > len - 1.0));
        }
        "pytorch_half_pixel" if out_w == 1.0 => -0.5,
        "pytorch_half_pixel" | "half_pixel" => (y + 0.5) / scale - 0.5,
        "half_pixel_symmetric" => {
            let offset = len / 2.0 * (1.0 - out as f64 / out_w);
            offset + (y + 0.5) / scale - 0.5
        }
        other => return Err(format!("unknown `coordinate_transformation_mode` '{other}'")),
    };
    Ok((x, false))
}

/// The coefficients of the taps around a coordinate whose distance past the tap before it is
/// `ratio` (in `(0, 1]`), as the reference's `_*_coeffs` functions.
fn coefficients(mode: &Mode, ratio: f64, scale: f64) -> Result<Vec<f64>, String> {
    let a = mode.cubic_a;
    let normalized = |c: Vec<f64>| {
        let s: f64 = c.iter().sum();
        c.into_iter().map(|v| v / s).collect()
    };
    Ok(match (mode.kind.as_str(), mode.antialias) {
        ("nearest", _) => {
            let up = match mode.nearest.as_str() {
                _ if ratio == 1.0 => true,
                "round_prefer_floor" => ratio > 0.5,
                "round_prefer_ceil" => ratio >= 0.5,
                "floor" => false,
                "ceil" => true,
                other => return Err(format!("unknown `nearest_mode` '{other}'")),
            };
            vec![f64::from(u8::from(!up)), f64::from(u8::from(up))]
        }
        ("linear", false) => vec![1.0 - ratio, ratio],
        ("linear", true) => {
            let s = scale.min(1.0);
            let start = (-1.0 / s).floor() as i64 + 1;
            let taps = (start..start + 2 - 2 * start)
                .map(|i| (1.0 - ((i as f64 - ratio) * s).abs()).clamp(0.0, 1.0));
            normalized(taps.collect())
        }
        ("cubic", false) => {
            let (r, q) = (ratio, 1.0 - ratio);
            vec![
                ((a * (r + 1.0) - 5.0 * a) * (r + 1.0) + 8.0 * a) * (r + 1.0) - 4.0 * a,
                ((a + 2.0) * r - (a + 3.0)) * r * r + 1.0,
                ((a + 2.0) * q - (a + 3.0)) * q * q + 1.0,
                ((a * (q + 1.0) - 5.0 * a) * (q + 1.0) + 8.0 * a) * (q + 1.0) - 4.0 * a,
            ]
        }
        ("cubic", true) => {
            let s = scale.min(1.0);
            let start = (-2.0 / s).floor() as i64 + 1;
            let coeff = |x: f64| {
                let x = x.abs();
                let (x2, x3) = (x * x, x * x * x);
                if x <= 1.0 {
                    (a + 2.0) * x3 - (a + 3.0) * x2 + 1.0
                } else if x < 2.0 {
                    a * x3 - 5.0 * a * x2 + 8.0 * a * x - 4.0 * a
                } else {
                    0.0
                }
            };
            normalized((start..2 - start).map(|i| coeff(s * (i as f64 - ratio))).collect())
        }
        (other, _) => return Err(format!("unknown `mode` '{other}'")),
    })
}

/// The plan of one axis of `input` elements resized to `out` with `scale`.
fn plan(mode: &Mode, input: usize, out: usize, scale: f64, roi: (f64, f64)) -> Result<Axis, String> {
    let mut taps = Vec::with_capacity(out);
    let mut outside = Vec::with_capacity(out);
    for y in 0..out {
        let (x, out_of_crop) = source(&mode.transform, y as f64, scale, input, out, roi)?;
        let floor = x.floor();
        let ratio = if x == floor { 1.0 } else { x - floor };
        let mut c = coefficients(mode, ratio, scale)?;
        let n = c.len() as i64;
        // The n taps nearest to x, ties to the smaller index (the reference's window).
        let pad = (n + 1) / 2;
        let xp = x + pad as f64;
        let p = xp.floor() as i64;
        let frac = xp - p as f64;
        let offset = match n % 2 {
            0 if frac == 0.0 => -(n / 2),
            0 => -(n / 2) + 1,
            _ if frac <= 0.5 => -((n - 1) / 2),
            _ => -((n - 1) / 2) + 1,
        };
        let first = p + offset - pad;
        if mode.exclude_outside {
            for (i, ci) in c.iter_mut().enumerate() {
                let idx = first + i as i64;
                if idx < 0 || idx >= input as i64 {
                    *ci = 0.0;
                }
            }
            let s: f64 = c.iter().sum();
            let s = if s == 0.0 { 1.0 } else { s };
            c.iter_mut().for_each(|v| *v /= s);
        }
        let last = input as i64 - 1;
        taps.push(
            c.iter().enumerate().map(|(i, &ci)| ((first + i as i64).clamp(0, last) as usize, ci)).collect(),
        );
        outside.push(out_of_crop);
    }
    Ok(Axis { taps, outside })
}

/// `x` with axis `axis` resized by `plan` (see the module docs); `fill` for positions outside
/// the crop.
fn apply(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    axis: usize,
    plan: &Axis,
    nearest: bool,
    fill: f64,
) -> Result<Val, String> {
    let dims = imp.shape(x)?;
    let (input, out) = (dims[axis] as usize, plan.taps.len());
    let err = |e: kiln_dialects::hl::interp::InterpError| e.message().to_string();
    let mut y = if nearest {
        let picks: Vec<i64> = plan
            .taps
            .iter()
            .map(|t| t.iter().find(|(_, c)| *c != 0.0).map_or(t[0].0, |(i, _)| *i) as i64)
            .collect();
        let idx =
            imp.constant(Tensor::from_i64s(DType::I64, vec![out], &picks).map_err(err)?, "resize_indices")?;
        let a = imp.int_attr(axis as i64);
        imp.op(&hl::GATHER, &[x, &idx], &[("axis", a)], None)?
    } else {
        require_float(imp, x, "Resize (linear, cubic)")?;
        let mut w = vec![0.0; input * out];
        for (o, taps) in plan.taps.iter().enumerate() {
            if !plan.outside[o] {
                for &(i, c) in taps {
                    w[i * out + o] += c;
                }
            }
        }
        let w = imp.constant(
            Tensor::from_f64s(imp.dtype(x)?, vec![input, out], &w).map_err(err)?,
            "resize_weights",
        )?;
        let rank = dims.len();
        let mut perm: Vec<i64> = (0..rank as i64).filter(|&a| a != axis as i64).collect();
        perm.push(axis as i64);
        let moved = if axis + 1 == rank {
            x.clone()
        } else {
            let attr = imp.ints_attr(&perm);
            imp.op(&hl::TRANSPOSE, &[x], &[("perm", attr)], None)?
        };
        let mut moved_dims = imp.shape(&moved)?;
        let rows: i64 = moved_dims[..rank - 1].iter().product();
        let flat = imp.reshape(&moved, &[rows, input as i64])?;
        let r = imp.op(&hl::MATMUL, &[&flat, &w], &[], None)?;
        moved_dims[rank - 1] = out as i64;
        let r = imp.reshape(&r, &moved_dims)?;
        if axis + 1 == rank {
            r
        } else {
            let mut inverse = vec![0; rank];
            for (i, &p) in perm.iter().enumerate() {
                inverse[p as usize] = i as i64;
            }
            let attr = imp.ints_attr(&inverse);
            imp.op(&hl::TRANSPOSE, &[&r], &[("perm", attr)], None)?
        }
    };
    if plan.outside.iter().any(|&o| o) {
        let mut shape = vec![1; dims.len()];
        shape[axis] = out;
        let mask = Tensor::new(shape, kiln_dialects::hl::interp::TensorData::I1(plan.outside.clone()))
            .map_err(err)?;
        let mask = imp.constant(mask, "resize_outside")?;
        let value = imp.scalar_like(&y, fill)?;
        y = select(imp, &mask, &value, &y)?;
    }
    Ok(y)
}

/// The resized axes, their output sizes and scales, and the crop per axis.
type Sizes = (Vec<usize>, Vec<usize>, Vec<f64>, Vec<(f64, f64)>);

/// The axes to resize and each one's output size, scale and crop, from `scales` or `sizes`
/// (with `axes` and `keep_aspect_ratio_policy`) and `roi`.
fn sizes(
    imp: &Importer<'_, '_, '_, '_>,
    node: &NodeProto,
    dims: &[i64],
    upsample: bool,
) -> Result<Sizes, String> {
    let rank = dims.len();
    let axes: Vec<usize> = match attr_ints(node, "axes")? {
        Some(a) => a.iter().map(|&a| norm_axis(a, rank)).collect::<Result<_, _>>()?,
        None => (0..rank).collect(),
    };
    let input = |i: usize| -> Result<Option<Val>, String> {
        match imp.opt_input(node, i)? {
            Some(v) if imp.shape(&v)?.iter().product::<i64>() > 0 => Ok(Some(v)),
            _ => Ok(None),
        }
    };
    let (scales_at, roi_at) = if upsample || imp.version(node) < 11 { (1, None) } else { (2, Some(1)) };
    let roi = match roi_at.map(input).transpose()?.flatten() {
        Some(r) => imp.const_f64s(&r, "input `roi`")?,
        None => [vec![0.0; axes.len()], vec![1.0; axes.len()]].concat(),
    };
    if roi.len() != 2 * axes.len() {
        return Err(format!("`roi` has {} values for {} axes", roi.len(), axes.len()));
    }
    let crop: Vec<(f64, f64)> = (0..axes.len()).map(|i| (roi[i], roi[axes.len() + i])).collect();
    let len = |d: usize| dims[d] as usize;
    if let Some(s) = input(scales_at)? {
        let scales = imp.const_f64s(&s, "input `scales`")?;
        if scales.len() != axes.len() || scales.iter().any(|&s| s <= 0.0) {
            return Err(format!("`scales` {scales:?} must be {} positive numbers", axes.len()));
        }
        let out = axes.iter().zip(&scales).map(|(&a, &s)| (s * len(a) as f64).floor() as usize).collect();
        return Ok((axes, out, scales, crop));
    }
    let s = input(3)?.ok_or("one of `scales` and `sizes` must be given")?;
    let sizes = imp.const_ints(&s, "input `sizes`")?;
    if sizes.len() != axes.len() || sizes.iter().any(|&s| s < 0) {
        return Err(format!("`sizes` {sizes:?} must be {} sizes", axes.len()));
    }
    let mut scales: Vec<f64> = axes.iter().zip(&sizes).map(|(&a, &s)| s as f64 / len(a) as f64).collect();
    let mut out: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
    let policy = attr_str(node, "keep_aspect_ratio_policy", "stretch")?;
    let pick = match policy.as_str() {
        "stretch" => None,
        "not_larger" => scales.iter().copied().reduce(f64::min),
        "not_smaller" => scales.iter().copied().reduce(f64::max),
        other => return Err(format!("unknown `keep_aspect_ratio_policy` '{other}'")),
    };
    if let Some(s) = pick {
        scales = vec![s; axes.len()];
        out = axes.iter().map(|&a| (s * len(a) as f64 + 0.5) as usize).collect();
    }
    Ok((axes, out, scales, crop))
}

/// `Resize(X, roi?, scales?, sizes?)` and `Upsample(X, scales)` (see the module docs).
pub(super) fn resize(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let upsample = node.op_type == "Upsample";
    let mut x = imp.input(node, 0)?;
    let dims = imp.shape(&x)?;
    let mode = Mode {
        kind: attr_str(node, "mode", "nearest")?,
        transform: if upsample {
            "asymmetric".into()
        } else {
            attr_str(node, "coordinate_transformation_mode", "half_pixel")?
        },
        nearest: if upsample {
            "floor".into()
        } else {
            attr_str(node, "nearest_mode", "round_prefer_floor")?
        },
        cubic_a: attr_float(node, "cubic_coeff_a", -0.75)?,
        antialias: attr_int(node, "antialias", 0)? != 0,
        exclude_outside: attr_int(node, "exclude_outside", 0)? != 0,
    };
    let fill = attr_float(node, "extrapolation_value", 0.0)?;
    let (axes, out, scales, crop) = sizes(imp, node, &dims, upsample)?;
    for (i, &a) in axes.iter().enumerate() {
        let input = dims[a] as usize;
        let identity = (scales[i] - 1.0).abs() < 1e-9 && out[i] == input && crop[i] == (0.0, 1.0);
        if identity && mode.transform != "tf_crop_and_resize" {
            continue;
        }
        if input == 0 || out[i] == 0 {
            return Err(format!("axis {a} resizes {input} elements to {}: empty", out[i]));
        }
        let p = plan(&mode, input, out[i], scales[i], crop[i])?;
        x = apply(imp, &x, a, &p, mode.kind == "nearest", fill)?;
    }
    Ok(vec![x])
}
