//! What fusion may do with each op ([`classify`]) and what a candidate region would cost
//! ([`analyze`]): HBM traffic, UB footprint, depth, and the legality checks.
//!
//! **HBM traffic** of a set of ops run as one kernel: every distinct input value read once plus
//! every output value (a result some op outside the set uses) written once, from
//! [`num_bytes`]. An op left alone is a kernel of its own with the same formula, but a view
//! (reshape, expand_dims, squeeze) alone is free: the back end makes it an alias of its
//! operand's GM buffer, not a kernel. Fusing saves the traffic of the parts minus that of the
//! whole (joining a view saves nothing and costs nothing, so it is allowed).
//!
//! **UB footprint** of a region: the UB bytes of the smallest tile the back end would run it
//! with, from the back end's own model, so that fusion and `kiln-codegen` agree on what fits.
//! It does not depend on the row count, so vector ops with `?` dims fuse as static ones (a row
//! shape class, `codegen/row_class.rs`; a `?` counts as 1 in the HBM traffic); other ops with
//! `?` dims stay alone.
//! The region must fit `ub-budget` percent of the target's UB (at most its usable part). Its
//! kernels are those `kiln-codegen-outline` makes of it ([`kernel_model`], [`split`]):
//! - A region without a cube op is one vector kernel. Its buffers are those of
//!   `VectorModel::buffers` (a result reuses a dying operand's buffer in place, views alias
//!   their operand, splat constants are immediates, buffers without rows are loaded once and
//!   live throughout), placed as `kiln-codegen-plan-ub` places them ([`tile_bytes`], the
//!   footprint `kiln-codegen-tile` sizes tiles with), at one row of the whole reduced extent
//!   (the smallest tile the tile pass chooses). When that row exceeds the budget, the back end
//!   cuts it into column chunks (`codegen/staged.rs`): fusion allows that for a region that
//!   stitches no reduction's result into later ops (a stitched row would be reloaded and
//!   recomputed once per stage, so it must fit whole), measured with the staged buffers
//!   (`VectorModel::staged_buffers`: each value its own, all live for the tile) at chunks of
//!   one vector repeat of the widest element (narrower chunks waste the vector unit).
//! - A region with a cube op: a `mix` kernel (one matmul first, an elementwise epilogue on its
//!   result tiles) holds the epilogue's slots and input tiles, each counted as one result tile
//!   as the tile pass counts them ([`result_tile_bytes`]), at the smallest matmul tile (one
//!   fractal square); a matmul stored through views and transposes holds one result tile;
//!   otherwise the cube op is a kernel of its own (its operands and accumulator live in
//!   L1/L0A/L0B/L0C, not in UB) and the other ops one vector kernel, measured as above.
//! - A region the back end would not run as those kernels (the vector model rejects it, e.g. a
//!   transpose of a computed value or a reshape that regroups one, or a cube region it would
//!   lower op by op) is refused: the back end would split it into one kernel per op.
//!
//! Not counted: double buffering (the back end makes two copies of a tile's buffers only when
//! they fit, else it runs one), tiles of more rows (the tile pass takes as many rows as fit).
//! Approximations: a row whose columns need more GM view dims than a transfer has is staged by
//! the back end even when it fits (fusion measures it whole); the tile of a matmul stored
//! through a head split must cover whole heads (fusion counts one fractal square).

use kiln_compiler::{Context, Ir, OpDef, OpId, Trait, ValueId, DYNAMIC};
use kiln_dialects::hl::accessors::{int_list, normalize_axis};
use kiln_dialects::hl::interfaces::{hl_op, num_bytes, size_representable, FusionCategory, Movement};

use super::graph::BlockGraph;
use super::options::{camel_name, FusionOptions};
use crate::codegen::model::ElemBytes;
use crate::codegen::tiling::{result_tile_bytes, tile_bytes, MatmulShape};
use crate::kiln_codegen_outline::{kernel_model, split, Split};

/// Whether an op may join a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    /// It may.
    Open,
    /// Only along an edge a rule forces (the options keep it out otherwise).
    Soft(String),
    /// Never (not an hl op, opaque, a layout op the target cannot fuse, a non-vector op with
    /// `?` dims).
    Closed(String),
}

/// What fusion knows about one op of a block.
#[derive(Clone, Debug)]
pub struct OpInfo {
    /// Fusion category (`None`: not an `hl` op).
    pub category: Option<FusionCategory>,
    /// A view (reshape, expand_dims, squeeze): no kernel of its own, free in a region.
    pub free: bool,
    /// Whether it may join a region.
    pub gate: Gate,
    /// Whether a closed/soft gate is worth a remark (not for constants and non-`hl` ops).
    pub remark: bool,
    /// For reductions: whether the reduced axes are exactly the trailing dims of the input
    /// from the first of them on, so that its result can be stitched to the ops after it.
    pub row: Option<bool>,
    /// Whether it is a kernel when left alone (compute ops; not constants or views).
    pub kernel: bool,
}

