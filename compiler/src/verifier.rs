//! The verifier: the contract every pass relies on.
//!
//! It visits the IR in MLIR's order (`OperationVerifier`). An op isolated from above (a
//! function, a module) is a unit of its own. Within a unit, ops and blocks are visited depth
//! first, each on entrance and on exit, and the first failure ends the unit. The units directly
//! nested in an op are verified when that op is left, each on its own (all of them, so errors in
//! two functions are both reported); if one failed, the enclosing unit fails there. Once a
//! unit's structure holds, the dominance of its values is checked, again up to the first
//! failure. All of it runs from one explicit stack, so nesting depth is unbounded.
//!
//! On entrance, an op is checked for (first failure only, as MLIR's generated verifiers):
//! 1. what its declaration implies: operand, result, region and successor counts, required
//!    inherent attributes and their constraints; for named operands and results, the group
//!    sizes (`operandSegmentSizes` / `resultSegmentSizes` when more than one group varies),
//!    each value's type constraint and the constraints relating groups; the required parent op;
//! 2. traits: a `Terminator` ends its block; `SingleBlock` regions have at most one block;
//! 3. successors name blocks of the same region;
//! 4. the op's own verifier hook, then the trait `SameOperandsAndResultType`: one element type
//!    and compatible shapes (a dynamic dim matches any) for all operands and results;
//! 5. each discardable attribute `<dialect>.<name>` by its dialect's `verify_op_attr` hook
//!    (MLIR's `verifyOperationAttribute`), registered op or not.
//!
//! A block, on entrance, is not empty unless its region may go without a terminator (one block
//! whose op is unregistered or has `NoTerminator`), and only its last op has successors; on
//! exit, it ends in a terminator (unregistered ops may be terminators). An op, on exit, has its
//! nested units verified, and then an op `IsolatedFromAbove` is checked for uses of values
//! defined outside it (the first one, in MLIR's order), and an unregistered op for a known
//! dialect. Dominance (`verifier/operands.rs`): every operand is defined before its use:
//! earlier in the same block, or in a block that dominates the use's block, or in an enclosing
//! region (graph regions, such as a module body, are exempt); the error has a note at the
//! definition, as MLIR's (`operand defined here (op in the same block)`).
//!
//! Every failure becomes a located [`Diagnostic`] in MLIR's words (`'func.return' op has 1
//! operands, but enclosing function (@f) returns 2`). An error about an op carries MLIR's
//! `see current operation: ...` note, the op in the generic form, unless the context turned
//! that off ([`Context::set_print_op_on_diagnostic`]).

use crate::context::Context;
use crate::diagnostics::{Diagnostic, Severity};
use crate::dialect::{Arity, OpDef, Trait};
use crate::ir::{BlockId, Ir, OpId, SecondaryMap, WalkOrder};
use crate::syntax::print_op_for_diagnostic;
use crate::types::{Type, DYNAMIC};

mod dominance;
mod operands;
mod signature;

use dominance::DominanceInfo;

