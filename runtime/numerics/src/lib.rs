//! Kiln's scalar element semantics: what one element of an elementwise op computes, for the
//! `hl` reference interpreter (`kiln-dialects`) and the VM (`kiln-vm`), which must give the same
//! bits (the VM differential test checks that they do). Each rule lives here once:
//!
//! * [`order`]: NaN-propagating maximum and minimum, `relu` and `sign`, for floats and integers;
//! * [`float`]: the functions computed in `f64` with the portable `libm` and rounded once to
//!   `f32` (the transcendental functions, `sigmoid`, `rsqrt`, `pow`, `fmod`), so that results
//!   are the same bits on every host;
//! * [`int`]: two's-complement integer arithmetic: wrapping, division and remainder by zero,
//!   `MIN / -1`, shifts by out-of-range amounts, powers with negative exponents;
//! * [`convert`]: float to integer (truncate, saturate, NaN to 0) and integer to `f16`/`bf16`
//!   (one rounding of the exact integer).
//!
//! Operations that are one IEEE 754 primitive (`+`, `-`, `*`, `/`, `sqrt`, `floor`, `ceil`,
//! `round_ties_even`, `abs`, negation) are the language's and are not repeated here.
//!
//! A leaf crate: no IR, no other `kiln-*` crate.
#![deny(missing_docs)]

pub mod convert;
pub mod float;
pub mod int;
pub mod order;
