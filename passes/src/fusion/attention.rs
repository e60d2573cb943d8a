//! Attention regions (`attention=true`, at opt-level 2): the plan of a block that holds
//! attentions, [`plan_with_attention`].
//!
//! **Candidates.** Every matmul of the block whose result reaches an `hl.exp` (or an
//! `hl.softmax`) and then another matmul within a few ops, through no other matmul (a
//! softmax-like chain into a second matmul), is a candidate. The
//! matcher of the `fused` dialect (`kiln_dialects::fused::attention`, the one the region's
//! verifier runs) decides whether it is an attention and which ops belong to it; a candidate
//! it refuses gets a remark saying why (the mask does not broadcast, the softmax is not over
//! the key axis, a value escapes, ...). A candidate with a dynamic shape is refused too.
//!
//! **Fallback kernels.** No flash-attention kernel exists yet, so the back end lowers an
//! attention region as the kernels this pass would have formed of its ops alone: the block
//! is planned with only the attention's ops eligible ([`plan_block`] with `eligible`), and the
//! region's `parts` number each op with its kernel (a region of that plan, or a lone compute
//! op; -1 for views and constants, which make no kernel). `kiln-codegen-outline` lowers each
//! part as it lowers a region (or a lone op).
//!
//! **Never more kernels.** The rest of the block is planned without the attentions' ops, so
//! forming attention regions can change what their neighbours fuse with (a Q projection's
//! epilogue may have taken Q's scale). Candidates are taken greedily in program order: one is
//! formed when the block's kernels (the plan of the rest, plus every formed attention's
//! fallback kernels) are no more than without it, first with its prologue (the views,
//! transposes and scales feeding Q, K and V, the ops building its mask), then without;
//! otherwise a remark gives both counts. So the plan never has more kernels than the plan
//! without attention regions.

use kiln_compiler::{Context, Ir, OpId, DYNAMIC};
use kiln_dialects::fused::attention::match_attention;
use kiln_dialects::fused::RegionKind;
use kiln_dialects::hl::{BATCH_MATMUL, EXP, MATMUL, SOFTMAX};

use super::cluster::{plan_block, BlockPlan, PlannedRegion};
use super::graph::BlockGraph;
use super::model::{classify, Scratch};
use super::options::FusionOptions;
use super::progress::Progress;

/// How far (in ops) a candidate's result may travel to an `hl.exp`, and from it to a matmul.
const REACH: usize = 12;

/// An attention the matcher accepted.
struct Found {
    /// The QK^T matmul (local index).
    qk: u32,
    /// Its ops (local indices, sorted).
    members: Vec<u32>,
    /// The kernel of each member (see the module documentation).
    parts: Vec<i64>,
    /// How many kernels the parts make.
    kernels: usize,
}

/// The number of kernels of an attention region's `parts`.
pub fn fallback_kernels(parts: &[i64]) -> usize {
    let mut seen: Vec<i64> = parts.iter().copied().filter(|&p| p >= 0).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// The plan of the block `g` with attention regions (see the module documentation): the plan
/// without them when no candidate forms one.
pub fn plan_with_attention<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    g: &BlockGraph,
    opts: &FusionOptions,
    scratch: Scratch,
    progress: &mut Progress,
) -> (BlockPlan, Scratch) {
    let (base, mut scratch) = plan_block(ctx, ir, g, opts, None, scratch, progress);
    let mut refusals = Vec::new();
    let mut found = Vec::new();
    for qk in 0..g.len() as u32 {
        if !candidate(ir, g, qk) {
            continue;
        }
        let op = g.ops[qk as usize];
        match recognize(ir, g, qk) {
            Ok(variants) => {
                let mut options = Vec::new();
                for members in variants {
                    let (parts, kernels, s) = fallback(ctx, ir, g, opts, &members, scratch);
                    scratch = s;
                    options.push(Found { qk, members, parts, kernels });
                }
                found.push(options);
            }
            Err(why) => refusals.push((op, format!("attention at '{}' not formed: {why}", ir.op(op).name))),
        }
    }
    if found.is_empty() {
        let mut plan = base;
        plan.refusals.extend(refusals);
        return (plan, scratch);
    }
    // Greedily, in program order: keep a candidate (with its prologue, else without) when the
    // block needs no more kernels.
    let mut best: Option<BlockPlan> = None;
    let mut kernels = base.kernels_after;
    let mut taken: Vec<&Found> = Vec::new();
    for options in &found {
        let mut fewest = usize::MAX;
        for f in options {
            // An op belongs to one region: a variant sharing ops with a formed attention (its
            // head merge taken as this one's prologue) is out.
            if taken.iter().any(|t| t.members.iter().any(|m| f.members.binary_search(m).is_ok())) {
                continue;
            }
            let mut eligible = vec![true; g.len()];
            for m in taken.iter().chain([&f]).flat_map(|t| &t.members) {
                eligible[*m as usize] = false;
            }
            let mut quiet = Progress::new(false, 0, 0);
            let (rest, s) = plan_block(ctx, ir, g, opts, Some(&eligible), scratch, &mut quiet);
            scratch = s;
            let lone = taken.iter().chain([&f]).map(|t| lone_kernels(ir, g, opts, &t.members)).sum::<usize>();
            let with = rest.kernels_after.saturating_sub(lone)
                + taken.iter().chain([&f]).map(|t| t.kernels).sum::<usize>();
            if with <= kernels {
                kernels = with;
                taken.push(f);
                best = Some(rest);
                break;
            }
            fewest = fewest.min(with);
        }
        if taken.last().is_none_or(|t| t.qk != options[0].qk) {
            let op = g.ops[options[0].qk as usize];
            let why = if fewest == usize::MAX {
                "its ops overlap an attention region formed before it".to_string()
            } else {
                format!(
                    "as an attention region (lowered as {} kernels until a flash-attention kernel \
                     exists) the block needs {fewest} kernels, {kernels} without",
                    options.iter().map(|f| f.kernels).min().unwrap_or(0)
                )
            };
            refusals.push((op, format!("attention at '{}' not formed: {why}", ir.op(op).name)));
        }
    }
    let Some(mut plan) = best else {
        let mut plan = base;
        plan.refusals.extend(refusals);
        return (plan, scratch);
    };
    for t in taken {
        plan.regions.push(PlannedRegion {
            members: t.members.clone(),
            kind: RegionKind::Attention,
            ub: 0,
            saved: 0,
            parts: t.parts.clone(),
        });
    }
    plan.regions.sort_by_key(|r| *r.members.last().expect("regions have ops"));
    plan.kernels_before = base.kernels_before;
    plan.kernels_after = kernels;
    plan.refusals.extend(refusals);
    (plan, scratch)
}

