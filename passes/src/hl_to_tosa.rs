//! `hl-to-tosa`: converts `hl` to TOSA (MLIR 22, TOSA v1.0), written as unregistered ops in
//! the generic form that MLIR's parser reads.
//!
//! Rewrites (one conversion pattern per op, rooted on its definition, from the table of what
//! each op becomes; over a target where `hl` is illegal):
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
//! unchanged; a form the conversion cannot build (e.g. batch dims that broadcast partly) is the
//! conversion driver's error at the first such op, with the reason as a note, the IR also left
//! unchanged.

use kiln_compiler::conversion::{ConversionRewriter, ConversionTarget};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Attribute, Context, Diagnostic, Ir, OpDef, OpId, Type, TypeKind, ValueId};
use kiln_dialects::hl;
use kiln_dialects::hl::accessors::{bool_attr, float_value, int_list, normalize_axis, tensor_parts};
use kiln_dialects::hl::attrs::CmpPredicate;

use crate::hl_decompose::is_composite;
use crate::tosa::{convert_per_op, elem_of, float_attr, shape_of, PerOp, TosaBuilder, BROADCASTING, UNARY};

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
        let patterns = conversions().map(|(def, form)| PerOp::registered(def, form, convert));
        convert_per_op(cx.ctx, cx.ir, root, &target, patterns).map_err(|d| {
            cx.diagnostics.push(d);
            PassFailed
        })
    }
}

