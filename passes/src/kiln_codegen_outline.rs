//! `kiln-codegen-outline`: every kernel-sized piece of work becomes a kernel function.
//!
//! Rewrites, in every public `func.func` of the module (the host functions):
//! - each `fused.region` whose body the back end can lower as one kernel becomes a private
//!   `func.func @<host>_kernel<N>` (its body moved there, `fused.yield` -> `func.return`)
//!   and a `func.call` in its place; a region it cannot lower as one (a `cube`/`mix` region,
//!   or a vector body the model of `codegen/model.rs` rejects) is first unwrapped into its
//!   ops: a matmul whose result only goes through views and transposes to the region's output
//!   (attention's head split or merge) is one matmul kernel storing through that layout; else
//!   its cube ops become kernels of their own and the rest one vector kernel when the
//!   model takes it and the cube ops use nothing the rest computes (a conv and its
//!   batch_norm / relu epilogue), else every op is outlined on its own (a remark says why);
//! - an `attention` region becomes one flash-attention kernel (`npuvec.kind = "attention"`,
//!   `codegen/lower_attention.rs`) when `codegen/attention_form.rs` reads it and its smallest
//!   tiles fit the target's buffers (`AttentionTiling::fit`, the choice `kiln-codegen-tile`
//!   makes again), with a remark "attention region lowered as 1 kernel"; otherwise (or with
//!   `flash-attention=false`) it is unwrapped and each of its `parts` (the kernels `kiln-fuse`
//!   would have formed of its ops) lowered as a region of that part's ops would be, with a
//!   remark "attention region lowered as N kernels: why not one";
//! - each compute op outside regions (an elementwise op, a reduction, a matmul, a
//!   transpose, slice, concat, pad or broadcast, a gather) becomes a kernel of its own, but a slice
//!   whose users are vector kernels (the parts of a split, the taps of a pool) is copied into
//!   each of them as a strided view of its operand when the vector model takes it, and
//!   vanishes when no other user is left;
//! - constants and views (`hl.reshape`, `hl.expand_dims`, `hl.squeeze`) stay in the host.
//!
//! A splat `hl.constant` that a kernel takes as an input is copied into the kernel (it becomes
//! an immediate there), except where the cube or a gather reads it (they read operands from GM). Kernels carry `npuvec.core = #npuvec.core<aiv>` (vector) or `<aic>`
//! (cube work) and `npuvec.kind = "vector" | "matmul" | "mix" | "layout" | "gather"` (which
//! lowering applies).
//!
//! Options: `target` (whose buffers an attention kernel's tiles must fit) and `flash-attention`
//! (default true).
//!
//! Runs on: `builtin.module`. Assumes: verified IR after `kiln-fuse` (or none: every op is
//! then its own kernel). `?` dims are outlined like static ones (`kiln-codegen-tile` decides
//! whether a kernel with `?` dims is a row shape class, `codegen/row_class.rs`). Guarantees: verified IR computing the same values (the interpreter
//! runs it: kernels are ordinary functions); no `fused.region` left in host functions;
//! deterministic names and order.

use kiln_compiler::ir::{Mapping, WalkOrder};
use kiln_compiler::symbol_table::{is_symbol_table, symbol_name, symbols};
use kiln_compiler::{
    BlockId, Context, Diagnostic, Ir, NamedAttr, OpId, OperationState, Severity, Type, ValueId,
};
use kiln_dialects::func::{CALL_OP, FUNC_OP, RETURN_OP};
use kiln_dialects::fused::verify::summarize_body;
use kiln_dialects::fused::{region_inputs_outputs, RegionKind, REGION_OP};
use kiln_dialects::hl;
use kiln_dialects::hl::accessors::int_list;
use kiln_dialects::hl::canonicalize::splat_value;
use kiln_dialects::hl::interfaces::{hl_op, FusionCategory, Movement};
use kiln_dialects::hl::GATHER;
use kiln_dialects::npuvec::Core;

