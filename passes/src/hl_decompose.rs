//! `hl-decompose`: expands composite `hl` ops into primitives.
//!
//! Rewrites (each composite, when listed in `ops`, default all):
//! - `softmax(x, axis)` -> `m = reduce_max(x)`, `e = exp(x - m)`, `e / reduce_sum(e)`;
//! - `log_softmax(x, axis)` -> `d = x - reduce_max(x)`, `d - log(reduce_sum(exp(d)))`;
//! - `layer_norm(x, g, b)` -> `c = x - mean(x)`, `c * rsqrt(mean(c*c) + eps) * g + b` (last dim);
//! - `rms_norm(x, g)` -> `x * rsqrt(mean(x*x) + eps) * g` (last dim);
//! - `batch_norm(x, mean, var, g, b)` -> `(x - mean) * rsqrt(var + eps) * g + b`;
//! - `gelu` -> `0.5*x*(1+erf(x*(1/sqrt 2)))` or the tanh form;
//! - `silu(x)` -> `x * sigmoid(x)`; `swiglu(x)` -> `silu(a) * b` over the halves of `axis`;
//! - `bias_add(x, b, axis)` -> broadcast `add` (reshaping `b` when `axis` is not the last);
//! - `dropout(x)` -> `x` (inference);
//! - the ops model importers emit (`split`, `conv2d` with a bias, `global_avg_pool2d`,
//!   `batch_matmul` of operands of different ranks, `max_pool2d`, `avg_pool2d`, `iota`,
//!   `trilu`) as `hl_decompose/model.rs` describes, exactly (`pad` stays: the back end lowers
//!   it, and the pools' padding is a `pad`);
//! - the index ops (`argmax`, `argmin`, `gather_elements`, `gather_nd`) as index arithmetic on
//!   `i64`, a reduction or a gather of rows, as `hl_decompose/index.rs` describes, exactly.
//!
//! Means keep dims so they broadcast back. Composites with dynamic dims are kept as they are
//! (their expansions would need run-time slice bounds, and their primitive types could differ
//! from the declared ones); a statistic counts them. The row-wise ones expand all the same:
//! `gelu`, `silu`, `dropout`, and a softmax, log-softmax, layer or RMS norm whose reduced axis
//! is static (the back end compiles them as a row shape class, `codegen/row_class.rs`). Assumes verified IR; guarantees verified
//! IR whose results equal the composites' reference semantics up to the rounding of the
//! intermediate primitives (f16/bf16 intermediates round after each op, as the device would).

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::{OptionKind, PassFailed, PassOptionSpec};
use kiln_compiler::rewrite::Rewriter;
use kiln_compiler::{Diagnostic, OpDef, OpId, ValueId};
use kiln_dialects::hl::accessors::{float_value, normalize_axis, tensor_parts};
use kiln_dialects::hl::attrs::GeluApproximation;
use kiln_dialects::hl::builder::HlBuilder;
use kiln_dialects::hl::{self as hl};

mod index;
mod model;

use index::IndexOp;
use model::ModelOp;

/// The composites of this file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Composite {
    Softmax,
    LogSoftmax,
    LayerNorm,
    RmsNorm,
    BatchNorm,
    Gelu,
    Silu,
    Swiglu,
    BiasAdd,
    Dropout,
}

/// Which expansion an op this pass knows takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expansion {
    Composite(Composite),
    Model(ModelOp),
    Index(IndexOp),
}

/// Every op this pass expands and its expansion, in the order the `ops` option lists them.
const KNOWN: &[(&OpDef, Expansion)] = &[
    (&hl::SOFTMAX, Expansion::Composite(Composite::Softmax)),
    (&hl::LOG_SOFTMAX, Expansion::Composite(Composite::LogSoftmax)),
    (&hl::LAYER_NORM, Expansion::Composite(Composite::LayerNorm)),
    (&hl::RMS_NORM, Expansion::Composite(Composite::RmsNorm)),
    (&hl::BATCH_NORM, Expansion::Composite(Composite::BatchNorm)),
    (&hl::GELU, Expansion::Composite(Composite::Gelu)),
    (&hl::SILU, Expansion::Composite(Composite::Silu)),
    (&hl::SWIGLU, Expansion::Composite(Composite::Swiglu)),
    (&hl::BIAS_ADD, Expansion::Composite(Composite::BiasAdd)),
    (&hl::DROPOUT, Expansion::Composite(Composite::Dropout)),
    (&hl::SPLIT, Expansion::Model(ModelOp::Split)),
    (&hl::CONV2D, Expansion::Model(ModelOp::Conv2d)),
    (&hl::GLOBAL_AVG_POOL2D, Expansion::Model(ModelOp::GlobalAvgPool2d)),
    (&hl::BATCH_MATMUL, Expansion::Model(ModelOp::BatchMatmul)),
    (&hl::MAX_POOL2D, Expansion::Model(ModelOp::MaxPool2d)),
    (&hl::AVG_POOL2D, Expansion::Model(ModelOp::AvgPool2d)),
    (&hl::IOTA, Expansion::Model(ModelOp::Iota)),
    (&hl::TRILU, Expansion::Model(ModelOp::Trilu)),
    (&hl::ARGMAX, Expansion::Index(IndexOp::ArgMax)),
    (&hl::ARGMIN, Expansion::Index(IndexOp::ArgMin)),
    (&hl::GATHER_ELEMENTS, Expansion::Index(IndexOp::GatherElements)),
    (&hl::GATHER_ND, Expansion::Index(IndexOp::GatherNd)),
];

