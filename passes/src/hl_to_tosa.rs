//! `hl-to-tosa`: converts `hl` to TOSA (MLIR 22, TOSA v1.0), written as unregistered ops in
//! the generic form that MLIR's parser reads.
//!
//! Rewrites (a conversion pattern per op, over a target where `hl` is illegal):
//! - `hl.constant` -> `tosa.const`; the same-name elementwise ops (`exp`, `log`, `tanh`,
//!   `sigmoid`, `erf`, `reciprocal`, `rsqrt`, `abs`, `floor`, `ceil`) -> `tosa.<op>`; `neg` ->
//!   `tosa.negate` (zero points 0); `not` -> `tosa.logical_not`; `relu` -> `tosa.clamp` from 0;
//! - binary ops (`add`, `sub`, `mul` with shift 0, `maximum`, `minimum`, `pow`, `and`, `or`),
//!   `cmp` (`gt`/`ge`/`eq` directly, `lt`/`le` with swapped operands, `ne` as `logical_not` of
//!   `equal`), `select`: operands of lower rank are first reshaped with leading 1s (TOSA
//!   broadcasts only equal ranks); float `div` -> `arith.divf` on operands tiled to the result
//!   (TOSA has no float division; `arith` ops on tensors do not broadcast), integer `div` ->
//!   `tosa.intdiv`; `clamp` -> `tosa.clamp` (a missing bound is the type's extreme); `cast` ->
//!   `tosa.cast` (float to integer truncates first: `select(x < 0, ceil x, floor x)`, since
//!   TOSA's cast rounds to nearest);
//! - `broadcast_to` -> `tosa.reshape` + `tosa.tile`;
//! - `reduce_sum`/`max`/`min`/`prod` -> one TOSA reduction over the reduced axes moved last (in
//!   order) and merged into one, so the accumulation order is the same; then a reshape to the
//!   result; `reduce_mean` -> that sum in f32 (an f16 / bf16 operand cast to f32 first), `arith.divf`
//!   by `n` and a cast back: the interpreter's mean, bit for bit;
//! - `reshape`, `expand_dims`, `squeeze` -> `tosa.reshape`; `transpose`, `slice` (unit
//!   strides), `concat`, `pad` -> their TOSA op with `!tosa.shape` operands;
//! - `matmul` / `batch_matmul` -> `tosa.matmul` on rank-3 operands (transposes applied first;
//!   batch dims merged; a broadcast rhs folds the lhs batch into its rows; a broadcast lhs is
//!   tiled); `gather` -> `tosa.gather` on `[1, K, P*Q]` values (the gathered axis moved first);
//! - `conv2d` (groups 1), `avg_pool2d` (`count_include_pad = false`), `max_pool2d` (no
//!   dilation, no `ceil_mode`) -> the NHWC TOSA op between transposes; a missing conv bias is
//!   a zero constant.
//!
//! Composites (`softmax`, `layer_norm`, `gelu`, ...) are expected to be expanded by
//! `hl-decompose` first. Assumes: verified IR with static shapes. Guarantees: every `hl` op is
//! replaced by TOSA ops that MLIR 22's verifier accepts; an `hl` op (or attribute) without a
//! TOSA form is an error at its location naming it, all reported at once, and the IR is left
//! unchanged.

use kiln_compiler::conversion::{ConversionRewriter, ConversionTarget};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Context, Diagnostic, Ir, OpId, Type, TypeKind, ValueId};
use kiln_dialects::hl::accessors::{bool_attr, float_value, int_list, normalize_axis, tensor_parts};
use kiln_dialects::hl::attrs::CmpPredicate;

use crate::tosa::{convert_by_name, elem_of, float_attr, shape_of, TosaBuilder, BINARY, SAME_UNARY};