use crate::codegen::attention_form::AttentionForm;
use crate::codegen::attention_tiling::AttentionTiling;
use crate::codegen::epilogue::Epilogue;
use crate::codegen::model::{Unsupported, VectorModel};
use crate::codegen::options::{load_target, OUTLINE_SPECS};
use crate::codegen::store_view::StoreView;
use crate::codegen::tiling::MatmulShape;
use kiln_targets::Target;

kiln_compiler::declare_pass! {
    struct Outline { target: Target, flash: bool }
    name: "kiln-codegen-outline",
    summary: "Outline fused regions and lone compute ops into kernel functions",
    description: "Each fused.region (or, when it cannot be one kernel, each of its ops) and each compute \
                  op outside regions becomes a private kernel function marked npuvec.core, called \
                  from the host function.",
    anchor: "builtin.module",
    options: OUTLINE_SPECS,
    create(o) {
        Ok(Outline { target: load_target("kiln-codegen-outline", o)?, flash: o.get_bool("flash-attention") })
    }

    fn run(&mut self, cx, root) {
        let ir = &*cx.ir;
        let hosts: Vec<OpId> = ir
            .walk(root, WalkOrder::PreOrder)
            .filter(|&op| {
                ir.is(op, &FUNC_OP)
                    && ir.parent_op(op).is_some_and(|p| is_symbol_table(ir, p))
                    && ir.attr(op, "sym_visibility").is_none()
                    && ir.attr(op, "npuvec.core").is_none()
            })
            .collect();
        let mut kernels = 0;
        let flash = self.flash.then_some(&self.target);
        for host in hosts {
            kernels += outline_host(cx.ctx, cx.ir, cx.diagnostics, host, flash);
        }
        cx.add_statistic("num-kernels", "Number of kernels outlined", kernels);
        Ok(())
    }
}

/// How a kernel is lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelKind {
    /// Elementwise, broadcast and reduce ops on the vector unit (`codegen/model.rs`).
    Vector,
    /// A matmul or batch matmul on the cube.
    Matmul,
    /// A matmul on the cube with an elementwise epilogue on the vector unit
    /// (`codegen/epilogue.rs`).
    Mix,
    /// One data movement op (transpose, slice, concat, pad, broadcast) as DMA.
    Layout,
    /// One `hl.gather` as indexed DMA (`codegen/lower_gather.rs`).
    Gather,
    /// An attention region as one flash-attention kernel (`codegen/lower_attention.rs`).
    Attention,
}

impl KernelKind {
    /// The `npuvec.kind` spelling.
    pub fn name(self) -> &'static str {
        match self {
            KernelKind::Vector => "vector",
            KernelKind::Matmul => "matmul",
            KernelKind::Mix => "mix",
            KernelKind::Layout => "layout",
            KernelKind::Gather => "gather",
            KernelKind::Attention => "attention",
        }
    }

    /// The kind named `s`.
    pub fn from_name(s: &[u8]) -> Option<KernelKind> {
        [
            KernelKind::Vector,
            KernelKind::Matmul,
            KernelKind::Mix,
            KernelKind::Layout,
            KernelKind::Gather,
            KernelKind::Attention,
        ]
        .into_iter()
        .find(|k| k.name().as_bytes() == s)
    }
}

/// The epilogue when `ops` (a region's body) are one matmul first and an elementwise epilogue
/// on its result tiles.
fn mix_kernel(ir: &Ir<'_>, ops: &[OpId]) -> Option<Epilogue> {
    let mm = ops.iter().copied().find(|&o| !ir.is(o, &hl::CONSTANT))?;
    let rest: Vec<OpId> = ops.iter().copied().filter(|&o| o != mm).collect();
    let inputs = ir.operands(mm).iter().all(|&v| ir.defining_op(v).is_none_or(|d| !ops.contains(&d)));
    if !inputs || MatmulShape::of_op(ir, mm).is_err() || rest.is_empty() {
        return None;
    }
    Epilogue::analyze(ir, mm, &rest).ok()
}

