//! The importer's error: one message (possibly several lines, one per problem found).

use std::fmt;

/// Why a model could not be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    message: String,
}

impl ImportError {
    /// An error with `message` (lowercase, no trailing period, names in backticks).
    pub fn new(message: impl Into<String>) -> Self {
        ImportError { message: message.into() }
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
