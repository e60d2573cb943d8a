//! Kiln's virtual machine: runs a [`kiln_bytecode::module::Module`] on the CPU, the stand-in
//! for the NPU's device-side VM.
//!
//! It depends on the bytecode and target crates only, never on the IR, the parser or the
//! passes. Each executed instruction can be reported as an [`event::Event`]; the sync checker,
//! the cost model and the trace writer are consumers of that stream.
#![deny(missing_docs)]

pub mod event;