/// Verifies `root` and everything nested in it; returns the errors found (MLIR's: the first of
/// each unit that fails).
pub fn verify<'c>(ctx: &Context<'c>, ir: &Ir<'c>, root: OpId) -> Result<(), Vec<Diagnostic<'c>>> {
    let mut v =
        Verifier { ctx, ir, errors: Vec::new(), dom: DominanceInfo::default(), order: Default::default() };
    v.number_ops(root);
    v.run(root);
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

struct Verifier<'a, 'c> {
    ctx: &'a Context<'c>,
    ir: &'a Ir<'c>,
    errors: Vec<Diagnostic<'c>>,
    dom: DominanceInfo,
    /// Position of each op in its block.
    order: SecondaryMap<OpId, u32>,
}

/// One step of the walk.
#[derive(Clone, Copy)]
enum Step {
    /// Start verifying a unit (an op isolated from above, or the root).
    Unit(OpId),
    EnterOp(OpId),
    ExitOp(OpId),
    EnterBlock(BlockId),
    ExitBlock(BlockId),
    /// The units nested in the op have been verified; the count is the number of errors
    /// before they started.
    NestedUnitsDone(OpId, usize),
    /// The unit's structure holds: check its dominance.
    UnitDone(OpId),
}

impl<'c> Verifier<'_, 'c> {
    fn number_ops(&mut self, root: OpId) {
        for op in self.ir.walk(root, WalkOrder::PreOrder) {
            for &r in self.ir.regions(op) {
                for b in self.ir.region_blocks(r) {
                    for (i, o) in self.ir.block_ops(b).enumerate() {
                        self.order.set(o, i as u32);
                    }
                }
            }
        }
    }

    /// Whether `op` is a unit of its own: it has regions and is isolated from above.
    fn is_unit(&self, op: OpId) -> bool {
        !self.ir.regions(op).is_empty() && is_isolated(self.ir, op)
    }

    fn run(&mut self, root: OpId) {
        let ir = self.ir;
        let mut stack = vec![Step::Unit(root)];
        while let Some(step) = stack.pop() {
            let before = self.errors.len();
            match step {
                Step::Unit(op) => stack.extend([Step::UnitDone(op), Step::EnterOp(op)]),
                Step::UnitDone(op) => self.verify_dominance(op),
                Step::EnterOp(op) => {
                    self.enter_op(op);
                    stack.push(Step::ExitOp(op));
                    for &r in ir.regions(op).iter().rev() {
                        let blocks: Vec<BlockId> = ir.region_blocks(r).collect();
                        stack.extend(blocks.into_iter().rev().map(Step::EnterBlock));
                    }
                }
                Step::EnterBlock(b) => {
                    self.enter_block(b);
                    stack.push(Step::ExitBlock(b));
                    let ops: Vec<OpId> = ir.block_ops(b).filter(|&o| !self.is_unit(o)).collect();
                    stack.extend(ops.into_iter().rev().map(Step::EnterOp));
                }
                Step::ExitBlock(b) => self.exit_block(b),
                Step::ExitOp(op) => {
                    stack.push(Step::NestedUnitsDone(op, before));
                    let units: Vec<OpId> = ir
                        .regions(op)
                        .iter()
                        .flat_map(|&r| ir.region_blocks(r))
                        .flat_map(|b| ir.block_ops(b))
                        .filter(|&o| self.is_unit(o))
                        .collect();
                    stack.extend(units.into_iter().rev().map(Step::Unit));
                }
                Step::NestedUnitsDone(op, before_units) => {
                    if self.errors.len() == before_units {
                        self.exit_op(op);
                    }
                }
            }
            // A failure (or a failed nested unit) ends the unit being walked: drop its
            // remaining steps, its dominance check among them.
            let failed = match step {
                Step::NestedUnitsDone(_, before_units) => self.errors.len() > before_units,
                _ => self.errors.len() > before,
            };
            if failed {
                while let Some(s) = stack.pop() {
                    if matches!(s, Step::UnitDone(_)) {
                        break;
                    }
                }
            }
        }
    }

    /// What is checked on leaving an op, after the units nested in it: the isolation
    /// constraint, or that an unregistered op is not of a known dialect. Kiln's dialects are
    /// subsets of MLIR's, so with unregistered dialects allowed, an op one of them lacks (an
    /// `arith.addf` of a TOSA export) is kept as an unregistered op; otherwise it is refused
    /// as mlir-opt refuses an unknown op.
    fn exit_op(&mut self, op: OpId) {
        let ir = self.ir;
        if is_isolated(ir, op) {
            self.verify_isolation(op);
        }
        let name = ir.op(op).name;
        match name.split_once('.') {
            Some((dialect, _))
                if ir.op(op).def.is_none()
                    && !self.ctx.allows_unregistered()
                    && self.ctx.registry().dialect(dialect).is_some() =>
            {
                let message = format!(
                    "unregistered operation '{name}' found in dialect ('{dialect}') that does not allow unknown operations"
                );
                self.error_at_op(op, Diagnostic::error(ir.op(op).loc, message));
            }
            _ => {}
        }
    }

    fn error(&mut self, op: OpId, message: String) {
        let d = Diagnostic::op_error(self.ir, op, message);
        self.error_at_op(op, d);
    }

    /// Records `d`, an error about `op`, with the `see current operation` note before any
    /// other (MLIR's `Operation::emitError` attaches it first).
    fn error_at_op(&mut self, op: OpId, mut d: Diagnostic<'c>) {
        if self.ctx.prints_op_on_diagnostic() {
            let text = print_op_for_diagnostic(self.ctx, self.ir, op);
            let note =
                Diagnostic::new(Severity::Note, self.ir.op(op).loc, format!("see current operation: {text}"));
            d.notes.insert(0, note);
        }
        self.errors.push(d);
    }

    fn enter_op(&mut self, op: OpId) {
        let before = self.errors.len();
        if let Some(def) = self.ir.op(op).def {
            self.verify_declaration(op, def);
            self.verify_traits(op, def);
        }
        self.verify_successors(op);
        // As MLIR's `verifyInvariants`: the first failure is the op's only error, and the op's
        // own verifier runs only on an op whose declaration-derived invariants hold (it may
        // rely on them).
        if self.errors.len() > before {
            self.errors.truncate(before + 1);
            return;
        }
        if let Some(def) = self.ir.op(op).def {
            if let Some(hook) = def.verify {
                if let Err(diagnostic) = hook(self.ctx, self.ir, op) {
                    self.error_at_op(op, diagnostic);
                    return;
                }
            }
            if !same_types(self.ir, op, def) {
                self.error(op, "requires the same type for all operands and results".into());
                return;
            }
        }
        self.verify_dialect_attrs(op);
    }

    /// Each discardable attribute `<dialect>.<name>` of `op` whose dialect is registered with a
    /// hook, by that hook (up to the first failure).
    fn verify_dialect_attrs(&mut self, op: OpId) {
        let registry = self.ctx.registry();
        for (&name, &attr) in &self.ir.op(op).attrs {
            let dialect = name.split_once('.').and_then(|(d, _)| registry.dialect(d));
            let Some(hook) = dialect.and_then(|d| d.verify_op_attr) else { continue };
            if let Err(diagnostic) = hook(self.ctx, self.ir, op, name, attr) {
                self.error_at_op(op, diagnostic);
                return;
            }
        }
    }

    fn verify_declaration(&mut self, op: OpId, def: &'static OpDef) {
        let ir = self.ir;
        let counts = [
            (Counted::Operands, def.operands, ir.operands(op).len()),
            (Counted::Results, def.results, ir.results(op).len()),
            (Counted::Regions, def.regions, ir.regions(op).len()),
            (Counted::Successors, def.successors, ir.successors(op).len()),
        ];
        let mut counts_hold = true;
        for (what, arity, n) in counts {
            if !arity.accepts(n) {
                counts_hold = false;
                self.error(op, count_error(what, arity, n));
            }
        }
        for spec in def.attrs {
            match ir.attr(op, spec.name) {
                None if !spec.optional => self.error(op, format!("requires attribute '{}'", spec.name)),
                Some(a) if !spec.constraint.accepts(a) => self.error(
                    op,
                    format!(
                        "attribute '{}' failed to satisfy constraint: {}",
                        spec.name,
                        spec.constraint.describe()
                    ),
                ),
                _ => {}
            }
        }
        if let Some(message) = counts_hold.then(|| signature::verify_signature(ir, op, def)).flatten() {
            self.error(op, message);
        }
        if let Some(parent) = def.parent {
            if ir.parent_op(op).is_none_or(|p| ir.op(p).name != parent) {
                self.error(op, format!("expects parent op '{parent}'"));
            }
        }
    }

    fn verify_traits(&mut self, op: OpId, def: &'static OpDef) {
        let ir = self.ir;
        if def.has_trait(Trait::Terminator) {
            if let Some(b) = ir.parent_block(op) {
                if ir.last_op(b) != Some(op) {
                    self.error(op, "must be the last operation in the parent block".into());
                }
            }
        }
        if def.has_trait(Trait::SingleBlock) {
            for (i, &r) in ir.regions(op).iter().enumerate() {
                if ir.region_blocks(r).nth(1).is_some() {
                    self.error(op, format!("expects region #{i} to have 0 or 1 blocks"));
                }
            }
        }
    }

    /// Whether `block` may end without a terminator: it is the only block of its region and
    /// the region's op is unregistered or has `NoTerminator` (MLIR's
    /// `mayBeValidWithoutTerminator`).
    fn may_lack_terminator(&self, block: BlockId) -> bool {
        let ir = self.ir;
        let Some(region) = ir.parent_region(block) else { return true };
        if ir.region_blocks(region).nth(1).is_some() {
            return false;
        }
        ir.region_owner(region).and_then(|o| ir.op(o).def).is_none_or(|d| d.has_trait(Trait::NoTerminator))
    }

    fn enter_block(&mut self, block: BlockId) {
        let ir = self.ir;
        if ir.last_op(block).is_none() {
            if !self.may_lack_terminator(block) {
                let owner = ir.parent_region(block).and_then(|r| ir.region_owner(r));
                let loc = owner.map_or(self.ctx.unknown_loc(), |o| ir.op(o).loc);
                self.errors.push(Diagnostic::error(loc, "empty block: expect at least a terminator"));
            }
            return;
        }
        let last = ir.last_op(block);
        if let Some(op) = ir.block_ops(block).find(|&o| !ir.successors(o).is_empty() && Some(o) != last) {
            let d = Diagnostic::error(
                ir.op(op).loc,
                "operation with block successors must terminate its parent block",
            );
            self.error_at_op(op, d);
        }
    }

    fn exit_block(&mut self, block: BlockId) {
        let ir = self.ir;
        if self.may_lack_terminator(block) {
            return;
        }
        let Some(last) = ir.last_op(block) else { return };
        // An unregistered op may be a terminator; only registered ones are known not to be.
        if ir.op(last).def.is_some_and(|d| !d.has_trait(Trait::Terminator)) {
            let printed = print_op_for_diagnostic(self.ctx, ir, last);
            let d = Diagnostic::error(ir.op(last).loc, format!("block with no terminator, has {printed}"));
            self.error_at_op(last, d);
        }
    }

    fn verify_successors(&mut self, op: OpId) {
        let ir = self.ir;
        let region = ir.parent_block(op).and_then(|b| ir.parent_region(b));
        for (i, &s) in ir.successors(op).iter().enumerate() {
            if ir.parent_region(s) != region {
                self.error(op, format!("reference to block defined in another region (successor #{i})"));
            }
        }
    }
}