/// Classifies `op` under `opts`.
pub fn classify<'c>(ir: &Ir<'c>, op: OpId, opts: &FusionOptions) -> OpInfo {
    let name = ir.op(op).name;
    let Some(hl) = hl_op(ir, op) else {
        let gate = Gate::Closed(format!("'{name}' is not an hl op"));
        return OpInfo { category: None, free: false, gate, remark: false, row: None, kernel: false };
    };
    let cat = hl.category;
    let free = cat == FusionCategory::Layout(Movement::View);
    let constant = ir.op(op).def.is_some_and(|d| d.has_trait(Trait::ConstantLike));
    let row = (cat == FusionCategory::Reduce).then(|| reduce_row(ir, op));
    let mut info = OpInfo {
        category: Some(cat),
        free,
        gate: Gate::Open,
        remark: !constant,
        row,
        kernel: !free && !constant,
    };
    let dynamic = ir
        .operands(op)
        .iter()
        .chain(ir.results(op))
        .any(|&v| ir.value_type(v).shape().is_some_and(|s| s.contains(&DYNAMIC)));
    info.gate = if constant {
        Gate::Closed("constants enter regions as inputs".into())
    } else if cat == FusionCategory::Opaque {
        Gate::Closed("opaque op (run hl-decompose first)".into())
    } else if cat == FusionCategory::Layout(Movement::Transpose) && !opts.target.vector.transpose_in_ub {
        Gate::Closed(format!("target '{}' cannot transpose in UB", opts.target.name))
    } else if cat == FusionCategory::Layout(Movement::Copy) {
        Gate::Closed("layout op (only reshape, expand_dims, squeeze and transpose fuse)".into())
    } else if dynamic
        && !matches!(
            cat,
            FusionCategory::Elementwise
                | FusionCategory::Broadcast
                | FusionCategory::Reduce
                | FusionCategory::Layout(Movement::View)
        )
    {
        Gate::Closed("dynamic shape (only vector ops fuse with `?` dims: a row shape class)".into())
    } else if !ir.operands(op).iter().chain(ir.results(op)).all(|&v| size_representable(ir.value_type(v))) {
        Gate::Closed("a shape whose byte size does not fit in 64 bits".into())
    } else {
        soft_gate(ir, op, name, cat, opts).map_or(Gate::Open, Gate::Soft)
    };
    info
}

/// The option-level reasons to keep `op` out (a forcing rule overrides them).
fn soft_gate(ir: &Ir<'_>, op: OpId, name: &str, cat: FusionCategory, o: &FusionOptions) -> Option<String> {
    let camel = ir.op(op).def.map_or_else(|| name.to_string(), camel_name);
    let listed = |ops: &[&'static OpDef]| ops.iter().any(|&d| ir.is(op, d));
    if listed(&o.disable_ops) {
        return Some(format!("disabled by disable-ops={camel}"));
    }
    if !o.enable_ops_only.is_empty() && !listed(&o.enable_ops_only) {
        return Some("not in enable-ops-only".into());
    }
    if cat == FusionCategory::Cube && o.opt_level < 2 && !listed(&o.enable_ops) && !listed(&o.enable_ops_only)
    {
        return Some(format!("cube ops are disabled (enable-ops={camel} or opt-level=2)"));
    }
    if listed(&o.precision_guard) {
        let low = ir.results(op).iter().find_map(|&r| {
            let e = ir.value_type(r).element_type()?;
            let s = e.to_string();
            matches!(s.as_str(), "f16" | "bf16").then_some(s)
        });
        if let Some(dtype) = low {
            return Some(format!("precision guard: {camel} is not fused in {dtype} (force it with a rule)"));
        }
    }
    None
}

/// Whether a reduction's axes are exactly the trailing dims from the first of them on.
fn reduce_row(ir: &Ir<'_>, op: OpId) -> bool {
    let rank = ir.operands(op).first().and_then(|&v| ir.value_type(v).shape()).map_or(0, <[i64]>::len);
    let axes: Vec<usize> = match ir.attr(op, "axes") {
        Some(a) => int_list(Some(a)).unwrap_or_default(),
        None => ir.attr(op, "axis").and_then(|a| a.as_int()).map(|a| a as i64).into_iter().collect(),
    }
    .into_iter()
    .filter_map(|a| normalize_axis(a, rank).ok())
    .collect();
    let Some(&min) = axes.iter().min() else { return true };
    let mut sorted = axes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len() == rank - min
}

/// Reusable scratch space for [`analyze`].
#[derive(Default)]
pub struct Scratch {
    mark: Vec<u32>,
    gen: u32,
    depth: Vec<u32>,
}

impl Scratch {
    fn reset(&mut self, n: usize) {
        if self.mark.len() < n {
            self.mark.resize(n, 0);
            self.depth.resize(n, 0);
        }
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.gen = 1;
        }
    }

    fn member(&self, i: u32) -> bool {
        self.mark[i as usize] == self.gen
    }
}

