//! `tosa-to-hl`: converts TOSA (MLIR 22, TOSA v1.0, read in the generic form as unregistered
//! ops) to `hl`.
//!
//! Rewrites (a conversion pattern per op, over a target where the `tosa` dialect is illegal):
//! - `tosa.const` -> `hl.constant`; `tosa.const_shape` is read by the ops that use it and erased;
//! - around the TOSA ops, `arith` on tensors: `constant` -> `hl.constant`; `addf`, `subf`,
//!   `mulf`, `divf`, `negf` -> the `hl` op (any other `arith` op on tensors is refused);
//! - `exp`, `log`, `tanh`, `sigmoid`, `erf`, `reciprocal`, `rsqrt`, `abs`, `floor`, `ceil` ->
//!   the `hl` op of the same name; `negate` (zero points 0) -> `hl.neg`; `logical_not` ->
//!   `hl.not`; `intdiv` -> `hl.div`;
//! - `add`, `sub`, `mul` (shift 0), `maximum`, `minimum`, `pow`, `logical_and`/`or` -> the
//!   broadcasting `hl` op; `greater`, `greater_equal`, `equal` -> `hl.cmp`; `select` ->
//!   `hl.select`; `clamp` -> `hl.clamp`; `cast` -> `hl.cast` (float to integer first rounds to
//!   nearest even with `hl.round`, as TOSA's cast does);
//! - `reduce_sum`/`max`/`min`/`product` -> the `hl` reduction over one axis with `keep_dims`;
//! - `reshape`, `transpose`, `slice`, `concat`, `pad`, `tile` (of size-1 dims only, as
//!   `hl.broadcast_to`) -> the `hl` layout op;
//! - `matmul` (zero points 0) -> `hl.batch_matmul`; `gather` (`[N,K,C]` by `[N,W]`) ->
//!   `hl.gather` on the flattened `[N*K, C]` values with indices offset by `n*K`;
//! - `conv2d`, `avg_pool2d`, `max_pool2d` (NHWC, OHWI weights, pads `[top, bottom, left,
//!   right]`) -> transposes to NCHW around `hl.conv2d` (a bias that is a zero constant is
//!   dropped) / `hl.avg_pool2d` (padding excluded from the count) / `hl.max_pool2d`.
//!
//! Assumes: verified IR (MLIR verified the TOSA). Guarantees: verified `hl` IR computing what
//! the TOSA computed; every TOSA op that is not listed (or an operand form not handled, e.g. a
//! non-zero zero point) is an error at its location naming it, all reported at once, and the
//! IR is left unchanged.

use kiln_compiler::conversion::{ConversionRewriter, ConversionTarget};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Attribute, Diagnostic, OpDef, OpId, TypeKind, ValueId};
use kiln_dialects::hl::builder::HlBuilder;
use kiln_dialects::hl::{self as hl};

use crate::tosa::{
    array_ints, constant_of, convert_by_name, elem_of, float_attr, is_zero_dense, shape_of, shape_operand,
    BINARY, COMPARISONS, SAME_UNARY,
};

/// The TOSA ops this pass converts (besides the binary, comparison and same-name unary ones).
const OTHER_OPS: &[&str] = &[
    "const",
    "intdiv",
    "const_shape",
    "negate",
    "logical_not",
    "select",
    "clamp",
    "cast",
    "reduce_sum",
    "reduce_max",
    "reduce_min",
    "reduce_product",
    "reshape",
    "transpose",
    "slice",
    "concat",
    "pad",
    "tile",
    "matmul",
    "gather",
    "conv2d",
    "avg_pool2d",
    "max_pool2d",
];

/// `(arith, hl)`: the `arith` ops on tensors this pass converts, besides `arith.constant` (what
/// exporters write around TOSA, and `hl-to-tosa`'s float division). IEEE operations, the
/// same in `hl`; `maximumf`/`minimumf` are not among them (they order `-0 < +0`, `hl` does not).
const ARITH: &[(&str, &str)] =
    &[("addf", "add"), ("subf", "sub"), ("mulf", "mul"), ("divf", "div"), ("negf", "neg")];

/// Whether `op` is an `arith` op with a tensor result (this pass converts it or refuses it).
fn arith_on_tensors(ir: &kiln_compiler::Ir<'_>, op: OpId) -> bool {
    ir.op(op).name.starts_with("arith.")
        && ir.results(op).iter().any(|&r| matches!(ir.value_type(r).kind(), TypeKind::RankedTensor { .. }))
}

