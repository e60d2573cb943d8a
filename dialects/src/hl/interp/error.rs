//! The error every interpreter kernel returns instead of panicking.

use std::fmt;

/// An error from an interpreter kernel: an invalid operand, attribute or `.npy` file.
///
/// Messages follow the project's diagnostic style: lowercase, no trailing period, names in
/// backticks (`` `reduce_sum` axis 3 is out of range for rank 2 ``).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InterpError {
    message: String,
}

impl InterpError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        InterpError { message: message.into() }
    }

    /// The message, without any prefix.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InterpError {}

/// The result of an interpreter kernel.
pub type Result<T> = std::result::Result<T, InterpError>;

/// Returns early with an [`InterpError`] built from a format string.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::hl::interp::InterpError::new(format!($($arg)*)))
    };
}
pub(crate) use bail;
