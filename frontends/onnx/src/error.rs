//! The importer's error: one message (possibly several lines, one per problem found).

use std::fmt;

/// Why a model could not be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    message: String,
    constant_input: Option<String>,
}

impl ImportError {
    /// An error with `message` (lowercase, no trailing period, names in backticks).
    pub fn new(message: impl Into<String>) -> Self {
        ImportError { message: message.into(), constant_input: None }
    }

    /// The error, recording that it arose because graph input `name` (if any) is not a
    /// constant where a node needs one ([`ImportError::constant_input`]).
    pub fn with_constant_input(mut self, name: Option<String>) -> Self {
        self.constant_input = name;
        self
    }

    /// The graph input a node needed as a constant (a shape, axes, pads...), when that is why
    /// the import failed: importing again with its value in
    /// [`ImportOptions::constant_inputs`](crate::ImportOptions::constant_inputs) gets further.
    pub fn constant_input(&self) -> Option<&str> {
        self.constant_input.as_deref()
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ImportError {}