/// Whether `tosa.<short>` is converted by this pass.
fn supported(short: &str) -> bool {
    SAME_UNARY.contains(&short)
        || OTHER_OPS.contains(&short)
        || BINARY.iter().any(|(t, _)| *t == short)
        || COMPARISONS.iter().any(|(t, _)| *t == short)
}

kiln_compiler::declare_pass! {
    struct TosaToHl {}
    name: "tosa-to-hl",
    summary: "Convert TOSA ops to hl",
    description: "Converts the TOSA ops of a lowered Transformer or CNN (read as unregistered ops) to hl: \
                  elementwise ops, reductions, layout ops, matmul, conv2d, pooling, gather; NHWC becomes NCHW.",
    options: &[],
    create(_o) {
        Ok(TosaToHl {})
    }
    fn run(&mut self, cx, root) {
        let unsupported: Vec<OpId> = cx
            .ir
            .walk(root, WalkOrder::PreOrder)
            .filter(|&op| {
                let name = cx.ir.op(op).name;
                name.strip_prefix("tosa.").is_some_and(|s| !supported(s))
                    || arith_on_tensors(cx.ir, op)
                        && name.strip_prefix("arith.").is_some_and(|s| s != "constant" && ARITH.iter().all(|(a, _)| *a != s))
            })
            .collect();
        if !unsupported.is_empty() {
            for op in unsupported {
                let data = cx.ir.op(op);
                cx.diagnostics.push(Diagnostic::error(
                    data.loc,
                    format!("'{}' op is not supported by tosa-to-hl", data.name),
                ));
            }
            return Err(PassFailed);
        }
        let mut arith = ConversionTarget::new();
        arith.add_dynamically_legal_dialect("arith", |_, ir, op| !arith_on_tensors(ir, op));
        convert_by_name(cx.ctx, cx.ir, root, &arith, ("ArithOp", "arith."), convert_arith).map_err(|d| {
            cx.diagnostics.push(d);
            PassFailed
        })?;
        let mut target = ConversionTarget::new();
        // Shapes are read by their users and erased once nothing uses them.
        target.add_dynamically_legal_dialect("tosa", |_, ir, op| ir.op(op).name == "tosa.const_shape");
        convert_by_name(cx.ctx, cx.ir, root, &target, ("TosaOp", "tosa."), convert).map_err(|d| {
            cx.diagnostics.push(d);
            PassFailed
        })?;
        let shapes: Vec<OpId> =
            cx.ir.walk(root, WalkOrder::PostOrder).filter(|&op| cx.ir.op(op).name == "tosa.const_shape").collect();
        for op in shapes {
            if cx.ir.uses(cx.ir.results(op)[0]).is_empty() {
                cx.ir.erase_op(op);
            } else {
                let loc = cx.ir.op(op).loc;
                cx.diagnostics.push(Diagnostic::error(loc, "'tosa.const_shape' op is used by a non-TOSA op"));
                return Err(PassFailed);
            }
        }
        Ok(())
    }
}

/// Builds the `hl` form of `arith.<short>` (on tensors) before `op`.
fn convert_arith<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    short: &str,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let ir = rw.ir();
    let result_ty = ir.value_type(ir.results(op)[0]);
    if short == "constant" {
        let value = ir.attr(op, "value").ok_or("no 'value'")?;
        return HlBuilder::new(rw, op).create(&hl::CONSTANT, &[], &[("value", value)], Some(result_ty));
    }
    let (_, to) = ARITH.iter().find(|(a, _)| *a == short).ok_or("not converted by tosa-to-hl")?;
    HlBuilder::new(rw, op).create(def(to)?, x, &[], Some(result_ty))
}

/// The `hl` op named `hl.<short>`.
fn def(short: &str) -> Result<&'static OpDef, String> {
    hl::HL.op_named(short).ok_or(format!("no 'hl.{short}'"))
}

/// Requires the constant operand `v` (a zero point or a shift) to be zero.
fn require_zero(rw: &ConversionRewriter<'_, '_, '_>, v: ValueId, what: &str) -> Result<(), String> {
    match constant_of(rw.ir(), v) {
        Some(a) if is_zero_dense(a) => Ok(()),
        _ => Err(format!("{what} must be a zero constant")),
    }
}

