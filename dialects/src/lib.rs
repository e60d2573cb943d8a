//! Kiln's dialects, one folder each, each ending in one registration value.
#![deny(missing_docs)]

pub mod arith;
pub mod bufferization;
pub mod builtin;
pub mod docs;
pub mod func;
pub mod fused;
pub mod hl;
pub mod memref;
pub mod npuvec;
pub mod scf;

use kiln_compiler::DialectRegistry;

/// A registry holding every dialect Kiln defines.
pub fn all_dialects() -> DialectRegistry {
    let mut registry = DialectRegistry::new();
    registry.register(&builtin::BUILTIN);
    registry.register(&func::FUNC);
    registry.register(&hl::HL);
    registry.register(&fused::FUSED);
    registry.register(&memref::MEMREF);
    registry.register(&arith::ARITH);
    registry.register(&scf::SCF);
    registry.register(&bufferization::BUFFERIZATION);
    registry.register(&npuvec::NPUVEC);
    registry
}
