//! `kiln-filecheck`: an LLVM FileCheck-compatible pattern checker.
#![deny(missing_docs)]
