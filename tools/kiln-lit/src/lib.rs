//! `kiln-lit`: an LLVM lit-compatible test runner.
#![deny(missing_docs)]
