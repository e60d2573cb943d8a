//! The machinery of `kiln-fuse`: options ([`options`]), rules ([`rules`]), the block graph
//! ([`graph`]), the cost and legality model ([`model`]), the clustering ([`cluster`]),
//! attention regions ([`attention`]), the report/DOT output ([`report`]) and the progress
//! lines of `progress=true` ([`progress`]).
//! [`fuse`] drives them over every block under the pass's anchor and forms the regions with
//! `kiln_dialects::fused::build_region`.

pub mod attention;
pub mod cluster;
pub mod graph;
pub mod model;
pub mod options;
pub mod progress;
pub mod report;
pub mod rules;

use kiln_compiler::ir::{BlockId, WalkOrder};
use kiln_compiler::pass::{PassContext, PassFailed};
use kiln_compiler::{Diagnostic, OpId, Severity};
use kiln_dialects::fused::{build_region, region_id, set_region_id, set_region_parts, RegionKind, REGION_OP};
use kiln_dialects::hl::interfaces::hl_op;

use cluster::{plan_block, region_remark, BlockPlan};
use graph::{BlockGraph, LocalMap};
use model::Scratch;
use options::FusionOptions;
use progress::Progress;
use report::{dot_block, RegionRecord, Report};

/// What one pipeline run of `kiln-fuse` carries from one op it runs on to the next (each
/// function, when it is nested under `func.func`), so that region numbers are unique in the
/// run and the report and DOT files cover every op it ran on.
#[derive(Debug, Default)]
pub struct FuseRun {
    /// The next region number.
    next_id: usize,
    /// The report so far.
    report: Option<Report>,
    /// The DOT subgraphs so far.
    dot: String,
    /// Blocks drawn so far (DOT node names are unique across them).
    blocks: usize,
}