/// Builds the `hl` form of `tosa.<short>` before `op`; returns the value replacing its result.
fn convert<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    short: &str,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let ir = rw.ir();
    let result_ty = ir.value_type(ir.results(op)[0]);
    let attr = |n: &str| ir.attr(op, n);
    let axis = attr("axis").and_then(|a| a.as_int()).map(|a| a as i64);
    let ctx = rw.ctx;
    if let Some((_, to)) = BINARY.iter().find(|(t, _)| *t == short) {
        if short == "mul" {
            require_zero(rw, x[2], "the shift")?;
        }
        let mut b = HlBuilder::new(rw, op);
        return b.create(def(to)?, &x[..2], &[], Some(result_ty));
    }
    if let Some((_, pred)) = COMPARISONS.iter().find(|(t, _)| *t == short) {
        let p = hl::attrs::CmpPredicate::from_keyword(pred).ok_or("bad predicate")?.attr(ctx);
        let mut b = HlBuilder::new(rw, op);
        return b.create(&hl::CMP, x, &[("predicate", p)], Some(result_ty));
    }
    if SAME_UNARY.contains(&short) {
        let mut b = HlBuilder::new(rw, op);
        return b.create(def(short)?, x, &[], Some(result_ty));
    }
    let perm_nhwc_to_nchw: [i64; 4] = [0, 3, 1, 2];
    let perm_nchw_to_nhwc: [i64; 4] = [0, 2, 3, 1];
    let v = match short {
        "const" => {
            let value = attr("values").ok_or("no 'values'")?;
            HlBuilder::new(rw, op).create(&hl::CONSTANT, &[], &[("value", value)], Some(result_ty))?
        }
        "negate" => {
            require_zero(rw, x[1], "the input zero point")?;
            require_zero(rw, x[2], "the output zero point")?;
            HlBuilder::new(rw, op).create(&hl::NEG, &x[..1], &[], Some(result_ty))?
        }
        "logical_not" => HlBuilder::new(rw, op).create(&hl::NOT, x, &[], Some(result_ty))?,
        "intdiv" => HlBuilder::new(rw, op).create(&hl::DIV, x, &[], Some(result_ty))?,
        "select" => HlBuilder::new(rw, op).create(&hl::SELECT, x, &[], Some(result_ty))?,
        "clamp" => {
            let f64t = ctx.float_type(kiln_compiler::FloatKind::F64);
            let bound = |n: &str| -> Result<Attribute<'c>, String> {
                let a = attr(n).ok_or(format!("no '{n}'"))?;
                match a.as_int() {
                    Some(i) => float_attr(ctx, f64t, i as f64).ok_or("bad bound".into()),
                    None => Ok(a),
                }
            };
            let (lo, hi) = (bound("min_val")?, bound("max_val")?);
            HlBuilder::new(rw, op).create(&hl::CLAMP, x, &[("min", lo), ("max", hi)], Some(result_ty))?
        }
        "cast" => {
            let from = elem_of(ir, x[0]).ok_or("operand is not a ranked tensor")?;
            let to = kiln_dialects::hl::accessors::tensor_parts(result_ty)
                .ok_or("result is not a ranked tensor")?
                .1;
            let mut b = HlBuilder::new(rw, op);
            let mut v = x[0];
            if from.is_float() && !to.is_float() && !matches!(to.kind(), TypeKind::Integer { width: 1, .. }) {
                v = b.create(&hl::ROUND, &[v], &[], None)?;
            }
            b.create(&hl::CAST, &[v], &[], Some(result_ty))?
        }
        "reduce_sum" | "reduce_max" | "reduce_min" | "reduce_product" => {
            let d = def(if short == "reduce_product" { "reduce_prod" } else { short })?;
            let mut b = HlBuilder::new(rw, op);
            let (axes, keep) = (b.ints(&[axis.ok_or("no 'axis'")?]), b.yes());
            b.create(d, x, &[("axes", axes), ("keep_dims", keep)], Some(result_ty))?
        }
        "reshape" => HlBuilder::new(rw, op).create(&hl::RESHAPE, &x[..1], &[], Some(result_ty))?,
        "transpose" => {
            let perm = array_ints(attr("perms")).ok_or("no 'perms'")?;
            let mut b = HlBuilder::new(rw, op);
            let p = b.ints(&perm);
            b.create(&hl::TRANSPOSE, x, &[("perm", p)], Some(result_ty))?
        }
        "slice" => {
            let (start, size) = (shape_operand(ir, x[1])?, shape_operand(ir, x[2])?);
            let limits: Vec<i64> = start.iter().zip(&size).map(|(s, n)| s + n).collect();
            let mut b = HlBuilder::new(rw, op);
            let (s, l) = (b.ints(&start), b.ints(&limits));
            b.create(&hl::SLICE, &x[..1], &[("starts", s), ("limits", l)], Some(result_ty))?
        }
        "concat" => {
            let mut b = HlBuilder::new(rw, op);
            let a = b.int(axis.ok_or("no 'axis'")?);
            b.create(&hl::CONCAT, x, &[("axis", a)], Some(result_ty))?
        }
        "pad" => {
            let pads = shape_operand(ir, x[1])?;
            let elem = elem_of(ir, x[0]).ok_or("operand is not a ranked tensor")?;
            let value = constant_of(ir, x[2]).ok_or("the pad value is not a constant")?;
            let value = kiln_dialects::hl::interp::program::dense_to_tensor(value)?;
            let value = value.to_f64s().first().copied().ok_or("empty pad value")?;
            let value = if elem.is_float() {
                float_attr(ctx, elem, value).ok_or("bad pad value")?
            } else {
                ctx.int_attr(value as i128, elem)
            };
            let low: Vec<i64> = pads.iter().step_by(2).copied().collect();
            let high: Vec<i64> = pads.iter().skip(1).step_by(2).copied().collect();
            let mut b = HlBuilder::new(rw, op);
            let (l, h) = (b.ints(&low), b.ints(&high));
            b.create(&hl::PAD, &x[..1], &[("low", l), ("high", h), ("value", value)], Some(result_ty))?
        }
        "tile" => {
            let multiples = shape_operand(ir, x[1])?;
            let shape = shape_of(ir, x[0]).ok_or("operand is not a ranked tensor")?;
            if shape.iter().zip(&multiples).any(|(&d, &m)| m != 1 && d != 1) {
                return Err("tiles a dim of size other than 1".into());
            }
            HlBuilder::new(rw, op).create(&hl::BROADCAST_TO, &x[..1], &[], Some(result_ty))?
        }
        "matmul" => {
            require_zero(rw, x[2], "the A zero point")?;
            require_zero(rw, x[3], "the B zero point")?;
            if elem_of(ir, x[0]) != elem_of(ir, ir.results(op)[0]) {
                return Err("the result element type differs from the operands'".into());
            }
            HlBuilder::new(rw, op).create(&hl::BATCH_MATMUL, &x[..2], &[], Some(result_ty))?
        }
        "gather" => gather(rw, op, x[0], x[1])?,
        "conv2d" | "avg_pool2d" | "max_pool2d" => {
            let pad = array_ints(attr("pad")).unwrap_or(vec![0; 4]);
            let padding = [pad[0], pad[2], pad[1], pad[3]];
            let stride = array_ints(attr("stride")).unwrap_or(vec![1, 1]);
            let kernel = array_ints(attr("kernel"));
            let dilation = array_ints(attr("dilation")).unwrap_or(vec![1, 1]);
            let elem = elem_of(ir, x[0]).ok_or("operand is not a ranked tensor")?;
            if elem_of(ir, ir.results(op)[0]) != Some(elem) {
                return Err("the result element type differs from the input's".into());
            }
            let zero_bias = short == "conv2d" && constant_of(ir, x[2]).is_some_and(is_zero_dense);
            let bias_shape = if short == "conv2d" { shape_of(ir, x[2]) } else { None };
            match short {
                "conv2d" => {
                    require_zero(rw, x[3], "the input zero point")?;
                    require_zero(rw, x[4], "the weight zero point")?;
                }
                "avg_pool2d" => {
                    require_zero(rw, x[1], "the input zero point")?;
                    require_zero(rw, x[2], "the output zero point")?;
                }
                _ => {}
            }
            let out_nhwc =
                shape_of(rw.ir(), rw.ir().results(op)[0]).ok_or("result is not a ranked tensor")?;
            let out_nchw: Vec<i64> = perm_nhwc_to_nchw.iter().map(|&p| out_nhwc[p as usize]).collect();
            let out_ty = ctx.tensor_type(&out_nchw, elem);
            let mut b = HlBuilder::new(rw, op);
            let transpose = |b: &mut HlBuilder<'_, '_, 'c>, v: ValueId, perm: &[i64]| {
                let p = b.ints(perm);
                b.create(&hl::TRANSPOSE, &[v], &[("perm", p)], None)
            };
            let input = transpose(&mut b, x[0], &perm_nhwc_to_nchw)?;
            let (s, p) = (b.ints(&stride), b.ints(&padding));
            let y = match short {
                "conv2d" => {
                    let w = transpose(&mut b, x[1], &perm_nhwc_to_nchw)?;
                    let mut args = vec![input, w];
                    if !zero_bias {
                        let out_channels = out_nchw[1];
                        let mut bias = x[2];
                        if bias_shape.as_deref() != Some(&[out_channels][..]) {
                            let ty = ctx.tensor_type(&[out_channels], elem);
                            bias = b.create(&hl::BROADCAST_TO, &[bias], &[], Some(ty))?;
                        }
                        args.push(bias);
                    }
                    let d = b.ints(&dilation);
                    b.create(
                        &hl::CONV2D,
                        &args,
                        &[("strides", s), ("padding", p), ("dilation", d)],
                        Some(out_ty),
                    )?
                }
                pool => {
                    let k = b.ints(&kernel.ok_or("no 'kernel'")?);
                    let mut attrs = vec![("kernel", k), ("strides", s), ("padding", p)];
                    let no = ctx.bool_attr(false);
                    if pool == "avg_pool2d" {
                        attrs.push(("count_include_pad", no));
                    }
                    b.create(def(pool)?, &[input], &attrs, Some(out_ty))?
                }
            };
            transpose(&mut b, y, &perm_nchw_to_nhwc)?
        }
        other => return Err(format!("'tosa.{other}' is not supported")),
    };
    Ok(v)
}

