//! Rewriting: patterns, a rewriter that keeps use lists and the driver's worklist consistent,
//! and the greedy driver that applies patterns and folders to a fixpoint (MLIR's
//! `applyPatternsGreedily`).
//!
//! Patterns live apart from drivers: dialects fill a [`PatternSet`] from their ops'
//! `canonicalize` hooks; passes pick a driver.

use crate::attributes::Attribute;
use crate::context::Context;
use crate::dialect::effects::effects_allow_erasure;
use crate::dialect::{FoldResult, Trait};
use crate::ir::{Ir, OpId, OperationState, ValueId, WalkOrder};

/// A rewrite of ops matching a root name.
pub trait RewritePattern {
    /// The op name this pattern matches (`None`: any op).
    fn root(&self) -> Option<&'static str>;

    /// Higher benefit patterns are tried first.
    fn benefit(&self) -> u16 {
        1
    }

    /// Tries to rewrite `op`; returns whether it changed the IR. A pattern that returns
    /// `false` must not have changed anything.
    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool;
}

/// A set of patterns.
#[derive(Default)]
pub struct PatternSet {
    patterns: Vec<Box<dyn RewritePattern>>,
}

impl PatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a pattern.
    pub fn add(&mut self, pattern: impl RewritePattern + 'static) {
        self.patterns.push(Box::new(pattern));
    }

    /// Number of patterns.
    pub fn len(&self) -> usize {
        self.patterns.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// Adds the canonicalization patterns of every op registered in `ctx`.
    pub fn add_canonicalization_patterns(&mut self, ctx: &Context<'_>) {
        for d in ctx.registry().dialects() {
            if let Some(populate) = d.canonicalize {
                populate(self);
            }
            for op in d.ops {
                if let Some(populate) = op.canonicalize {
                    populate(self);
                }
            }
        }
    }
}

/// Mutates the IR on behalf of patterns, telling the driver what changed.
pub struct Rewriter<'a, 'c> {
    /// The context.
    pub ctx: &'a Context<'c>,
    /// The IR (read freely; mutate through the rewriter's methods so the driver is told).
    pub ir: &'a mut Ir<'c>,
    touched: Vec<OpId>,
}

impl<'a, 'c> Rewriter<'a, 'c> {
    /// A rewriter over `ir`.
    pub fn new(ctx: &'a Context<'c>, ir: &'a mut Ir<'c>) -> Self {
        Rewriter { ctx, ir, touched: Vec::new() }
    }

    /// Creates an op and inserts it before `before`.
    pub fn create_before(&mut self, before: OpId, state: OperationState<'c>) -> OpId {
        let op = self.ir.create_op(state);
        self.ir.insert_op_before(before, op);
        self.touched.push(op);
        op
    }

    /// Replaces every use of `from` by `to`.
    pub fn replace_all_uses(&mut self, from: ValueId, to: ValueId) {
        self.touched.extend(self.ir.uses(from).iter().map(|u| u.op));
        self.ir.replace_all_uses(from, to);
    }

    /// Replaces the results of `op` by `values` and erases `op`.
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) {
        let results = self.ir.results(op).to_vec();
        for (r, &v) in results.into_iter().zip(values) {
            self.replace_all_uses(r, v);
        }
        self.erase_op(op);
    }

    /// Erases `op` (its results must be unused).
    pub fn erase_op(&mut self, op: OpId) {
        for &v in self.ir.operands(op) {
            if let Some(d) = self.ir.defining_op(v) {
                self.touched.push(d);
            }
        }
        self.ir.erase_op(op);
    }

    /// Records that `op` was modified in place.
    pub fn modified(&mut self, op: OpId) {
        self.touched.push(op);
    }
}

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

/// Applies `patterns` and folders to everything nested in `root` until nothing changes.
pub fn apply_patterns_greedily<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    root: OpId,
    patterns: &PatternSet,
    config: GreedyConfig,
) -> GreedyStats {
    let mut order: Vec<&dyn RewritePattern> = patterns.patterns.iter().map(|p| p.as_ref()).collect();
    order.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
    let mut stats = GreedyStats::default();
    for _ in 0..config.max_iterations {
        let mut worklist: Vec<OpId> = ir.walk(root, WalkOrder::PostOrder).filter(|&o| o != root).collect();
        worklist.reverse();
        let mut changed = false;
        while let Some(op) = worklist.pop() {
            if !ir.contains_op(op) || op == root {
                continue;
            }
            let mut rw = Rewriter::new(ctx, ir);
            let did = if is_trivially_dead(rw.ir, op) {
                rw.erase_op(op);
                stats.erased += 1;
                true
            } else if config.fold && try_fold(&mut rw, op) {
                stats.folded += 1;
                true
            } else {
                let name = rw.ir.op(op).name;
                let hit = order
                    .iter()
                    .filter(|p| p.root().is_none_or(|r| r == name))
                    .any(|p| p.match_and_rewrite(&mut rw, op));
                if hit {
                    stats.rewrites += 1;
                }
                hit
            };
            if did {
                changed = true;
                worklist.append(&mut rw.touched);
            }
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

fn try_fold<'c>(rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
    let Some(def) = rw.ir.op(op).def else { return false };
    let Some(fold) = def.fold else { return false };
    if def.has_trait(Trait::ConstantLike) {
        return false;
    }
    let consts: Vec<Option<Attribute<'c>>> =
        rw.ir.operands(op).iter().map(|&v| constant_value(rw.ctx, rw.ir, v)).collect();
    let Some(results) = fold(rw.ctx, rw.ir, op, &consts) else { return false };
    let old = rw.ir.results(op).to_vec();
    if results.len() != old.len() {
        return false;
    }
    let dialect = rw.ctx.registry().dialect(def.dialect());
    let loc = rw.ir.op(op).loc;
    let mut values = Vec::with_capacity(results.len());
    for (r, &res) in results.iter().zip(&old) {
        let v = match *r {
            FoldResult::Value(v) => v,
            FoldResult::Constant(attr) => {
                let ty = rw.ir.value_type(res);
                let Some(make) = dialect.and_then(|d| d.materialize_constant) else { return false };
                let Some(c) = make(rw.ctx, rw.ir, attr, ty, loc) else { return false };
                rw.ir.insert_op_before(op, c);
                rw.touched.push(c);
                rw.ir.results(c)[0]
            }
        };
        values.push(v);
    }
    if values == old {
        // Folded in place (attributes changed): revisit the op, keep it.
        rw.modified(op);
        return true;
    }
    rw.replace_op(op, &values);
    true
}
