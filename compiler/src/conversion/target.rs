//! What a conversion must produce: which ops and dialects are legal, illegal, or decided per op
//! (MLIR's `ConversionTarget`).

use rustc_hash::FxHashMap;

use crate::context::Context;
use crate::dialect::OpDef;
use crate::ir::{Ir, OpId};

/// A legality callback: whether this op, as it is now, is legal.
type DynamicLegality<'a, 'c> = Box<dyn Fn(&Context<'c>, &Ir<'c>, OpId) -> bool + 'a>;

/// How the target treats one op or dialect.
enum Rule<'a, 'c> {
    Legal,
    Illegal,
    Dynamic(DynamicLegality<'a, 'c>),
}

impl<'c> Rule<'_, 'c> {
    fn decide(&self, ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> bool {
        match self {
            Rule::Legal => true,
            Rule::Illegal => false,
            Rule::Dynamic(f) => f(ctx, ir, op),
        }
    }
}

/// Legal, illegal and dynamically legal ops and dialects. An op rule wins over its dialect's
/// rule, which wins over the unknown-op rule; an op no rule covers has *unknown* legality.
#[derive(Default)]
pub struct ConversionTarget<'a, 'c> {
    ops: FxHashMap<&'static str, Rule<'a, 'c>>,
    dialects: FxHashMap<String, Rule<'a, 'c>>,
    unknown: Option<Rule<'a, 'c>>,
}

impl<'a, 'c> ConversionTarget<'a, 'c> {
    /// A target with no rules (every op has unknown legality).
    pub fn new() -> Self {
        ConversionTarget { ops: FxHashMap::default(), dialects: FxHashMap::default(), unknown: None }
    }

    /// Marks `op` legal.
    pub fn add_legal_op(&mut self, op: &'static OpDef) {
        self.ops.insert(op.name, Rule::Legal);
    }

    /// Marks `op` illegal: conversion must rewrite it.
    pub fn add_illegal_op(&mut self, op: &'static OpDef) {
        self.ops.insert(op.name, Rule::Illegal);
    }

    /// Makes `op` legal exactly when `legal` says so (e.g. a function whose signature has only
    /// converted types).
    pub fn add_dynamically_legal_op(
        &mut self,
        op: &'static OpDef,
        legal: impl Fn(&Context<'c>, &Ir<'c>, OpId) -> bool + 'a,
    ) {
        self.ops.insert(op.name, Rule::Dynamic(Box::new(legal)));
    }

    /// Marks every op of `dialect` legal (registered or not: `"test"` covers `test.*`).
    pub fn add_legal_dialect(&mut self, dialect: &str) {
        self.dialects.insert(dialect.to_string(), Rule::Legal);
    }

    /// Marks every op of `dialect` illegal.
    pub fn add_illegal_dialect(&mut self, dialect: &str) {
        self.dialects.insert(dialect.to_string(), Rule::Illegal);
    }

    /// Makes the ops of `dialect` legal exactly when `legal` says so.
    pub fn add_dynamically_legal_dialect(
        &mut self,
        dialect: &str,
        legal: impl Fn(&Context<'c>, &Ir<'c>, OpId) -> bool + 'a,
    ) {
        self.dialects.insert(dialect.to_string(), Rule::Dynamic(Box::new(legal)));
    }

    /// Decides ops that no op or dialect rule covers (MLIR's `markUnknownOpDynamicallyLegal`).
    pub fn mark_unknown_op_dynamically_legal(
        &mut self,
        legal: impl Fn(&Context<'c>, &Ir<'c>, OpId) -> bool + 'a,
    ) {
        self.unknown = Some(Rule::Dynamic(Box::new(legal)));
    }

    /// Whether `op` is legal now: `Some(true)` legal, `Some(false)` illegal (it must be
    /// converted), `None` when no rule covers it.
    pub fn is_legal(&self, ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Option<bool> {
        let name = ir.op(op).name;
        let dialect = name.split_once('.').map_or(name, |(d, _)| d);
        let rule = self.ops.get(name).or_else(|| self.dialects.get(dialect)).or(self.unknown.as_ref())?;
        Some(rule.decide(ctx, ir, op))
    }
}