/// Whether `ops` (a region's body) are one matmul whose result goes through views and
/// transposes only (a head split or merge) to the region's one output: one matmul kernel that
/// stores through the composed layout (`codegen/store_view.rs`), when a tile of 16-column
/// fractals can store whole heads.
fn viewed_matmul(ir: &Ir<'_>, ops: &[OpId]) -> bool {
    let body: Vec<OpId> = ops.iter().copied().filter(|&o| !ir.is(o, &hl::CONSTANT)).collect();
    let Some((&mm, chain)) = body.split_first() else { return false };
    let inputs = ir.operands(mm).iter().all(|&v| ir.defining_op(v).is_none_or(|d| !ops.contains(&d)));
    let (_, outputs) = region_inputs_outputs(ir, ops);
    let Ok(shape) = MatmulShape::of_op(ir, mm) else { return false };
    inputs
        && StoreView::of_ops(ir, mm, chain, &outputs)
            .is_some_and(|(_, view)| (1..=8).any(|i| view.n_tile_ok(shape.n, 16 * i)))
}

/// The kernels the back end makes of a region's ops when the vector model does not take them
/// as one kernel (see the module documentation).
pub enum Split {
    /// One `mix` kernel: the matmul with this elementwise epilogue.
    Mix(Epilogue),
    /// One matmul kernel storing through the views and transposes after it.
    ViewedMatmul,
    /// The cube ops as kernels of their own, then the `rest` as one vector kernel.
    CubeThenVector {
        /// The cube ops.
        cube: Vec<OpId>,
        /// The other ops, in program order.
        rest: Vec<OpId>,
    },
    /// Every op a kernel of its own.
    PerOp,
}

/// How the back end splits `ops` (a region's body, in program order, in one block) that the
/// vector model does not take as one kernel: [`Split`].
pub fn split(ir: &Ir<'_>, ops: &[OpId]) -> Split {
    if let Some(epilogue) = mix_kernel(ir, ops) {
        return Split::Mix(epilogue);
    }
    if viewed_matmul(ir, ops) {
        return Split::ViewedMatmul;
    }
    let (cube, rest): (Vec<OpId>, Vec<OpId>) =
        ops.iter().partition(|&&o| lone_kind(ir, o) == Some(KernelKind::Matmul));
    let (inputs, outputs) = region_inputs_outputs(ir, &rest);
    // The cube kernels launch first: they may not use what the rest computes.
    let independent = cube
        .iter()
        .all(|&c| ir.operands(c).iter().all(|&v| ir.defining_op(v).is_none_or(|d| !rest.contains(&d))));
    let vector = !cube.is_empty()
        && independent
        && rest.iter().all(|&o| !ir.is(o, &hl::CONSTANT))
        && VectorModel::analyze_ops(ir, rest.clone(), &inputs, outputs).is_ok();
    if vector {
        Split::CubeThenVector { cube, rest }
    } else {
        Split::PerOp
    }
}

/// The kernel kind of a lone op, or `None` when it stays in the host.
fn lone_kind(ir: &Ir<'_>, op: OpId) -> Option<KernelKind> {
    if ir.is(op, &hl::CONSTANT) {
        return None;
    }
    if ir.is(op, &hl::PAD) {
        return Some(KernelKind::Layout);
    }
    if ir.is(op, &GATHER) {
        return Some(KernelKind::Gather);
    }
    match hl_op(ir, op)?.category {
        FusionCategory::Cube => Some(KernelKind::Matmul),
        FusionCategory::Layout(Movement::View) => None,
        FusionCategory::Layout(_) => Some(KernelKind::Layout),
        FusionCategory::Broadcast => Some(KernelKind::Layout),
        _ => Some(KernelKind::Vector),
    }
}