/// Fuses every block nested under `root` (blocks inside `fused.region`s excepted), emitting
/// remarks, statistics, and the report and DOT files the options ask for (covering `run`'s
/// earlier ops too). Each region formed carries its number as its `id` attribute, the number
/// the remarks, report and DOT use.
pub fn fuse(
    cx: &mut PassContext<'_, '_>,
    root: OpId,
    opts: &FusionOptions,
    run: &mut FuseRun,
) -> Result<(), PassFailed> {
    let mut report = run.report.take().unwrap_or_else(|| Report::new(opts));
    let (regions_before, kernels_before, kernels_after) =
        (report.regions.len(), report.kernels_before, report.kernels_after);
    let saved_before = report.bytes_saved;
    let mut dot = std::mem::take(&mut run.dot);
    let blocks: Vec<BlockId> = cx
        .ir
        .walk(root, WalkOrder::PreOrder)
        .filter(|&op| !cx.ir.op(op).def.is_some_and(|d| std::ptr::eq(d, &REGION_OP)))
        .flat_map(|op| cx.ir.regions(op).to_vec())
        .flat_map(|r| cx.ir.region_blocks(r).collect::<Vec<_>>())
        .collect();
    let total = blocks.iter().map(|&b| cx.ir.block_ops(b).count()).sum();
    let num_blocks = blocks.len();
    let mut progress = Progress::new(opts.progress, total, blocks.len());
    let mut map = LocalMap::default();
    let mut scratch = Scratch::default();
    // Region numbers continue after those of this run's earlier ops and of regions already
    // there (an earlier run), so that every `id` in the IR names one region.
    let existing = cx
        .ir
        .walk(root, WalkOrder::PreOrder)
        .filter(|&op| cx.ir.op(op).def.is_some_and(|d| std::ptr::eq(d, &REGION_OP)))
        .filter_map(|op| region_id(cx.ir, op))
        .max()
        .map_or(0, |m| m as usize + 1);
    let mut next_id = existing.max(run.next_id);
    let first_block = run.blocks;
    for (bi, block) in blocks.into_iter().enumerate() {
        let g = BlockGraph::build(cx.ir, block, &mut map);
        g.clear(&mut map);
        // A region moves ops to its last member's position: only sound when every use follows
        // its definition, which a graph region need not keep.
        if !g.ops.iter().any(|&op| hl_op(cx.ir, op).is_some()) || !g.in_program_order() {
            progress.skipped(g.len());
            continue;
        }
        let function = cx
            .ir
            .parent_region(block)
            .and_then(|r| cx.ir.region_owner(r))
            .and_then(|f| cx.ir.attr(f, "sym_name"))
            .and_then(|a| a.as_str().map(|s| String::from_utf8_lossy(s).into_owned()))
            .unwrap_or_default();
        progress.planning(bi, &function, g.len());
        let plan = if opts.opt_level == 0 {
            // Nothing fuses, but the report still counts the kernels.
            let kernels = g.ops.iter().filter(|&&op| model::classify(cx.ir, op, opts).kernel).count();
            BlockPlan { kernels_before: kernels, kernels_after: kernels, ..BlockPlan::default() }
        } else {
            let (plan, s) = if opts.attention && opts.opt_level >= 2 {
                attention::plan_with_attention(cx.ctx, cx.ir, &g, opts, scratch, &mut progress)
            } else {
                plan_block(cx.ctx, cx.ir, &g, opts, None, scratch, &mut progress)
            };
            scratch = s;
            plan
        };
        report.add_plan(&plan);
        let fused = plan.regions.iter().map(|r| r.members.len()).sum();
        progress.planned(bi, g.len(), plan.regions.len(), fused);
        if opts.dot.is_some() {
            dot_block(cx.ir, block, &g, &plan, next_id, &format!("b{}", first_block + bi), &mut dot);
        }
        if opts.remarks {
            for (op, msg) in &plan.refusals {
                cx.diagnostics.push(Diagnostic::new(Severity::Remark, cx.ir.op(*op).loc, msg.clone()));
            }
        }
        for r in &plan.regions {
            let id = next_id;
            next_id += 1;
            let remark = region_remark(cx.ir, &g, r, id, opts);
            let ops: Vec<OpId> = r.members.iter().map(|&m| g.ops[m as usize]).collect();
            let names = ops.iter().map(|&op| cx.ir.op(op).name.to_string()).collect();
            let loc = cx.ir.op(ops[0]).loc;
            match build_region(cx.ctx, cx.ir, r.kind, &ops) {
                Ok(region) => {
                    set_region_id(cx.ctx, cx.ir, region, id as u64);
                    if r.kind == RegionKind::Attention {
                        set_region_parts(cx.ctx, cx.ir, region, &r.parts);
                    }
                    let types = |vs: &[kiln_compiler::ValueId]| {
                        vs.iter().map(|&v| cx.ir.value_type(v).to_string()).collect::<Vec<_>>()
                    };
                    report.add_region(RegionRecord {
                        id,
                        function: function.clone(),
                        kind: r.kind.keyword(),
                        ops: names,
                        inputs: types(cx.ir.operands(region)),
                        outputs: types(cx.ir.results(region)),
                        est_ub_bytes: r.ub,
                        bytes_saved: r.saved,
                    });
                    if opts.remarks {
                        cx.diagnostics.push(Diagnostic::new(Severity::Remark, loc, remark));
                    }
                    progress.formed(r.members.len());
                }
                Err(e) => {
                    let msg = format!("kiln-fuse: internal error: cannot form region {id}: {e}");
                    cx.diagnostics.push(Diagnostic::error(loc, msg));
                    return Err(PassFailed);
                }
            }
        }
    }
    progress.finish();
    let formed = &report.regions[regions_before..];
    cx.add_statistic("num-regions", "Fused regions formed", formed.len() as u64);
    cx.add_statistic(
        "num-fused-ops",
        "Ops moved into fused regions",
        formed.iter().map(|r| r.ops.len() as u64).sum(),
    );
    cx.add_statistic(
        "kernels-before",
        "Kernels before fusion",
        (report.kernels_before - kernels_before) as u64,
    );
    cx.add_statistic("kernels-after", "Kernels after fusion", (report.kernels_after - kernels_after) as u64);
    cx.add_statistic("bytes-saved", "Estimated HBM bytes saved", report.bytes_saved - saved_before);
    let root_loc = cx.ir.op(root).loc;
    let mut ok = true;
    let mut write = |path: &Option<String>, text: &str, what: &str| {
        if let Some(p) = path {
            if let Err(e) = std::fs::write(p, text) {
                cx.diagnostics
                    .push(Diagnostic::error(root_loc, format!("kiln-fuse: cannot write {what} '{p}': {e}")));
                ok = false;
            }
        }
    };
    write(&opts.report, &report.to_json(), "report");
    if opts.dot.is_some() {
        let text =
            format!("digraph kiln_fuse {{\n  compound=true;\n  node [shape=box, fontsize=10];\n{dot}}}\n");
        write(&opts.dot, &text, "DOT file");
    }
    run.next_id = next_id;
    run.blocks = first_block + num_blocks;
    run.report = Some(report);
    run.dot = dot;
    if ok {
        Ok(())
    } else {
        Err(PassFailed)
    }
}
