//! `kiln-codegen-tile`: chooses each kernel's tile from the target and the actual shapes.
//!
//! Rewrites: every kernel function (`npuvec.kind = "vector"` or `"layout"`) gets
//! `npuvec.tile = {block, block_dim, col_block, key, peak_bytes}` (see `codegen/tiling.rs`): the rows of a tile are the most
//! whose buffers (from the vector model, with in-place reuse) peak at most at the target's
//! usable UB, the key axis is tiled in `block`s with a tail, and `block_dim` cores take the
//! tiles round robin; a layout kernel that assembles its output from parts (`hl.concat`,
//! `hl.pad`) gets the tile of copying its whole output, which fits every part
//! (`codegen/lower_layout.rs`). A mix kernel's matmul tiles leave room in UB for its epilogue's buffers
//! (`codegen/epilogue.rs`). A vector kernel whose tiles, sized for half the UB, give every core
//! at least two is double-buffered (`buffers = 2`: its loads overlap the work on the previous
//! tile; see `kiln-codegen-plan-ub`). Matmul kernels get `npuvec.tile = {m, n, k, block_dim}`
//! (fractal multiples of the target's cube; a conv2d's contraction is `[O / groups, K] x [K,
//! OW]`, see `codegen/conv_plan.rs`). Gather kernels get `npuvec.tile = {block_dim, rows}`
//! (indices per tile, see `codegen/lower_gather.rs`). Attention kernels get `npuvec.tile = {q, k,
//! block_dim}` (query rows and keys per tile, `AttentionTiling` in `codegen/attention_tiling.rs`). Every kernel gets `npuvec.block_dim`, the cores its
//! launches use. With `ub-budget=N` the tiles are sized for N bytes of UB instead of the
//! target's usable UB (the plan is still checked against the target by `kiln-codegen-plan-ub`).
//!
//! A kernel with `?` dims is tiled as a row shape class (`codegen/row_class.rs`): its tile is
//! chosen for any row count, and it gets `npuvec.row_class` as well; a kernel with `?` dims
//! that is not one (not a vector kernel, a reduction over a `?` axis, ...) is a located error
//! naming the kernel ("kernel @k is not a row shape class: ...").
//!
//! Runs on: `builtin.module`. Assumes: `kiln-codegen-outline` ran. Guarantees: the IR is
//! unchanged apart from the attributes; a kernel over a zero-size tensor, one over a tensor
//! larger than the target's HBM, or one whose single row does not fit the UB is a located
//! error.

use kiln_compiler::ir::WalkOrder;
use kiln_compiler::pass::PassFailed;
use kiln_compiler::{Context, Diagnostic, FloatKind, Ir, OpId, Type, TypeKind};
use kiln_dialects::hl::interfaces::num_bytes;
use kiln_dialects::{func, hl};
use kiln_targets::Target;

use crate::codegen::attention_form::AttentionForm;
use crate::codegen::attention_tiling::AttentionTiling;
use crate::codegen::build::{i64_attr, set_attr};
use crate::codegen::conv_plan::ConvShape;
use crate::codegen::epilogue::Epilogue;
use crate::codegen::lower_gather::{gather_op, GatherShape, GatherTiling};
use crate::codegen::lower_layout::{assembling_op, output_model};
use crate::codegen::model::VectorModel;
use crate::codegen::options::{load_target, tile_target, TILE_SPECS};
use crate::codegen::row_class::{self, any_dynamic};
use crate::codegen::tiling::{MatmulTiling, Tiling};
use crate::kiln_codegen_outline::KernelKind;

kiln_compiler::declare_pass! {
    struct Tile { target: Target, double_buffer: bool }
    name: "kiln-codegen-tile",
    summary: "Choose each kernel's tile shape from the target",
    description: "Attaches npuvec.tile to every kernel: rows per tile under the usable UB, key axis, \
                  tail and block_dim.",
    anchor: "builtin.module",
    options: TILE_SPECS,
    create(o) {
        let target = tile_target(&load_target("kiln-codegen-tile", o)?, o);
        Ok(Tile { target, double_buffer: o.get_bool("double-buffer") })
    }

    fn run(&mut self, cx, root) {
        tile_module(cx.ctx, cx.ir, root, &self.target, self.double_buffer, &|_, _| 1, cx.diagnostics)
    }
}

