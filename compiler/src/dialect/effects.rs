//! Memory effects as an op interface, after MLIR's `MemoryEffectOpInterface`: what an op reads,
//! writes, allocates or frees, on which value, in which resource.
//!
//! An op declares its effects once, as a [`MemoryEffects`] entry of its `interfaces`
//! (`&MemoryEffects(&[EffectDecl::write(EffectOn::Operand(1), Resource::MemorySpace)])`). An op
//! with trait [`Trait::Pure`](crate::dialect::Trait::Pure) has none. A registered op that
//! declares neither, and every op of an unregistered dialect, may have any effect.
//!
//! A resource is where the effect happens: the default resource, a resource named by a string
//! (`"ub"`), or the memory space of the value the effect is on (its memref type's memory-space
//! attribute, so a buffer-level dialect can say "writes operand #2 in UB" without naming UB).

use crate::attributes::Attribute;
use crate::ir::{Ir, OpId, ValueId};
use crate::types::TypeKind;

/// What an effect does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// Reads the resource.
    Read,
    /// Writes the resource.
    Write,
    /// Allocates in the resource.
    Allocate,
    /// Frees in the resource.
    Free,
}

/// The value an effect is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectOn {
    /// Operand `#n`.
    Operand(usize),
    /// Result `#n`.
    Result(usize),
    /// No particular value: the resource as a whole.
    Resource,
}

/// Where a declared effect happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resource {
    /// The default resource (all memory not otherwise named).
    Default,
    /// A resource named by a string (`"ub"`, `"io"`).
    Named(&'static str),
    /// The memory space of the memref the effect is on; [`ResourceRef::Default`] when its type
    /// has none (or is not a memref).
    MemorySpace,
}

/// One declared effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EffectDecl {
    /// What it does.
    pub kind: EffectKind,
    /// On which value.
    pub on: EffectOn,
    /// In which resource.
    pub resource: Resource,
}

impl EffectDecl {
    /// Reads `on` in `resource`.
    pub const fn read(on: EffectOn, resource: Resource) -> Self {
        EffectDecl { kind: EffectKind::Read, on, resource }
    }

    /// Writes `on` in `resource`.
    pub const fn write(on: EffectOn, resource: Resource) -> Self {
        EffectDecl { kind: EffectKind::Write, on, resource }
    }

    /// Allocates `on` in `resource`.
    pub const fn allocate(on: EffectOn, resource: Resource) -> Self {
        EffectDecl { kind: EffectKind::Allocate, on, resource }
    }

    /// Frees `on` in `resource`.
    pub const fn free(on: EffectOn, resource: Resource) -> Self {
        EffectDecl { kind: EffectKind::Free, on, resource }
    }
}

/// The memory-effects interface: an op's declared effects (an empty list: no effects).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryEffects(pub &'static [EffectDecl]);

/// A resource an effect of a particular op happens in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceRef<'c> {
    /// The default resource.
    Default,
    /// A named resource.
    Named(&'static str),
    /// A memory space (a memref's memory-space attribute).
    Space(Attribute<'c>),
}

/// One effect of a particular op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect<'c> {
    /// What it does.
    pub kind: EffectKind,
    /// The value it is on, if any.
    pub value: Option<ValueId>,
    /// Where it happens.
    pub resource: ResourceRef<'c>,
}

/// The effects of `op`, or `None` when they are unknown (an unregistered op, or a registered
/// one that is neither `Pure` nor declares [`MemoryEffects`]).
pub fn memory_effects<'c>(ir: &Ir<'c>, op: OpId) -> Option<Vec<Effect<'c>>> {
    let def = ir.op(op).def?;
    if def.has_trait(crate::dialect::Trait::Pure) {
        return Some(Vec::new());
    }
    let MemoryEffects(decls) = def.interface::<MemoryEffects>()?;
    let effects = decls.iter().map(|d| {
        let value = match d.on {
            EffectOn::Operand(i) => ir.operands(op).get(i).copied(),
            EffectOn::Result(i) => ir.results(op).get(i).copied(),
            EffectOn::Resource => None,
        };
        let resource = match d.resource {
            Resource::Default => ResourceRef::Default,
            Resource::Named(name) => ResourceRef::Named(name),
            Resource::MemorySpace => match value.map(|v| ir.value_type(v).kind()) {
                Some(TypeKind::MemRef { memory_space: Some(s), .. })
                | Some(TypeKind::UnrankedMemRef { memory_space: Some(s), .. }) => ResourceRef::Space(*s),
                _ => ResourceRef::Default,
            },
        };
        Effect { kind: d.kind, value, resource }
    });
    Some(effects.collect())
}

/// Whether `op` is known to have no memory effects at all.
pub fn is_memory_effect_free(ir: &Ir<'_>, op: OpId) -> bool {
    memory_effects(ir, op).is_some_and(|e| e.is_empty())
}

/// Whether erasing `op` once its results are unused is unobservable, as far as its effects go
/// (MLIR's `wouldOpBeTriviallyDead`): its effects are known and each is a read, or an
/// allocation of one of its own results.
pub fn effects_allow_erasure(ir: &Ir<'_>, op: OpId) -> bool {
    let results = ir.results(op);
    memory_effects(ir, op).is_some_and(|effects| {
        effects.iter().all(|e| match e.kind {
            EffectKind::Read => true,
            EffectKind::Allocate => e.value.is_some_and(|v| results.contains(&v)),
            EffectKind::Write | EffectKind::Free => false,
        })
    })
}