/// `tosa.gather(values [N,K,C], indices [N,W]) -> [N,W,C]` as `hl.gather` on `[N*K, C]` with
/// the indices offset by `n*K` (no offset when `N = 1`).
fn gather<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    values: ValueId,
    indices: ValueId,
) -> Result<ValueId, String> {
    let ir = rw.ir();
    let ctx = rw.ctx;
    let vs = shape_of(ir, values).ok_or("values are not a ranked tensor")?;
    let is = shape_of(ir, indices).ok_or("indices are not a ranked tensor")?;
    let (velem, ielem) =
        (elem_of(ir, values).ok_or("bad values")?, elem_of(ir, indices).ok_or("bad indices")?);
    let result_ty = ir.value_type(ir.results(op)[0]);
    let &[n, k, c] = &vs[..] else { return Err("values must have rank 3".into()) };
    let &[_, w] = &is[..] else { return Err("indices must have rank 2".into()) };
    let mut b = HlBuilder::new(rw, op);
    let flat = b.create(&hl::RESHAPE, &[values], &[], Some(ctx.tensor_type(&[n * k, c], velem)))?;
    let mut idx = indices;
    if n > 1 {
        let offsets: Vec<f64> =
            (0..n).flat_map(|i| std::iter::repeat_n((i * k) as f64, w as usize)).collect();
        let ty = ctx.tensor_type(&[n, w], ielem);
        let dtype = kiln_dialects::hl::interp::program::dtype_of(ielem).ok_or("bad index type")?;
        let t = kiln_dialects::hl::interp::Tensor::from_f64s(dtype, vec![n as usize, w as usize], &offsets)
            .map_err(|e| e.message().to_string())?;
        let value = kiln_dialects::hl::interp::program::tensor_to_dense(ctx, ty, &t);
        let off = b.create(&hl::CONSTANT, &[], &[("value", value)], Some(ty))?;
        idx = b.create(&hl::ADD, &[indices, off], &[], None)?;
    }
    let idx = b.create(&hl::RESHAPE, &[idx], &[], Some(ctx.tensor_type(&[n * w], ielem)))?;
    let zero = b.int(0);
    let g =
        b.create(&hl::GATHER, &[flat, idx], &[("axis", zero)], Some(ctx.tensor_type(&[n * w, c], velem)))?;
    b.create(&hl::RESHAPE, &[g], &[], Some(result_ty))
}
