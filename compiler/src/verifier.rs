//! The verifier: the contract every pass relies on.
//!
//! Invariants checked, for every op nested under the root (iteratively, so nesting depth is
//! unbounded):
//! 1. what the op's declaration implies: operand, result, region and successor counts, required
//!    inherent attributes and their constraints, the required parent op; for named operands
//!    and results, the group sizes (`operandSegmentSizes` / `resultSegmentSizes` when more
//!    than one group varies), each value's type constraint and the constraints relating
//!    groups (first failure per op, as MLIR's generated verifiers);
//! 2. traits: a `Terminator` ends its block; blocks of registered ops that need terminators
//!    end in one; `SingleBlock` regions have at most one block; `IsolatedFromAbove` regions use
//!    no value defined outside;
//! 3. successors name blocks of the same region;
//! 4. dominance: every operand is defined before its use — earlier in the same block, or in a
//!    block that dominates the use's block, or in an enclosing region (graph regions, such as a
//!    module body, are exempt); the error has a note at the definition, as MLIR's
//!    (`operand defined here (op in the same block)`);
//! 5. the op's own verifier hook, when 1-4 found nothing wrong with the op;
//! 6. then, if that passes, the trait `SameOperandsAndResultType`: one element type and
//!    compatible shapes (a dynamic dim matches any) for all operands and results.
//!
//! Every failure becomes a located [`Diagnostic`] in MLIR's words (`'func.return' op has 1
//! operands, but enclosing function (@f) returns 2`); all of them are collected, none stops
//! the walk.

use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::dialect::{Arity, OpDef, Trait};
use crate::ir::{BlockId, Ir, OpId, RegionId, SecondaryMap, ValueDef, WalkOrder};
use crate::types::{Type, DYNAMIC};

mod dominance;
mod signature;

use dominance::DominanceInfo;

