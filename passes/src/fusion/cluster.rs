//! The clustering of one block: which ops become which region.
//!
//! Greedy and deterministic, in program order, over a union-find of clusters:
//!
//! 1. **Vertical** (producer into consumer): for each op, in order, each distinct in-block
//!    producer's cluster is offered to the op's cluster. Elementwise, broadcast and free layout
//!    ops chain freely; a reduction takes its producers (*reduce-forward*) and ends its region
//!    unless stitching is on (opt-level 2), in which case its row-wise result may feed the
//!    broadcast/elementwise ops after it while the rows fit the UB budget (softmax, layer_norm,
//!    rms_norm become one region); a cube op takes elementwise epilogues (a `mix` region) when
//!    cube ops are enabled, never a prologue.
//! 2. **Horizontal** (opt-level 2, or strategy `aggressive`, not `conservative`): clusters that
//!    read the same value and have the same iteration space merge into one multi-output region
//!    (values read by more than `max-ops` ops, i.e. parameters used everywhere, excepted).
//!
//! Every offer is checked by [`analyze`]: `max-ops`, at most one cube op, legality (every
//! outside user of the merged set comes after its last op, which makes the set convex, free of
//! cycles through outside ops, and placeable at that op), stitching/multi-output permissions,
//! `max-depth`, the UB budget (measured with the back end's tile model, which also refuses a
//! region the back end would split); and the merge must save HBM traffic. Rules force or forbid
//! edges. Each offer costs time bounded by the size of the merged cluster and its members' uses
//! (the UB placement is quadratic in its buffers; the cluster is bounded by `max-ops`), so the
//! whole block is linear in its ops and uses.

use kiln_compiler::{Context, Ir, OpId};
use kiln_dialects::fused::RegionKind;
use kiln_dialects::hl::interfaces::{num_elements, FusionCategory};

use super::graph::BlockGraph;
use super::model::{analyze, classify, kib, traffic, Allow, Gate, OpInfo, Scratch};
use super::options::FusionOptions;
use super::progress::Progress;
use super::rules::{match_rules, Action, RuleEdges};

/// A region the plan forms.
#[derive(Clone, Debug)]
pub struct PlannedRegion {
    /// Its ops (local indices, in program order).
    pub members: Vec<u32>,
    /// Its kind.
    pub kind: RegionKind,
    /// UB bytes of the smallest tile the back end would run it with.
    pub ub: u64,
    /// HBM bytes saved against running its ops one by one.
    pub saved: u64,
    /// For an `attention` region, the kernel of each member until a flash-attention kernel
    /// exists (the region's `parts`, see `fusion/attention.rs`); empty otherwise.
    pub parts: Vec<i64>,
}

/// The plan for one block.
#[derive(Debug, Default)]
pub struct BlockPlan {
    /// Regions, ordered by their last op.
    pub regions: Vec<PlannedRegion>,
    /// Refusals, in the order they were decided: (op to report at, message).
    pub refusals: Vec<(OpId, String)>,
    /// Kernels when nothing is fused.
    pub kernels_before: usize,
    /// Kernels after the plan (regions + compute ops left alone).
    pub kernels_after: usize,
}

struct Cluster {
    members: Vec<u32>,
    traffic: u64,
    ub: u64,
}

struct Planner<'a, 'c> {
    ctx: &'a Context<'c>,
    ir: &'a Ir<'c>,
    g: &'a BlockGraph,
    opts: &'a FusionOptions,
    infos: Vec<OpInfo>,
    edges: RuleEdges,
    parent: Vec<u32>,
    clusters: Vec<Option<Cluster>>,
    scratch: Scratch,
    refusals: Vec<(OpId, String)>,
}

