//! Every registered op's declaration is consistent: names in relational type constraints
//! (`SameAs`, `ElementTypeOf`) are groups of the op, group names are unique, declared effects
//! refer to existing operands and results, and no op is both `Pure` and declares effects.

use kiln_compiler::dialect::effects::{EffectOn, MemoryEffects};
use kiln_compiler::{Arity, Trait};

#[test]
fn op_declarations_are_consistent() {
    let registry = kiln_dialects::all_dialects();
    let mut problems = Vec::new();
    for dialect in registry.dialects() {
        for op in dialect.ops {
            let groups: Vec<_> = op.operands.defs().iter().chain(op.results.defs()).collect();
            for (i, g) in groups.iter().enumerate() {
                if groups[..i].iter().any(|h| h.name == g.name) {
                    problems.push(format!("{}: group `{}` declared twice", op.name, g.name));
                }
                if let Some(other) = g.constraint.related_to() {
                    if !groups.iter().any(|h| h.name == other) {
                        problems
                            .push(format!("{}: `{}` relates to unknown group `{other}`", op.name, g.name));
                    }
                }
            }
            let Some(MemoryEffects(effects)) = op.interface::<MemoryEffects>() else { continue };
            if op.has_trait(Trait::Pure) {
                problems.push(format!("{}: `Pure` and declared memory effects", op.name));
            }
            // With named groups the count is a lower bound; effects must name a value every
            // instance has (a single group's).
            let has = |arity: Arity, i: usize| match arity {
                Arity::Named(defs) => {
                    defs.len() > i
                        && defs[..=i].iter().all(|d| d.kind == kiln_compiler::dialect::ValueKind::Single)
                }
                Arity::Exactly(k) | Arity::AtLeast(k) => i < k,
                Arity::Any => false,
            };
            for e in *effects {
                let ok = match e.on {
                    EffectOn::Operand(i) => has(op.operands, i),
                    EffectOn::Result(i) => has(op.results, i),
                    EffectOn::Resource => true,
                };
                if !ok {
                    problems.push(format!("{}: effect on {:?}, which not every instance has", op.name, e.on));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
