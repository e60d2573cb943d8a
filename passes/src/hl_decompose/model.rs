//! The expansions of the `hl` ops model importers emit (part of `hl-decompose`), each exact:
//! it computes what the op's reference semantics computes, in the same order.
//!
//! - `split` -> one `slice` per result;
//! - `conv2d(x, w, bias)` -> `conv2d(x, w)` + `bias` reshaped to `[O, 1, 1]` (the bias is
//!   defined as added to the rounded convolution);
//! - `global_avg_pool2d` -> `reduce_mean` over the spatial dims with `keep_dims`;
//! - `batch_matmul` of operands of different ranks or of batch dims that broadcast -> with a
//!   rank-2 right operand (the Linear layer) `reshape` to rank 2, `matmul`, `reshape` back;
//!   otherwise the lower-rank operand `reshape`d with leading unit dims and each operand
//!   `broadcast_to` the result's batch dims (the same products, summed in the same order);
//! - `max_pool2d`/`avg_pool2d` -> the input `pad`ded (with `-inf` / the lowest integer, or
//!   `+0`; `pad` itself stays: the back end lowers it), one strided `slice` per kernel tap, combined in row-major tap order by
//!   `maximum` / `add`, and for average a `div` by the tap counts (a splat when uniform);
//! - `iota` -> a rank-1 constant of the indices along `dimension`, `reshape`d and
//!   `broadcast_to` the result (the constant has one dim's size, not the result's);
//! - `trilu` -> `select(cmp(column, row + k), x, 0)` of a `[1, C]` and an `[R, 1]` `i32`
//!   constant.

use kiln_compiler::rewrite::Rewriter;
use kiln_compiler::{OpId, Type, ValueId};
use kiln_dialects::hl::accessors::{bool_attr, int_list, normalize_axis, tensor_parts};
use kiln_dialects::hl::attrs::CmpPredicate;
use kiln_dialects::hl::builder::HlBuilder;
use kiln_dialects::hl::infer::pool_params;
use kiln_dialects::hl::interp::program::{dtype_of, tensor_to_dense};
use kiln_dialects::hl::interp::{tap_counts, Pool2dParams, Tensor};
use kiln_dialects::hl::{self as hl};

use crate::codegen::build::scalar_attr;

/// The ops of this module; `conv2d` and `batch_matmul` only in the forms listed in the module
/// documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ModelOp {
    Split,
    Conv2d,
    GlobalAvgPool2d,
    BatchMatmul,
    MaxPool2d,
    AvgPool2d,
    Iota,
    Trilu,
}

/// Whether `op` (a `kind` op) is in a form this module expands.
pub(super) fn applies(ir: &kiln_compiler::Ir<'_>, op: OpId, kind: ModelOp) -> bool {
    let shape =
        |i: usize| ir.operands(op).get(i).and_then(|&v| tensor_parts(ir.value_type(v))).map(|(s, _)| s);
    match kind {
        ModelOp::Conv2d => ir.operands(op).len() == 3,
        // Operands of different ranks, or of one rank whose batch dims broadcast.
        ModelOp::BatchMatmul => match (shape(0), shape(1)) {
            (Some(a), Some(b)) => {
                a.len() != b.len() || a[..a.len().saturating_sub(2)] != b[..b.len().saturating_sub(2)]
            }
            _ => false,
        },
        _ => true,
    }
}

/// The static shape and element type of `v`.
fn parts<'c>(b: &HlBuilder<'_, '_, 'c>, v: ValueId) -> Result<(Vec<i64>, Type<'c>), String> {
    let (s, e) = tensor_parts(b.rw.ir().value_type(v)).ok_or("operand is not a ranked tensor")?;
    Ok((s.to_vec(), e))
}

/// An `hl.constant` of `t` with type `shape x elem`.
pub(super) fn constant<'c>(
    b: &mut HlBuilder<'_, '_, 'c>,
    shape: &[i64],
    elem: Type<'c>,
    t: &Tensor,
) -> Result<ValueId, String> {
    let ty = b.rw.ctx.tensor_type(shape, elem);
    let value = tensor_to_dense(b.rw.ctx, ty, t);
    b.create(&hl::CONSTANT, &[], &[("value", value)], Some(ty))
}

