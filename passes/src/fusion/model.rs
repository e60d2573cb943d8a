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
//! **UB footprint** of one tile of a region. A region is tiled by *rows*: a row is the last dim
//! of each value, or, when a reduction's result is consumed inside the region (stitching), the
//! `t` trailing dims the reductions span (the whole reduced row must sit in UB). A row of a
//! region without stitching may be cut into vector-repeat pieces. A tile holds as many rows as
//! fill one vector repeat of the widest buffer (at least one). Every value of the tile has a
//! buffer, rounded up to the target's alignment: inputs and outputs twice (double buffering
//! overlaps DMA with compute), intermediates once (an upper bound: no reuse assumed); results
//! of reshape/expand_dims/squeeze alias their operand; operands of a cube op live in L1/L0, not
//! UB. The sum must stay within `ub-budget` percent of the target's UB.

use kiln_compiler::{Ir, OpDef, OpId, Trait, ValueId, DYNAMIC};
use kiln_dialects::hl::accessors::checked_numel;
use kiln_dialects::hl::accessors::{int_list, normalize_axis};
use kiln_dialects::hl::interfaces::{
    hl_op, num_bytes, num_elements, size_representable, FusionCategory, Movement,
};

use super::graph::BlockGraph;
use super::options::{camel_name, FusionOptions};

/// Whether an op may join a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    /// It may.
    Open,
    /// Only along an edge a rule forces (the options keep it out otherwise).
    Soft(String),
    /// Never (not an hl op, opaque, a layout op the target cannot fuse, dynamic shapes).
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
    /// For reductions: how many trailing dims of the input a row spans, and whether the
    /// reduced axes are exactly those trailing dims.
    pub row: Option<(usize, bool)>,
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
    } else if dynamic {
        Gate::Closed("dynamic shape (UB footprint unknown)".into())
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

/// Trailing dims spanned by a reduction's rows, and whether its axes are exactly those.
fn reduce_row(ir: &Ir<'_>, op: OpId) -> (usize, bool) {
    let rank = ir.operands(op).first().and_then(|&v| ir.value_type(v).shape()).map_or(0, <[i64]>::len);
    let axes: Vec<usize> = match ir.attr(op, "axes") {
        Some(a) => int_list(Some(a)).unwrap_or_default(),
        None => ir.attr(op, "axis").and_then(|a| a.as_int()).map(|a| a as i64).into_iter().collect(),
    }
    .into_iter()
    .filter_map(|a| normalize_axis(a, rank).ok())
    .collect();
    let Some(&min) = axes.iter().min() else { return (0, true) };
    let t = rank - min;
    let mut sorted = axes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    (t, sorted.len() == t)
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
    /// Estimated UB bytes of one tile.
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
pub fn analyze(
    ir: &Ir<'_>,
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
    let mut t = 1usize;
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
            if let Some((rows, trailing)) = infos[p as usize].row {
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
                t = t.max(rows);
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
    let ub = ub_estimate(ir, g, infos, opts, members, (&inputs, &outputs), stitched, t, cube);
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

/// The UB bytes of one tile of the region (see the module documentation).
#[allow(clippy::too_many_arguments)]
fn ub_estimate(
    ir: &Ir<'_>,
    g: &BlockGraph,
    infos: &[OpInfo],
    opts: &FusionOptions,
    members: &[u32],
    (inputs, outputs): (&[kiln_compiler::ValueId], &[u32]),
    stitched: bool,
    t: usize,
    cube: Option<u32>,
) -> u64 {
    let target = &opts.target;
    let repeat = target.vector.repeat_bytes;
    let cube_operands: &[kiln_compiler::ValueId] = cube.map_or(&[], |c| ir.operands(g.ops[c as usize]));
    // (value, copies) for every buffer.
    let mut buffers: Vec<(kiln_compiler::ValueId, u64)> = Vec::new();
    buffers.extend(inputs.iter().filter(|v| !cube_operands.contains(v)).map(|&v| (v, 2)));
    for &m in members {
        if infos[m as usize].free {
            continue;
        }
        let copies = if outputs.contains(&m) { 2 } else { 1 };
        buffers.extend(ir.results(g.ops[m as usize]).iter().map(|&r| (r, copies)));
    }
    let unit = |v: kiln_compiler::ValueId| -> (u64, u64) {
        let ty = ir.value_type(v);
        let eb = num_bytes(ty) / num_elements(ty).max(1);
        let shape = ty.shape().unwrap_or(&[]);
        let tail: Vec<i64> = shape.iter().rev().take(t).map(|&d| d.max(1)).collect();
        let bytes = checked_numel(&tail).unwrap_or(u64::MAX).saturating_mul(eb.max(1));
        (if stitched { bytes } else { bytes.min(repeat) }, num_bytes(ty))
    };
    let widest = buffers.iter().map(|&(v, _)| unit(v).0).max().unwrap_or(1).max(1);
    let rows = (repeat / widest).max(1);
    buffers.iter().fold(0u64, |n, &(v, copies)| {
        let (u, total) = unit(v);
        n.saturating_add(copies.saturating_mul(target.align(u.saturating_mul(rows).min(total))))
    })
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