/// Tiles every kernel under `root`, kernel `k` within the usable UB divided by `shrink(k)`;
/// each kernel that cannot be tiled is a located error in `diagnostics`.
pub fn tile_module<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    target: &Target,
    double_buffer: bool,
    shrink: &dyn Fn(&Ir<'c>, OpId) -> u64,
    diagnostics: &mut Vec<Diagnostic<'c>>,
) -> Result<(), PassFailed> {
    let mut failed = false;
    for kernel in kernels(ir, root) {
        let by = shrink(ir, kernel);
        if let Err(message) = tile_kernel(ctx, ir, kernel, target, by, double_buffer) {
            diagnostics.push(Diagnostic::op_error(ir, kernel, message));
            failed = true;
        }
    }
    if failed {
        return Err(PassFailed);
    }
    Ok(())
}

/// The kernel functions under `root`, with their kinds.
pub fn kernels(ir: &Ir<'_>, root: OpId) -> Vec<OpId> {
    ir.walk(root, WalkOrder::PreOrder)
        .filter(|&op| ir.is(op, &func::FUNC_OP) && kernel_kind(ir, op).is_some())
        .collect()
}

/// The kind of kernel function `op` (`None` when it is not one).
pub fn kernel_kind(ir: &Ir<'_>, op: OpId) -> Option<KernelKind> {
    let attr = ir.attr(op, "npuvec.kind")?;
    KernelKind::from_name(attr.as_str()?)
}

/// Whether the vector unit of `target` computes on elements of `t`: f32, f16, bf16, i32, i8,
/// i1, and i64 where the target says so (`vector.int64`).
fn check_elem(t: Type<'_>, target: &Target) -> Result<(), String> {
    match *t.kind() {
        TypeKind::Float(FloatKind::F32 | FloatKind::F16 | FloatKind::BF16) => Ok(()),
        TypeKind::Integer { width: 1 | 8 | 32, .. } => Ok(()),
        TypeKind::Integer { width: 64, .. } if target.vector.int64 => Ok(()),
        _ => Err(format!(
            "element type {t} is not supported by the vector unit of target '{}' (f32, f16, bf16, i32, i8, i1{})",
            target.name,
            if target.vector.int64 { ", i64" } else { "; i64 needs `vector.int64`" }
        )),
    }
}

