//! The loader's error: where (byte offset, kernel, instruction) and why.

use std::fmt;

use crate::isa::Inst;
use crate::module::Kernel;

/// Bytecode that [`decode`](fn@crate::decode) or [`validate`](fn@crate::validate) rejects.
///
/// Displays as `bytecode:0x1a4: unknown opcode 0x7f`, or for an instruction
/// `bytecode:0x1a4: kernel 'k' instruction 3 (load): ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The byte offset in the file, when known.
    pub offset: Option<u64>,
    /// The kernel's index and name, for an error inside a kernel.
    pub kernel: Option<(usize, String)>,
    /// The instruction's index in its kernel's code.
    pub inst: Option<usize>,
    /// The instruction's mnemonic, when known.
    pub mnemonic: Option<&'static str>,
    /// What is wrong (lowercase, no trailing period).
    pub reason: String,
}

impl LoadError {
    /// An error at a byte offset.
    pub(crate) fn at(offset: usize, reason: impl Into<String>) -> LoadError {
        LoadError {
            offset: Some(offset as u64),
            kernel: None,
            inst: None,
            mnemonic: None,
            reason: reason.into(),
        }
    }

    /// An error with no known place.
    pub(crate) fn unplaced(reason: String) -> LoadError {
        LoadError { offset: None, kernel: None, inst: None, mnemonic: None, reason }
    }

    /// An error in kernel `index` (at instruction `inst`, when given).
    pub(crate) fn place(reason: String, index: usize, kernel: &Kernel, inst: Option<usize>) -> LoadError {
        LoadError {
            offset: None,
            kernel: Some((index, kernel.name.clone())),
            inst,
            mnemonic: inst.and_then(|i| kernel.code.get(i)).map(Inst::mnemonic),
            reason,
        }
    }

    /// The error, placed in kernel `index` named `name`.
    pub(crate) fn in_kernel(mut self, index: usize, name: &str) -> LoadError {
        self.kernel = Some((index, name.to_string()));
        self
    }

    /// The error, placed at instruction `index` of its kernel.
    pub(crate) fn in_inst(mut self, index: usize) -> LoadError {
        self.inst = Some(index);
        self
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bytecode")?;
        if let Some(offset) = self.offset {
            write!(f, ":{offset:#x}")?;
        }
        f.write_str(": ")?;
        if let Some((_, name)) = &self.kernel {
            write!(f, "kernel '{name}'")?;
            if let Some(i) = self.inst {
                write!(f, " instruction {i}")?;
            }
            if let Some(mnemonic) = self.mnemonic {
                write!(f, " ({mnemonic})")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.reason)
    }
}

impl std::error::Error for LoadError {}
