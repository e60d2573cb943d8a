//! Kiln's kernel bytecode: the instruction set ([`isa`]) that `npuvec` IR is emitted as and
//! that the VM executes, and the module that holds a compiled program ([`module`]).
//!
//! One `npuvec` op is one instruction. This is a leaf crate: it depends on no IR crate, so the
//! VM can load and run bytecode without linking the compiler.
#![deny(missing_docs)]

pub mod isa;
pub mod module;
