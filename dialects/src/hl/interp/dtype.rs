//! Element types of host tensors.

use std::fmt;

/// The element type of a [`Tensor`](super::Tensor), spelled as in MLIR (`f16`, `bf16`, `f32`,
/// `i1`, `i8`, `i32`, `i64`).
///
/// `i1` is the boolean type (results of comparisons, conditions of `select`). Integer types are
/// signed two's complement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DType {
    /// IEEE 754 binary16.
    F16,
    /// bfloat16: the upper half of an IEEE binary32.
    BF16,
    /// IEEE 754 binary32.
    F32,
    /// Boolean.
    I1,
    /// Signed 8-bit integer.
    I8,
    /// Signed 32-bit integer.
    I32,
    /// Signed 64-bit integer.
    I64,
}

impl DType {
    /// Every element type, floats first.
    pub const ALL: [DType; 7] =
        [DType::F16, DType::BF16, DType::F32, DType::I1, DType::I8, DType::I32, DType::I64];

    /// The MLIR spelling (`bf16`, `i32`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::I1 => "i1",
            DType::I8 => "i8",
            DType::I32 => "i32",
            DType::I64 => "i64",
        }
    }

    /// The element type spelled `name` in MLIR, if any.
    pub fn from_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == name)
    }

    /// Whether this is `f16`, `bf16` or `f32`.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::BF16 | DType::F32)
    }

    /// Whether this is a signed integer type (`i8`, `i32`, `i64`; not `i1`).
    pub fn is_int(self) -> bool {
        matches!(self, DType::I8 | DType::I32 | DType::I64)
    }

    /// The size of one element in bytes (`i1` takes one byte, as in `.npy` files).
    pub fn byte_size(self) -> usize {
        match self {
            DType::I1 | DType::I8 => 1,
            DType::F16 | DType::BF16 => 2,
            DType::F32 | DType::I32 => 4,
            DType::I64 => 8,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