/// Verifies `root` and everything nested in it; returns every error found.
pub fn verify<'c>(ctx: &Context<'c>, ir: &Ir<'c>, root: OpId) -> Result<(), Vec<Diagnostic<'c>>> {
    let mut v =
        Verifier { ctx, ir, errors: Vec::new(), dom: DominanceInfo::default(), order: Default::default() };
    v.number_ops(root);
    for op in ir.walk(root, WalkOrder::PreOrder) {
        v.verify_op(op);
    }
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

    fn error(&mut self, op: OpId, message: String) {
        self.errors.push(Diagnostic::op_error(self.ir, op, message));
    }

    fn verify_op(&mut self, op: OpId) {
        let errors_before = self.errors.len();
        if let Some(def) = self.ir.op(op).def {
            self.verify_declaration(op, def);
            self.verify_traits(op, def);
        }
        self.verify_successors(op);
        self.verify_operands(op);
        // As MLIR's `verifyInvariants`: the op's own verifier runs only on an op whose
        // declaration-derived invariants hold (it may rely on them).
        if self.errors.len() > errors_before {
            return;
        }
        let Some(def) = self.ir.op(op).def else { return };
        if let Some(hook) = def.verify {
            if let Err(diagnostic) = hook(self.ctx, self.ir, op) {
                self.errors.push(diagnostic);
                return;
            }
        }
        if !same_types(self.ir, op, def) {
            self.error(op, "requires the same type for all operands and results".into());
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
        if let Some(message) = counts_hold.then(|| signature::verify_signature(ir, op, def)).flatten() {
            self.error(op, message);
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
        for (i, &r) in ir.regions(op).iter().enumerate() {
            let blocks: Vec<BlockId> = ir.region_blocks(r).collect();
            if def.has_trait(Trait::SingleBlock) && blocks.len() > 1 {
                self.error(op, format!("expects region #{i} to have 0 or 1 blocks"));
            }
            if !def.has_trait(Trait::NoTerminator) {
                for &b in &blocks {
                    self.verify_block_terminator(op, b);
                }
            }
        }
    }

    fn verify_block_terminator(&mut self, parent: OpId, block: BlockId) {
        let ir = self.ir;
        match ir.last_op(block) {
            None => self.error(parent, "empty block: expect at least a terminator".into()),
            Some(last) => {
                // An unregistered op may be a terminator; only registered ones are known not to be.
                if ir.op(last).def.is_some_and(|d| !d.has_trait(Trait::Terminator)) {
                    let name = ir.op(last).name;
                    let loc = ir.op(last).loc;
                    self.errors.push(
                        Diagnostic::error(loc, "block with no terminator, has ".to_string() + name)
                            .with_note(ir.op(parent).loc, "in region of this operation"),
                    );
                }
            }
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

    /// Dominance and isolation of every operand.
    fn verify_operands(&mut self, op: OpId) {
        let ir = self.ir;
        for (i, &v) in ir.operands(op).iter().enumerate() {
            let def_block = match ir.value(v).def {
                ValueDef::Result { op: d, .. } => ir.parent_block(d),
                ValueDef::BlockArg { block, .. } => Some(block),
            };
            let Some(def_region) = def_block.and_then(|b| ir.parent_region(b)) else {
                self.dominance_error(op, i);
                continue;
            };
            // Find the ancestor of `op` that sits in the defining region, noting isolation.
            let mut user = op;
            let mut isolated_by = None;
            let found = loop {
                let Some(b) = ir.parent_block(user) else { break false };
                let r = ir.parent_region(b);
                if r == Some(def_region) {
                    break true;
                }
                let Some(owner) = r.and_then(|r| ir.region_owner(r)) else { break false };
                if isolated_by.is_none()
                    && ir.op(owner).def.is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove))
                {
                    isolated_by = Some(owner);
                }
                user = owner;
            };
            if let (true, Some(iso)) = (found, isolated_by) {
                let message = format!("'{}' op using value defined outside the region", ir.op(op).name);
                let d = Diagnostic::error(ir.op(op).loc, message)
                    .with_note(ir.op(iso).loc, "required by region isolation constraints");
                self.errors.push(d);
                continue;
            }
            if !found || !self.dominates(v, user, def_region) {
                self.dominance_error(op, i);
            }
        }
    }

    /// `operand #i does not dominate this use`, with a note at the definition saying where it
    /// is relative to the use, in MLIR's words.
    fn dominance_error(&mut self, op: OpId, i: usize) {
        let ir = self.ir;
        let v = ir.operands(op)[i];
        let mut d = Diagnostic::error(ir.op(op).loc, format!("operand #{i} does not dominate this use"));
        let use_block = ir.parent_block(op);
        let (def_block, note_loc, what) = match ir.value(v).def {
            ValueDef::Result { op: def, .. } => {
                (ir.parent_block(def), ir.op(def).loc, "operand defined here")
            }
            ValueDef::BlockArg { block, .. } => {
                let owner = ir.parent_region(block).and_then(|r| ir.region_owner(r));
                (
                    Some(block),
                    owner.map_or(self.ctx.unknown_loc(), |o| ir.op(o).loc),
                    "operand defined as a block argument",
                )
            }
        };
        if let (Some(ub), Some(db)) = (use_block, def_block) {
            let (ur, dr) = (ir.parent_region(ub), ir.parent_region(db));
            let place = if ub == db {
                "in the same block"
            } else if ur == dr {
                "in the same region"
            } else if self.is_proper_ancestor(dr, ur) {
                "in a parent region"
            } else if self.is_proper_ancestor(ur, dr) {
                "in a child region"
            } else {
                "neither in a parent nor in a child region"
            };
            let note = match ir.value(v).def {
                // MLIR: "(op is neither ...)", but "(block #1 neither ...)".
                ValueDef::Result { .. } if place.starts_with("neither") => format!("{what} (op is {place})"),
                ValueDef::Result { .. } => format!("{what} (op {place})"),
                ValueDef::BlockArg { .. } => {
                    let index = dr.map_or(0, |r| ir.region_blocks(r).position(|b| b == db).unwrap_or(0));
                    format!("{what} (block #{index} {place})")
                }
            };
            d = d.with_note(note_loc, note);
        }
        self.errors.push(d);
    }

    /// Whether region `ancestor` strictly encloses region `region`.
    fn is_proper_ancestor(&self, ancestor: Option<RegionId>, region: Option<RegionId>) -> bool {
        let ir = self.ir;
        let (Some(ancestor), Some(mut r)) = (ancestor, region) else { return false };
        loop {
            let Some(up) =
                ir.region_owner(r).and_then(|o| ir.parent_block(o)).and_then(|b| ir.parent_region(b))
            else {
                return false;
            };
            if up == ancestor {
                return true;
            }
            r = up;
        }
    }

    /// Whether value `v` (defined in `region`) dominates op `user` (in `region`).
    fn dominates(&mut self, v: crate::ir::ValueId, user: OpId, region: RegionId) -> bool {
        let ir = self.ir;
        if self.is_graph_region(region) {
            return true;
        }
        let user_block = ir.parent_block(user).expect("user sits in a block");
        match ir.value(v).def {
            ValueDef::BlockArg { block, .. } => self.dom.dominates(ir, region, block, user_block),
            ValueDef::Result { op: d, .. } => {
                let def_block = ir.parent_block(d).expect("definition sits in a block");
                if def_block == user_block {
                    self.order.get(d) < self.order.get(user)
                } else {
                    self.dom.dominates(ir, region, def_block, user_block)
                }
            }
        }
    }

    /// Graph regions (no dominance): regions of ops with `NoTerminator` that hold a symbol
    /// table, i.e. module bodies, as MLIR's `RegionKindInterface` says for `builtin.module`;
    /// and, as MLIR conservatively assumes, every single-block region of an unregistered op
    /// (MLIR takes multi-block regions to have SSA dominance whatever their owner).
    fn is_graph_region(&self, region: RegionId) -> bool {
        self.ir.region_owner(region).is_some_and(|o| match self.ir.op(o).def {
            None => self.ir.region_blocks(region).nth(1).is_none(),
            Some(d) => d.has_trait(Trait::NoTerminator) && d.has_trait(Trait::SymbolTable),
        })
    }
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
