//! Kiln's kernel bytecode: the instruction set ([`isa`]) that `npuvec` IR is emitted as and
//! that the VM executes, the module that holds a compiled program ([`module`]), its container
//! format ([`mod@format`]: the `.kbc` layout), every instruction's facts ([`opcode`]), the encoder ([`encode()`]) and the validating loader
//! ([`decode()`] then [`validate()`]); programs compiled for a shape class ([`shape`]: one
//! kernel for many shapes, tiling data at launch) load with [`load_class()`].
//!
//! One `npuvec` op is one instruction. This is a leaf crate: it depends on no IR crate, so the
//! VM can load and run bytecode without linking the compiler.
#![deny(missing_docs)]

mod decode;
mod encode;
mod error;
pub mod format;
pub mod isa;
pub mod module;
pub mod opcode;
mod reader;
pub mod shape;
mod validate;

pub use decode::{decode, decode_class};
pub use encode::{encode, encode_class};
pub use error::LoadError;
pub use validate::{validate, validate_class};

/// Loads bytecode for a target: [`decode()`] then [`validate()`].
pub fn load(bytes: &[u8], target: &kiln_targets::Target) -> Result<module::Module, LoadError> {
    let module = decode(bytes)?;
    validate(&module, target)?;
    Ok(module)
}

/// Loads bytecode of a program for a shape class (or a static one, as the trivial class) for a
/// target: [`decode_class()`] then [`validate_class()`].
pub fn load_class(bytes: &[u8], target: &kiln_targets::Target) -> Result<shape::ClassModule, LoadError> {
    let program = decode_class(bytes)?;
    validate_class(&program, target)?;
    Ok(program)
}