/// Plans the regions of the block whose graph is `g`. With `eligible`, only the ops it marks
/// may join regions (the others are kept out silently: they belong to an attention region, or
/// the plan is that of an attention's fallback kernels).
pub fn plan_block<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    g: &BlockGraph,
    opts: &FusionOptions,
    eligible: Option<&[bool]>,
    scratch: Scratch,
    progress: &mut Progress,
) -> (BlockPlan, Scratch) {
    // The scratch space is handed back for the next block.
    let mut infos: Vec<OpInfo> = g.ops.iter().map(|&op| classify(ir, op, opts)).collect();
    if let Some(eligible) = eligible {
        for (info, _) in infos.iter_mut().zip(eligible).filter(|(_, &e)| !e) {
            info.gate = Gate::Closed("planned apart".into());
            info.remark = false;
        }
    }
    let edges = match_rules(ir, g, &opts.rules);
    let n = g.len();
    let mut p = Planner {
        ctx,
        ir,
        g,
        opts,
        infos,
        edges,
        parent: (0..n as u32).collect(),
        clusters: Vec::with_capacity(n),
        scratch,
        refusals: Vec::new(),
    };
    for i in 0..n as u32 {
        let traffic = if p.infos[i as usize].free { 0 } else { traffic(ir, g, &[i], &mut p.scratch) };
        p.clusters.push(Some(Cluster { members: vec![i], traffic, ub: 0 }));
    }
    p.gate_remarks();
    p.vertical(progress);
    if opts.horizontal() {
        p.horizontal();
    }
    p.finish()
}

impl Planner<'_, '_> {
    fn name(&self, i: u32) -> &str {
        self.ir.op(self.g.ops[i as usize]).name
    }

