//! The VM's error: a located message (kernel, core, instruction index) in MLIR's wording.

use std::fmt;

/// A run-time error. Bad input never panics the VM; it becomes one of these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VmError {
    /// The kernel that failed (`None` for host-program errors).
    pub kernel: Option<String>,
    /// The core (block index) that failed.
    pub core: Option<u32>,
    /// The index of the failing instruction in the kernel's code.
    pub inst: Option<u32>,
    /// What went wrong.
    pub message: String,
}

impl VmError {
    /// A host-program error.
    pub fn host(message: impl Into<String>) -> VmError {
        VmError { kernel: None, core: None, inst: None, message: message.into() }
    }
}

impl fmt::Display for VmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = &self.kernel {
            write!(f, "kernel `{k}`")?;
            if let Some(c) = self.core {
                write!(f, " core {c}")?;
            }
            if let Some(i) = self.inst {
                write!(f, " instruction #{i}")?;
            }
            f.write_str(": ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for VmError {}
