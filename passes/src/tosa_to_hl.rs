//! `tosa-to-hl`: converts TOSA (MLIR 22, TOSA v1.0, read in the generic form as unregistered
//! ops) to `hl`.
//!
//! Rewrites (one conversion pattern per op, from the tables of what each op becomes, rooted on
//! the op's name, TOSA ops being unregistered; first the `arith` ops on tensors, then the TOSA
//! ops, over a target where the `tosa` dialect is illegal):
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
//! the TOSA computed; every TOSA op (or `arith` op on tensors) that is not listed is an error at
//! its location naming it, all reported at once, and the IR is left unchanged; an operand form
//! not handled (e.g. a non-zero zero point) is the conversion driver's error at the first such
//! op, with the reason as a note (the `arith` step, when it succeeded, stays done).

use kiln_compiler::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, Root};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Attribute, Context, Diagnostic, Ir, OpDef, OpId, Type, TypeKind, ValueId};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::attrs::CmpPredicate;
use kiln_dialects::hl::builder::HlBuilder;
use kiln_dialects::{arith, hl};

use crate::tosa::{
    array_ints, constant_of, convert_per_op, elem_of, float_attr, is_zero_dense, shape_of, shape_operand,
    PerOp, BROADCASTING, COMPARISONS, CONST, CONST_SHAPE, UNARY,
};