    fn find(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let gp = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = gp;
            i = gp;
        }
        i
    }

    fn forced(&self, p: u32, x: u32) -> bool {
        matches!(self.edges.get(&(p, x)), Some((_, Action::Force)))
    }

    /// One remark per op kept out by its gate (unless a forcing rule names it).
    fn gate_remarks(&mut self) {
        let mut forced = vec![false; self.g.len()];
        for (&(a, b), &(_, act)) in &self.edges {
            if act == Action::Force {
                forced[a as usize] = true;
                forced[b as usize] = true;
            }
        }
        for i in 0..self.g.len() as u32 {
            let info = &self.infos[i as usize];
            let reason = match &info.gate {
                Gate::Open => continue,
                Gate::Soft(r) if !forced[i as usize] => r,
                Gate::Soft(_) => continue,
                Gate::Closed(r) => r,
            };
            if info.remark {
                let msg = format!("not fused '{}': {reason}", self.name(i));
                self.refusals.push((self.g.ops[i as usize], msg));
            }
        }
    }

    fn vertical(&mut self, progress: &mut Progress) {
        for x in 0..self.g.len() as u32 {
            progress.planning_step(x as usize, self.g.len());
            if matches!(self.infos[x as usize].gate, Gate::Closed(_)) {
                continue;
            }
            let mut producers: Vec<u32> = self.g.producers[x as usize].iter().flatten().copied().collect();
            producers.dedup();
            for (k, &p) in producers.iter().enumerate() {
                if producers[..k].contains(&p) || matches!(self.infos[p as usize].gate, Gate::Closed(_)) {
                    continue;
                }
                let forced = self.forced(p, x);
                let soft = |i: &OpInfo| matches!(i.gate, Gate::Soft(_));
                if !forced && (soft(&self.infos[p as usize]) || soft(&self.infos[x as usize])) {
                    continue;
                }
                let (a, b) = (self.find(p), self.find(x));
                if a == b {
                    continue;
                }
                if let Err(reason) = self.try_merge(a, b, forced) {
                    let msg = format!("not fused '{}' -> '{}': {reason}", self.name(p), self.name(x));
                    self.refusals.push((self.g.ops[x as usize], msg));
                }
            }
        }
    }

    fn horizontal(&mut self) {
        let g = self.g;
        let sources = g.arg_users.iter().chain(g.users.iter());
        let mut seen = vec![u32::MAX; g.len()];
        for (source, users) in sources.enumerate() {
            // A value read by more than `max-ops` ops is a parameter broadcast everywhere:
            // sharing its read saves little and would glue distant kernels together.
            if users.len() > self.opts.max_ops {
                continue;
            }
            let mut roots: Vec<u32> = Vec::new();
            for &u in users {
                if self.infos[u as usize].gate != Gate::Open {
                    continue;
                }
                let r = self.find(u);
                if seen[r as usize] != source as u32 {
                    seen[r as usize] = source as u32;
                    roots.push(r);
                }
            }
            for k in 1..roots.len() {
                let first = self.find(roots[0]);
                let other = self.find(roots[k]);
                if first == other || self.has_cube(first) || self.has_cube(other) {
                    continue;
                }
                if self.space(first) != self.space(other) {
                    continue;
                }
                if let Err(reason) = self.try_merge(first, other, false) {
                    let (fa, fb) = (self.cluster(first).members[0], self.cluster(other).members[0]);
                    let msg = format!(
                        "not fused '{}' with '{}' (horizontal): {reason}",
                        self.name(fb),
                        self.name(fa)
                    );
                    self.refusals.push((self.g.ops[fb as usize], msg));
                }
            }
        }
    }

    fn cluster(&self, root: u32) -> &Cluster {
        self.clusters[root as usize].as_ref().expect("roots hold their cluster")
    }

    fn has_cube(&self, root: u32) -> bool {
        self.cluster(root)
            .members
            .iter()
            .any(|&m| self.infos[m as usize].category == Some(FusionCategory::Cube))
    }

    /// The iteration space of a cluster: the largest element count among its results.
    fn space(&self, root: u32) -> u64 {
        let c = self.cluster(root);
        c.members
            .iter()
            .flat_map(|&m| self.ir.results(self.g.ops[m as usize]))
            .map(|&r| num_elements(self.ir.value_type(r)))
            .max()
            .unwrap_or(0)
    }

    /// Offers cluster `a` to cluster `b`; on success they are one cluster.
    fn try_merge(&mut self, a: u32, b: u32, forced: bool) -> Result<(), String> {
        let (ca, cb) = (self.cluster(a), self.cluster(b));
        let size = ca.members.len() + cb.members.len();
        if size > self.opts.max_ops {
            return Err(format!("region would have {size} ops, more than max-ops={}", self.opts.max_ops));
        }
        let members = merge_sorted(&ca.members, &cb.members);
        let parts = ca.traffic.saturating_add(cb.traffic);
        // A view alone costs nothing (a host alias), so joining one saves nothing but is free.
        let views = |c: &Cluster| c.members.iter().all(|&m| self.infos[m as usize].free);
        let joins_view = views(ca) || views(cb);
        let a_is_larger = ca.members.len() >= cb.members.len();
        if let Some((p, x, rule)) = self.forbidden_inside(&members) {
            let r = &self.opts.rules[rule];
            let why = if r.reason.is_empty() { String::new() } else { format!(" ({})", r.reason) };
            return Err(format!(
                "forbidden by rule '{}'{why} on '{}' -> '{}'",
                r.text,
                self.name(p),
                self.name(x)
            ));
        }
        let allow =
            Allow { stitch: self.opts.stitch() || forced, multi_output: self.opts.multi_output() || forced };
        let an =
            analyze(self.ctx, self.ir, self.g, &self.infos, self.opts, &members, allow, &mut self.scratch)?;
        if (an.traffic > parts || (an.traffic == parts && !joins_view)) && !forced {
            return Err("fusing saves no HBM traffic".into());
        }
        let (root, other) = if a_is_larger { (a, b) } else { (b, a) };
        self.parent[other as usize] = root;
        self.clusters[other as usize] = None;
        self.clusters[root as usize] = Some(Cluster { members, traffic: an.traffic, ub: an.ub });
        Ok(())
    }

    /// A forbidden edge with both ends in `members`: (producer, consumer, rule).
    fn forbidden_inside(&self, members: &[u32]) -> Option<(u32, u32, usize)> {
        if !self.edges.values().any(|&(_, a)| a == Action::Forbid) {
            return None;
        }
        members.iter().find_map(|&x| {
            self.g.producers[x as usize].iter().flatten().find_map(|&p| {
                let (rule, act) = *self.edges.get(&(p, x))?;
                (act == Action::Forbid && members.binary_search(&p).is_ok()).then_some((p, x, rule))
            })
        })
    }

    fn finish(mut self) -> (BlockPlan, Scratch) {
        let mut plan = BlockPlan {
            kernels_before: self.infos.iter().filter(|i| i.kernel).count(),
            ..BlockPlan::default()
        };
        let mut in_region = vec![false; self.g.len()];
        for root in 0..self.g.len() as u32 {
            let Some(c) = self.clusters[root as usize].take() else { continue };
            if c.members.len() < 2 {
                continue;
            }
            let leaves =
                |m: &u32| self.g.users[*m as usize].iter().any(|u| c.members.binary_search(u).is_err());
            if !c.members.iter().any(leaves) {
                let first = self.g.ops[c.members[0] as usize];
                let msg = format!(
                    "not fused '{}': no result of its cluster is used (run dce first)",
                    self.name(c.members[0])
                );
                self.refusals.push((first, msg));
                continue;
            }
            let (mut cube, mut compute) = (0, 0);
            for &m in &c.members {
                match self.infos[m as usize].category {
                    Some(FusionCategory::Cube) => cube += 1,
                    Some(FusionCategory::Layout(_)) | None | Some(FusionCategory::Opaque) => {}
                    Some(_) => compute += 1,
                }
            }
            let kind = match (cube > 0, compute > 0) {
                (true, true) => RegionKind::Mix,
                (true, false) => RegionKind::Cube,
                (false, true) => RegionKind::Vector,
                (false, false) => continue, // layout ops only: nothing to compute
            };
            let singles = c
                .members
                .iter()
                .filter(|&&m| !self.infos[m as usize].free)
                .fold(0u64, |n, &m| n.saturating_add(traffic(self.ir, self.g, &[m], &mut self.scratch)));
            for &m in &c.members {
                in_region[m as usize] = true;
            }
            let saved = singles.saturating_sub(c.traffic);
            plan.regions.push(PlannedRegion { members: c.members, kind, ub: c.ub, saved, parts: Vec::new() });
        }
        plan.regions.sort_by_key(|r| *r.members.last().expect("regions have ops"));
        plan.kernels_after = plan.regions.len()
            + self.infos.iter().zip(&in_region).filter(|(i, &fused)| i.kernel && !fused).count();
        plan.refusals = self.refusals;
        (plan, self.scratch)
    }
}

/// The remark of a formed region.
pub fn region_remark(
    ir: &Ir<'_>,
    g: &BlockGraph,
    r: &PlannedRegion,
    id: usize,
    opts: &FusionOptions,
) -> String {
    const SHOWN: usize = 8;
    let mut names: Vec<String> =
        r.members.iter().take(SHOWN).map(|&m| format!("'{}'", ir.op(g.ops[m as usize]).name)).collect();
    if r.members.len() > SHOWN {
        names.push(format!("... ({} more)", r.members.len() - SHOWN));
    }
    let pct = r.ub * 100 / opts.target.memory.ub_bytes.max(1);
    if r.kind == RegionKind::Attention {
        let kernels = super::attention::fallback_kernels(&r.parts);
        return format!(
            "fused {} into region {id} (attention, {} ops; lowered as {kernels} kernels until a flash-attention kernel exists)",
            names.join(" -> "),
            r.members.len(),
        );
    }
    format!(
        "fused {} into region {id} ({}, {} ops, est. UB {pct}%, saves {} HBM traffic)",
        names.join(" -> "),
        r.kind.keyword(),
        r.members.len(),
        kib(r.saved)
    )
}

fn merge_sorted(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}
