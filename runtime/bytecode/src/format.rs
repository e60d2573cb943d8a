//! The container format (`.kbc`), version 1: the layout [`encode`](fn@crate::encode) writes and
//! [`decode`](fn@crate::decode) reads. All integers are little-endian; offsets count from the
//! start of the file, so the bytes are position independent (no absolute pointers). The
//! encoding is canonical: one module has exactly one encoding, and the decoder rejects every
//! byte sequence the encoder would not write (so `encode(decode(b)?) == b`).
//!
//! # Header and section table
//!
//! | offset | size | field |
//! |--------|------|-------|
//! | 0 | 8 | magic `KILNKBC\0` |
//! | 8 | 4 | format version (`1`) |
//! | 12 | 4 | section count (`5`, or `6` for a shape class) |
//! | 16 | 24 x count | section table: `kind: u32`, `reserved: u32 = 0`, `offset: u64`, `length: u64` |
//!
//! The sections follow the table in kind order: 1 target name, 2 names, 3 kernels, 4 host
//! program, 5 constants and, only in a program compiled for a shape class
//! ([`ClassModule`](crate::shape::ClassModule) with a class that is not static), 6 shape
//! class. Each starts at the next multiple of 8 after the previous one's end (zero padding in
//! between); the file ends where the last section ends. A section's contents fill it exactly.
//! A static program has exactly the five sections it had before shape classes existed.
//!
//! # Byte sections
//!
//! A string is `len: u32` and `len` UTF-8 bytes; a tensor spec is `dtype: u32`, `rank: u32`
//! and `rank` dims of `u64`; a buffer reference (a relocation of a GM argument) is
//! `kind: u32` (0 input, 1 constant, 2 temporary) and `index: u32`.
//!
//! - **target name**: one string (the target's `name`).
//! - **names** (for messages and traces): `count: u32` strings: the kernels' names in kernel
//!   order, then the host function's name (`count` is the kernel count + 1).
//! - **host program**: `inputs: u32` tensor specs; `temps: u32` byte sizes (`u64`);
//!   `launches: u32` launches, each `kernel: u32`, `argc: u32` and `argc` buffer references
//!   (the launch's argument list is its relocation table); `outputs: u32` entries, each a
//!   tensor spec and a buffer reference.
//! - **constants**: `count: u32` entries, each a tensor spec, `len: u64` and `len` data bytes.
//! - **shape class** (see [`crate::shape`]): `symbols: u32` strings (the names); `inputs:
//!   u32` entries, each `rank: u32` and per dim a `u32` (0: static, `k + 1`: symbol `k`);
//!   `temps: u32` optional expressions; `outputs: u32` entries, each `rank: u32` optional
//!   expressions; `launches: u32` entries, each `count: u32` expressions (its parameters);
//!   `kernels: u32` entries, each `params: u32` ranges (`min: i64`, `max: i64`) and
//!   `extents: u32` extents (`inst: u32`, `dim: u32`, `reg: u32`). An optional expression is
//!   `0: u32`, or `1: u32` and the expression; an expression is `terms: u32` (1 to
//!   [`MAX_EXPR_TERMS`](crate::shape::MAX_EXPR_TERMS)) terms, each a `u32` code (0 constant,
//!   followed by its `i64`; 1 symbol, followed by its index as a `u32`; 2 and up the
//!   operators in [`Term::OPERATORS`](crate::shape::Term::OPERATORS) order).
//!
//! # The kernels section (64-bit words)
//!
//! `count: u64`, then per kernel three words and its code:
//! `core (bits 0..8: 0 aiv, 1 aic, 2 mix) | num_args (16..32) | block_dim (32..64)`,
//! `ub_bytes (0..32) | instruction count (32..64)`, `code length in words`.
//!
//! An instruction is a head word followed by `length` operand words:
//!
//! | bits | field |
//! |------|-------|
//! | 0..8 | opcode (the `code` of [`OPCODES`](crate::opcode::OPCODES), listed below) |
//! | 8..12 | pipe (`Pipe::ALL` order: s, v, mte1, mte2, mte3, m, fix, all); must be [`Inst::pipe`](crate::isa::Inst::pipe) |
//! | 12..16 | flags: bit 12 is the instruction's boolean (`Load`'s `zero_pad`, `Reduce`'s and `Mmad`'s `accumulate`, `Fixpipe`'s `relu`); the others are 0 |
//! | 16..24 | length: the number of operand words that follow |
//! | 24..32 | sub-kind: the op / predicate / rounding / atomic enum value (the type's `ALL` order), or for a flag the other pipe |
//! | 32..64 | four register bytes `r0..r3` (bits 32, 40, 48, 56), or the event id of a flag in `r0` |
//!
//! Operand words: a buffer is 3 words, `tag 0 (bits 0..8) | space (8..12) | dtype (12..16) |
//! addr (32..64)`, `rows | cols << 32`, `pitch`; an immediate is 2 words, `tag (1 float, 2
//! int)` and the value's bits (`f64` or `i64`); a GM view is `arg (0..16) | has_offset (bit
//! 16) | offset register (24..32) | ndims (32..40)`, `base` (`i64`), then per dim `size` and
//! `stride` (`i64`). Unused bits are 0.
//!
//! | opcode | instruction | sub-kind | registers | operands |
//! |--------|-------------|----------|-----------|----------|
//! | 0x01 | `Const` | | dst | value (`i64`) |
//! | 0x02 | `Scalar` | op | dst, a, b | |
//! | 0x03, 0x04 | `BlockIdx`, `BlockNum` | | dst | |
//! | 0x05 | `For` | | iv, lo, hi, step | body |
//! | 0x06 | `If` | | cond | `then_len \| else_len << 32` |
//! | 0x10 | `Load` | | | dst buffer, src view |
//! | 0x11 | `Store` | atomic | | dst view, src buffer |
//! | 0x12 | `Gather` | index element type | | dst buffer, table view, indices view |
//! | 0x20 | `Copy` | | | dst, src |
//! | 0x21 | `Unary` | op | | dst, src |
//! | 0x22, 0x23 | `Binary`, `Cmp` | op, predicate | | dst, a, b (buffer or immediate) |
//! | 0x24 | `Select` | | | dst, mask, a, b |
//! | 0x25 | `Reduce` | op | | dst, src |
//! | 0x26 | `Broadcast` | | | dst, src |
//! | 0x27 | `Fill` | | | dst, value (immediate) |
//! | 0x28 | `Cast` | rounding | | dst, src |
//! | 0x29 | `Transpose` | | | dst, src |
//! | 0x30 | `MoveL1` | | | dst, src |
//! | 0x31 | `Mmad` | | | c, a, b |
//! | 0x32 | `Fixpipe` | | | dst, src |
//! | 0x40 | `SetFlag` (pipe = src) | dst pipe | event | |
//! | 0x41 | `WaitFlag` (pipe = dst) | src pipe | event | |
//! | 0x42 | `Barrier` | | | |