/// What a TOSA op (or an `arith` op on tensors) becomes.
#[derive(Clone, Copy)]
enum Form {
    /// This `hl` op on the same operands.
    Same(&'static OpDef),
    /// `hl.cmp` with this predicate.
    Compare(CmpPredicate),
    /// This `hl` reduction over the op's `axis`, keeping dims.
    Reduce(&'static OpDef),
    /// A conversion of its own.
    Own(Build),
}

/// Builds the `hl` form of `op` (`x`: its converted operands) before it; returns the value
/// replacing its result, or why it cannot.
type Build = for<'r, 'a, 'b, 'c> fn(
    &'r mut ConversionRewriter<'a, 'b, 'c>,
    OpId,
    &[ValueId],
) -> Result<ValueId, String>;

/// The TOSA ops converted besides the shared families ([`UNARY`], [`BROADCASTING`],
/// [`COMPARISONS`]), and what each becomes. `tosa.const_shape` is read by the ops that use it.
const TOSA_OPS: &[(&str, Form)] = &[
    (CONST, Form::Own(constant)),
    ("tosa.negate", Form::Own(negate)),
    ("tosa.mul", Form::Own(mul)),
    ("tosa.intdiv", Form::Same(&hl::DIV)),
    ("tosa.clamp", Form::Own(clamp)),
    ("tosa.cast", Form::Own(cast)),
    ("tosa.reduce_sum", Form::Reduce(&hl::REDUCE_SUM)),
    ("tosa.reduce_max", Form::Reduce(&hl::REDUCE_MAX)),
    ("tosa.reduce_min", Form::Reduce(&hl::REDUCE_MIN)),
    ("tosa.reduce_product", Form::Reduce(&hl::REDUCE_PROD)),
    ("tosa.reshape", Form::Own(reshape)),
    ("tosa.transpose", Form::Own(transpose)),
    ("tosa.slice", Form::Own(slice)),
    ("tosa.concat", Form::Own(concat)),
    ("tosa.pad", Form::Own(pad)),
    ("tosa.tile", Form::Own(tile)),
    ("tosa.matmul", Form::Own(matmul)),
    ("tosa.gather", Form::Own(gather)),
    ("tosa.conv2d", Form::Own(conv2d)),
    ("tosa.avg_pool2d", Form::Own(avg_pool2d)),
    ("tosa.max_pool2d", Form::Own(max_pool2d)),
];

/// The `arith` ops on tensors converted besides `arith.constant` (what exporters write around
/// TOSA, and `hl-to-tosa`'s float division), and the `hl` op each becomes: IEEE operations, the
/// same in `hl`; `maximumf`/`minimumf` are not among them (they order `-0 < +0`, `hl` does
/// not). Kiln's `arith` does not define them: they are unregistered ops, known by name.
const ARITH: &[(&str, Form)] = &[
    ("arith.addf", Form::Same(&hl::ADD)),
    ("arith.subf", Form::Same(&hl::SUB)),
    ("arith.mulf", Form::Same(&hl::MUL)),
    ("arith.divf", Form::Same(&hl::DIV)),
    ("arith.negf", Form::Same(&hl::NEG)),
];

/// The patterns of the TOSA ops (one per op, rooted on its name).
fn tosa_patterns() -> Vec<PerOp<Form>> {
    let unary = UNARY.iter().map(|&(def, tosa)| (tosa, Form::Same(def)));
    let broadcasting = BROADCASTING.iter().map(|&(def, tosa)| (tosa, Form::Same(def)));
    let comparisons = COMPARISONS.iter().map(|&(tosa, pred)| (tosa, Form::Compare(pred)));
    let ops = unary.chain(broadcasting).chain(comparisons).chain(TOSA_OPS.iter().copied());
    ops.map(|(name, form)| PerOp::unregistered(name, form, convert)).collect()
}

/// The patterns of the `arith` ops on tensors (`arith.constant` rooted on its definition).
fn arith_patterns() -> Vec<PerOp<Form>> {
    let constant = PerOp::registered(&arith::CONSTANT_OP, Form::Own(constant), convert);
    let others = ARITH.iter().map(|&(name, form)| PerOp::unregistered(name, form, convert));
    std::iter::once(constant).chain(others).collect()
}

/// Whether `op` has a tensor result (an `arith` op with one is converted or refused).
fn on_tensors(ir: &Ir<'_>, op: OpId) -> bool {
    ir.results(op).iter().any(|&r| matches!(ir.value_type(r).kind(), TypeKind::RankedTensor { .. }))
}

/// Whether `op` is illegal for `target` and none of `patterns` is rooted on it.
fn unconverted<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    target: &ConversionTarget<'_, 'c>,
    patterns: &[PerOp<Form>],
    op: OpId,
) -> bool {
    target.is_legal(ctx, ir, op) == Some(false) && !patterns.iter().any(|p| p.root().matches(ir, op))
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
        let mut arith_target = ConversionTarget::new();
        arith_target.add_dynamically_legal_dialect("arith", |_, ir, op| !on_tensors(ir, op));
        let mut tosa_target = ConversionTarget::new();
        // Shapes are read by their users and erased once nothing uses them.
        let shape = Root::Unregistered(CONST_SHAPE);
        tosa_target.add_dynamically_legal_dialect("tosa", move |_, ir, op| shape.matches(ir, op));
        let (arith, tosa) = (arith_patterns(), tosa_patterns());
        let unsupported: Vec<OpId> = cx
            .ir
            .walk(root, WalkOrder::PreOrder)
            .filter(|&op| {
                unconverted(cx.ctx, cx.ir, &arith_target, &arith, op)
                    || unconverted(cx.ctx, cx.ir, &tosa_target, &tosa, op)
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
        for (target, patterns) in [(&arith_target, arith), (&tosa_target, tosa)] {
            convert_per_op(cx.ctx, cx.ir, root, target, patterns).map_err(|d| {
                cx.diagnostics.push(d);
                PassFailed
            })?;
        }
        let shapes: Vec<OpId> = cx
            .ir
            .walk(root, WalkOrder::PostOrder)
            .filter(|&op| shape.matches(cx.ir, op))
            .collect();
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

/// The type of `op`'s result.
fn result_type<'c>(ir: &Ir<'c>, op: OpId) -> Type<'c> {
    ir.value_type(ir.results(op)[0])
}

/// Builds the `hl` form of `op` as `form` says; returns the value replacing its result.
fn convert<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    form: Form,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let ty = result_type(rw.ir(), op);
    match form {
        Form::Same(def) => HlBuilder::new(rw, op).create(def, x, &[], Some(ty)),
        Form::Compare(pred) => {
            let p = pred.attr(rw.ctx);
            HlBuilder::new(rw, op).create(&hl::CMP, x, &[("predicate", p)], Some(ty))
        }
        Form::Reduce(def) => {
            let axis = rw.ir().attr(op, "axis").and_then(|a| a.as_int()).ok_or("no 'axis'")?;
            let mut b = HlBuilder::new(rw, op);
            let (axes, keep) = (b.ints(&[axis as i64]), b.yes());
            b.create(def, x, &[("axes", axes), ("keep_dims", keep)], Some(ty))
        }
        Form::Own(build) => build(rw, op, x),
    }
}

/// Requires the constant operand `v` (a zero point or a shift) to be zero.
fn require_zero(rw: &ConversionRewriter<'_, '_, '_>, v: ValueId, what: &str) -> Result<(), String> {
    match constant_of(rw.ir(), v) {
        Some(a) if is_zero_dense(a) => Ok(()),
        _ => Err(format!("{what} must be a zero constant")),
    }
}

/// `tosa.const`, `arith.constant` -> `hl.constant`.
fn constant<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, _: &[ValueId]) -> Result<ValueId, String> {
    let ir = rw.ir();
    let (value, ty) = (constant_of(ir, ir.results(op)[0]).ok_or("no constant value")?, result_type(ir, op));
    HlBuilder::new(rw, op).create(&hl::CONSTANT, &[], &[("value", value)], Some(ty))
}