/// Outlines the kernels of one host function (attention regions as one kernel each where they
/// fit `flash`, the target, when given); returns how many.
fn outline_host<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    diags: &mut Vec<Diagnostic<'c>>,
    host: OpId,
    flash: Option<&Target>,
) -> u64 {
    let table = ir.parent_op(host).expect("hosts sit in a symbol table");
    let mut taken: std::collections::HashSet<Vec<u8>> =
        symbols(ir, table).keys().map(|k| k.to_vec()).collect();
    let base = symbol_name(ir, host).unwrap_or_default().to_vec();
    let Some(body) = ir.regions(host).first().and_then(|&r| ir.entry_block(r)) else { return 0 };
    // The groups, in program order: a region's body when it is one vector kernel, else lone ops.
    let mut groups: Vec<(Vec<OpId>, KernelKind)> = Vec::new();
    for op in ir.block_ops(body).collect::<Vec<_>>() {
        if ir.is(op, &REGION_OP) {
            if RegionKind::of_region(ir, op) == Some(RegionKind::Attention) {
                let parts = int_list(ir.attr(op, "parts")).ok();
                let loc = ir.op(op).loc;
                let ops = unwrap_region(ir, op);
                let one = match flash {
                    Some(target) => flash_kernel(ctx, ir, &ops, target),
                    None => Err("flash-attention=false".into()),
                };
                let before = groups.len();
                let why = match one {
                    Ok(()) => {
                        groups.push((ops, KernelKind::Attention));
                        String::new()
                    }
                    Err(why) => {
                        attention_kernels(ir, diags, ops, parts, &mut groups);
                        format!(": {why}")
                    }
                };
                let n = groups.len() - before;
                let what = if n == 1 { "kernel" } else { "kernels" };
                diags.push(Diagnostic::new(
                    Severity::Remark,
                    loc,
                    format!("attention region lowered as {n} {what}{why}"),
                ));
                continue;
            }
            let inner = ir.entry_block(ir.regions(op)[0]).expect("regions have a body");
            let args = ir.block_args(inner).to_vec();
            let whole = match RegionKind::of_region(ir, op) {
                Some(RegionKind::Vector) => VectorModel::analyze(ir, inner, &args).map(|_| ()),
                kind => Err(format!("a {} region is lowered op by op", kind.map_or("", RegionKind::keyword))),
            };
            let ops = unwrap_region(ir, op);
            region_kernels(ir, diags, ops, whole, &mut groups);
        } else if let Some(kind) = lone_kind(ir, op) {
            groups.push((vec![op], kind));
        }
    }
    absorb_slices(ir, &mut groups);
    let mut n = 0usize;
    for (ops, kind) in &groups {
        let name = loop {
            let mut candidate = base.clone();
            candidate.extend_from_slice(format!("_kernel{n}").as_bytes());
            n += 1;
            if taken.insert(candidate.clone()) {
                break candidate;
            }
        };
        outline(ctx, ir, host, ops, *kind, &name);
    }
    groups.len() as u64
}

/// The kernels of a region's `ops` (unwrapped into the host, in program order) onto `groups`:
/// one vector kernel when `whole` says the vector model takes them as one, else as [`split`]
/// says (a remark when that is one kernel per op for a reason other than the region's kind).
fn region_kernels<'c>(
    ir: &Ir<'c>,
    diags: &mut Vec<Diagnostic<'c>>,
    ops: Vec<OpId>,
    whole: Result<(), String>,
    groups: &mut Vec<(Vec<OpId>, KernelKind)>,
) {
    let Err(why) = whole else {
        groups.push((ops, KernelKind::Vector));
        return;
    };
    let split = split(ir, &ops);
    if !matches!(split, Split::Mix(_) | Split::ViewedMatmul)
        && !why.starts_with("a cube")
        && !why.starts_with("a mix")
    {
        let loc = ir.op(*ops.last().expect("regions hold ops")).loc;
        diags.push(Diagnostic::new(Severity::Remark, loc, format!("split into one kernel per op: {why}")));
    }
    match split {
        Split::Mix(_) => groups.push((ops, KernelKind::Mix)),
        Split::ViewedMatmul => groups.push((ops, KernelKind::Matmul)),
        // Cube ops alone, then the rest as one vector kernel.
        Split::CubeThenVector { cube, rest } => {
            groups.extend(cube.into_iter().map(|o| (vec![o], KernelKind::Matmul)));
            groups.push((rest, KernelKind::Vector));
        }
        Split::PerOp => {
            groups.extend(ops.into_iter().filter_map(|o| lone_kind(ir, o).map(|k| (vec![o], k))));
        }
    }
}

