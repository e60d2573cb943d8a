//! The properties Kiln's coverage-guided fuzz targets check, as plain functions of the fuzz
//! input: `fuzz/fuzz_targets/*.rs` (built by `cargo +nightly fuzz`) only call them, and the
//! stable test `tests/corpus.rs` replays the committed corpora through the same functions.
//!
//! Each function returns normally when the input is rejected cleanly (located errors) or
//! satisfies the property, and panics with a description of the violation otherwise:
//! - [`parse_roundtrip`]: parse, verify, print, reparse, print gives the same text, in the
//!   generic and in the custom form;
//! - [`fusion_pipeline`]: `hl-decompose`, `canonicalize`, `cse` and `kiln-fuse` at several
//!   option sets keep the IR valid, and the fused program computes the same bits;
//! - [`interpreter`]: the `hl` interpreter, under a small memory budget, on a generated
//!   random program (exact: it must run) or on a parsed module (it may refuse cleanly);
//! - [`bytecode_vm`]: the bytecode loader and the VM, observed (sync checker, cost model) and
//!   not (elementwise groups, deferred loads), which must agree.
#![deny(missing_docs)]

mod fusion;
mod interpreter;
mod roundtrip;
mod support;
mod vm;

pub use fusion::fusion_pipeline;
pub use interpreter::interpreter;
pub use roundtrip::parse_roundtrip;
pub use vm::bytecode_vm;
