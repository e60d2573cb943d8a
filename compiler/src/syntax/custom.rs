//! Hooks for ops with a custom (pretty) assembly format.

/// An op's custom assembly format: how to print it and parse it back.
#[derive(Debug)]
pub struct CustomSyntax {}