/// What an `hl` op becomes.
#[derive(Clone, Copy)]
enum Form {
    /// This TOSA op on the same operands.
    Same(&'static str),
    /// This TOSA op on the operands reshaped to the result's rank with leading 1s (TOSA
    /// broadcasts only operands of equal rank).
    Broadcasting(&'static str),
    /// This TOSA reduction (see [`merge_reduced`]).
    Reduce(&'static str),
    /// A conversion of its own.
    Own(Build),
}

/// Builds the TOSA form of the op `s` describes (`x`: its converted operands) before it.
type Build = for<'r, 'x, 'a, 'c> fn(
    &'r mut TosaBuilder<'x, 'a, 'c>,
    &Source<'c>,
    &[ValueId],
) -> Result<ValueId, String>;

/// The `hl` ops converted besides the shared families ([`UNARY`], [`BROADCASTING`]), and what
/// each becomes.
const OPS: &[(&OpDef, Form)] = &[
    (&hl::CONSTANT, Form::Own(constant)),
    (&hl::NEG, Form::Own(neg)),
    (&hl::RELU, Form::Own(relu)),
    (&hl::CLAMP, Form::Own(clamp)),
    (&hl::MUL, Form::Own(mul)),
    (&hl::DIV, Form::Own(div)),
    (&hl::CMP, Form::Own(cmp)),
    (&hl::CAST, Form::Own(cast)),
    (&hl::BROADCAST_TO, Form::Own(broadcast_to)),
    (&hl::REDUCE_SUM, Form::Reduce("tosa.reduce_sum")),
    (&hl::REDUCE_MAX, Form::Reduce("tosa.reduce_max")),
    (&hl::REDUCE_MIN, Form::Reduce("tosa.reduce_min")),
    (&hl::REDUCE_PROD, Form::Reduce("tosa.reduce_product")),
    (&hl::REDUCE_MEAN, Form::Own(reduce_mean)),
    (&hl::RESHAPE, Form::Own(reshape)),
    (&hl::EXPAND_DIMS, Form::Own(reshape)),
    (&hl::SQUEEZE, Form::Own(reshape)),
    (&hl::TRANSPOSE, Form::Own(transpose)),
    (&hl::SLICE, Form::Own(slice)),
    (&hl::CONCAT, Form::Own(concat)),
    (&hl::PAD, Form::Own(pad)),
    (&hl::MATMUL, Form::Own(matmul)),
    (&hl::BATCH_MATMUL, Form::Own(matmul)),
    (&hl::GATHER, Form::Own(gather)),
    (&hl::CONV2D, Form::Own(conv2d)),
    (&hl::AVG_POOL2D, Form::Own(avg_pool2d)),
    (&hl::MAX_POOL2D, Form::Own(max_pool2d)),
];

/// Every `hl` op this pass converts (one pattern each, rooted on its definition) and its form.
fn conversions() -> impl Iterator<Item = (&'static OpDef, Form)> {
    let unary = UNARY.iter().map(|&(def, tosa)| (def, Form::Same(tosa)));
    let broadcasting = BROADCASTING.iter().map(|&(def, tosa)| (def, Form::Broadcasting(tosa)));
    unary.chain(broadcasting).chain(OPS.iter().copied())
}

/// Why `op` (an `hl` op) cannot be converted, or `None` when it can (or is not `hl`).
fn refusal(ir: &Ir<'_>, op: OpId) -> Option<&'static str> {
    let def = ir.op(op).def.filter(|&d| hl::HL.owns(Some(d)))?;
    let all_static = ir
        .operands(op)
        .iter()
        .chain(ir.results(op))
        .all(|&v| tensor_parts(ir.value_type(v)).is_some_and(|(s, _)| s.iter().all(|&d| d >= 0)));
    if !all_static {
        return Some("dynamic shapes are not supported");
    }
    if is_composite(def) {
        return Some("a composite: run `hl-decompose` first");
    }
    if !conversions().any(|(d, _)| std::ptr::eq(d, def)) {
        return Some("no TOSA op computes it");
    }
    let attr = |n: &str| ir.attr(op, n);
    let ones = |n: &str| int_list(attr(n)).map(|v| v.iter().all(|&d| d == 1)).unwrap_or(false);
    let int_not_i32 = |v: &ValueId| {
        tensor_parts(ir.value_type(*v))
            .is_some_and(|(_, e)| !e.is_float() && !matches!(e.kind(), TypeKind::Integer { width: 32, .. }))
    };
    let pool = ir.is_any(op, &[&hl::AVG_POOL2D, &hl::MAX_POOL2D]);
    if ir.is(op, &hl::DIV) && ir.results(op).iter().any(int_not_i32) {
        Some("TOSA divides integers as i32 only")
    } else if ir.is(op, &hl::SLICE) && !ones("strides") {
        Some("TOSA slices with unit strides")
    } else if ir.is(op, &hl::CONV2D) && attr("groups").and_then(|g| g.as_int()).is_some_and(|g| g != 1) {
        Some("grouped convolutions are not supported")
    } else if ir.is(op, &hl::AVG_POOL2D) && bool_attr(attr("count_include_pad")) {
        Some("TOSA excludes padding from the average")
    } else if pool && (bool_attr(attr("ceil_mode")) || !ones("dilation")) {
        Some("TOSA pools without dilation or `ceil_mode`")
    } else {
        None
    }
}

/// What the conversions read of the op being converted.
struct Source<'c> {
    op: OpId,
    /// The result type, its shape and its element type.
    ty: Type<'c>,
    shape: Vec<i64>,
    elem: Type<'c>,
    /// The first operand's shape (empty without operands) and element type (the result's
    /// without operands).
    in_shape: Vec<i64>,
    in_elem: Type<'c>,
}

impl<'c> Source<'c> {
    /// The attribute `name` of the op.
    fn attr(&self, b: &TosaBuilder<'_, '_, 'c>, name: &str) -> Option<Attribute<'c>> {
        b.rw.ir().attr(self.op, name)
    }

    /// The integer list attribute `name` of the op (empty when absent).
    fn ints(&self, b: &TosaBuilder<'_, '_, 'c>, name: &str) -> Result<Vec<i64>, String> {
        int_list(self.attr(b, name))
    }
}

/// Builds the TOSA form of `op` as `form` says; returns the value replacing its result.
fn convert<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    form: Form,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let ir = rw.ir();
    let ty = ir.value_type(ir.results(op)[0]);
    let (shape, elem) = tensor_parts(ty).ok_or("result is not a ranked tensor")?;
    let in_shape = x.first().and_then(|&v| shape_of(ir, v)).unwrap_or_default();
    let in_elem = x.first().and_then(|&v| elem_of(ir, v)).unwrap_or(elem);
    let s = Source { op, ty, shape: shape.to_vec(), elem, in_shape, in_elem };
    let mut b = TosaBuilder::new(rw, op);
    match form {
        Form::Same(tosa) => Ok(b.named(tosa, x, &[], s.ty)),
        Form::Broadcasting(tosa) => {
            let args = aligned(&mut b, x, s.shape.len())?;
            Ok(b.named(tosa, &args, &[], s.ty))
        }
        Form::Reduce(tosa) => {
            let (merged, dims, _) = merge_reduced(&mut b, &s, x[0])?;
            let axis = b.i32(dims.len() as i64 - 1);
            let ty = b.rw.ctx.tensor_type(&dims, s.in_elem);
            let r = b.named(tosa, &[merged], &[("axis", axis)], ty);
            b.reshape(r, &s.shape)
        }
        Form::Own(build) => build(&mut b, &s, x),
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
fn bound<'c>(ctx: &Context<'c>, elem: Type<'c>, value: f64) -> Result<Attribute<'c>, String> {
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

/// Every operand of `x` reshaped to `rank` with leading 1s (in order).
fn aligned(b: &mut TosaBuilder<'_, '_, '_>, x: &[ValueId], rank: usize) -> Result<Vec<ValueId>, String> {
    x.iter().map(|&v| align(b, v, rank)).collect()
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

/// `hl.constant` -> `tosa.const`.
fn constant<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, _: &[ValueId]) -> Result<ValueId, String> {
    let value = s.attr(b, "value").ok_or("no 'value'")?;
    Ok(b.op("const", &[], &[("values", value)], s.ty))
}

/// `hl.neg` -> `tosa.negate` with zero points 0.
fn neg<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let (z1, z2) = (b.zero(s.in_elem)?, b.zero(s.in_elem)?);
    Ok(b.op("negate", &[x[0], z1, z2], &[], s.ty))
}

/// `hl.relu` -> `tosa.clamp` from 0.
fn relu<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    clamp_between(b, s, x, 0.0, extreme(s.in_elem, true))
}

/// `hl.clamp` -> `tosa.clamp` (a missing bound is the type's extreme).
fn clamp<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let lo = s.attr(b, "min").and_then(float_value).unwrap_or(extreme(s.in_elem, false));
    let hi = s.attr(b, "max").and_then(float_value).unwrap_or(extreme(s.in_elem, true));
    clamp_between(b, s, x, lo, hi)
}

/// `tosa.clamp` of `x` between `lo` and `hi`.
fn clamp_between<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    s: &Source<'c>,
    x: &[ValueId],
    lo: f64,
    hi: f64,
) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let (l, h) = (bound(ctx, s.in_elem, lo)?, bound(ctx, s.in_elem, hi)?);
    Ok(b.op("clamp", x, &[("min_val", l), ("max_val", h)], s.ty))
}

/// `hl.mul` -> `tosa.mul` with shift 0, of operands of the result's rank.
fn mul<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let mut args = aligned(b, x, s.shape.len())?;
    let i8t = b.rw.ctx.int_type(8);
    args.push(b.zero(i8t)?);
    Ok(b.op("mul", &args, &[], s.ty))
}

