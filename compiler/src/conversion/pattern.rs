//! Conversion patterns and the rewriter they use (MLIR's `ConversionPattern` and
//! `ConversionPatternRewriter`).

use std::ops::{Deref, DerefMut};

use rustc_hash::{FxHashMap, FxHashSet};

use super::type_converter::{cast_state, TypeConverter};
use crate::context::Context;
use crate::dialect::OpDef;
use crate::ir::{Ir, OpId, OperationState, RegionId, ValueDef, ValueId};
use crate::pattern::{root_matches, InsertPoint, Rewriter};
use crate::types::Type;

/// The ops a conversion pattern is tried on.
#[derive(Clone, Copy, Debug)]
pub enum Root {
    /// Ops of one definition.
    Op(&'static OpDef),
    /// Unregistered ops with this name: ops without a definition, of a dialect Kiln does not
    /// register (`tosa.exp`) or that their dialect does not declare (`arith.addf`), read
    /// under `--allow-unregistered-dialect` (MLIR roots patterns on an `OperationName`, which
    /// unregistered ops have too). A registered op of the same name does not match:
    /// registered ops are matched by definition.
    Unregistered(&'static str),
    /// Any op (MLIR's `MatchAnyOpTypeTag`).
    Any,
}

impl Root {
    /// Whether `op` is an op of this root.
    pub fn matches(self, ir: &Ir<'_>, op: OpId) -> bool {
        match self {
            Root::Op(def) => root_matches(Some(def), ir, op),
            Root::Unregistered(name) => {
                let data = ir.op(op);
                data.def.is_none() && data.name == name
            }
            Root::Any => true,
        }
    }
}

/// Rewrites one illegal op. `operands` are the op's operands as converted so far (MLIR's
/// adaptor): the replacement of an operand whose producer was converted, else the operand
/// bridged to its converted type by a target materialization, else the operand itself.
///
/// A pattern that matches an op but cannot convert it says why with
/// [`ConversionRewriter::notify_match_failure`]: the reason is a note on the driver's error
/// when no pattern converts the op, and a line of the `dialect-conversion` debug output.
pub trait ConversionPattern {
    /// The ops this pattern converts.
    fn root(&self) -> Root;

    /// Named in the error when an op stays illegal (default: the type's name).
    fn name(&self) -> &'static str {
        let full = std::any::type_name::<Self>();
        full.rsplit("::").next().unwrap_or(full)
    }

    /// Higher benefit patterns are tried first.
    fn benefit(&self) -> u16 {
        1
    }

    /// Tries to convert `op`; returns whether it changed the IR. A pattern that returns
    /// `false` must not have changed anything.
    fn match_and_rewrite<'c>(
        &self,
        rw: &mut ConversionRewriter<'_, '_, 'c>,
        op: OpId,
        operands: &[ValueId],
    ) -> bool;
}

/// The conversion patterns of one conversion.
#[derive(Default)]
pub struct ConversionPatternSet {
    patterns: Vec<Box<dyn ConversionPattern>>,
}

impl ConversionPatternSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a pattern.
    pub fn add(&mut self, pattern: impl ConversionPattern + 'static) {
        self.patterns.push(Box::new(pattern));
    }

    /// The patterns with their indices, highest benefit first (stable among equals).
    pub(super) fn by_benefit(&self) -> Vec<(usize, &dyn ConversionPattern)> {
        let mut order: Vec<(usize, &dyn ConversionPattern)> =
            self.patterns.iter().enumerate().map(|(i, p)| (i, p.as_ref())).collect();
        order.sort_by_key(|(_, p)| std::cmp::Reverse(p.benefit()));
        order
    }
}

/// What the driver keeps across patterns: which values stand for which, and which ops are
/// its own materializations.
#[derive(Default)]
pub(super) struct ConversionState {
    /// Original-typed value -> the value of converted type standing for it.
    pub mapping: FxHashMap<ValueId, ValueId>,
    /// Materializations built by the driver, in order.
    pub casts: Vec<OpId>,
    pub cast_set: FxHashSet<OpId>,
}

