//! `hl-canonicalize`: the `hl` dialect's canonicalization patterns and constant folding, run
//! greedily to a fixpoint (the generic `canonicalize` runs them too, with every other dialect's).
//!
//! Rewrites: folds every `hl` op whose operands are all constants (evaluated by the reference
//! interpreter, so folding is exact), and applies the patterns of `kiln_dialects::hl::canonicalize`
//! (`x + (-0.0)`, `x * 1`, integer `x * 0`, `neg(neg x)`, reshape/transpose/cast chains,
//! identity ops); erases dead pure ops.
//! Assumes: verified IR. Guarantees: verified IR computing bit-identical results under the
//! interpreter.

use kiln_compiler::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet};
use kiln_dialects::hl::canonicalize::populate;

kiln_compiler::declare_pass! {
    struct HlCanonicalize;
    name: "hl-canonicalize",
    summary: "Fold and canonicalize hl ops",
    description: "Constant folding of hl ops through the interpreter, plus the hl canonicalization patterns.",

    fn run(&mut self, cx, root) {
        let mut patterns = PatternSet::new();
        populate(&mut patterns);
        let stats = apply_patterns_greedily(cx.ctx, cx.ir, root, &patterns, GreedyConfig::default());
        cx.add_statistic("num-folded", "Number of operations folded", stats.folded);
        cx.add_statistic("num-rewritten", "Number of pattern applications", stats.rewrites);
        cx.add_statistic("num-erased", "Number of dead operations erased", stats.erased);
        Ok(())
    }
}