kiln_compiler::declare_pass! {
    struct HlToTosa {}
    name: "hl-to-tosa",
    summary: "Convert hl ops to TOSA",
    description: "Converts primitive hl ops to TOSA v1.0 ops (unregistered, generic form) that MLIR 22 verifies: \
                  elementwise ops, reductions, layout ops, matmul, conv2d, pooling, gather; NCHW becomes NHWC.",
    options: &[],
    create(_o) {
        Ok(HlToTosa {})
    }
    fn run(&mut self, cx, root) {
        let mut failed = false;
        for op in cx.ir.walk(root, WalkOrder::PreOrder) {
            if let Some(why) = refusal(cx.ir, op) {
                let data = cx.ir.op(op);
                cx.diagnostics.push(Diagnostic::error(data.loc, format!("'{}' op has no TOSA form: {why}", data.name)));
                failed = true;
            }
        }
        if failed {
            return Err(PassFailed);
        }
        let mut target = ConversionTarget::new();
        target.add_illegal_dialect("hl");
        target.add_legal_dialect("tosa");
        convert_by_name(cx.ctx, cx.ir, root, &target, ("HlOp", "hl."), convert).map_err(|d| {
            cx.diagnostics.push(d);
            PassFailed
        })
    }
}

/// Why `op` (an `hl` op) cannot be converted, or `None` when it can (or is not `hl`).
fn refusal(ir: &Ir<'_>, op: OpId) -> Option<String> {
    let short = ir.op(op).def.filter(|&d| kiln_dialects::hl::HL.owns(Some(d)))?.short_name();
    let attr = |n: &str| ir.attr(op, n);
    let all_static = ir
        .operands(op)
        .iter()
        .chain(ir.results(op))
        .all(|&v| tensor_parts(ir.value_type(v)).is_some_and(|(s, _)| s.iter().all(|&d| d >= 0)));
    if !all_static {
        return Some("dynamic shapes are not supported".into());
    }
    let ones = |n: &str| int_list(attr(n)).map(|v| v.iter().all(|&d| d == 1)).unwrap_or(false);
    let int_not_i32 = |v: &ValueId| {
        tensor_parts(ir.value_type(*v))
            .is_some_and(|(_, e)| !e.is_float() && !matches!(e.kind(), TypeKind::Integer { width: 32, .. }))
    };
    match short {
        s if SAME_UNARY.contains(&s) || BINARY.iter().any(|(_, h)| *h == s) => None,
        "div" if ir.results(op).iter().any(int_not_i32) => Some("TOSA divides integers as i32 only".into()),
        "constant" | "neg" | "not" | "relu" | "div" | "cmp" | "select" | "clamp" | "cast"
        | "broadcast_to" | "reduce_sum" | "reduce_max" | "reduce_min" | "reduce_prod" | "reduce_mean"
        | "reshape" | "expand_dims" | "squeeze" | "transpose" | "concat" | "pad" | "matmul"
        | "batch_matmul" | "gather" | "avg_pool2d" => match short {
            "avg_pool2d" if bool_attr(attr("count_include_pad")) => {
                Some("TOSA excludes padding from the average".into())
            }
            "avg_pool2d"
                if bool_attr(attr("ceil_mode")) || attr("dilation").is_some() && !ones("dilation") =>
            {
                Some("TOSA pools without dilation or `ceil_mode`".into())
            }
            _ => None,
        },
        "slice" if attr("strides").is_some() && !ones("strides") => {
            Some("TOSA slices with unit strides".into())
        }
        "slice" => None,
        "conv2d" if attr("groups").and_then(|g| g.as_int()).is_some_and(|g| g != 1) => {
            Some("grouped convolutions are not supported".into())
        }
        "conv2d" => None,
        "max_pool2d" if bool_attr(attr("ceil_mode")) || attr("dilation").is_some() && !ones("dilation") => {
            Some("TOSA pools without dilation or `ceil_mode`".into())
        }
        "max_pool2d" => None,
        "softmax" | "log_softmax" | "layer_norm" | "rms_norm" | "batch_norm" | "gelu" | "silu" | "swiglu"
        | "bias_add" | "dropout" => Some("a composite: run `hl-decompose` first".into()),
        _ => Some("no TOSA op computes it".into()),
    }
}

/// The type's lowest or highest value as an `f64` (the bounds of an open `clamp`).
fn extreme(elem: Type<'_>, high: bool) -> f64 {
    let sign = if high { 1.0 } else { -1.0 };
    match *elem.kind() {
        TypeKind::Integer { width, .. } if width > 1 => {
            let max = ((1i128 << (width - 1)) - 1) as f64;
            if high {
                max
            } else {
                -max - 1.0
            }
        }
        _ => sign * f64::INFINITY,
    }
}