/// `tosa.negate` (zero points 0) -> `hl.neg`.
fn negate<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    require_zero(rw, x[1], "the input zero point")?;
    require_zero(rw, x[2], "the output zero point")?;
    let ty = result_type(rw.ir(), op);
    HlBuilder::new(rw, op).create(&hl::NEG, &x[..1], &[], Some(ty))
}

/// `tosa.mul` (shift 0) -> `hl.mul`.
fn mul<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    require_zero(rw, x[2], "the shift")?;
    let ty = result_type(rw.ir(), op);
    HlBuilder::new(rw, op).create(&hl::MUL, &x[..2], &[], Some(ty))
}

/// `tosa.clamp` -> `hl.clamp` (integer bounds as f64 attributes).
fn clamp<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let (ir, ctx) = (rw.ir(), rw.ctx);
    let f64t = ctx.float_type(kiln_compiler::FloatKind::F64);
    let bound = |n: &str| -> Result<Attribute<'c>, String> {
        let a = ir.attr(op, n).ok_or(format!("no '{n}'"))?;
        match a.as_int() {
            Some(i) => float_attr(ctx, f64t, i as f64).ok_or("bad bound".into()),
            None => Ok(a),
        }
    };
    let (lo, hi, ty) = (bound("min_val")?, bound("max_val")?, result_type(ir, op));
    HlBuilder::new(rw, op).create(&hl::CLAMP, x, &[("min", lo), ("max", hi)], Some(ty))
}

/// `tosa.cast` -> `hl.cast` (float to integer first rounds to nearest even with `hl.round`, as
/// TOSA's cast does).
fn cast<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let ir = rw.ir();
    let ty = result_type(ir, op);
    let from = elem_of(ir, x[0]).ok_or("operand is not a ranked tensor")?;
    let to = tensor_parts(ty).ok_or("result is not a ranked tensor")?.1;
    let mut b = HlBuilder::new(rw, op);
    let mut v = x[0];
    if from.is_float() && !to.is_float() && !matches!(to.kind(), TypeKind::Integer { width: 1, .. }) {
        v = b.create(&hl::ROUND, &[v], &[], None)?;
    }
    b.create(&hl::CAST, &[v], &[], Some(ty))
}

/// `tosa.reshape` -> `hl.reshape` (the shape operand is the result type's).
fn reshape<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let ty = result_type(rw.ir(), op);
    HlBuilder::new(rw, op).create(&hl::RESHAPE, &x[..1], &[], Some(ty))
}

/// `tosa.transpose` -> `hl.transpose`.
fn transpose<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let ir = rw.ir();
    let (perm, ty) = (array_ints(ir.attr(op, "perms")).ok_or("no 'perms'")?, result_type(ir, op));
    let mut b = HlBuilder::new(rw, op);
    let p = b.ints(&perm);
    b.create(&hl::TRANSPOSE, x, &[("perm", p)], Some(ty))
}