/// Whether the matmul `qk`'s result reaches an `hl.exp` (or a composite `hl.softmax`) and
/// then another matmul within [`REACH`] ops each (breadth first over in-block users).
fn candidate(ir: &Ir<'_>, g: &BlockGraph, qk: u32) -> bool {
    let is_matmul = |i: u32| ir.is_any(g.ops[i as usize], &[&MATMUL, &BATCH_MATMUL]);
    if !is_matmul(qk) {
        return false;
    }
    // Paths go through no other cube op (a projection reaches the softmax through QK^T).
    let reach = |from: u32, goal: &dyn Fn(u32) -> bool| -> Option<u32> {
        let mut frontier = vec![from];
        let mut seen = vec![false; g.len()];
        seen[from as usize] = true;
        for _ in 0..REACH {
            let mut next = Vec::new();
            for &i in &frontier {
                for &u in &g.users[i as usize] {
                    if goal(u) {
                        return Some(u);
                    }
                    if !seen[u as usize] && !is_matmul(u) {
                        seen[u as usize] = true;
                        next.push(u);
                    }
                }
            }
            frontier = next;
        }
        None
    };
    reach(qk, &|u| ir.is_any(g.ops[u as usize], &[&EXP, &SOFTMAX]))
        .is_some_and(|exp| reach(exp, &is_matmul).is_some())
}

/// The members (local indices, sorted) of the attention starting at `qk`, with its prologue
/// and, when it has one, without it; or why there is none.
fn recognize(ir: &Ir<'_>, g: &BlockGraph, qk: u32) -> Result<Vec<Vec<u32>>, String> {
    let block = ir.parent_block(g.ops[qk as usize]);
    let scope = |op: OpId| ir.parent_block(op) == block;
    let m = match_attention(ir, g.ops[qk as usize], &scope)?;
    let whole = locals(ir, g, &m.members)?;
    if m.prologue.is_empty() {
        return Ok(vec![whole]);
    }
    let core: Vec<OpId> = m.members.iter().copied().filter(|o| !m.prologue.contains(o)).collect();
    Ok(vec![whole, locals(ir, g, &core)?])
}

/// The local indices (sorted) of the ops `ops`, or the op with a dynamic shape among them.
fn locals(ir: &Ir<'_>, g: &BlockGraph, ops: &[OpId]) -> Result<Vec<u32>, String> {
    let mut members: Vec<u32> = Vec::with_capacity(ops.len());
    for &op in ops {
        let dynamic = ir
            .operands(op)
            .iter()
            .chain(ir.results(op))
            .any(|&v| ir.value_type(v).shape().is_none_or(|s| s.contains(&DYNAMIC)));
        if dynamic {
            return Err(format!("'{}' has a dynamic shape", ir.op(op).name));
        }
        let local = g.ops.iter().position(|&o| o == op).expect("members are in the block");
        members.push(local as u32);
    }
    members.sort_unstable();
    Ok(members)
}

/// The fallback `parts` of `members`, how many kernels they make, and the scratch space back.
fn fallback<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    g: &BlockGraph,
    opts: &FusionOptions,
    members: &[u32],
    scratch: Scratch,
) -> (Vec<i64>, usize, Scratch) {
    let mut eligible = vec![false; g.len()];
    for &m in members {
        eligible[m as usize] = true;
    }
    let mut quiet = Progress::new(false, 0, 0);
    let (plan, scratch) = plan_block(ctx, ir, g, opts, Some(&eligible), scratch, &mut quiet);
    let mut parts = vec![-1i64; members.len()];
    let mut next = 0i64;
    for r in &plan.regions {
        for m in &r.members {
            if let Ok(i) = members.binary_search(m) {
                parts[i] = next;
            }
        }
        next += 1;
    }
    for (i, &m) in members.iter().enumerate() {
        if parts[i] < 0 && classify(ir, g.ops[m as usize], opts).kernel {
            parts[i] = next;
            next += 1;
        }
    }
    // Numbered in order of first appearance, for readers of the IR.
    let mut order: Vec<i64> = Vec::new();
    for &p in parts.iter().filter(|&&p| p >= 0) {
        if !order.contains(&p) {
            order.push(p);
        }
    }
    for p in parts.iter_mut().filter(|p| **p >= 0) {
        *p = order.iter().position(|&o| o == *p).expect("numbered above") as i64;
    }
    (parts, next as usize, scratch)
}

/// How many of `members` are kernels when left alone (compute ops, not views or constants).
fn lone_kernels(ir: &Ir<'_>, g: &BlockGraph, opts: &FusionOptions, members: &[u32]) -> usize {
    members.iter().filter(|&&m| classify(ir, g.ops[m as usize], opts).kernel).count()
}