/// Whether `op` is a registered op with the trait `IsolatedFromAbove`.
fn is_isolated(ir: &Ir<'_>, op: OpId) -> bool {
    ir.op(op).def.is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove))
}

/// Whether an op with trait `SameOperandsAndResultType` has one type for all its operands and
/// results (true for other ops): as MLIR's, one element type and compatible shapes (a dynamic
/// or unranked dim matches any).
fn same_types<'c>(ir: &Ir<'c>, op: OpId, def: &OpDef) -> bool {
    if !def.has_trait(Trait::SameOperandsAndResultType) {
        return true;
    }
    let mut types = ir.operands(op).iter().chain(ir.results(op)).map(|&v| ir.value_type(v));
    let Some(first) = types.next() else { return true };
    let elem = |t: Type<'c>| t.element_type().unwrap_or(t);
    types.all(|t| {
        let shapes_fit = match (first.shape(), t.shape()) {
            (Some(a), Some(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| x == y || x == DYNAMIC || y == DYNAMIC)
            }
            _ => first.element_type().is_some() == t.element_type().is_some(),
        };
        elem(t) == elem(first) && shapes_fit
    })
}

/// What a count trait counts.
#[derive(Clone, Copy)]
enum Counted {
    Operands,
    Results,
    Regions,
    Successors,
}

