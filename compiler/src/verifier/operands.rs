//! The dominance phase of the verifier, and the isolation check of ops `IsolatedFromAbove`.

use super::Verifier;
use crate::diagnostics::Diagnostic;
use crate::dialect::Trait;
use crate::ir::{OpId, RegionId, ValueDef, ValueId};

impl<'c> Verifier<'_, 'c> {
    /// MLIR's `verifyDominanceOfContainedRegions`: every operand of every op nested in `unit`
    /// (not inside nested units) dominates its use; a block's ops are checked before the
    /// regions nested in them. Stops at the first failure.
    pub(super) fn verify_dominance(&mut self, unit: OpId) {
        let ir = self.ir;
        let mut work = vec![unit];
        while let Some(op) = work.pop() {
            for &r in ir.regions(op) {
                for b in ir.region_blocks(r) {
                    for o in ir.block_ops(b) {
                        if let Some(i) = (0..ir.operands(o).len()).find(|&i| !self.operand_dominates(o, i)) {
                            self.dominance_error(o, i);
                            return;
                        }
                        if !ir.regions(o).is_empty() && !self.is_unit(o) {
                            work.push(o);
                        }
                    }
                }
            }
        }
    }

    /// Whether operand `i` of `op` is defined where `op` may use it.
    fn operand_dominates(&mut self, op: OpId, i: usize) -> bool {
        let ir = self.ir;
        let v = ir.operands(op)[i];
        let def_block = match ir.value(v).def {
            ValueDef::Result { op: d, .. } => ir.parent_block(d),
            ValueDef::BlockArg { block, .. } => Some(block),
        };
        let Some(def_region) = def_block.and_then(|b| ir.parent_region(b)) else { return false };
        // The ancestor of `op` that sits in the defining region.
        let mut user = op;
        loop {
            let Some(r) = ir.parent_block(user).and_then(|b| ir.parent_region(b)) else { return false };
            if r == def_region {
                return self.dominates(v, user, def_region);
            }
            let Some(owner) = ir.region_owner(r) else { return false };
            user = owner;
        }
    }

    /// The isolation constraint of `isolated`: no op inside it uses a value defined outside.
    /// Reports the first offender in MLIR's order (regions from a stack, each block's ops in
    /// order) with MLIR's note at `isolated`. Units nested in it are not walked again: they
    /// passed their own check (this runs only then), and a value from outside `isolated` is
    /// outside them too.
    pub(super) fn verify_isolation(&mut self, isolated: OpId) {
        let ir = self.ir;
        let mut pending: Vec<RegionId> = ir.regions(isolated).iter().rev().copied().collect();
        while let Some(region) = pending.pop() {
            for b in ir.region_blocks(region) {
                for op in ir.block_ops(b) {
                    if ir.operands(op).iter().any(|&v| !self.defined_inside(v, isolated)) {
                        let d = Diagnostic::op_error(ir, op, "using value defined outside the region")
                            .with_note(ir.op(isolated).loc, "required by region isolation constraints");
                        self.error_at_op(op, d);
                        return;
                    }
                    if !self.is_unit(op) {
                        pending.extend(ir.regions(op).iter().rev());
                    }
                }
            }
        }
    }

    /// Whether `v` is defined in a region nested in `op`.
    fn defined_inside(&self, v: ValueId, op: OpId) -> bool {
        let ir = self.ir;
        let mut block = match ir.value(v).def {
            ValueDef::Result { op: d, .. } => ir.parent_block(d),
            ValueDef::BlockArg { block, .. } => Some(block),
        };
        while let Some(owner) = block.and_then(|b| ir.parent_region(b)).and_then(|r| ir.region_owner(r)) {
            if owner == op {
                return true;
            }
            block = ir.parent_block(owner);
        }
        false
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
        self.error_at_op(op, d);
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