/// `hl.div`: of floats `arith.divf` on operands tiled to the result (TOSA has no float
/// division; `arith` ops on tensors do not broadcast), of integers `tosa.intdiv`.
fn div<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    if s.in_elem.is_float() {
        let (l, r) = (expand(b, x[0], &s.shape)?, expand(b, x[1], &s.shape)?);
        return Ok(b.named("arith.divf", &[l, r], &[], s.ty));
    }
    let args = aligned(b, x, s.shape.len())?;
    Ok(b.op("intdiv", &args, &[], s.ty))
}

/// `hl.cmp`: `gt`/`ge`/`eq` directly, `lt`/`le` with swapped operands, `ne` as `logical_not`
/// of `equal`.
fn cmp<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let pred = s.attr(b, "predicate").and_then(CmpPredicate::of).ok_or("no predicate")?;
    let (l, r) = (align(b, x[0], s.shape.len())?, align(b, x[1], s.shape.len())?);
    let ty = s.ty;
    Ok(match pred {
        CmpPredicate::Gt => b.op("greater", &[l, r], &[], ty),
        CmpPredicate::Ge => b.op("greater_equal", &[l, r], &[], ty),
        CmpPredicate::Eq => b.op("equal", &[l, r], &[], ty),
        CmpPredicate::Lt => b.op("greater", &[r, l], &[], ty),
        CmpPredicate::Le => b.op("greater_equal", &[r, l], &[], ty),
        CmpPredicate::Ne => {
            let e = b.op("equal", &[l, r], &[], ty);
            b.op("logical_not", &[e], &[], ty)
        }
    })
}

/// `hl.cast` -> `tosa.cast` (float to integer truncates first, since TOSA's cast rounds to
/// nearest).
fn cast<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let mut v = x[0];
    let to_int = !s.elem.is_float() && !matches!(s.elem.kind(), TypeKind::Integer { width: 1, .. });
    if s.in_elem.is_float() && to_int {
        v = truncate(b, v, s.in_elem)?;
    }
    Ok(b.op("cast", &[v], &[], s.ty))
}

/// `hl.broadcast_to` -> `tosa.reshape` + `tosa.tile`.
fn broadcast_to<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    s: &Source<'c>,
    x: &[ValueId],
) -> Result<ValueId, String> {
    expand(b, x[0], &s.shape)
}