/// MLIR's message for a count that breaks `arity` (the `verify{Zero,One,N,AtLeastN}...` trait
/// verifiers of `OpDefinition.cpp`, word for word: only operand and successor messages say
/// what was found).
fn count_error(what: Counted, arity: Arity, found: usize) -> String {
    let (min, max) = arity.bounds();
    let exact = max.is_some();
    match what {
        Counted::Operands => match (min, exact) {
            (0, true) => "requires zero operands".to_string(),
            (1, true) => "requires a single operand".to_string(),
            (k, true) => format!("expected {k} operands, but found {found}"),
            (k, false) => format!("expected {k} or more operands, but found {found}"),
        },
        Counted::Results | Counted::Regions => {
            let (plural, one) = match what {
                Counted::Results => ("results", "result"),
                _ => ("regions", "region"),
            };
            match (min, exact) {
                (0, true) => format!("requires zero {plural}"),
                (1, true) => format!("requires one {one}"),
                (k, true) => format!("expected {k} {plural}"),
                (k, false) => format!("expected {k} or more {plural}"),
            }
        }
        Counted::Successors => match (min, exact) {
            (1, true) => format!("requires 1 successor but found {found}"),
            (k, true) => format!("requires {k} successors but found {found}"),
            (k, false) => format!("requires at least {k} successors but found {found}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{count_error, Counted};
    use crate::dialect::Arity;

    /// Each message as mlir-opt 22 prints it (checked with `arith.addi`, `arith.index_cast`,
    /// `arith.constant`, `arith.addui_extended`, `memref.store`, `scf.if`, `cf.br` and
    /// `cf.cond_br`; the lit tree compares the first ones with mlir-opt directly).
    #[test]
    fn count_messages_are_mlirs() {
        let cases = [
            (Counted::Operands, Arity::Exactly(0), 1, "requires zero operands"),
            (Counted::Operands, Arity::Exactly(1), 2, "requires a single operand"),
            (Counted::Operands, Arity::Exactly(2), 3, "expected 2 operands, but found 3"),
            (Counted::Operands, Arity::AtLeast(2), 1, "expected 2 or more operands, but found 1"),
            (Counted::Results, Arity::Exactly(0), 1, "requires zero results"),
            (Counted::Results, Arity::Exactly(1), 2, "requires one result"),
            (Counted::Results, Arity::Exactly(2), 1, "expected 2 results"),
            (Counted::Results, Arity::AtLeast(1), 0, "expected 1 or more results"),
            (Counted::Regions, Arity::Exactly(0), 1, "requires zero regions"),
            (Counted::Regions, Arity::Exactly(2), 1, "expected 2 regions"),
            (Counted::Successors, Arity::Exactly(1), 0, "requires 1 successor but found 0"),
            (Counted::Successors, Arity::Exactly(2), 1, "requires 2 successors but found 1"),
        ];
        for (what, arity, found, message) in cases {
            assert_eq!(count_error(what, arity, found), message);
        }
    }
}
