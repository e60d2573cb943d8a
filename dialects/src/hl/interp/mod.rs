//! The `hl` reference interpreter's numeric core: host tensors and one kernel per `hl` op.
//!
//! This is the oracle every correctness test compares against, so each kernel is exact to its
//! element type and deterministic (the same inputs give the same bits on every host: all
//! transcendental functions come from the portable `libm` crate, and every sum has a fixed
//! order). It knows nothing about the IR: the glue that walks `hl` ops ([`program`]) calls each op's
//! declared evaluation ([`eval`]), which calls these kernels.
//!
//! Rules shared by all kernels (each module documents its own in detail):
//!
//! * **No implicit promotion.** Operands of one op must have the same [`DType`]; conversions
//!   are explicit ([`cast`]).
//! * **`f16`/`bf16` round after every op**: an elementwise op is computed in `f32` (in fact in
//!   `f64`, then rounded to `f32`) and rounded to the dtype, as the device does; reductions,
//!   contractions and composites accumulate in `f32` or better and round once, at the end.
//! * **Integers wrap** (two's complement); integer division truncates toward zero and division
//!   by zero gives 0.
//! * **Broadcasting is numpy's** ([`broadcast_shapes`]).
//! * **Invalid input is an [`InterpError`]**, never a panic: ranks, shapes, axes, types and
//!   malformed `.npy` files are all checked.

mod broadcast;
mod budget;
mod composite;
mod dtype;
mod elements;
mod elementwise;
mod error;
pub mod eval;
pub mod generator;
mod index;
mod indexed;
mod lanes;
mod layout;
mod linalg;
mod npy;
mod pool;
pub mod program;
mod random;
mod reduce;
mod scan;
mod tensor;
mod unary;

pub use broadcast::{broadcast_shapes, broadcast_to};
pub use budget::Budget;
pub use composite::{batch_norm, bias_add, dropout, layer_norm, log_softmax, rms_norm, softmax, swiglu};
pub use dtype::DType;
pub use elements::{gather_elements, gather_nd, scatter_elements, scatter_nd, ScatterReduction};
pub use elementwise::{binary, cast, clamp, compare, logical, logical_not, select, BinaryOp, CmpOp, LogicOp};
pub use error::{InterpError, Result};
pub use indexed::{gather, iota, pad, split, trilu};
pub use layout::{concat, expand_dims, reshape, slice, squeeze, transpose};
pub use linalg::{batch_matmul, conv2d, matmul, Conv2dParams};
pub use npy::{decode_npy, encode_npy, read_npy};
pub use pool::{avg_pool2d, global_avg_pool2d, max_pool2d, tap_counts, Pool2dParams};
pub use random::{random_tensor, SplitMix64};
pub use reduce::{argmax, argmin, reduce, ReduceOp};
pub use scan::{cumulative, topk};
pub use tensor::{Tensor, TensorData};
pub use unary::{unary, GeluApprox, UnaryOp};