/// Chooses and attaches the tile of one kernel, within the usable UB divided by `shrink`
/// (`double_buffer`: a vector kernel may be double-buffered).
pub fn tile_kernel<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    kernel: OpId,
    target: &Target,
    shrink: u64,
    double_buffer: bool,
) -> Result<(), String> {
    let body =
        ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)).ok_or("a kernel without a body")?;
    let types: Vec<_> = ir
        .block_ops(body)
        .flat_map(|o| ir.results(o).iter().copied())
        .chain(ir.block_args(body).iter().copied())
        .map(|v| ir.value_type(v))
        .filter(|t| t.shape().is_some())
        .collect();
    if let Some(empty) = types.iter().find(|t| t.shape().is_some_and(|s| s.contains(&0))) {
        return Err(format!("kiln-codegen cannot tile a kernel over the zero-size {empty}"));
    }
    // Bounding every tensor by the HBM keeps the tile arithmetic (in i64) far from overflow.
    let hbm = target.hbm.capacity_bytes;
    if let Some(huge) = types.iter().find(|&&t| num_bytes(t) > hbm) {
        return Err(format!(
            "kiln-codegen cannot tile a kernel over {huge}: it is larger than the target's HBM ({hbm} bytes, hbm.capacity_bytes)"
        ));
    }
    let args = ir.block_args(body).to_vec();
    let values = ir.block_ops(body).flat_map(|o| ir.results(o).to_vec()).chain(args.iter().copied());
    if any_dynamic(ir, values.collect::<Vec<_>>()) {
        return class_tile(ctx, ir, kernel, body, target, shrink, double_buffer);
    }
    let attr = match kernel_kind(ir, kernel) {
        Some(kind @ (KernelKind::Vector | KernelKind::Layout)) => {
            for t in &types {
                check_elem(t.element_type().ok_or("a non-tensor value")?, target)?;
            }
            let model = match assembling_op(ir, body).filter(|_| kind == KernelKind::Layout) {
                Some(op) => output_model(ir, op)?,
                None => VectorModel::analyze(ir, body, &args)?,
            };
            let tiling = if kind == KernelKind::Vector && double_buffer {
                Tiling::choose_buffered(ctx, ir, &model, target, shrink)?
            } else {
                Tiling::choose(ctx, ir, &model, target, shrink)?
            };
            tiling.attr(ctx)
        }
        Some(KernelKind::Matmul) => {
            let conv = ir.block_ops(body).find(|&o| ir.is(o, &hl::CONV2D));
            match conv {
                Some(op) => ConvShape::of_op(ir, op)?.tiling(target, shrink)?.attr(ctx),
                None => MatmulTiling::choose(ir, body, target, shrink)?.attr(ctx),
            }
        }
        Some(KernelKind::Gather) => {
            let op = gather_op(ir, body)?;
            GatherTiling::choose(&GatherShape::of_op(ir, op)?, target, shrink)?.attr(ctx)
        }
        Some(KernelKind::Mix) => {
            // The fixpipe's output and the epilogue's UB buffers share the UB.
            let (_, epilogue) = Epilogue::of_kernel(ir, body)?;
            MatmulTiling::choose(ir, body, target, shrink * epilogue.ub_buffers())?.attr(ctx)
        }
        Some(KernelKind::Attention) => {
            let ops: Vec<OpId> = ir.block_ops(body).collect();
            let form = AttentionForm::of_ops(ir, &ops)?;
            AttentionTiling::fit(&form.shape(ctx, ir), target, shrink)?.attr(ctx)
        }
        None => return Ok(()),
    };
    set_tile(ctx, ir, kernel, attr);
    Ok(())
}

/// Attaches tile `attr` and its `block_dim` to `kernel`.
fn set_tile<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId, attr: kiln_compiler::Attribute<'c>) {
    let block_dim = attr.dict_get("block_dim").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    set_attr(ctx, ir, kernel, "npuvec.tile", attr);
    set_attr(ctx, ir, kernel, "npuvec.block_dim", i64_attr(ctx, block_dim));
}

/// Tiles `kernel` (entry block `body`), which has `?` dims, as a row class
/// (`codegen/row_class.rs`; `double_buffer`: it may be double-buffered): its tile and
/// `npuvec.row_class`, or why it is not one.
fn class_tile<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    kernel: OpId,
    body: kiln_compiler::BlockId,
    target: &Target,
    shrink: u64,
    double_buffer: bool,
) -> Result<(), String> {
    let name =
        String::from_utf8_lossy(ir.attr(kernel, "sym_name").and_then(|a| a.as_str()).unwrap_or_default())
            .into_owned();
    let not_class = |why: String| format!("kernel @{name} is not a row shape class: {why}");
    let kind = kernel_kind(ir, kernel);
    if kind != Some(KernelKind::Vector) {
        let kind = kind.map_or("unknown", |k| k.name());
        return Err(not_class(format!(
            "it is a {kind} kernel with `?` dims (only vector kernels have a class)"
        )));
    }
    let args = ir.block_args(body).to_vec();
    let model = VectorModel::analyze(ir, body, &args).map_err(&not_class)?;
    for v in &args {
        check_elem(ir.value_type(*v).element_type().ok_or("a non-tensor value")?, target)?;
    }
    let (tiling, class) =
        row_class::choose(ctx, ir, &model, &args, target, shrink, double_buffer).map_err(&not_class)?;
    set_tile(ctx, ir, kernel, tiling.attr(ctx));
    row_class::set_class(ctx, ir, kernel, &class);
    Ok(())
}