/// A bound attribute of element type `elem` (`min_val` / `max_val` of `tosa.clamp`).
fn bound<'c>(ctx: &Context<'c>, elem: Type<'c>, value: f64) -> Result<kiln_compiler::Attribute<'c>, String> {
    if elem.is_float() {
        float_attr(ctx, elem, value).ok_or(format!("cannot make a '{elem}' bound"))
    } else {
        Ok(ctx.int_attr(value as i128, elem))
    }
}

/// `v` reshaped to `rank` with leading 1s.
fn align(b: &mut TosaBuilder<'_, '_, '_>, v: ValueId, rank: usize) -> Result<ValueId, String> {
    let shape = shape_of(b.rw.ir(), v).ok_or("operand is not a ranked tensor")?;
    if shape.len() >= rank {
        return Ok(v);
    }
    let mut dims = vec![1; rank - shape.len()];
    dims.extend(shape);
    b.reshape(v, &dims)
}

/// `v` reshaped to the rank of `out` and tiled to it (`arith` ops do not broadcast).
fn expand(b: &mut TosaBuilder<'_, '_, '_>, v: ValueId, out: &[i64]) -> Result<ValueId, String> {
    let v = align(b, v, out.len())?;
    let (shape, elem) =
        (shape_of(b.rw.ir(), v).ok_or("bad operand")?, elem_of(b.rw.ir(), v).ok_or("bad operand")?);
    if shape == out {
        return Ok(v);
    }
    let multiples: Vec<i64> = shape.iter().zip(out).map(|(&d, &o)| if d == o { 1 } else { o }).collect();
    let m = b.shape(&multiples);
    let ty = b.rw.ctx.tensor_type(out, elem);
    Ok(b.op("tile", &[v, m], &[], ty))
}

/// The zero point (or shift) type of an operand of element type `elem`.
fn zero<'c>(b: &mut TosaBuilder<'_, '_, 'c>, elem: Type<'c>) -> Result<ValueId, String> {
    b.zero(elem)
}

