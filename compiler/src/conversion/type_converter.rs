//! How types change in a conversion, and how to bridge a value across the change (MLIR's
//! `TypeConverter`).

use crate::attributes::Attribute;
use crate::context::Context;
use crate::ir::{OperationState, ValueId};
use crate::types::Type;

/// A conversion rule: the converted type, or `None` when the rule does not handle the type.
type Rule<'a, 'c> = Box<dyn Fn(&Context<'c>, Type<'c>) -> Option<Type<'c>> + 'a>;

/// Builds the op that turns `input` (of type `from`) into a value of type `to`, at `loc`: the
/// op's first result is the bridged value. `None` leaves the choice to the next rule (and
/// finally to `builtin.unrealized_conversion_cast`).
pub type Materialization<'a, 'c> =
    Box<dyn Fn(&Context<'c>, ValueId, Type<'c>, Type<'c>, Attribute<'c>) -> Option<OperationState<'c>> + 'a>;

/// Type conversion rules (the last added is tried first, as in MLIR), and source and target
/// materializations. A type no rule handles cannot be converted: an op with such an operand
/// cannot be rewritten by a pattern that uses this converter. Add `|_, t| Some(t)` first to
/// keep the types no other rule names.
#[derive(Default)]
pub struct TypeConverter<'a, 'c> {
    rules: Vec<Rule<'a, 'c>>,
    source: Vec<Materialization<'a, 'c>>,
    target: Vec<Materialization<'a, 'c>>,
}

impl<'a, 'c> TypeConverter<'a, 'c> {
    /// A converter without rules.
    pub fn new() -> Self {
        TypeConverter { rules: Vec::new(), source: Vec::new(), target: Vec::new() }
    }

    /// Adds a rule; it is tried before the rules added earlier.
    pub fn add_conversion(&mut self, rule: impl Fn(&Context<'c>, Type<'c>) -> Option<Type<'c>> + 'a) {
        self.rules.push(Box::new(rule));
    }

    /// Adds a source materialization: from a converted value back to its original type, for
    /// users that were not (or not yet) converted.
    pub fn add_source_materialization(
        &mut self,
        build: impl Fn(&Context<'c>, ValueId, Type<'c>, Type<'c>, Attribute<'c>) -> Option<OperationState<'c>>
            + 'a,
    ) {
        self.source.push(Box::new(build));
    }

    /// Adds a target materialization: from an unconverted value to its converted type, for
    /// patterns whose operands were not (or not yet) converted.
    pub fn add_target_materialization(
        &mut self,
        build: impl Fn(&Context<'c>, ValueId, Type<'c>, Type<'c>, Attribute<'c>) -> Option<OperationState<'c>>
            + 'a,
    ) {
        self.target.push(Box::new(build));
    }

    /// The converted type of `ty`, or `None` when no rule handles it.
    pub fn convert_type(&self, ctx: &Context<'c>, ty: Type<'c>) -> Option<Type<'c>> {
        self.rules.iter().rev().find_map(|r| r(ctx, ty))
    }

    /// Whether `ty` is left as it is (it is legal for this converter).
    pub fn is_legal(&self, ctx: &Context<'c>, ty: Type<'c>) -> bool {
        self.convert_type(ctx, ty) == Some(ty)
    }

    /// Whether every type of `types` is legal.
    pub fn are_legal(&self, ctx: &Context<'c>, types: impl IntoIterator<Item = Type<'c>>) -> bool {
        types.into_iter().all(|t| self.is_legal(ctx, t))
    }

    /// The op a materialization builds (`source`: converted -> original; else original ->
    /// converted), the default cast when no rule builds one.
    pub(super) fn materialize(
        &self,
        ctx: &Context<'c>,
        source: bool,
        input: ValueId,
        from: Type<'c>,
        to: Type<'c>,
        loc: Attribute<'c>,
    ) -> OperationState<'c> {
        let rules = if source { &self.source } else { &self.target };
        rules
            .iter()
            .rev()
            .find_map(|m| m(ctx, input, from, to, loc))
            .unwrap_or_else(|| cast_state(input, to, loc))
    }
}

/// `builtin.unrealized_conversion_cast(input) : to`.
pub(super) fn cast_state<'c>(input: ValueId, to: Type<'c>, loc: Attribute<'c>) -> OperationState<'c> {
    let def = &super::UNREALIZED_CONVERSION_CAST;
    let mut state = OperationState::new(def.name, Some(def), loc);
    state.operands = vec![input];
    state.result_types = vec![to];
    state
}
