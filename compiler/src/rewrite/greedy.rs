//! The greedy driver (MLIR's `applyPatternsGreedily`): a worklist of ops, each erased when
//! trivially dead, else folded, else offered to the patterns rooted on its definition. The
//! driver listens to its rewriter, so whatever a rewrite inserts, modifies or orphans is
//! visited again.

use crate::attributes::Attribute;
use crate::context::Context;
use crate::dialect::effects::effects_allow_erasure;
use crate::dialect::{FoldResult, Trait};
use crate::ir::{Ir, OpId, ValueId, WalkOrder};
use crate::pattern::{root_matches, InsertPoint, Listener, PatternSet, RewritePattern, Rewriter};

/// Limits of the greedy driver.
#[derive(Clone, Copy, Debug)]
pub struct GreedyConfig {
    /// Maximum number of sweeps over the worklist.
    pub max_iterations: u32,
    /// Whether to fold ops.
    pub fold: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig { max_iterations: 10, fold: true }
    }
}

/// What the greedy driver did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GreedyStats {
    /// Ops folded.
    pub folded: u64,
    /// Pattern applications.
    pub rewrites: u64,
    /// Dead ops erased.
    pub erased: u64,
    /// Whether a fixpoint was reached within the iteration limit.
    pub converged: bool,
}

/// The driver's listener: everything a rewrite touches goes back on the worklist.
struct Worklist {
    ops: Vec<OpId>,
}

impl<'c> Listener<'c> for Worklist {
    fn notify_inserted(&mut self, _: &Ir<'c>, op: OpId) {
        self.ops.push(op);
    }

    fn notify_modified(&mut self, _: &Ir<'c>, op: OpId) {
        self.ops.push(op);
    }

    fn notify_erased(&mut self, ir: &Ir<'c>, op: OpId) {
        // Producers of its operands may have lost their last use.
        self.ops.extend(ir.operands(op).iter().filter_map(|&v| ir.defining_op(v)).filter(|&d| d != op));
    }
}

/// Applies `patterns` and folders to everything nested in `root` until nothing changes.
pub fn apply_patterns_greedily<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    patterns: &PatternSet,
    config: GreedyConfig,
) -> GreedyStats {
    let order = patterns.by_benefit();
    let mut stats = GreedyStats::default();
    for _ in 0..config.max_iterations {
        let mut pending =
            Worklist { ops: ir.walk(root, WalkOrder::PostOrder).filter(|&o| o != root).collect() };
        pending.ops.reverse();
        let mut changed = false;
        while let Some(op) = pending.ops.pop() {
            if !ir.contains_op(op) || op == root {
                continue;
            }
            let mut rw = Rewriter::with_listener(ctx, ir, &mut pending);
            let did = if is_trivially_dead(rw.ir(), op) {
                rw.erase_op(op);
                stats.erased += 1;
                true
            } else if config.fold && try_fold(&mut rw, op) {
                stats.folded += 1;
                true
            } else {
                let hit = order.iter().any(|p: &&dyn RewritePattern| {
                    root_matches(p.root(), rw.ir(), op) && p.match_and_rewrite(&mut rw, op)
                });
                if hit {
                    stats.rewrites += 1;
                }
                hit
            };
            changed |= did;
        }
        if !changed {
            stats.converged = true;
            return stats;
        }
    }
    stats
}

/// Whether `op` can be erased unobservably: a registered non-terminator without regions, none
/// of whose results is used, whose memory effects are known and at most read memory or
/// allocate its own results (see [`effects_allow_erasure`]). Ops that write or free, and ops
/// with unknown effects (unregistered ones among them), are never trivially dead.
pub fn is_trivially_dead(ir: &Ir<'_>, op: OpId) -> bool {
    ir.op(op).def.is_some_and(|d| !d.has_trait(Trait::Terminator))
        && ir.regions(op).is_empty()
        && ir.results(op).iter().all(|&r| ir.uses(r).is_empty())
        && effects_allow_erasure(ir, op)
}

/// The constant value of `v`, when it is the result of a constant-like op.
pub fn constant_value<'c>(ctx: &Context<'c>, ir: &Ir<'c>, v: ValueId) -> Option<Attribute<'c>> {
    let op = ir.defining_op(v)?;
    let def = ir.op(op).def?;
    if !def.has_trait(Trait::ConstantLike) {
        return None;
    }
    match def.fold?(ctx, ir, op, &[])?.first()? {
        FoldResult::Constant(a) => Some(*a),
        FoldResult::Value(_) => None,
    }
}

/// Folds `op` when its folder gives a replacement for every result. Folders only read the IR,
/// so a fold that names one of `op`'s own results (an op using its own result in a graph
/// region) is no fold: the op is kept.
fn try_fold<'c>(rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
    let Some(def) = rw.ir().op(op).def else { return false };
    let Some(fold) = def.fold else { return false };
    if def.has_trait(Trait::ConstantLike) {
        return false;
    }
    let consts: Vec<Option<Attribute<'c>>> =
        rw.ir().operands(op).iter().map(|&v| constant_value(rw.ctx, rw.ir(), v)).collect();
    let Some(results) = fold(rw.ctx, rw.ir(), op, &consts) else { return false };
    let old = rw.ir().results(op).to_vec();
    if results.len() != old.len()
        || results.iter().any(|r| matches!(r, FoldResult::Value(v) if old.contains(v)))
    {
        return false;
    }
    let dialect = rw.ctx.registry().dialect(def.dialect());
    let Some(make) = dialect.and_then(|d| d.materialize_constant) else {
        return results.iter().all(|r| matches!(r, FoldResult::Value(_)))
            && replace_folded(rw, op, &results, None);
    };
    replace_folded(rw, op, &results, Some(make))
}

/// Materializes the constants of a fold (all or none) before `op`, then replaces `op`.
fn replace_folded<'c>(
    rw: &mut Rewriter<'_, 'c>,
    op: OpId,
    results: &[FoldResult<'c>],
    make: Option<crate::dialect::MaterializeFn>,
) -> bool {
    let loc = rw.ir().op(op).loc;
    let mut built = Vec::new();
    let old = rw.ir().results(op).to_vec();
    for (r, &res) in results.iter().zip(&old) {
        if let (FoldResult::Constant(attr), Some(make)) = (*r, make) {
            let ty = rw.ir().value_type(res);
            match make(rw.ctx, rw.ir, attr, ty, loc) {
                Some(c) => built.push(c),
                None => {
                    // Nothing is inserted yet: drop what was built and keep the op.
                    for c in built {
                        rw.ir.erase_op(c);
                    }
                    return false;
                }
            }
        }
    }
    let mut constants = built.into_iter();
    let mut values = Vec::with_capacity(results.len());
    for r in results {
        values.push(match *r {
            FoldResult::Value(v) => v,
            FoldResult::Constant(_) => {
                let c = constants.next().expect("one op per constant");
                rw.insert(InsertPoint::Before(op), c);
                rw.ir().results(c)[0]
            }
        });
    }
    rw.replace_op(op, &values)
}