/// Builds the TOSA form of `hl.<short>` before `op`; returns the value replacing its result.
fn convert<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    short: &str,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let ir = rw.ir();
    let ctx = rw.ctx;
    let result_ty = ir.value_type(ir.results(op)[0]);
    let (out_shape, out_elem) = tensor_parts(result_ty).ok_or("result is not a ranked tensor")?;
    let out_shape = out_shape.to_vec();
    let rank = out_shape.len();
    let attr = |n: &str| ir.attr(op, n);
    let ints = |n: &str| int_list(attr(n));
    let in_shape = x.first().and_then(|&v| shape_of(ir, v)).unwrap_or_default();
    let in_elem = x.first().and_then(|&v| tensor_parts(ir.value_type(v)).map(|(_, e)| e)).unwrap_or(out_elem);
    let value_attr = attr("value");
    let cmp = attr("predicate").and_then(CmpPredicate::of);
    let (lo, hi) = (attr("min").and_then(float_value), attr("max").and_then(float_value));
    let axes = ints("axes");
    let perm = ints("perm");
    let axis = attr("axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let (starts, limits) = (ints("starts"), ints("limits"));
    let (low, high) = (ints("low"), ints("high"));
    let pad_value = attr("value").and_then(float_value).unwrap_or(0.0);
    let (ta, tb) = (bool_attr(attr("transpose_a")), bool_attr(attr("transpose_b")));
    let strides = ints("strides")?;
    let padding = ints("padding")?;
    let dilation = ints("dilation")?;
    let kernel = ints("kernel")?;
    let mut b = TosaBuilder::new(rw, op);
    if SAME_UNARY.contains(&short) {
        return Ok(b.op(short, x, &[], result_ty));
    }
    if let Some((tosa, _)) = BINARY.iter().find(|(_, h)| *h == short) {
        let (l, r) = (align(&mut b, x[0], rank)?, align(&mut b, x[1], rank)?);
        let mut args = vec![l, r];
        if short == "mul" {
            let i8t = ctx.int_type(8);
            args.push(zero(&mut b, i8t)?);
        }
        return Ok(b.op(tosa, &args, &[], result_ty));
    }
    let v = match short {
        "constant" => b.op("const", &[], &[("values", value_attr.ok_or("no 'value'")?)], result_ty),
        "neg" => {
            let (z1, z2) = (zero(&mut b, in_elem)?, zero(&mut b, in_elem)?);
            b.op("negate", &[x[0], z1, z2], &[], result_ty)
        }
        "not" => b.op("logical_not", x, &[], result_ty),
        "relu" | "clamp" => {
            let lo = if short == "relu" { 0.0 } else { lo.unwrap_or(extreme(in_elem, false)) };
            let hi = hi.unwrap_or(extreme(in_elem, true));
            let (l, h) = (bound(ctx, in_elem, lo)?, bound(ctx, in_elem, hi)?);
            b.op("clamp", x, &[("min_val", l), ("max_val", h)], result_ty)
        }
        "div" if in_elem.is_float() => {
            let (l, r) = (expand(&mut b, x[0], &out_shape)?, expand(&mut b, x[1], &out_shape)?);
            b.named("arith.divf", &[l, r], &[], result_ty)
        }
        "div" => {
            let (l, r) = (align(&mut b, x[0], rank)?, align(&mut b, x[1], rank)?);
            b.op("intdiv", &[l, r], &[], result_ty)
        }
        "cmp" => {
            let (l, r) = (align(&mut b, x[0], rank)?, align(&mut b, x[1], rank)?);
            let pred = cmp.ok_or("no predicate")?;
            match pred {
                CmpPredicate::Gt => b.op("greater", &[l, r], &[], result_ty),
                CmpPredicate::Ge => b.op("greater_equal", &[l, r], &[], result_ty),
                CmpPredicate::Eq => b.op("equal", &[l, r], &[], result_ty),
                CmpPredicate::Lt => b.op("greater", &[r, l], &[], result_ty),
                CmpPredicate::Le => b.op("greater_equal", &[r, l], &[], result_ty),
                CmpPredicate::Ne => {
                    let e = b.op("equal", &[l, r], &[], result_ty);
                    b.op("logical_not", &[e], &[], result_ty)
                }
            }
        }
        "select" => {
            let args = [align(&mut b, x[0], rank)?, align(&mut b, x[1], rank)?, align(&mut b, x[2], rank)?];
            b.op("select", &args, &[], result_ty)
        }
        "cast" => {
            let mut v = x[0];
            let to_int =
                !out_elem.is_float() && !matches!(out_elem.kind(), TypeKind::Integer { width: 1, .. });
            if in_elem.is_float() && to_int {
                v = truncate(&mut b, v, in_elem)?;
            }
            b.op("cast", &[v], &[], result_ty)
        }
        "broadcast_to" => expand(&mut b, x[0], &out_shape)?,
        "reduce_sum" | "reduce_max" | "reduce_min" | "reduce_prod" | "reduce_mean" => {
            reduce(&mut b, short, x[0], &axes?, &in_shape, &out_shape, in_elem)?
        }
        "reshape" | "expand_dims" | "squeeze" => b.reshape(x[0], &out_shape)?,
        "transpose" => b.transpose(x[0], &perm?)?,
        "slice" => {
            let starts = starts?;
            let sizes: Vec<i64> = limits?.iter().zip(&starts).map(|(l, s)| l - s).collect();
            let (s, n) = (b.shape(&starts), b.shape(&sizes));
            b.op("slice", &[x[0], s, n], &[], result_ty)
        }
        "concat" => {
            let a = b.i32(normalize_axis(axis, rank)? as i64);
            b.op("concat", x, &[("axis", a)], result_ty)
        }
        "pad" => {
            let pads: Vec<i64> = low?.iter().zip(high?.iter()).flat_map(|(&l, &h)| [l, h]).collect();
            let p = b.shape(&pads);
            let value = b.splat(&[1], in_elem, pad_value)?;
            b.op("pad", &[x[0], p, value], &[], result_ty)
        }
        "matmul" | "batch_matmul" => matmul(&mut b, x[0], x[1], ta, tb, &out_shape, out_elem)?,
        "gather" => gather(&mut b, x[0], x[1], axis, &in_shape, &out_shape, in_elem)?,
        "conv2d" | "avg_pool2d" | "max_pool2d" => {
            let strides = if strides.is_empty() { vec![1, 1] } else { strides };
            let dilation = if dilation.is_empty() { vec![1, 1] } else { dilation };
            let p = if padding.is_empty() { vec![0; 4] } else { padding };
            // hl: [top, left, bottom, right]; TOSA: [top, bottom, left, right].
            let pad = b.array(&[p[0], p[2], p[1], p[3]], true);
            let (s, d) = (b.array(&strides, true), b.array(&dilation, true));
            let input = b.transpose(x[0], &[0, 2, 3, 1])?;
            let nhwc: Vec<i64> = [0, 2, 3, 1].iter().map(|&i| out_shape[i]).collect();
            let nhwc_ty = ctx.tensor_type(&nhwc, out_elem);
            let acc = ctx.type_attr(if in_elem.is_float() {
                ctx.float_type(kiln_compiler::FloatKind::F32)
            } else {
                ctx.int_type(32)
            });
            let y = match short {
                "conv2d" => {
                    let w = b.transpose(x[1], &[0, 2, 3, 1])?;
                    let bias = match x.get(2) {
                        Some(&bias) => bias,
                        None => b.splat(&[1], in_elem, 0.0)?,
                    };
                    let (z1, z2) = (zero(&mut b, in_elem)?, zero(&mut b, in_elem)?);
                    let props = [("acc_type", acc), ("pad", pad), ("stride", s), ("dilation", d)];
                    b.op("conv2d", &[input, w, bias, z1, z2], &props, nhwc_ty)
                }
                pool => {
                    let k = b.array(&kernel, true);
                    let props = [("kernel", k), ("pad", pad), ("stride", s)];
                    if pool == "avg_pool2d" {
                        let (z1, z2) = (zero(&mut b, in_elem)?, zero(&mut b, in_elem)?);
                        let mut props = props.to_vec();
                        props.push(("acc_type", acc));
                        b.op(pool, &[input, z1, z2], &props, nhwc_ty)
                    } else {
                        b.op(pool, &[input], &props, nhwc_ty)
                    }
                }
            };
            b.transpose(y, &[0, 3, 1, 2])?
        }
        other => return Err(format!("'hl.{other}' has no TOSA form")),
    };
    Ok(v)
}

