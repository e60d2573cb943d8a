//! Kiln's kernel bytecode: the instruction set ([`isa`]) that `npuvec` IR is emitted as and
//! that the VM executes, the module that holds a compiled program ([`module`]), its container
//! format ([`mod@format`]: the `.kbc` layout), every instruction's facts ([`opcode`]), the encoder ([`encode()`]) and the validating loader
//! ([`decode()`] then [`validate()`]).
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
mod validate;

pub use decode::decode;
pub use encode::encode;
pub use error::LoadError;
pub use validate::validate;

/// Loads bytecode for a target: [`decode()`] then [`validate()`].
pub fn load(bytes: &[u8], target: &kiln_targets::Target) -> Result<module::Module, LoadError> {
    let module = decode(bytes)?;
    validate(&module, target)?;
    Ok(module)
}