/// Whether the attention of `ops` (an unwrapped attention region) is one flash-attention
/// kernel on `target`; `Err`: why not.
fn flash_kernel<'c>(ctx: &Context<'c>, ir: &Ir<'c>, ops: &[OpId], target: &Target) -> Result<(), String> {
    let form = AttentionForm::of_ops(ir, ops)?;
    AttentionTiling::fit(&form.shape(ctx, ir), target, 1).map(|_| ())
}

/// The kernels of an attention region's `ops` (unwrapped into the host, in program order) onto
/// `groups`, when they are not one flash-attention kernel: each part of `parts` (the region's
/// `parts`, one per op; see `fusion/attention.rs`) as a region of its kind would be lowered
/// (a part of one op as that op alone), in the order of their last ops; an op of part -1 alone
/// when it is a kernel at all. Without valid `parts` every op is a kernel of its own.
fn attention_kernels<'c>(
    ir: &Ir<'c>,
    diags: &mut Vec<Diagnostic<'c>>,
    ops: Vec<OpId>,
    parts: Option<Vec<i64>>,
    groups: &mut Vec<(Vec<OpId>, KernelKind)>,
) {
    let Some(parts) = parts.filter(|p| p.len() == ops.len()) else {
        groups.extend(ops.into_iter().filter_map(|o| lone_kind(ir, o).map(|k| (vec![o], k))));
        return;
    };
    for (i, &op) in ops.iter().enumerate() {
        let part = parts[i];
        if part < 0 {
            if let Some(k) = lone_kind(ir, op) {
                groups.push((vec![op], k));
            }
            continue;
        }
        // A part is lowered where its last op is.
        if parts[i + 1..].contains(&part) {
            continue;
        }
        let members: Vec<OpId> =
            ops.iter().zip(&parts).filter(|(_, &p)| p == part).map(|(&o, _)| o).collect();
        if let [lone] = members[..] {
            if let Some(k) = lone_kind(ir, lone) {
                groups.push((vec![lone], k));
            }
            continue;
        }
        let whole = match summarize_body(ir, members.iter().copied()).map(|s| s.kind()) {
            Ok(RegionKind::Vector) => kernel_model(ir, &members).map(|_| ()),
            Ok(kind) => Err(format!("a {} region is lowered op by op", kind.keyword())),
            Err(why) => Err(why),
        };
        region_kernels(ir, diags, members, whole, groups);
    }
}