/// `hl.reshape`, `hl.expand_dims`, `hl.squeeze` -> `tosa.reshape`.
fn reshape<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    b.reshape(x[0], &s.shape)
}

/// `hl.transpose` -> `tosa.transpose`.
fn transpose<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let perm = s.ints(b, "perm")?;
    b.transpose(x[0], &perm)
}

/// `hl.slice` (unit strides) -> `tosa.slice`.
fn slice<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let (starts, limits) = (s.ints(b, "starts")?, s.ints(b, "limits")?);
    let sizes: Vec<i64> = limits.iter().zip(&starts).map(|(l, s)| l - s).collect();
    let (start, size) = (b.shape(&starts), b.shape(&sizes));
    Ok(b.op("slice", &[x[0], start, size], &[], s.ty))
}

/// `hl.concat` -> `tosa.concat`.
fn concat<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let axis = s.attr(b, "axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
    let a = b.i32(normalize_axis(axis, s.shape.len())? as i64);
    Ok(b.op("concat", x, &[("axis", a)], s.ty))
}

/// `hl.pad` -> `tosa.pad`.
fn pad<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let (low, high) = (s.ints(b, "low")?, s.ints(b, "high")?);
    let value = s.attr(b, "value").and_then(float_value).unwrap_or(0.0);
    let pads: Vec<i64> = low.iter().zip(&high).flat_map(|(&l, &h)| [l, h]).collect();
    let p = b.shape(&pads);
    let value = b.splat(&[1], s.in_elem, value)?;
    Ok(b.op("pad", &[x[0], p, value], &[], s.ty))
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

/// `x` with the op's reduced axes (`axes`) moved last, in order, and merged into one; with the
/// dims of the reduction's result (the merged axis 1) and the number of elements each result
/// element reduces. One TOSA reduction over the last axis then accumulates in the same order.
fn merge_reduced<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    s: &Source<'c>,
    x: ValueId,
) -> Result<(ValueId, Vec<i64>, i64), String> {
    let (shape, rank) = (&s.in_shape, s.in_shape.len());
    let axes = s.ints(b, "axes")?;
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
    Ok((merged, dims, n))
}

/// `hl.reduce_mean` -> the interpreter's mean, bit for bit: `tosa.reduce_sum` in f32 (an f16 /
/// bf16 operand widened exactly), `arith.divf` by `n` in f32, rounded to the type once.
fn reduce_mean<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    s: &Source<'c>,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let (merged, dims, n) = merge_reduced(b, s, x[0])?;
    let axis = b.i32(dims.len() as i64 - 1);
    let f32t = ctx.float_type(kiln_compiler::FloatKind::F32);
    let wide = s.in_elem != f32t;
    let merged = if wide {
        let shape = shape_of(b.rw.ir(), merged).ok_or("bad operand")?;
        b.op("cast", &[merged], &[], ctx.tensor_type(&shape, f32t))
    } else {
        merged
    };
    let sum_ty = ctx.tensor_type(&dims, f32t);
    let sum = b.op("reduce_sum", &[merged], &[("axis", axis)], sum_ty);
    let count = b.splat(&dims, f32t, n as f64)?;
    let mean = b.named("arith.divf", &[sum, count], &[], sum_ty);
    let r = if wide { b.op("cast", &[mean], &[], ctx.tensor_type(&dims, s.in_elem)) } else { mean };
    b.reshape(r, &s.shape)
}

/// `hl.matmul` / `hl.batch_matmul` -> `tosa.matmul` on rank-3 operands (transposes applied
/// first; batch dims merged; a broadcast rhs folds the lhs batch into its rows; a broadcast
/// lhs is tiled).
fn matmul<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let (out, elem) = (&s.shape, s.elem);
    let (ta, tb) = (bool_attr(s.attr(b, "transpose_a")), bool_attr(s.attr(b, "transpose_b")));
    let swap_last = |v: ValueId, b: &mut TosaBuilder<'_, '_, 'c>| -> Result<ValueId, String> {
        let r = shape_of(b.rw.ir(), v).ok_or("bad operand")?.len();
        let mut perm: Vec<i64> = (0..r as i64).collect();
        perm.swap(r - 2, r - 1);
        b.transpose(v, &perm)
    };
    let a = if ta { swap_last(x[0], b)? } else { x[0] };
    let c = if tb { swap_last(x[1], b)? } else { x[1] };
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

