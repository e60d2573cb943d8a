//! `canonicalize`: applies every registered op's canonicalization patterns and folders
//! greedily until a fixpoint.
//!
//! Rewrites: folds ops whose operands are constants (materializing results through their
//! dialect), applies the patterns ops declare in their `canonicalize` hook, erases dead pure ops.
//! Assumes: verified IR. Guarantees: verified IR with the same observable behaviour; stops after
//! `max-iterations` sweeps even when patterns do not converge (reported as a statistic).

use kiln_compiler::pass::{OptionKind, PassOptionSpec};
use kiln_compiler::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet};

kiln_compiler::declare_pass! {
    struct Canonicalize {
        config: GreedyConfig,
    }
    name: "canonicalize",
    summary: "Canonicalize operations",
    description: "Applies registered canonicalization patterns and folders greedily to a fixpoint.",
    options: &[
        PassOptionSpec {
            name: "max-iterations",
            help: "Maximum number of sweeps over the IR",
            kind: OptionKind::UInt,
            default: "10",
        },
        PassOptionSpec {
            name: "fold",
            help: "Whether to fold operations as well as apply patterns",
            kind: OptionKind::Bool,
            default: "true",
        },
    ],
    create(o) {
        let config = GreedyConfig {
            max_iterations: u32::try_from(o.get_int("max-iterations")).unwrap_or(u32::MAX),
            fold: o.get_bool("fold"),
        };
        Ok(Canonicalize { config })
    }

    fn run(&mut self, cx, root) {
        let mut patterns = PatternSet::new();
        patterns.add_canonicalization_patterns(cx.ctx);
        let stats = apply_patterns_greedily(cx.ctx, cx.ir, root, &patterns, self.config);
        cx.add_statistic("num-folded", "Number of operations folded", stats.folded);
        cx.add_statistic("num-rewritten", "Number of pattern applications", stats.rewrites);
        cx.add_statistic("num-erased", "Number of dead operations erased", stats.erased);
        cx.add_statistic("not-converged", "Runs that hit max-iterations", u64::from(!stats.converged));
        Ok(())
    }
}