/// `select(x < 0, ceil x, floor x)`: rounds toward zero before a float-to-integer cast.
fn truncate<'c>(b: &mut TosaBuilder<'_, '_, 'c>, x: ValueId, elem: Type<'c>) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let shape = shape_of(b.rw.ir(), x).ok_or("bad operand")?;
    let ty = b.rw.ir().value_type(x);
    let zeros = b.splat(&vec![1; shape.len()], elem, 0.0)?;
    let negative = b.op("greater", &[zeros, x], &[], ctx.tensor_type(&shape, ctx.int_type(1)));
    let (c, f) = (b.op("ceil", &[x], &[], ty), b.op("floor", &[x], &[], ty));
    Ok(b.op("select", &[negative, c, f], &[], ty))
}

/// One TOSA reduction over `axes` of `x` (moved last in order and merged), reshaped to `out`.
#[allow(clippy::too_many_arguments)]
fn reduce<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    short: &str,
    x: ValueId,
    axes: &[i64],
    shape: &[i64],
    out: &[i64],
    elem: Type<'c>,
) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let rank = shape.len();
    let mut reduced: Vec<usize> = axes.iter().map(|&a| normalize_axis(a, rank)).collect::<Result<_, _>>()?;
    reduced.sort_unstable();
    reduced.dedup();
    let kept: Vec<usize> = (0..rank).filter(|a| !reduced.contains(a)).collect();
    let perm: Vec<i64> = kept.iter().chain(&reduced).map(|&a| a as i64).collect();
    let moved = b.transpose(x, &perm)?;
    let n: i64 = reduced.iter().map(|&a| shape[a]).product();
    let mut dims: Vec<i64> = kept.iter().map(|&a| shape[a]).collect();
    dims.push(n);
    let merged = b.reshape(moved, &dims)?;
    let last = dims.len() - 1;
    dims[last] = 1;
    let ty = ctx.tensor_type(&dims, elem);
    let tosa = match short {
        "reduce_prod" => "reduce_product",
        "reduce_mean" => "reduce_sum",
        s => s,
    };
    let axis = b.i32(last as i64);
    if short != "reduce_mean" {
        let r = b.op(tosa, &[merged], &[("axis", axis)], ty);
        return b.reshape(r, out);
    }
    // The interpreter's mean: the sum in f32 (f16 / bf16 widened exactly), divided by `n` in
    // f32, rounded to the type once.
    let f32t = ctx.float_type(kiln_compiler::FloatKind::F32);
    let wide = elem != f32t;
    let merged = if wide {
        let shape = shape_of(b.rw.ir(), merged).ok_or("bad operand")?;
        b.op("cast", &[merged], &[], ctx.tensor_type(&shape, f32t))
    } else {
        merged
    };
    let sum_ty = ctx.tensor_type(&dims, f32t);
    let sum = b.op(tosa, &[merged], &[("axis", axis)], sum_ty);
    let count = b.splat(&dims, f32t, n as f64)?;
    let mean = b.named("arith.divf", &[sum, count], &[], sum_ty);
    let r = if wide { b.op("cast", &[mean], &[], ty) } else { mean };
    b.reshape(r, out)
}