/// `hl.gather(data, indices, axis)` -> `tosa.gather`: data `[P.., K, Q..]` becomes
/// `[1, K, P*Q]` (the axis moved first), indices `[1, W]`; the `[1, W, P*Q]` result is put
/// back as `[P.., W.., Q..]`.
fn gather<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let (data, indices, shape, elem) = (x[0], x[1], &s.in_shape, s.in_elem);
    let axis = s.attr(b, "axis").and_then(|a| a.as_int()).unwrap_or(0) as i64;
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
    b.reshape(pwq, &s.shape)
}

/// The NHWC TOSA op that `build` makes of the input transposed to NHWC, its `pad` and `stride`
/// properties and its NHWC result type, between transposes: the NCHW `hl` op.
fn nhwc<'c>(
    b: &mut TosaBuilder<'_, '_, 'c>,
    s: &Source<'c>,
    x: ValueId,
    build: impl FnOnce(
        &mut TosaBuilder<'_, '_, 'c>,
        ValueId,
        [(&'static str, Attribute<'c>); 2],
        Type<'c>,
    ) -> Result<ValueId, String>,
) -> Result<ValueId, String> {
    let ctx = b.rw.ctx;
    let strides = s.ints(b, "strides")?;
    let strides = if strides.is_empty() { vec![1, 1] } else { strides };
    let p = s.ints(b, "padding")?;
    let p = if p.is_empty() { vec![0; 4] } else { p };
    // hl: [top, left, bottom, right]; TOSA: [top, bottom, left, right].
    let pad = b.array(&[p[0], p[2], p[1], p[3]], true);
    let stride = b.array(&strides, true);
    let input = b.transpose(x, &[0, 2, 3, 1])?;
    let dims: Vec<i64> = [0, 2, 3, 1].iter().map(|&i| s.shape[i]).collect();
    let y = build(b, input, [("pad", pad), ("stride", stride)], ctx.tensor_type(&dims, s.elem))?;
    b.transpose(y, &[0, 3, 1, 2])
}

/// The accumulator type of a TOSA convolution or average pool of `elem`: f32 or i32.
fn acc_type<'c>(ctx: &Context<'c>, elem: Type<'c>) -> Attribute<'c> {
    ctx.type_attr(if elem.is_float() {
        ctx.float_type(kiln_compiler::FloatKind::F32)
    } else {
        ctx.int_type(32)
    })
}

/// `hl.conv2d` (groups 1) -> `tosa.conv2d` in NHWC (OHWI weights; a missing bias is a zero
/// constant).
fn conv2d<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let dilation = s.ints(b, "dilation")?;
    let dilation = if dilation.is_empty() { vec![1, 1] } else { dilation };
    nhwc(b, s, x[0], |b, input, [pad, stride], ty| {
        let acc = acc_type(b.rw.ctx, s.in_elem);
        let d = b.array(&dilation, true);
        let w = b.transpose(x[1], &[0, 2, 3, 1])?;
        let bias = match x.get(2) {
            Some(&bias) => bias,
            None => b.splat(&[1], s.in_elem, 0.0)?,
        };
        let (z1, z2) = (b.zero(s.in_elem)?, b.zero(s.in_elem)?);
        Ok(b.op("conv2d", &[input, w, bias, z1, z2], &[("acc_type", acc), pad, stride, ("dilation", d)], ty))
    })
}

/// `hl.avg_pool2d` (`count_include_pad = false`) -> `tosa.avg_pool2d` in NHWC, zero points 0.
fn avg_pool2d<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let kernel = s.ints(b, "kernel")?;
    nhwc(b, s, x[0], |b, input, [pad, stride], ty| {
        let k = b.array(&kernel, true);
        let (z1, z2) = (b.zero(s.in_elem)?, b.zero(s.in_elem)?);
        let acc = acc_type(b.rw.ctx, s.in_elem);
        Ok(b.op("avg_pool2d", &[input, z1, z2], &[("kernel", k), pad, stride, ("acc_type", acc)], ty))
    })
}

/// `hl.max_pool2d` (no dilation, no `ceil_mode`) -> `tosa.max_pool2d` in NHWC.
fn max_pool2d<'c>(b: &mut TosaBuilder<'_, '_, 'c>, s: &Source<'c>, x: &[ValueId]) -> Result<ValueId, String> {
    let kernel = s.ints(b, "kernel")?;
    nhwc(b, s, x[0], |b, input, [pad, stride], ty| {
        let k = b.array(&kernel, true);
        Ok(b.op("max_pool2d", &[input], &[("kernel", k), pad, stride], ty))
    })
}
