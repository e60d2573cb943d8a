//! Kiln's virtual machine: runs a [`kiln_bytecode::module::Module`] on the CPU, the stand-in
//! for the NPU's device-side VM.
//!
//! It depends on the bytecode and target crates only, never on the IR, the parser or the
//! passes. [`Vm::run`] executes the host program and its kernels (cores on host threads,
//! arithmetic bit-identical to the `hl` interpreter for exact ops) and returns the outputs
//! with [`counters::Counters`]; [`Vm::run_with`] also reports each executed instruction as an
//! [`event::Event`], the stream the sync checker, the cost model and the trace writer consume.
//! [`Vm::run_class`] runs a program compiled for a shape class
//! (`kiln_bytecode::shape::ClassModule`) on inputs of any shape of its class.
//! The module need not be validated: every bad index, range or offset is a located
//! [`VmError`], and a step budget stops endless loops.
#![deny(missing_docs)]

mod approx;
mod blocks;
mod class;
mod convert;
mod core;
pub mod cost;
pub mod counters;
mod cube;
mod error;
pub mod event;
mod flags;
mod gather;
mod gm;
mod group;
mod host;
mod lanes;
mod lazy;
mod mem;
mod movement;
mod prefetch;
mod reduce;
mod simd;
pub mod sync_check;
pub mod trace;
mod vector;

pub use error::VmError;
pub use host::{spec_string, zeroed, HostTensor, Outputs, Vm, VmConfig, DEFAULT_MAX_STEPS};
