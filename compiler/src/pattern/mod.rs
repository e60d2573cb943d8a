//! Patterns and the [`Rewriter`] they mutate IR through (MLIR's `PatternMatch.h`): a
//! [`RewritePattern`] rooted on an op definition, the [`PatternSet`] that ops' and dialects'
//! `canonicalize` hooks fill, and the [`Rewriter`] that tells a [`Listener`] what changed.
//!
//! The module sits below [`dialect`](crate::dialect), whose [`PopulateFn`](crate::dialect::PopulateFn)
//! hooks name [`PatternSet`]; the drivers that apply patterns sit above it
//! ([`crate::rewrite`], [`crate::conversion`]).

mod rewriter;

pub use rewriter::{InsertPoint, Listener, Rewriter};

use crate::context::Context;
use crate::dialect::OpDef;
use crate::ir::{Ir, OpId};

/// A rewrite of ops of one definition.
pub trait RewritePattern {
    /// The op this pattern matches (`None`: any op, as MLIR's `MatchAnyOpTypeTag`).
    fn root(&self) -> Option<&'static OpDef>;

    /// Higher benefit patterns are tried first.
    fn benefit(&self) -> u16 {
        1
    }

    /// Tries to rewrite `op`; returns whether it changed the IR. A pattern that returns
    /// `false` must not have changed anything.
    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool;
}

/// Whether a pattern rooted on `root` applies to `op`.
pub fn root_matches(root: Option<&'static OpDef>, ir: &Ir<'_>, op: OpId) -> bool {
    match root {
        None => true,
        Some(def) => ir.op(op).def.is_some_and(|d| std::ptr::eq(d, def)),
    }
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

    /// The patterns, highest benefit first (stable among equal benefits).
    pub(crate) fn by_benefit(&self) -> Vec<&dyn RewritePattern> {
        let mut order: Vec<&dyn RewritePattern> = self.patterns.iter().map(|p| p.as_ref()).collect();
        order.sort_by_key(|p| std::cmp::Reverse(p.benefit()));
        order
    }
}