/// The figures of a candidate region.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// HBM bytes read and written by the region as one kernel.
    pub traffic: u64,
    /// UB bytes of the smallest tile the back end would run it with.
    pub ub: u64,
    /// Local indices of the ops whose results leave the region.
    pub outputs: Vec<u32>,
}

/// Bytes of a kernel's `inputs` and of the results of its `outputs` (local indices), read or
/// written once each; saturating, like [`num_bytes`].
fn boundary_bytes(ir: &Ir<'_>, g: &BlockGraph, inputs: &[ValueId], outputs: &[u32]) -> u64 {
    let results = outputs.iter().flat_map(|&o| ir.results(g.ops[o as usize]));
    inputs.iter().chain(results).fold(0u64, |n, &v| n.saturating_add(num_bytes(ir.value_type(v))))
}

/// HBM traffic of `members` (sorted local indices) run as one kernel.
pub fn traffic(ir: &Ir<'_>, g: &BlockGraph, members: &[u32], s: &mut Scratch) -> u64 {
    s.reset(g.len());
    for &m in members {
        s.mark[m as usize] = s.gen;
    }
    let (inputs, outputs) = boundary(ir, g, members, s);
    boundary_bytes(ir, g, &inputs, &outputs)
}

/// Distinct input values and output ops of the marked `members`.
fn boundary(
    ir: &Ir<'_>,
    g: &BlockGraph,
    members: &[u32],
    s: &Scratch,
) -> (Vec<kiln_compiler::ValueId>, Vec<u32>) {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for &m in members {
        let op = g.ops[m as usize];
        for (i, &v) in ir.operands(op).iter().enumerate() {
            if !g.producers[m as usize][i].is_some_and(|p| s.member(p)) {
                inputs.push(v);
            }
        }
        if g.users[m as usize].iter().any(|&u| !s.member(u)) {
            outputs.push(m);
        }
    }
    inputs.sort_unstable_by_key(|v| v.index());
    inputs.dedup();
    (inputs, outputs)
}

/// What an analysis may allow.
#[derive(Clone, Copy, Debug)]
pub struct Allow {
    /// Reduce results consumed inside.
    pub stitch: bool,
    /// Several outputs.
    pub multi_output: bool,
}