/// `hl.slice` of `x` from `starts` to `limits` with `strides`.
fn slice(
    b: &mut HlBuilder<'_, '_, '_>,
    x: ValueId,
    starts: &[i64],
    limits: &[i64],
    strides: &[i64],
) -> Result<ValueId, String> {
    let (s, l, st) = (b.ints(starts), b.ints(limits), b.ints(strides));
    b.create(&hl::SLICE, &[x], &[("starts", s), ("limits", l), ("strides", st)], None)
}

/// `x` padded with `value` by `low[d]` before and `high[d]` after each dim `d` (one `hl.pad`,
/// which the back end lowers as one kernel), or `x` when nothing is padded. An integer `value`
/// beyond the element type's range (the `-inf` of a max pool) is its lowest or highest value.
fn pad(
    b: &mut HlBuilder<'_, '_, '_>,
    x: ValueId,
    low: &[i64],
    high: &[i64],
    value: f64,
) -> Result<ValueId, String> {
    if low.iter().chain(high).all(|&p| p == 0) {
        return Ok(x);
    }
    let (_, elem) = parts(b, x)?;
    let value = match elem.bit_width().filter(|_| !elem.is_float()) {
        Some(1) => value.clamp(0.0, 1.0),
        Some(w) => value.clamp(-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0),
        None => value,
    };
    let value = scalar_attr(b.rw.ctx, elem, value);
    let (l, h) = (b.ints(low), b.ints(high));
    b.create(&hl::PAD, &[x], &[("low", l), ("high", h), ("value", value)], None)
}

/// The pooled result of `x`: the padded input's taps combined by `op` (see the module
/// documentation), and the output size.
fn pool_taps(
    b: &mut HlBuilder<'_, '_, '_>,
    x: ValueId,
    p: &Pool2dParams,
    fill: f64,
    op: &'static kiln_compiler::OpDef,
) -> Result<(ValueId, [usize; 2]), String> {
    let (shape, _) = parts(b, x)?;
    let (out, [bottom, right]) = p.cover(shape[2] as usize, shape[3] as usize).map_err(|e| e.to_string())?;
    let low = [0, 0, p.padding[0] as i64, p.padding[1] as i64];
    let high = [0, 0, bottom as i64, right as i64];
    let padded = pad(b, x, &low, &high, fill)?;
    let strides = [1, 1, p.strides[0] as i64, p.strides[1] as i64];
    let mut acc = None;
    for t in 0..p.kernel[0] * p.kernel[1] {
        let [row, col] = p.tap_origin(t).map(|o| o as i64);
        let limits = [
            shape[0],
            shape[1],
            row + ((out[0] - 1) * p.strides[0]) as i64 + 1,
            col + ((out[1] - 1) * p.strides[1]) as i64 + 1,
        ];
        let tap = slice(b, padded, &[0, 0, row, col], &limits, &strides)?;
        acc = Some(match acc {
            None => tap,
            Some(a) => b.create(op, &[a, tap], &[], None)?,
        });
    }
    Ok((acc.ok_or("pooling kernel has no taps")?, out))
}