use crate::isa::{Atomic, BinaryOp, CmpPred, DType, Pipe, ReduceOp, Round, ScalarOp, Space, UnaryOp};
use crate::module::Core;

/// The first 8 bytes of every bytecode file.
pub const MAGIC: [u8; 8] = *b"KILNKBC\0";
/// The format version this crate writes and reads.
pub const VERSION: u32 = 1;

/// The sections, in file order, by kind (1-based) and name; a static program has the first
/// [`STATIC_SECTIONS`].
pub(crate) const SECTIONS: [&str; 6] =
    ["target name", "names", "kernels", "host program", "constants", "shape class"];
/// The sections of a static program.
pub(crate) const STATIC_SECTIONS: usize = 5;
/// Bytes of the header before the section table.
pub(crate) const HEADER_BYTES: usize = 16;
/// Bytes of one section table entry.
pub(crate) const ENTRY_BYTES: usize = 24;
/// Sections start at multiples of this.
pub(crate) const SECTION_ALIGN: usize = 8;
/// The end of a section table of `count` entries.
pub(crate) const fn table_end(count: usize) -> usize {
    HEADER_BYTES + ENTRY_BYTES * count
}
/// The offset of the first section (the target name) in a file of `count` sections.
pub(crate) const fn first_section(count: usize) -> usize {
    table_end(count).next_multiple_of(SECTION_ALIGN)
}

/// Bit positions of the head word's fields.
pub(crate) mod head {
    pub const PIPE: u32 = 8;
    pub const FLAGS: u32 = 12;
    pub const LEN: u32 = 16;
    pub const SUB: u32 = 24;
    pub const REGS: u32 = 32;
    /// The only flag bit in use: the instruction's boolean.
    pub const FLAG_BOOL: u64 = 1;
}

/// Operand tags (bits 0..8 of a buffer's or an immediate's first word).
pub(crate) mod tag {
    pub const BUF: u8 = 0;
    pub const FLOAT: u8 = 1;
    pub const INT: u8 = 2;
}

/// An enum stored as its index in the type's `ALL` array.
pub(crate) trait Code: Copy + 'static {
    /// The type's name in messages (`memory space`).
    const WHAT: &'static str;
    /// Every value, in encoding order.
    fn all() -> &'static [Self];
    /// The value's code.
    fn code(self) -> u8;
    /// The value of a code, if any.
    fn from_code(code: u64) -> Option<Self> {
        usize::try_from(code).ok().and_then(|i| Self::all().get(i)).copied()
    }
}

macro_rules! code {
    ($($ty:ty => $what:literal),* $(,)?) => {$(
        impl Code for $ty {
            const WHAT: &'static str = $what;
            fn all() -> &'static [Self] {
                &<$ty>::ALL
            }
            fn code(self) -> u8 {
                self as u8
            }
        }
    )*};
}

code! {
    Pipe => "pipe",
    Space => "memory space",
    DType => "element type",
    ScalarOp => "scalar op",
    UnaryOp => "unary op",
    BinaryOp => "binary op",
    CmpPred => "comparison predicate",
    ReduceOp => "reduction",
    Round => "rounding mode",
    Atomic => "atomic kind",
    Core => "core kind",
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes_are_indices<T: Code + PartialEq + std::fmt::Debug>() {
        for (i, v) in T::all().iter().enumerate() {
            assert_eq!(v.code() as usize, i, "{}", T::WHAT);
            assert_eq!(T::from_code(i as u64), Some(*v));
        }
        assert_eq!(T::from_code(T::all().len() as u64), None);
    }

    #[test]
    fn every_enum_code_is_its_index_in_all() {
        codes_are_indices::<Pipe>();
        codes_are_indices::<Space>();
        codes_are_indices::<DType>();
        codes_are_indices::<ScalarOp>();
        codes_are_indices::<UnaryOp>();
        codes_are_indices::<BinaryOp>();
        codes_are_indices::<CmpPred>();
        codes_are_indices::<ReduceOp>();
        codes_are_indices::<Round>();
        codes_are_indices::<Atomic>();
        codes_are_indices::<Core>();
    }
}
