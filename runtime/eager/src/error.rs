//! The session's errors: what went wrong (a [`ErrorKind`] that bindings map to their own
//! exception types) and a message in MLIR's diagnostic style, naming the op it comes from.

use std::fmt;

/// What kind of mistake an [`EagerError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Shapes that do not fit the op (broadcasting, axes, matmul dims, reshape sizes), or host
    /// data whose length does not match its shape (Python: `ValueError`).
    Shape,
    /// An element type the op does not take, or operands of different element types
    /// (Python: `TypeError`).
    DType,
    /// A tensor whose session was dropped.
    SessionDropped,
    /// A tensor of another session, or a handle whose value was released.
    StaleHandle,
    /// A value larger than the VM's memory limit (Python: `MemoryError`).
    Memory,
    /// A malformed flags string.
    Flags,
    /// A segment that failed to compile.
    Compile,
    /// A segment that failed on the VM (including the GM and step limits).
    Run,
}

/// An error of the eager session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EagerError {
    /// What kind of mistake it is.
    pub kind: ErrorKind,
    /// The message (lowercase, no trailing period; op errors start with `'hl.<op>' op`).
    pub message: String,
}

impl EagerError {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> EagerError {
        EagerError { kind, message: message.into() }
    }
}

impl fmt::Display for EagerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EagerError {}

/// The session's result type.
pub type Result<T> = std::result::Result<T, EagerError>;
