//! The `npuvec` ops, one per kernel instruction, declared once each (families by macro):
//! named operands, inherent attributes, memory effects on the operands' memory spaces, the
//! pipe, the verifier and the custom syntax.
//!
//! Operands are in destination style: sources first, the destination last (`npuvec.store`
//! writes its GM operand `#1`, followed by the view's start offset).

mod buffers;
mod cube;
mod dma;
mod host;
mod sync;
mod vector;

pub use buffers::*;
pub use cube::*;
pub use dma::*;
pub use host::*;
pub use sync::*;
pub use vector::*;

use kiln_compiler::dialect::effects::{EffectDecl, EffectOn, MemoryEffects, Resource};
use kiln_compiler::{TypeConstraint as C, ValueDef};

/// `src` and `dst` of one type (unary ops, `copy`, `move`).
const SRC_DST_SAME: &[ValueDef] =
    &[ValueDef::single("src", C::AnyMemRef), ValueDef::single("dst", C::SameAs("src"))];

/// A source buffer and a destination buffer.
const SRC_DST: &[ValueDef] = &[ValueDef::single("src", C::AnyMemRef), ValueDef::single("dst", C::AnyMemRef)];

const fn read(i: usize) -> EffectDecl {
    EffectDecl::read(EffectOn::Operand(i), Resource::MemorySpace)
}

const fn write(i: usize) -> EffectDecl {
    EffectDecl::write(EffectOn::Operand(i), Resource::MemorySpace)
}

/// Reads operand #0, writes operand #1.
static READ0_WRITE1: MemoryEffects = MemoryEffects(&[read(0), write(1)]);

/// Reads operands #0 and #1, writes operand #2.
static READ01_WRITE2: MemoryEffects = MemoryEffects(&[read(0), read(1), write(2)]);

/// The resource the sync ops act on: the flags and pipe queues of the core. Declaring an effect
/// on it keeps them from being erased or merged.
static SYNC_EFFECTS: MemoryEffects = MemoryEffects(&[
    EffectDecl::read(EffectOn::Resource, Resource::Named("npuvec.sync")),
    EffectDecl::write(EffectOn::Resource, Resource::Named("npuvec.sync")),
]);

/// `memref<8x64xf32, #npuvec.space<ub>>`, the buffer type of the examples.
macro_rules! ub {
    () => {
        "memref<8x64xf32, #npuvec.space<ub>>"
    };
}
use ub;