/// `tosa.slice` -> `hl.slice` (limits from the start and size shape operands).
fn slice<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let ir = rw.ir();
    let (start, size) = (shape_operand(ir, x[1])?, shape_operand(ir, x[2])?);
    let limits: Vec<i64> = start.iter().zip(&size).map(|(s, n)| s + n).collect();
    let ty = result_type(ir, op);
    let mut b = HlBuilder::new(rw, op);
    let (s, l) = (b.ints(&start), b.ints(&limits));
    b.create(&hl::SLICE, &x[..1], &[("starts", s), ("limits", l)], Some(ty))
}

/// `tosa.concat` -> `hl.concat`.
fn concat<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let ir = rw.ir();
    let (axis, ty) = (ir.attr(op, "axis").and_then(|a| a.as_int()).ok_or("no 'axis'")?, result_type(ir, op));
    let mut b = HlBuilder::new(rw, op);
    let a = b.int(axis as i64);
    b.create(&hl::CONCAT, x, &[("axis", a)], Some(ty))
}

/// `tosa.pad` -> `hl.pad` (pads `[low, high]` per dim; the pad value a constant).
fn pad<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let (ir, ctx) = (rw.ir(), rw.ctx);
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
    let ty = result_type(ir, op);
    let mut b = HlBuilder::new(rw, op);
    let (l, h) = (b.ints(&low), b.ints(&high));
    b.create(&hl::PAD, &x[..1], &[("low", l), ("high", h), ("value", value)], Some(ty))
}

/// `tosa.tile` of size-1 dims only -> `hl.broadcast_to`.
fn tile<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let ir = rw.ir();
    let multiples = shape_operand(ir, x[1])?;
    let shape = shape_of(ir, x[0]).ok_or("operand is not a ranked tensor")?;
    if shape.iter().zip(&multiples).any(|(&d, &m)| m != 1 && d != 1) {
        return Err("tiles a dim of size other than 1".into());
    }
    let ty = result_type(ir, op);
    HlBuilder::new(rw, op).create(&hl::BROADCAST_TO, &x[..1], &[], Some(ty))
}

/// `tosa.matmul` (zero points 0) -> `hl.batch_matmul`.
fn matmul<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    require_zero(rw, x[2], "the A zero point")?;
    require_zero(rw, x[3], "the B zero point")?;
    let ir = rw.ir();
    if elem_of(ir, x[0]) != elem_of(ir, ir.results(op)[0]) {
        return Err("the result element type differs from the operands'".into());
    }
    let ty = result_type(ir, op);
    HlBuilder::new(rw, op).create(&hl::BATCH_MATMUL, &x[..2], &[], Some(ty))
}

/// `tosa.conv2d` (zero points 0; OHWI weights) -> `hl.conv2d` in NCHW (a bias that is a zero
/// constant is dropped).
fn conv2d<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let ir = rw.ir();
    let dilation = array_ints(ir.attr(op, "dilation")).unwrap_or(vec![1, 1]);
    let zero_bias = constant_of(ir, x[2]).is_some_and(is_zero_dense);
    let bias_shape = shape_of(ir, x[2]);
    nchw(
        rw,
        op,
        x,
        &[(3, "the input zero point"), (4, "the weight zero point")],
        |b, input, [s, p], out_ty| {
            let ctx = b.rw.ctx;
            let (out_nchw, elem) = tensor_parts(out_ty).ok_or("result is not a ranked tensor")?;
            let w = transpose_to(b, x[1], &NHWC_TO_NCHW)?;
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
            b.create(&hl::CONV2D, &args, &[("strides", s), ("padding", p), ("dilation", d)], Some(out_ty))
        },
    )
}

/// `tosa.avg_pool2d` (zero points 0) -> `hl.avg_pool2d` in NCHW (padding excluded from the
/// count).
fn avg_pool2d<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    x: &[ValueId],
) -> Result<ValueId, String> {
    let no = rw.ctx.bool_attr(false);
    let zero_points = [(1, "the input zero point"), (2, "the output zero point")];
    pool(rw, op, x, &zero_points, &hl::AVG_POOL2D, &[("count_include_pad", no)])
}

/// `tosa.max_pool2d` -> `hl.max_pool2d` in NCHW.
fn max_pool2d<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    x: &[ValueId],
) -> Result<ValueId, String> {
    pool(rw, op, x, &[], &hl::MAX_POOL2D, &[])
}