/// `tosa.matmul` for `hl.matmul` / `hl.batch_matmul` of `a` and `c` into `out`.
fn matmul<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    a: ValueId,
    c: ValueId,
    ta: bool,
    tb: bool,
    out: &[i64],
    elem: Type<'c>,
) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let swap_last = |v: ValueId, b: &mut TosaBuilder<'_, '_, 'c>| -> Result<ValueId, String> {
        let r = shape_of(b.rw.ir(), v).ok_or("bad operand")?.len();
        let mut perm: Vec<i64> = (0..r as i64).collect();
        perm.swap(r - 2, r - 1);
        b.transpose(v, &perm)
    };
    let a = if ta { swap_last(a, b)? } else { a };
    let c = if tb { swap_last(c, b)? } else { c };
    let (sa, sc) = (shape_of(b.rw.ir(), a).ok_or("bad lhs")?, shape_of(b.rw.ir(), c).ok_or("bad rhs")?);
    let (m, k, n) = (sa[sa.len() - 2], sa[sa.len() - 1], sc[sc.len() - 1]);
    let batch: i64 = out[..out.len() - 2].iter().product();
    let a_batch: i64 = sa[..sa.len() - 2].iter().product();
    let c_batch: i64 = sc[..sc.len() - 2].iter().product();
    let (a3, c3, rows, nb) = if a_batch == batch && c_batch == batch {
        (b.reshape(a, &[batch, m, k])?, b.reshape(c, &[batch, k, n])?, m, batch)
    } else if c_batch == 1 && a_batch == batch {
        (b.reshape(a, &[1, batch * m, k])?, b.reshape(c, &[1, k, n])?, batch * m, 1)
    } else if a_batch == 1 && c_batch == batch {
        let a1 = b.reshape(a, &[1, m, k])?;
        let t = b.shape(&[batch, 1, 1]);
        let tiled = b.op("tile", &[a1, t], &[], ctx.tensor_type(&[batch, m, k], elem));
        (tiled, b.reshape(c, &[batch, k, n])?, m, batch)
    } else {
        return Err("batch dims that broadcast partly are not supported".into());
    };
    let (z1, z2) = (b.zero(elem)?, b.zero(elem)?);
    let r = b.op("matmul", &[a3, c3, z1, z2], &[], ctx.tensor_type(&[nb, rows, n], elem));
    b.reshape(r, out)
}

/// `tosa.gather` for `hl.gather(data, indices, axis)`: data `[P.., K, Q..]` becomes
/// `[1, K, P*Q]` (the axis moved first), indices `[1, W]`; the `[1, W, P*Q]` result is put
/// back as `[P.., W.., Q..]`.
fn gather<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    data: ValueId,
    indices: ValueId,
    axis: i64,
    shape: &[i64],
    out: &[i64],
    elem: Type<'c>,
) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let axis = normalize_axis(axis, shape.len())?;
    let (p, k) = (shape[..axis].iter().product::<i64>(), shape[axis]);
    let q: i64 = shape[axis + 1..].iter().product();
    let is = shape_of(b.rw.ir(), indices).ok_or("bad indices")?;
    let w: i64 = is.iter().product();
    let mut perm = vec![axis as i64];
    perm.extend((0..shape.len() as i64).filter(|&d| d != axis as i64));
    let moved = b.transpose(data, &perm)?;
    let values = b.reshape(moved, &[1, k, p * q])?;
    let idx = b.reshape(indices, &[1, w])?;
    let g = b.op("gather", &[values, idx], &[], ctx.tensor_type(&[1, w, p * q], elem));
    let wpq = b.reshape(g, &[w, p, q])?;
    let pwq = b.transpose(wpq, &[1, 0, 2])?;
    b.reshape(pwq, out)
}
