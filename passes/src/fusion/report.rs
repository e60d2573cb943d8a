//! What `kiln-fuse` tells its users besides remarks: a JSON report (`report=<file>`) of every
//! region (kind, ops, inputs and outputs, estimated UB and bytes saved) with kernel counts
//! before and after, and a DOT graph (`dot=<file>`) of each block before fusion with the
//! regions as clusters.

use std::fmt::Write;

use kiln_compiler::ir::BlockId;
use kiln_compiler::Ir;
use serde::Serialize;

use super::cluster::BlockPlan;
use super::graph::BlockGraph;
use super::options::FusionOptions;

/// One formed region, as reported.
#[derive(Clone, Debug, Serialize)]
pub struct RegionRecord {
    /// Region number: the `id` attribute of the region in the IR (and the number in remarks).
    pub id: usize,
    /// The enclosing function's symbol, if any.
    pub function: String,
    /// `vector`, `cube` or `mix`.
    pub kind: &'static str,
    /// Op names, in program order.
    pub ops: Vec<String>,
    /// Input types.
    pub inputs: Vec<String>,
    /// Output types.
    pub outputs: Vec<String>,
    /// UB bytes of the smallest tile the back end would run it with.
    pub est_ub_bytes: u64,
    /// HBM bytes saved against running the ops one by one.
    pub bytes_saved: u64,
}

/// The whole report of one pass run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The target's name.
    pub target: String,
    /// The opt-level used.
    pub opt_level: u32,
    /// Kernels with nothing fused.
    pub kernels_before: usize,
    /// Kernels after fusion.
    pub kernels_after: usize,
    /// Estimated HBM bytes saved in total.
    pub bytes_saved: u64,
    /// Decisions not to fuse.
    pub refusals: usize,
    /// Region counts by kind.
    pub regions_by_kind: std::collections::BTreeMap<&'static str, usize>,
    /// The regions.
    pub regions: Vec<RegionRecord>,
}

impl Report {
    /// A report for `opts`.
    pub fn new(opts: &FusionOptions) -> Report {
        Report { target: opts.target.name.clone(), opt_level: opts.opt_level, ..Report::default() }
    }

    /// Adds a block's plan totals.
    pub fn add_plan(&mut self, plan: &BlockPlan) {
        self.kernels_before += plan.kernels_before;
        self.kernels_after += plan.kernels_after;
        self.refusals += plan.refusals.len();
    }

    /// Adds a formed region.
    pub fn add_region(&mut self, r: RegionRecord) {
        self.bytes_saved += r.bytes_saved;
        *self.regions_by_kind.entry(r.kind).or_default() += 1;
        self.regions.push(r);
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")) + "\n"
    }
}

/// Appends the DOT subgraph of `block` (its arguments and ops as nodes, def-use edges, regions as
/// clusters numbered from `first_id` and labelled with kind, op count and bytes saved) to `out`;
/// `prefix` keeps node names unique across blocks.
pub fn dot_block(
    ir: &Ir<'_>,
    block: BlockId,
    g: &BlockGraph,
    plan: &BlockPlan,
    first_id: usize,
    prefix: &str,
    out: &mut String,
) {
    let node = |i: usize| format!("{prefix}_{i}");
    let label = |i: usize| {
        let op = g.ops[i];
        let ty = ir.results(op).first().map_or(String::new(), |&r| ir.value_type(r).to_string());
        format!("{}\\n{}", ir.op(op).name, ty.replace('"', "'"))
    };
    let mut in_region = vec![false; g.len()];
    for (k, r) in plan.regions.iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{prefix}_r{} {{", first_id + k);
        let ops = if r.members.len() == 1 { "op" } else { "ops" };
        let _ = writeln!(
            out,
            "    label=\"region {} ({}, {} {ops}, saves {} B)\";",
            first_id + k,
            r.kind.keyword(),
            r.members.len(),
            r.saved
        );
        let _ = writeln!(out, "    style=filled; color=lightgrey;");
        for &m in &r.members {
            in_region[m as usize] = true;
            let _ = writeln!(out, "    {} [label=\"{}\"];", node(m as usize), label(m as usize));
        }
        let _ = writeln!(out, "  }}");
    }
    for i in (0..g.len()).filter(|&i| !in_region[i]) {
        let _ = writeln!(out, "  {} [label=\"{}\"];", node(i), label(i));
    }
    // The block's arguments (a function's parameters), with edges to the ops that read them.
    let args = ir.block_args(block);
    for (a, users) in g.arg_users.iter().enumerate() {
        let ty = args.get(a).map_or(String::new(), |&v| ir.value_type(v).to_string());
        let _ =
            writeln!(out, "  {prefix}_arg{a} [shape=ellipse, label=\"%arg{a}\\n{}\"];", ty.replace('"', "'"));
        for &u in users {
            let _ = writeln!(out, "  {prefix}_arg{a} -> {};", node(u as usize));
        }
    }
    for (i, producers) in g.producers.iter().enumerate() {
        let mut seen: Vec<u32> = Vec::new();
        for &p in producers.iter().flatten() {
            if !seen.contains(&p) {
                seen.push(p);
                let _ = writeln!(out, "  {} -> {};", node(p as usize), node(i));
            }
        }
    }
}