/// A TOSA pool (`zero_points` as in [`nchw`]) as the `hl` pool `def` in NCHW with `attrs` besides
/// the kernel, strides and padding.
fn pool<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    x: &[ValueId],
    zero_points: &[(usize, &str)],
    def: &'static OpDef,
    attrs: &[(&str, Attribute<'c>)],
) -> Result<ValueId, String> {
    let kernel = array_ints(rw.ir().attr(op, "kernel")).ok_or("no 'kernel'")?;
    nchw(rw, op, x, zero_points, |b, input, [s, p], out_ty| {
        let k = b.ints(&kernel);
        let mut all = vec![("kernel", k), ("strides", s), ("padding", p)];
        all.extend_from_slice(attrs);
        b.create(def, &[input], &all, Some(out_ty))
    })
}

/// The permutation from NHWC to NCHW (of OHWI weights to OIHW).
const NHWC_TO_NCHW: [i64; 4] = [0, 3, 1, 2];

/// The permutation from NCHW to NHWC.
const NCHW_TO_NHWC: [i64; 4] = [0, 2, 3, 1];

/// `hl.transpose` of `v` by `perm`.
fn transpose_to(b: &mut HlBuilder<'_, '_, '_>, v: ValueId, perm: &[i64]) -> Result<ValueId, String> {
    let p = b.ints(perm);
    b.create(&hl::TRANSPOSE, &[v], &[("perm", p)], None)
}

/// The NHWC TOSA op `op` (`conv2d`, a pool; its input `x[0]`, pads `[top, bottom, left,
/// right]`) as the NCHW `hl` op that `build` makes of the transposed input, its `strides` and
/// `padding` attributes and its NCHW result type, between transposes; when the result has the
/// input's element type and the operands at the indices of `zero_points` are zero constants
/// (what each is, for the error otherwise).
fn nchw<'c>(
    rw: &mut ConversionRewriter<'_, '_, 'c>,
    op: OpId,
    x: &[ValueId],
    zero_points: &[(usize, &str)],
    build: impl FnOnce(
        &mut HlBuilder<'_, '_, 'c>,
        ValueId,
        [Attribute<'c>; 2],
        Type<'c>,
    ) -> Result<ValueId, String>,
) -> Result<ValueId, String> {
    let (ir, ctx) = (rw.ir(), rw.ctx);
    let pad = array_ints(ir.attr(op, "pad")).unwrap_or(vec![0; 4]);
    let padding = [pad[0], pad[2], pad[1], pad[3]];
    let stride = array_ints(ir.attr(op, "stride")).unwrap_or(vec![1, 1]);
    let elem = elem_of(ir, x[0]).ok_or("operand is not a ranked tensor")?;
    if elem_of(ir, ir.results(op)[0]) != Some(elem) {
        return Err("the result element type differs from the input's".into());
    }
    for &(i, what) in zero_points {
        require_zero(rw, x[i], what)?;
    }
    let out_nhwc = shape_of(ir, ir.results(op)[0]).ok_or("result is not a ranked tensor")?;
    let out_nchw: Vec<i64> = NHWC_TO_NCHW.iter().map(|&p| out_nhwc[p as usize]).collect();
    let out_ty = ctx.tensor_type(&out_nchw, elem);
    let mut b = HlBuilder::new(rw, op);
    let input = transpose_to(&mut b, x[0], &NHWC_TO_NCHW)?;
    let (s, p) = (b.ints(&stride), b.ints(&padding));
    let y = build(&mut b, input, [s, p], out_ty)?;
    transpose_to(&mut b, y, &NCHW_TO_NHWC)
}

/// `tosa.gather(values [N,K,C], indices [N,W]) -> [N,W,C]` as `hl.gather` on `[N*K, C]` with
/// the indices offset by `n*K` (no offset when `N = 1`).
fn gather<'c>(rw: &mut ConversionRewriter<'_, '_, 'c>, op: OpId, x: &[ValueId]) -> Result<ValueId, String> {
    let (values, indices) = (x[0], x[1]);
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
