//! Rewrite patterns and the greedy driver.

/// A set of rewrite patterns.
#[derive(Default)]
pub struct PatternSet {}