/// A [`Rewriter`] (everything it offers is available through `Deref`) that also knows the type
/// converter and maps replaced values. Its own [`ConversionRewriter::replace_op`] shadows the
/// plain one: replacements may change types, and unconverted users get materializations.
pub struct ConversionRewriter<'r, 'a, 'c> {
    pub(super) rw: Rewriter<'a, 'c>,
    pub(super) state: &'r mut ConversionState,
    pub(super) types: Option<&'r TypeConverter<'r, 'c>>,
    /// Why the pattern being tried declined ([`ConversionRewriter::notify_match_failure`]).
    pub(super) failure: Option<String>,
}

impl<'a, 'c> Deref for ConversionRewriter<'_, 'a, 'c> {
    type Target = Rewriter<'a, 'c>;
    fn deref(&self) -> &Rewriter<'a, 'c> {
        &self.rw
    }
}

impl<'a, 'c> DerefMut for ConversionRewriter<'_, 'a, 'c> {
    fn deref_mut(&mut self) -> &mut Rewriter<'a, 'c> {
        &mut self.rw
    }
}

impl<'c> ConversionRewriter<'_, '_, 'c> {
    fn ctx(&self) -> &Context<'c> {
        self.rw.ctx
    }

    /// Records why the pattern being tried does not convert the op it was given and returns
    /// `false`, for `return rw.notify_match_failure("...")` (MLIR's `notifyMatchFailure`).
    /// The pattern must not have changed the IR.
    pub fn notify_match_failure(&mut self, reason: impl std::fmt::Display) -> bool {
        self.failure = Some(reason.to_string());
        false
    }

    /// The converted type of `ty` (`ty` itself without a type converter).
    pub fn convert_type(&self, ty: Type<'c>) -> Option<Type<'c>> {
        match self.types {
            Some(t) => t.convert_type(self.ctx(), ty),
            None => Some(ty),
        }
    }

    /// Replaces the results of `op` by `values` (of converted types, or the same ones) and
    /// erases `op`. Users left with the original type get a source materialization. Returns
    /// `false`, changing nothing, when a value is defined inside `op`.
    #[must_use]
    pub fn replace_op(&mut self, op: OpId, values: &[ValueId]) -> bool {
        let results = self.rw.ir().results(op).to_vec();
        let mut bridged = Vec::with_capacity(values.len());
        for (&r, &v) in results.iter().zip(values) {
            let (from, to) = (self.rw.ir().value_type(v), self.rw.ir().value_type(r));
            if from == to || self.rw.ir().uses(r).is_empty() {
                bridged.push(v);
                continue;
            }
            let b = self.materialize(true, v, from, to, InsertPoint::Before(op));
            self.state.mapping.insert(b, v);
            bridged.push(b);
        }
        self.rw.replace_op(op, &bridged)
    }

    /// Builds `name` (definition `def`) at `op`'s location, before it, on `operands` with
    /// `result_types`, and replaces `op` by its results (MLIR's `replaceOpWithNewOp`). Returns
    /// `false` as [`ConversionRewriter::replace_op`] does, with the new op erased again.
    #[must_use]
    pub fn replace_op_with_new(
        &mut self,
        op: OpId,
        name: &'c str,
        def: Option<&'static OpDef>,
        operands: &[ValueId],
        result_types: Vec<Type<'c>>,
    ) -> bool {
        let mut state = OperationState::new(name, def, self.rw.ir().op(op).loc);
        state.operands = operands.to_vec();
        state.result_types = result_types;
        let new = self.rw.create_before(op, state);
        let values = self.rw.ir().results(new).to_vec();
        if self.replace_op(op, &values) {
            return true;
        }
        self.rw.erase_op(new);
        false
    }

    /// Converts the types of the arguments of every block of `region` in place (MLIR's
    /// `convertRegionTypes`); their users keep the original types through source
    /// materializations. Returns `false`, changing nothing, when a type cannot be converted.
    pub fn convert_region_types(&mut self, region: RegionId) -> bool {
        let blocks: Vec<_> = self.rw.ir().region_blocks(region).collect();
        let args: Vec<ValueId> = blocks.iter().flat_map(|&b| self.rw.ir().block_args(b).to_vec()).collect();
        let mut converted = Vec::with_capacity(args.len());
        for &a in &args {
            match self.convert_type(self.rw.ir().value_type(a)) {
                Some(t) => converted.push(t),
                None => return false,
            }
        }
        for (&a, &to) in args.iter().zip(&converted) {
            let from = self.rw.ir().value_type(a);
            if from == to {
                continue;
            }
            let users: Vec<_> = self.rw.ir().uses(a).to_vec();
            self.rw.set_block_arg_type(a, to);
            if users.is_empty() {
                continue;
            }
            let ValueDef::BlockArg { block, .. } = self.rw.ir().value(a).def else {
                unreachable!("a block argument")
            };
            let b = self.materialize(true, a, to, from, InsertPoint::BlockStart(block));
            self.state.mapping.insert(b, a);
            for u in users {
                self.rw.set_operand(u.op, u.index as usize, b);
            }
        }
        true
    }

    /// The operands of `op` as the pattern sees them (see [`ConversionPattern`]); `None` when
    /// an operand's type cannot be converted.
    pub(super) fn remap_operands(&mut self, op: OpId) -> Option<Vec<ValueId>> {
        let operands = self.rw.ir().operands(op).to_vec();
        let mut out = Vec::with_capacity(operands.len());
        for v in operands {
            let mut cur = v;
            while let Some(&m) = self.state.mapping.get(&cur) {
                cur = m;
            }
            let ty = self.rw.ir().value_type(cur);
            let want = self.convert_type(ty)?;
            if want != ty {
                let at = match self.rw.ir().value(cur).def {
                    ValueDef::Result { op: d, .. } => InsertPoint::After(d),
                    ValueDef::BlockArg { block, .. } => self.after_leading_casts(block),
                };
                let b = self.materialize(false, cur, ty, want, at);
                self.state.mapping.insert(cur, b);
                cur = b;
            }
            out.push(cur);
        }
        Some(out)
    }

    /// The start of `block`, after the materializations already there (so that those of its
    /// arguments come in argument order).
    fn after_leading_casts(&self, block: crate::ir::BlockId) -> InsertPoint {
        let ir = self.rw.ir();
        let mut at = InsertPoint::BlockStart(block);
        let mut next = ir.first_op(block);
        while let Some(o) = next.filter(|o| self.state.cast_set.contains(o)) {
            at = InsertPoint::After(o);
            next = ir.next_op(o);
        }
        at
    }

    /// Builds and inserts a materialization of `input` from `from` to `to`; returns its value.
    fn materialize(
        &mut self,
        source: bool,
        input: ValueId,
        from: Type<'c>,
        to: Type<'c>,
        at: InsertPoint,
    ) -> ValueId {
        let loc = match self.rw.ir().value(input).def {
            ValueDef::Result { op, .. } => self.rw.ir().op(op).loc,
            ValueDef::BlockArg { .. } => {
                self.rw.ir().value(input).loc.unwrap_or_else(|| self.ctx().unknown_loc())
            }
        };
        let state = match self.types {
            Some(t) => t.materialize(self.ctx(), source, input, from, to, loc),
            None => cast_state(input, to, loc),
        };
        let op = self.rw.create(at, state);
        self.state.casts.push(op);
        self.state.cast_set.insert(op);
        self.rw.ir().results(op)[0]
    }
}

/// Erases the driver's materializations that nothing uses and folds round trips
/// (`cast(cast(x : A) : B) : A` -> `x`), until none is left to fold.
pub(super) fn fold_materializations(ir: &mut Ir<'_>, state: &ConversionState) {
    let mut changed = true;
    while changed {
        changed = false;
        for &c in state.casts.iter().rev() {
            if !ir.contains_op(c) {
                continue;
            }
            let r = ir.results(c)[0];
            if ir.uses(r).is_empty() {
                ir.erase_op(c);
                changed = true;
                continue;
            }
            let &[input] = ir.operands(c) else { continue };
            let inner = ir.defining_op(input).filter(|d| state.cast_set.contains(d));
            if let Some(&[original]) = inner.map(|d| ir.operands(d)) {
                if ir.value_type(original) == ir.value_type(r) {
                    ir.replace_all_uses(r, original);
                    changed = true;
                }
            }
        }
    }
}
