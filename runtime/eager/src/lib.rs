//! Kiln's eager JIT ("graph-free fusion"): a [`Session`] records `hl` ops lazily as a program
//! runs, checks each one as it is recorded, and flushes the recorded segment at the eager
//! frameworks' boundaries ([`FlushReason`]); a flushed segment is fused and compiled
//! (`kiln-fuse`, `kiln-codegen`, the emitter) — or found in an LRU compile cache keyed by its
//! structure — and run on the VM. Only values that a live [`Tensor`] still names leave the
//! segment's kernels.
//!
//! ```
//! use kiln_eager::{Flags, Session};
//! let session = Session::new(Flags::default()).unwrap();
//! let x = session.tensor(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
//! let y = x.mul(2.0).unwrap().add(&x).unwrap().exp().unwrap();
//! assert_eq!(session.pending_ops(), 4); // three ops and a constant, not run yet
//! let values = y.to_vec::<f32>().unwrap(); // the host read flushes
//! assert_eq!(values.len(), 4);
//! assert_eq!(session.stats().segments_run, 1);
//! ```
//!
//! Flags come in the frameworks' syntax ([`Flags::parse`], `KILN_FUSION_FLAGS`); see
//! `docs/eager.md`.
#![deny(missing_docs)]

mod cache;
mod class;
mod compile;
mod direct;
mod error;
mod flags;
mod host;
mod node;
mod ops;
mod pool;
mod session;
mod stats;
mod tensor;

pub use error::{EagerError, ErrorKind, Result};
pub use flags::{Flags, ParsedFlags, ENV_VAR, KEYS};
pub use host::Element;
pub use kiln_bytecode::isa::DType;
pub use kiln_dialects::hl::attrs::{CmpPredicate, GeluApproximation};
pub use kiln_vm::HostTensor;
pub use node::{AttrValue, TensorType};
pub use session::Session;
pub use stats::{FlushReason, Stats};
pub use tensor::{Arg, HostValue, Tensor};