/// Lone slices (the parts of a split, the taps of a pool) that feed vector kernels become
/// views of those kernels' inputs: each consuming group gets its own copy of the slice, first
/// among its ops, when the vector model takes the group with it (the copy reads the slice's
/// operand through a strided view); a slice left without users is erased, its kernel gone.
fn absorb_slices(ir: &mut Ir<'_>, groups: &mut Vec<(Vec<OpId>, KernelKind)>) {
    let lone: Vec<OpId> = groups
        .iter()
        .filter(|(ops, kind)| *kind == KernelKind::Layout && ir.is(ops[0], &hl::SLICE))
        .map(|(ops, _)| ops[0])
        .collect();
    for (ops, kind) in groups.iter_mut() {
        if *kind != KernelKind::Vector {
            continue;
        }
        let (inputs, _) = region_inputs_outputs(ir, ops);
        for v in inputs {
            let Some(slice) = ir.defining_op(v).filter(|d| lone.contains(d)) else { continue };
            let copy = ir.clone_op(slice, &mut Mapping::default());
            ir.insert_op_before(ops[0], copy);
            let r = ir.results(copy)[0];
            let uses: Vec<(OpId, usize)> =
                ir.uses(v).iter().filter(|u| ops.contains(&u.op)).map(|u| (u.op, u.index as usize)).collect();
            for &(op, i) in &uses {
                ir.set_operand(op, i, r);
            }
            let mut candidate = vec![copy];
            candidate.extend_from_slice(ops);
            let (ins, outs) = region_inputs_outputs(ir, &candidate);
            if VectorModel::analyze_ops(ir, candidate.clone(), &ins, outs).is_ok() {
                *ops = candidate;
            } else {
                for (op, i) in uses {
                    ir.set_operand(op, i, v);
                }
                ir.erase_op(copy);
            }
        }
    }
    let dead: Vec<OpId> = lone.into_iter().filter(|&s| ir.uses(ir.results(s)[0]).is_empty()).collect();
    groups.retain(|(ops, _)| !dead.contains(&ops[0]));
    for s in dead {
        ir.erase_op(s);
    }
}

/// Moves the ops of `region` before it, in order, and returns them; the region's results are
/// replaced by what its `fused.yield` yields.
fn unwrap_region(ir: &mut Ir<'_>, region: OpId) -> Vec<OpId> {
    let inner = ir.entry_block(ir.regions(region)[0]).expect("regions have a body");
    let inputs = ir.operands(region).to_vec();
    let term = ir.last_op(inner).expect("regions end in fused.yield");
    let yielded = ir.operands(term).to_vec();
    ir.erase_op(term);
    let ops = ir.inline_block_before(inner, region, &inputs);
    ir.replace_op_uses(region, &yielded);
    ir.erase_op(region);
    ops
}

/// Whether kernel input `v` is a splat `hl.constant`, which [`outline`] copies into the kernel
/// (an immediate there) unless the cube or a gather reads it.
fn is_splat(ir: &Ir<'_>, v: ValueId) -> bool {
    ir.defining_op(v).is_some_and(|d| ir.is(d, &hl::CONSTANT)) && splat_value(ir, v).is_some()
}

/// The vector model of the kernel this pass makes of `ops` (in program order, in one block,
/// neither a cube op nor a gather among them): the inputs of `ops` but their splat constants,
/// which the kernel holds as immediates. The model `kiln-codegen-tile` sizes its tiles with.
pub fn kernel_model(ir: &Ir<'_>, ops: &[OpId]) -> Result<VectorModel, Unsupported> {
    let (all_inputs, outputs) = region_inputs_outputs(ir, ops);
    let (splats, inputs): (Vec<ValueId>, Vec<ValueId>) =
        all_inputs.into_iter().partition(|&v| is_splat(ir, v));
    let constants = splats.iter().filter_map(|&v| ir.defining_op(v));
    VectorModel::analyze_ops(ir, constants.chain(ops.iter().copied()).collect(), &inputs, outputs)
}