/// Checks and measures the candidate region `members` (sorted local indices). `Err` is the
/// reason it is illegal or not allowed.
#[allow(clippy::too_many_arguments)]
pub fn analyze<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    g: &BlockGraph,
    infos: &[OpInfo],
    opts: &FusionOptions,
    members: &[u32],
    allow: Allow,
    s: &mut Scratch,
) -> Result<Analysis, String> {
    let name = |i: u32| ir.op(g.ops[i as usize]).name;
    if members.len() > opts.max_ops {
        return Err(format!("region would have {} ops, more than max-ops={}", members.len(), opts.max_ops));
    }
    s.reset(g.len());
    for &m in members {
        s.mark[m as usize] = s.gen;
    }
    let last = *members.last().expect("a candidate has ops");
    let mut cube: Option<u32> = None;
    let mut stitched = false;
    let mut max_depth = 0u32;
    for &m in members {
        let info = &infos[m as usize];
        let cat = info.category;
        // Legality: every outside user of a member comes after the region's last op, so the
        // region can sit at that op's position (convex, and no cycle through outside ops).
        if let Some(&u) = g.users[m as usize].iter().take_while(|&&u| u < last).find(|&&u| !s.member(u)) {
            return Err(format!(
                "'{}' would need the result of '{}' in HBM before the region ends",
                name(u),
                name(m)
            ));
        }
        let inner_producers = || g.producers[m as usize].iter().flatten().copied().filter(|&p| s.member(p));
        if cat == Some(FusionCategory::Cube) {
            if let Some(c) = cube {
                return Err(format!("a region holds one cube op, and this one already has '{}'", name(c)));
            }
            if let Some(p) = inner_producers().next() {
                return Err(format!("cube op '{}' takes no prologue ('{}' feeds it)", name(m), name(p)));
            }
            cube = Some(m);
        }
        let mut d = 0;
        for p in inner_producers() {
            d = d.max(s.depth[p as usize]);
            if let Some(trailing) = infos[p as usize].row {
                if !allow.stitch {
                    return Err(format!(
                        "reduction '{}' ends its region (stitching needs opt-level=2)",
                        name(p)
                    ));
                }
                if !trailing {
                    return Err(format!(
                        "reduction '{}' spans non-trailing axes; its rows cannot be stitched",
                        name(p)
                    ));
                }
                stitched = true;
            }
        }
        s.depth[m as usize] = d + u32::from(!info.free);
        max_depth = max_depth.max(s.depth[m as usize]);
    }
    if let Some(c) = cube {
        if let Some(&r) =
            members.iter().find(|&&m| infos[m as usize].category == Some(FusionCategory::Reduce))
        {
            return Err(format!(
                "the epilogue of cube op '{}' is elementwise only, not '{}'",
                name(c),
                name(r)
            ));
        }
    }
    if opts.max_depth > 0 && max_depth as usize > opts.max_depth {
        return Err(format!("a chain of {max_depth} ops exceeds max-depth={}", opts.max_depth));
    }
    let (inputs, outputs) = boundary(ir, g, members, s);
    if outputs.len() > 1 && !allow.multi_output {
        let extra = outputs
            .iter()
            .find(|&&o| g.users[o as usize].iter().any(|&u| s.member(u)))
            .unwrap_or(&outputs[0]);
        return Err(format!(
            "the result of '{}' is also needed outside the region (multi-output regions need opt-level=2)",
            name(*extra)
        ));
    }
    let traffic = boundary_bytes(ir, g, &inputs, &outputs);
    let ops: Vec<OpId> = members.iter().map(|&m| g.ops[m as usize]).collect();
    let ub = tile_ub(ctx, ir, opts, &ops, stitched, cube.map(|c| g.ops[c as usize]))?;
    if ub > opts.ub_limit() {
        return Err(format!(
            "UB estimate {} exceeds {}% of {}",
            kib(ub),
            opts.ub_budget,
            kib(opts.target.memory.ub_bytes)
        ));
    }
    Ok(Analysis { traffic, ub, outputs })
}

/// The UB bytes of the smallest tile the back end would run the candidate region `ops` (in
/// program order) with, or why the back end would not run it as the kernel fusion plans (see
/// the module documentation). `stitched`: a reduction's result is consumed inside; `cube`: its
/// cube op.
fn tile_ub<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    opts: &FusionOptions,
    ops: &[OpId],
    stitched: bool,
    cube: Option<OpId>,
) -> Result<u64, String> {
    let target = &opts.target;
    let vector: Vec<OpId> = match cube {
        None => ops.to_vec(),
        Some(c) => {
            // The back end's smallest matmul tile is one fractal square.
            let f = u64::from(target.cube.fractal.max(1));
            let result_tile =
                || MatmulShape::of_op(ir, c).map(|s| result_tile_bytes(target, f, f, s.out_bytes));
            match split(ir, ops) {
                Split::Mix(epilogue) => return Ok(epilogue.ub_buffers() * result_tile()?),
                Split::ViewedMatmul => return result_tile(),
                Split::CubeThenVector { rest, .. } => rest,
                Split::PerOp => {
                    return Err("the back end would run each of its ops as a kernel of its own".into())
                }
            }
        }
    };
    let model = kernel_model(ir, &vector)
        .map_err(|why| format!("the back end cannot run it as one kernel: {why}"))?;
    let cols = model.cols();
    let row = (cols, model.chunk_axis_len());
    let whole = tile_bytes(target, row, &model.buffers(ctx, ir).specs, 1, cols);
    if whole <= opts.ub_limit() || stitched {
        return Ok(whole);
    }
    // The back end would cut the row into column chunks along one axis (staged.rs); fusion
    // takes that down to chunks of one vector repeat of the widest element.
    let staged = model.staged_buffers(ctx, ir).specs;
    let widest = staged.iter().filter(|s| s.cols).map(|s| s.elem.elem_bytes()).max().unwrap_or(1);
    let chunk = (target.vector.repeat_bytes / widest.max(1)).max(1) as i64;
    let chunk = chunk.min(model.chunk_axis_len());
    if chunk >= cols {
        return Ok(whole);
    }
    Ok(whole.min(tile_bytes(target, row, &staged, 1, chunk)))
}

/// `12 KiB`, `191.8 KiB`, `96 B`.
pub fn kib(bytes: u64) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        let text = format!("{:.1}", bytes as f64 / 1024.0);
        format!("{} KiB", text.strip_suffix(".0").unwrap_or(&text))
    }
}