/// Whether `def` is one of the composites this pass expands (`softmax`, `layer_norm`, `gelu`,
/// ...), which other passes leave to it.
pub(crate) fn is_composite(def: &'static OpDef) -> bool {
    KNOWN.iter().any(|&(d, how)| std::ptr::eq(d, def) && matches!(how, Expansion::Composite(_)))
}

kiln_compiler::declare_pass! {
    struct Decompose {
        only: Vec<&'static OpDef>,
    }
    name: "hl-decompose",
    summary: "Expand composite hl ops into primitives",
    description: "softmax, log_softmax, layer_norm, rms_norm, batch_norm, gelu, silu, swiglu, bias_add and \
                  dropout become reductions and elementwise ops; split, iota, trilu, the pools, conv2d \
                  with a bias and rank-broadcasting batch_matmul become slices, pads, constants and \
                  the ops that lower.",
    options: &[PassOptionSpec {
        name: "ops",
        help: "Comma-separated composites to expand (default: all)",
        kind: OptionKind::List,
        default: "",
    }],
    create(o) {
        let mut only = Vec::new();
        for name in o.get_list("ops") {
            match KNOWN.iter().find(|&&(d, _)| d.short_name() == name) {
                Some(&(def, _)) => only.push(def),
                None => {
                    let all: Vec<&str> = KNOWN.iter().map(|&(d, _)| d.short_name()).collect();
                    return Err(format!("hl-decompose: unknown composite '{name}'; known: {}", all.join(", ")));
                }
            }
        }
        if only.is_empty() {
            only = KNOWN.iter().map(|&(d, _)| d).collect();
        }
        Ok(Decompose { only })
    }

    fn run(&mut self, cx, root) {
        // Expansions produce primitives only, so one sweep over the composites suffices.
        let targets: Vec<(OpId, Expansion)> = cx
            .ir
            .walk(root, WalkOrder::PreOrder)
            .filter_map(|op| {
                let def = *self.only.iter().find(|&&d| cx.ir.is(op, d))?;
                let &(_, how) = KNOWN.iter().find(|&&(d, _)| std::ptr::eq(d, def))?;
                let applies = match how {
                    Expansion::Model(m) => model::applies(cx.ir, op, m),
                    Expansion::Composite(_) | Expansion::Index(_) => true,
                };
                applies.then_some((op, how))
            })
            .collect();
        let mut failed = false;
        for (op, how) in targets {
            if has_dynamic_dims(cx.ir, op) && !row_wise(cx.ir, op, how) {
                cx.add_statistic("num-dynamic-kept", "Composites kept because their shapes are dynamic", 1);
                continue;
            }
            let mut rw = Rewriter::new(cx.ctx, cx.ir);
            let expansion = match how {
                Expansion::Model(m) => model::expand(&mut rw, op, m),
                Expansion::Index(i) => index::expand(&mut rw, op, i).map(|v| vec![v]),
                Expansion::Composite(c) => expand(&mut rw, op, c).map(|v| vec![v]),
            };
            match expansion {
                // A composite that is its own input (`%0 = hl.dropout %0` in a graph region)
                // cannot be forwarded and stays.
                Ok(values) => {
                    if !rw.replace_op(op, &values) {
                        cx.add_statistic(
                            "num-self-kept",
                            "Composites kept because they use their own result",
                            1,
                        );
                        continue;
                    }
                }
                Err(message) => {
                    let name = cx.ir.op(op).name;
                    let loc = cx.ir.op(op).loc;
                    cx.diagnostics
                        .push(Diagnostic::error(loc, format!("'{name}' op cannot be decomposed: {message}")));
                    failed = true;
                }
            }
            cx.add_statistic("num-decomposed", "Number of composite ops expanded", 1);
        }
        if failed {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

/// Whether any operand or result of `op` has a dynamic dim.
fn has_dynamic_dims(ir: &kiln_compiler::Ir<'_>, op: OpId) -> bool {
    ir.operands(op)
        .iter()
        .chain(ir.results(op))
        .any(|&v| tensor_parts(ir.value_type(v)).is_some_and(|(s, _)| s.contains(&kiln_compiler::DYNAMIC)))
}

/// Whether composite `op` (expanded as `how`) with `?` dims expands all the same: its result
/// has its operand's type, and it is an elementwise one, or a softmax or a norm over a static axis (its expansion reduces that axis
/// and broadcasts back along the others, whatever their sizes: a row shape class).
fn row_wise(ir: &kiln_compiler::Ir<'_>, op: OpId, how: Expansion) -> bool {
    let Some(&x) = ir.operands(op).first() else { return false };
    let Some((shape, _)) = tensor_parts(ir.value_type(x)) else { return false };
    // Its expansion has its operand's type, the declared result must be that.
    if ir.results(op).first().is_none_or(|&r| ir.value_type(r) != ir.value_type(x)) {
        return false;
    }
    let static_at =
        |axis: Option<usize>| axis.and_then(|a| shape.get(a)).is_some_and(|&d| d != kiln_compiler::DYNAMIC);
    let axis = ir.attr(op, "axis").and_then(|a| a.as_int()).unwrap_or(-1) as i64;
    match how {
        Expansion::Composite(Composite::Gelu | Composite::Silu | Composite::Dropout) => true,
        Expansion::Composite(Composite::Softmax | Composite::LogSoftmax) => {
            static_at(normalize_axis(axis, shape.len().max(1)).ok())
        }
        Expansion::Composite(Composite::LayerNorm | Composite::RmsNorm) => {
            static_at(shape.len().checked_sub(1))
        }
        _ => false,
    }
}

/// Builds the expansion of composite `op` (a `kind` op) before it.
fn expand<'c>(rw: &mut Rewriter<'_, 'c>, op: OpId, kind: Composite) -> Result<ValueId, String> {
    let ir = rw.ir();
    let args = ir.operands(op).to_vec();
    let x = args[0];
    let (shape, elem) = tensor_parts(ir.value_type(x)).ok_or("operand is not a ranked tensor")?;
    let rank = shape.len();
    let axis_attr = ir.attr(op, "axis").and_then(|a| a.as_int()).unwrap_or(-1) as i64;
    let axis = normalize_axis(axis_attr, rank.max(1))?;
    let eps = ir.attr(op, "epsilon").and_then(float_value).unwrap_or(1e-5);
    let approximate_tanh =
        ir.attr(op, "approximate").and_then(GeluApproximation::of) == Some(GeluApproximation::Tanh);
    let result_ty = ir.value_type(ir.results(op)[0]);
    let mut b = HlBuilder::new(rw, op);
    let keep = b.yes();
    let axes = b.ints(&[axis as i64]);
    let last = b.ints(&[rank.saturating_sub(1) as i64]);
    let v = match kind {
        Composite::Softmax => {
            let m = b.create(&hl::REDUCE_MAX, &[x], &[("axes", axes), ("keep_dims", keep)], None)?;
            let d = b.create(&hl::SUB, &[x, m], &[], None)?;
            let e = b.create(&hl::EXP, &[d], &[], None)?;
            let s = b.create(&hl::REDUCE_SUM, &[e], &[("axes", axes), ("keep_dims", keep)], None)?;
            b.create(&hl::DIV, &[e, s], &[], None)?
        }
        Composite::LogSoftmax => {
            let m = b.create(&hl::REDUCE_MAX, &[x], &[("axes", axes), ("keep_dims", keep)], None)?;
            let d = b.create(&hl::SUB, &[x, m], &[], None)?;
            let e = b.create(&hl::EXP, &[d], &[], None)?;
            let s = b.create(&hl::REDUCE_SUM, &[e], &[("axes", axes), ("keep_dims", keep)], None)?;
            let l = b.create(&hl::LOG, &[s], &[], None)?;
            b.create(&hl::SUB, &[d, l], &[], None)?
        }
        Composite::LayerNorm => {
            let mean = b.create(&hl::REDUCE_MEAN, &[x], &[("axes", last), ("keep_dims", keep)], None)?;
            let c = b.create(&hl::SUB, &[x, mean], &[], None)?;
            let sq = b.create(&hl::MUL, &[c, c], &[], None)?;
            let var = b.create(&hl::REDUCE_MEAN, &[sq], &[("axes", last), ("keep_dims", keep)], None)?;
            let n = normalize(&mut b, c, var, eps, elem)?;
            let g = b.create(&hl::MUL, &[n, args[1]], &[], None)?;
            b.create(&hl::ADD, &[g, args[2]], &[], None)?
        }
        Composite::RmsNorm => {
            let sq = b.create(&hl::MUL, &[x, x], &[], None)?;
            let ms = b.create(&hl::REDUCE_MEAN, &[sq], &[("axes", last), ("keep_dims", keep)], None)?;
            let n = normalize(&mut b, x, ms, eps, elem)?;
            b.create(&hl::MUL, &[n, args[1]], &[], None)?
        }
        Composite::BatchNorm => {
            let c = b.create(&hl::SUB, &[x, args[1]], &[], None)?;
            let n = normalize(&mut b, c, args[2], eps, elem)?;
            let g = b.create(&hl::MUL, &[n, args[3]], &[], None)?;
            b.create(&hl::ADD, &[g, args[4]], &[], None)?
        }
        Composite::Gelu => gelu(&mut b, x, elem, approximate_tanh)?,
        Composite::Silu => silu(&mut b, x)?,
        Composite::Swiglu => {
            let half = shape[axis] / 2;
            let mut starts = vec![0i64; rank];
            let mut limits = shape.to_vec();
            limits[axis] = half;
            let (sa, la) = (b.ints(&starts), b.ints(&limits));
            let a = b.create(&hl::SLICE, &[x], &[("starts", sa), ("limits", la)], None)?;
            starts[axis] = half;
            limits[axis] = shape[axis];
            let (sb, lb) = (b.ints(&starts), b.ints(&limits));
            let gate = b.create(&hl::SLICE, &[x], &[("starts", sb), ("limits", lb)], None)?;
            let s = silu(&mut b, a)?;
            b.create(&hl::MUL, &[s, gate], &[], None)?
        }
        Composite::BiasAdd => {
            let mut bias = args[1];
            if axis + 1 != rank {
                let mut dims = vec![1i64; rank - axis];
                dims[0] = shape[axis];
                let ty = b.rw.ctx.tensor_type(&dims, elem);
                bias = b.create(&hl::RESHAPE, &[bias], &[], Some(ty))?;
            }
            b.create(&hl::ADD, &[x, bias], &[], None)?
        }
        Composite::Dropout => x,
    };
    if b.rw.ir().value_type(v) != result_ty {
        return Err(format!("expansion produced '{}' instead of '{result_ty}'", b.rw.ir().value_type(v)));
    }
    Ok(v)
}

/// `c * rsqrt(var + eps)`.
fn normalize<'c>(
    b: &mut HlBuilder<'_, '_, 'c>,
    c: ValueId,
    var: ValueId,
    eps: f64,
    elem: kiln_compiler::Type<'c>,
) -> Result<ValueId, String> {
    let e = b.scalar(elem, eps)?;
    let ve = b.create(&hl::ADD, &[var, e], &[], None)?;
    let r = b.create(&hl::RSQRT, &[ve], &[], None)?;
    b.create(&hl::MUL, &[c, r], &[], None)
}

fn silu(b: &mut HlBuilder<'_, '_, '_>, x: ValueId) -> Result<ValueId, String> {
    let s = b.create(&hl::SIGMOID, &[x], &[], None)?;
    b.create(&hl::MUL, &[x, s], &[], None)
}

fn gelu<'c>(
    b: &mut HlBuilder<'_, '_, 'c>,
    x: ValueId,
    elem: kiln_compiler::Type<'c>,
    tanh_form: bool,
) -> Result<ValueId, String> {
    let half = b.scalar(elem, 0.5)?;
    let one = b.scalar(elem, 1.0)?;
    let inner = if tanh_form {
        let x2 = b.create(&hl::MUL, &[x, x], &[], None)?;
        let x3 = b.create(&hl::MUL, &[x2, x], &[], None)?;
        let k = b.scalar(elem, 0.044715)?;
        let kx3 = b.create(&hl::MUL, &[x3, k], &[], None)?;
        let sum = b.create(&hl::ADD, &[x, kx3], &[], None)?;
        let c = b.scalar(elem, (2.0 / std::f64::consts::PI).sqrt())?;
        let arg = b.create(&hl::MUL, &[sum, c], &[], None)?;
        b.create(&hl::TANH, &[arg], &[], None)?
    } else {
        let c = b.scalar(elem, std::f64::consts::FRAC_1_SQRT_2)?;
        let arg = b.create(&hl::MUL, &[x, c], &[], None)?;
        b.create(&hl::ERF, &[arg], &[], None)?
    };
    let onep = b.create(&hl::ADD, &[one, inner], &[], None)?;
    let hx = b.create(&hl::MUL, &[half, x], &[], None)?;
    b.create(&hl::MUL, &[hx, onep], &[], None)
}