/// Moves `ops` (contiguous, in program order, in `host`'s body) into a new private kernel
/// `name` before `host`, called where the last op was.
fn outline<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, host: OpId, ops: &[OpId], kind: KernelKind, name: &[u8]) {
    let (all_inputs, outputs) = region_inputs_outputs(ir, ops);
    // A gather reads its operands from GM (its indices are data even when constant), and so
    // does the cube: a splat weight of a matmul or convolution is loaded as any weight.
    let feeds_cube = |ir: &Ir<'_>, v: ValueId| {
        ir.uses(v).iter().any(|u| {
            ops.contains(&u.op)
                && u.index < 2
                && ir.is_any(u.op, &[&hl::MATMUL, &hl::BATCH_MATMUL, &hl::CONV2D])
        })
    };
    let (splats, inputs): (Vec<ValueId>, Vec<ValueId>) = all_inputs
        .into_iter()
        .partition(|&v| kind != KernelKind::Gather && is_splat(ir, v) && !feeds_cube(ir, v));
    let last = *ops.last().expect("groups are not empty");
    let loc = ir.op(last).loc;
    let in_types: Vec<Type<'c>> = inputs.iter().map(|&v| ir.value_type(v)).collect();
    let out_types: Vec<Type<'c>> = outputs.iter().map(|&v| ir.value_type(v)).collect();
    let named = |n: &str, value| NamedAttr { name: ctx.intern_str(n), value };
    let mut state = OperationState::new(FUNC_OP.name, Some(&FUNC_OP), loc);
    state.properties = Some(ctx.dict_attr(&[
        named("sym_name", ctx.str_attr(name)),
        named("function_type", ctx.type_attr(ctx.function_type(&in_types, &out_types))),
        named("sym_visibility", ctx.str_attr(b"private")),
    ]));
    let core = match kind {
        KernelKind::Matmul => Core::Aic,
        KernelKind::Mix | KernelKind::Attention => Core::Mix,
        _ => Core::Aiv,
    };
    state.attrs = vec![
        (ctx.intern_str("npuvec.core"), core.attr(ctx)),
        (ctx.intern_str("npuvec.kind"), ctx.str_attr(kind.name().as_bytes())),
    ];
    state.num_regions = 1;
    let kernel = ir.create_op(state);
    ir.insert_op_before(host, kernel);
    let block: BlockId = ir.create_block();
    ir.append_block(ir.regions(kernel)[0], block);
    let args: Vec<ValueId> = in_types.iter().map(|&t| ir.add_block_arg(block, t, Some(loc))).collect();

    let mut call = OperationState::new(CALL_OP.name, Some(&CALL_OP), loc);
    call.operands = inputs.clone();
    call.result_types = out_types;
    call.properties = Some(ctx.dict_attr(&[named("callee", ctx.symbol_ref_attr(name))]));
    let call = ir.create_op(call);
    ir.insert_op_after(last, call);
    let results = ir.results(call).to_vec();
    for (&out, &res) in outputs.iter().zip(&results) {
        let outside: Vec<(OpId, usize)> = ir
            .uses(out)
            .iter()
            .filter(|u| !ops.contains(&u.op) && u.op != call)
            .map(|u| (u.op, u.index as usize))
            .collect();
        for (op, i) in outside {
            ir.set_operand(op, i, res);
        }
    }
    for &op in ops {
        ir.detach_op(op);
        ir.append_op(block, op);
    }
    // Inputs -> block arguments; splat constants are copied in (they become immediates).
    let mut replacements: Vec<(ValueId, ValueId)> =
        inputs.iter().copied().zip(args.iter().copied()).collect();
    for &splat in &splats {
        let def = ir.defining_op(splat).expect("splats are constants");
        let copy = clone_op(ir, def);
        let first = ir.first_op(block).expect("the kernel has ops");
        ir.insert_op_before(first, copy);
        replacements.push((splat, ir.results(copy)[0]));
    }
    for (input, replacement) in replacements {
        let uses: Vec<(OpId, usize)> =
            ir.uses(input).iter().filter(|u| ops.contains(&u.op)).map(|u| (u.op, u.index as usize)).collect();
        for (op, i) in uses {
            ir.set_operand(op, i, replacement);
        }
    }
    let mut ret = OperationState::new(RETURN_OP.name, Some(&RETURN_OP), loc);
    ret.operands = outputs;
    let ret = ir.create_op(ret);
    ir.append_op(block, ret);
}

/// A detached copy of an op without operands or regions (a constant).
fn clone_op<'c>(ir: &mut Ir<'c>, op: OpId) -> OpId {
    let data = ir.op(op);
    let mut state = OperationState::new(data.name, data.def, data.loc);
    state.properties = data.properties;
    state.attrs = data.attrs.iter().map(|(&n, &v)| (n, v)).collect();
    state.result_types = ir.results(op).iter().map(|&v| ir.value_type(v)).collect();
    ir.create_op(state)
}
