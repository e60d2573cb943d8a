//! `cse`: common subexpression elimination.
//!
//! Rewrites: when two region-free, non-terminator ops without memory effects (`Pure`, or an
//! empty declared effect list) have the same name, properties, attributes, operands and result
//! types, and the first dominates the second, the second's uses are redirected to the first and
//! it is erased. Ops that only read memory are not merged either (a write may come between
//! them; MLIR merges them when none does in the same block, this pass keeps it simple).
//! Assumes: verified IR. Scoping follows dominance conservatively: an op is visible in the rest
//! of its block and in regions nested there (not across an `IsolatedFromAbove` boundary); blocks
//! other than a region's entry see only what encloses the region. The walk keeps an explicit
//! stack, so nesting depth is unbounded.
//! Guarantees: verified IR computing the same values; ops with any memory effect, with unknown
//! effects, or of unregistered dialects are never merged.

use std::collections::HashMap;

use kiln_compiler::dialect::effects::is_memory_effect_free;
use kiln_compiler::{Attribute, BlockId, Ir, OpId, Trait, Type, ValueId};

kiln_compiler::declare_pass! {
    struct Cse;
    name: "cse",
    summary: "Eliminate common sub-expressions",
    description: "Merges identical effect-free operations where the first dominates the second.",

    fn run(&mut self, cx, root) {
        let n = eliminate(cx.ir, root);
        cx.add_statistic("num-cse'd", "Number of operations CSE'd", n);
        Ok(())
    }
}

#[derive(PartialEq, Eq, Hash)]
struct Key<'c> {
    name: &'c str,
    properties: Option<Attribute<'c>>,
    attrs: Vec<(&'c str, Attribute<'c>)>,
    operands: Vec<ValueId>,
    types: Vec<Type<'c>>,
}

fn key<'c>(ir: &Ir<'c>, op: OpId) -> Option<Key<'c>> {
    let data = ir.op(op);
    let mergeable =
        data.def.is_some_and(|d| !d.has_trait(Trait::Terminator)) && is_memory_effect_free(ir, op);
    if !mergeable || !ir.regions(op).is_empty() {
        return None;
    }
    Some(Key {
        name: data.name,
        properties: data.properties,
        attrs: data.attrs.iter().map(|(k, v)| (*k, *v)).collect(),
        operands: ir.operands(op).to_vec(),
        types: ir.results(op).iter().map(|&r| ir.value_type(r)).collect(),
    })
}

struct Frame {
    blocks: Vec<BlockId>,
    block: usize,
    next: Option<OpId>,
    /// First scope this frame may look into (an isolation boundary resets it).
    floor: usize,
}

/// Runs CSE on everything nested in `root`; returns the number of ops erased.
pub fn eliminate(ir: &mut Ir<'_>, root: OpId) -> u64 {
    let mut scopes: Vec<HashMap<Key<'_>, OpId>> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut erased = 0;
    push_regions(ir, root, &mut frames, 0);
    while let Some(frame) = frames.last_mut() {
        if let Some(op) = frame.next {
            frame.next = ir.next_op(op);
            let floor = frame.floor;
            if let Some(k) = key(ir, op) {
                let existing = scopes[floor..].iter().rev().find_map(|s| s.get(&k).copied());
                match existing {
                    Some(first) => {
                        let with = ir.results(first).to_vec();
                        ir.replace_op_uses(op, &with);
                        ir.erase_op(op);
                        erased += 1;
                    }
                    None => {
                        scopes.last_mut().expect("a block scope is open").insert(k, op);
                    }
                }
            } else if !ir.regions(op).is_empty() {
                let isolated = ir.op(op).def.is_some_and(|d| d.has_trait(Trait::IsolatedFromAbove));
                let floor = if isolated { scopes.len() } else { floor };
                push_regions(ir, op, &mut frames, floor);
            }
            continue;
        }
        // The current block is done (or not started): close its scope, open the next block's.
        if frame.block > 0 {
            scopes.pop();
        }
        if let Some(&b) = frame.blocks.get(frame.block) {
            frame.block += 1;
            frame.next = ir.first_op(b);
            scopes.push(HashMap::new());
        } else {
            frames.pop();
        }
    }
    erased
}

/// Queues the regions of `op` (first region on top).
fn push_regions(ir: &Ir<'_>, op: OpId, frames: &mut Vec<Frame>, floor: usize) {
    for &r in ir.regions(op).iter().rev() {
        frames.push(Frame { blocks: ir.region_blocks(r).collect(), block: 0, next: None, floor });
    }
}