/// Builds the expansion of `op` (a `kind` op) before it: one value per result.
pub(super) fn expand<'c>(rw: &mut Rewriter<'_, 'c>, op: OpId, kind: ModelOp) -> Result<Vec<ValueId>, String> {
    let ir = rw.ir();
    let args = ir.operands(op).to_vec();
    let attr = |n: &str| ir.attr(op, n);
    let result_types: Vec<Type<'c>> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
    let params =
        matches!(kind, ModelOp::MaxPool2d | ModelOp::AvgPool2d).then(|| pool_params(&attr)).transpose()?;
    let sizes = int_list(attr("sizes"))?;
    let axis_attr = attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let dimension = attr("dimension").and_then(|a| a.as_int()).unwrap_or(0) as usize;
    let (upper, k) = (bool_attr(attr("upper")), attr("k").and_then(|a| a.as_int()).unwrap_or(0));
    let include_pad = bool_attr(attr("count_include_pad"));
    let (ta, tb) = (bool_attr(attr("transpose_a")), bool_attr(attr("transpose_b")));
    let conv_attrs: Vec<_> = ["strides", "padding", "dilation", "groups"]
        .iter()
        .filter_map(|&n| ir.op(op).properties.and_then(|p| p.dict_get(n)).map(|a| (n, a)))
        .collect();
    let mut b = HlBuilder::new(rw, op);
    let values = match kind {
        ModelOp::Split => {
            let (shape, _) = parts(&b, args[0])?;
            let axis = normalize_axis(axis_attr, shape.len())?;
            let (mut starts, mut limits) = (vec![0i64; shape.len()], shape.clone());
            let mut out = Vec::with_capacity(sizes.len());
            for &size in &sizes {
                limits[axis] = starts[axis] + size;
                out.push(slice(&mut b, args[0], &starts, &limits, &vec![1; shape.len()])?);
                starts[axis] = limits[axis];
            }
            out
        }
        ModelOp::Conv2d => {
            let conv = b.create(&hl::CONV2D, &args[..2], &conv_attrs, None)?;
            let (bias, elem) = parts(&b, args[2])?;
            let ty = b.rw.ctx.tensor_type(&[bias[0], 1, 1], elem);
            let laid = b.create(&hl::RESHAPE, &[args[2]], &[], Some(ty))?;
            vec![b.create(&hl::ADD, &[conv, laid], &[], None)?]
        }
        ModelOp::GlobalAvgPool2d => {
            let (shape, _) = parts(&b, args[0])?;
            let axes = b.ints(&(2..shape.len() as i64).collect::<Vec<_>>());
            let keep = b.yes();
            vec![b.create(&hl::REDUCE_MEAN, &[args[0]], &[("axes", axes), ("keep_dims", keep)], None)?]
        }
        ModelOp::BatchMatmul => {
            let ((a, elem), (r, _)) = (parts(&b, args[0])?, parts(&b, args[1])?);
            let flags: Vec<_> = [("transpose_a", ta), ("transpose_b", tb)]
                .into_iter()
                .filter(|&(_, on)| on)
                .map(|(n, _)| (n, b.yes()))
                .collect();
            if r.len() == 2 && !ta {
                let rows: i64 = a[..a.len() - 1].iter().product();
                let flat = b.rw.ctx.tensor_type(&[rows, a[a.len() - 1]], elem);
                let lhs = b.create(&hl::RESHAPE, &[args[0]], &[], Some(flat))?;
                let m = b.create(&hl::MATMUL, &[lhs, args[1]], &flags, None)?;
                vec![b.create(&hl::RESHAPE, &[m], &[], Some(result_types[0]))?]
            } else {
                let rank = a.len().max(r.len());
                let (out, _) = tensor_parts(result_types[0]).ok_or("result is not a ranked tensor")?;
                let batch = &out[..rank - 2];
                let mut operands = [args[0], args[1]];
                for (slot, shape) in operands.iter_mut().zip([&a, &r]) {
                    let mut dims = vec![1i64; rank - shape.len()];
                    dims.extend_from_slice(shape);
                    if shape.len() < rank {
                        let ty = b.rw.ctx.tensor_type(&dims, elem);
                        *slot = b.create(&hl::RESHAPE, &[*slot], &[], Some(ty))?;
                    }
                    if dims[..rank - 2] != *batch {
                        dims[..rank - 2].copy_from_slice(batch);
                        let ty = b.rw.ctx.tensor_type(&dims, elem);
                        *slot = b.create(&hl::BROADCAST_TO, &[*slot], &[], Some(ty))?;
                    }
                }
                vec![b.create(&hl::BATCH_MATMUL, &operands, &flags, None)?]
            }
        }
        ModelOp::MaxPool2d => {
            let p = params.as_ref().ok_or("missing window attributes")?;
            vec![pool_taps(&mut b, args[0], p, f64::NEG_INFINITY, &hl::MAXIMUM)?.0]
        }
        ModelOp::AvgPool2d => {
            let p = params.as_ref().ok_or("missing window attributes")?;
            let (shape, elem) = parts(&b, args[0])?;
            let (sum, out) = pool_taps(&mut b, args[0], p, 0.0, &hl::ADD)?;
            let rows = tap_counts(p, 0, shape[2] as usize, out[0], include_pad);
            let cols = tap_counts(p, 1, shape[3] as usize, out[1], include_pad);
            let counts: Vec<f64> =
                rows.iter().flat_map(|&r| cols.iter().map(move |&c| (r * c) as f64)).collect();
            let dims = [1, 1, out[0] as i64, out[1] as i64];
            let divisor = if counts.iter().all(|&c| c == counts[0]) {
                b.scalar(elem, counts[0])?
            } else {
                let dtype = dtype_of(elem).ok_or("unsupported element type")?;
                let t = Tensor::from_f64s(dtype, vec![1, 1, out[0], out[1]], &counts)
                    .map_err(|e| e.to_string())?;
                constant(&mut b, &dims, elem, &t)?
            };
            vec![b.create(&hl::DIV, &[sum, divisor], &[], None)?]
        }
        ModelOp::Iota => {
            let (shape, elem) = tensor_parts(result_types[0]).ok_or("result is not a ranked tensor")?;
            let dtype = dtype_of(elem).ok_or("unsupported element type")?;
            let n = shape[dimension];
            let t = Tensor::from_i64s(dtype, vec![n as usize], &(0..n).collect::<Vec<_>>())
                .map_err(|e| e.to_string())?;
            let line = constant(&mut b, &[n], elem, &t)?;
            if shape.len() == 1 {
                vec![line]
            } else {
                let mut dims = vec![1i64; shape.len()];
                dims[dimension] = n;
                let ty = b.rw.ctx.tensor_type(&dims, elem);
                let laid = b.create(&hl::RESHAPE, &[line], &[], Some(ty))?;
                vec![b.create(&hl::BROADCAST_TO, &[laid], &[], Some(result_types[0]))?]
            }
        }
        ModelOp::Trilu => {
            let (shape, elem) = parts(&b, args[0])?;
            let (rows, cols) = (shape[shape.len() - 2], shape[shape.len() - 1]);
            let i32t = b.rw.ctx.int_type(32);
            // `j - i <= k` is `j <= i + k`; a `k` beyond the matrix keeps or drops everything
            // alike, so it is clamped to fit `i32`.
            let k = k.clamp(-(rows + 1) as i128, (cols + 1) as i128) as i64;
            let col = Tensor::from_i64s(
                kiln_dialects::hl::interp::DType::I32,
                vec![1, cols as usize],
                &(0..cols).collect::<Vec<_>>(),
            );
            let row = Tensor::from_i64s(
                kiln_dialects::hl::interp::DType::I32,
                vec![rows as usize, 1],
                &(0..rows).map(|i| i + k).collect::<Vec<_>>(),
            );
            let col = constant(&mut b, &[1, cols], i32t, &col.map_err(|e| e.to_string())?)?;
            let row = constant(&mut b, &[rows, 1], i32t, &row.map_err(|e| e.to_string())?)?;
            let predicate = if upper { CmpPredicate::Ge } else { CmpPredicate::Le }.attr(b.rw.ctx);
            let mask = b.create(&hl::CMP, &[col, row], &[("predicate", predicate)], None)?;
            let zero = b.scalar(elem, 0.0)?;
            vec![b.create(&hl::SELECT, &[mask, args[0], zero], &[], None)?]
        }
    };
    for (&v, &ty) in values.iter().zip(&result_types) {
        if b.rw.ir().value_type(v) != ty {
            return Err(format!("expansion produced '{}' instead of '{ty}'", b.rw.ir().value_type(v)));
        }
    }
    Ok(values)
}
