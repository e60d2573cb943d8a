//! Element codecs: rows of on-chip or GM bytes decoded into the two compute domains and
//! encoded back, with the interpreter's conversion rules (`kiln-dialects`' `hl` interpreter is
//! the oracle; the VM gives the same bits).
//!
//! * Floats (`f32`, `f16`, `bf16`) compute in `f32` lanes: `f16`/`bf16` widen exactly and
//!   round back to nearest, ties to even, after each op ("compute in `f32`, round to the
//!   dtype", as the device does).
//! * Integers (`i32`, `i8`) compute in wrapping `i32` lanes, `i64` in wrapping `i64` lanes (on
//!   targets whose vector unit has it), and narrow by keeping the low bits; `i1` lanes are 0
//!   or 1 and narrow as `x != 0`. A conversion between integer types goes through `i64`
//!   lanes, which hold every integer exactly.
//! * Float to integer truncates toward zero and saturates (NaN gives 0); integer to float
//!   rounds the exact integer once, to nearest with ties to even; to `i1` is `x != 0`
//!   (`kiln_numerics::convert`'s rules, which the interpreter follows too).

use half::{bf16, f16};
use kiln_bytecode::isa::{DType, Scalar};
use kiln_numerics::convert::{int_to_bf16, int_to_f16};
use kiln_numerics::int::Integer;

/// A compute-lane type: `f32` for float dtypes, `i32` for integer ones.
pub(crate) trait Lane: Copy + Default + Send + 'static {
    /// Writes the first `out.len()` elements of `bytes` (of `dtype`) into `out`, converted to
    /// this domain.
    fn decode_into(dtype: DType, bytes: &[u8], out: &mut [Self]);
    /// Appends the elements of `bytes` (of `dtype`) to `out`, converted to this domain.
    fn decode(dtype: DType, bytes: &[u8], out: &mut Vec<Self>) {
        let old = out.len();
        out.resize(old + bytes.len() / dtype.bytes() as usize, Self::default());
        Self::decode_into(dtype, bytes, &mut out[old..]);
    }
    /// Writes `vals` into `bytes` (of `dtype`), converted by the module's rules.
    fn encode(dtype: DType, vals: &[Self], bytes: &mut [u8]);
    /// An immediate rounded to `dtype`, in this domain.
    fn imm(dtype: DType, value: Scalar) -> Result<Self, String>;
    /// The dtype whose little-endian bytes are this domain's own lanes (`f32`, `i32`).
    const NATIVE: DType;
    /// `bytes` (of `dtype`) as lanes without converting: when `dtype` is [`Lane::NATIVE`],
    /// the host is little-endian and `bytes` is aligned for the lanes.
    fn native(dtype: DType, bytes: &[u8]) -> Option<&[Self]>;
    /// [`Lane::native`], writable.
    fn native_mut(dtype: DType, bytes: &mut [u8]) -> Option<&mut [Self]>;
}

macro_rules! native_lanes {
    () => {
        #[inline(always)]
        fn native(dtype: DType, bytes: &[u8]) -> Option<&[Self]> {
            (dtype == Self::NATIVE && cfg!(target_endian = "little"))
                .then(|| bytemuck::try_cast_slice(bytes).ok())
                .flatten()
        }

        #[inline(always)]
        fn native_mut(dtype: DType, bytes: &mut [u8]) -> Option<&mut [Self]> {
            if dtype == Self::NATIVE && cfg!(target_endian = "little") {
                bytemuck::try_cast_slice_mut(bytes).ok()
            } else {
                None
            }
        }
    };
}

fn word4(c: &[u8]) -> [u8; 4] {
    [c[0], c[1], c[2], c[3]]
}

impl Lane for f32 {
    const NATIVE: DType = DType::F32;
    native_lanes!();

    fn decode_into(dtype: DType, bytes: &[u8], out: &mut [f32]) {
        fn fill<const N: usize>(bytes: &[u8], out: &mut [f32], f: impl Fn([u8; N]) -> f32) {
            for (o, c) in out.iter_mut().zip(bytes.chunks_exact(N)) {
                *o = f(c.try_into().unwrap_or([0; N]));
            }
        }
        match dtype {
            DType::F32 => fill(bytes, out, f32::from_le_bytes),
            DType::F16 => fill(bytes, out, |c| f16::from_le_bytes(c).to_f32()),
            DType::BF16 => fill(bytes, out, |c| bf16::from_le_bytes(c).to_f32()),
            DType::I32 => fill(bytes, out, |c| i32::from_le_bytes(c) as f32),
            DType::I8 => fill(bytes, out, |[b]: [u8; 1]| b as i8 as f32),
            DType::I1 => fill(bytes, out, |[b]: [u8; 1]| f32::from(u8::from(b != 0))),
            DType::I64 => fill(bytes, out, |c| i64::from_le_bytes(c) as f32),
        }
    }

    fn encode(dtype: DType, vals: &[f32], bytes: &mut [u8]) {
        match dtype {
            DType::F32 => {
                for (c, v) in bytes.chunks_exact_mut(4).zip(vals) {
                    c.copy_from_slice(&v.to_le_bytes());
                }
            }
            DType::F16 => {
                for (c, v) in bytes.chunks_exact_mut(2).zip(vals) {
                    c.copy_from_slice(&f16::from_f32(*v).to_le_bytes());
                }
            }
            DType::BF16 => {
                for (c, v) in bytes.chunks_exact_mut(2).zip(vals) {
                    c.copy_from_slice(&bf16::from_f32(*v).to_le_bytes());
                }
            }
            DType::I32 => {
                for (c, v) in bytes.chunks_exact_mut(4).zip(vals) {
                    c.copy_from_slice(&i32::from_f32(*v).to_le_bytes());
                }
            }
            DType::I8 => bytes.iter_mut().zip(vals).for_each(|(b, v)| *b = i8::from_f32(*v) as u8),
            DType::I1 => bytes.iter_mut().zip(vals).for_each(|(b, v)| *b = u8::from(*v != 0.0)),
            DType::I64 => {
                for (c, v) in bytes.chunks_exact_mut(8).zip(vals) {
                    c.copy_from_slice(&i64::from_f32(*v).to_le_bytes());
                }
            }
        }
    }

    fn imm(dtype: DType, value: Scalar) -> Result<f32, String> {
        Ok(match (value, dtype) {
            (Scalar::Float(v), DType::F16) => f16::from_f64(v).to_f32(),
            (Scalar::Float(v), DType::BF16) => bf16::from_f64(v).to_f32(),
            (Scalar::Float(v), DType::F32) => v as f32,
            (Scalar::Int(v), DType::F16) => int_to_f16(v).to_f32(),
            (Scalar::Int(v), DType::BF16) => int_to_bf16(v).to_f32(),
            (Scalar::Int(v), DType::F32) => v as f32,
            (_, d) => return Err(format!("a float immediate for a {} operation", d.name())),
        })
    }
}

impl Lane for i32 {
    const NATIVE: DType = DType::I32;
    native_lanes!();

    fn decode_into(dtype: DType, bytes: &[u8], out: &mut [i32]) {
        let eb = dtype.bytes() as usize;
        match dtype {
            DType::I32 => {
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                    *o = i32::from_le_bytes(word4(c));
                }
            }
            DType::I8 => out.iter_mut().zip(bytes).for_each(|(o, &b)| *o = i32::from(b as i8)),
            DType::I1 => out.iter_mut().zip(bytes).for_each(|(o, &b)| *o = i32::from(b != 0)),
            DType::I64 => {
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(8)) {
                    *o = i64::from_le_bytes(c.try_into().unwrap_or([0; 8])) as i32;
                }
            }
            DType::F32 | DType::F16 | DType::BF16 => {
                let mut f = [0.0f32; 64];
                for (o, c) in out.chunks_mut(64).zip(bytes.chunks(64 * eb)) {
                    f32::decode_into(dtype, c, &mut f[..o.len()]);
                    o.iter_mut().zip(&f).for_each(|(o, &x)| *o = i32::from_f32(x));
                }
            }
        }
    }

    fn encode(dtype: DType, vals: &[i32], bytes: &mut [u8]) {
        match dtype {
            DType::I32 => {
                for (c, v) in bytes.chunks_exact_mut(4).zip(vals) {
                    c.copy_from_slice(&v.to_le_bytes());
                }
            }
            DType::I8 => bytes.iter_mut().zip(vals).for_each(|(b, v)| *b = *v as u8),
            DType::I1 => bytes.iter_mut().zip(vals).for_each(|(b, v)| *b = u8::from(*v != 0)),
            DType::I64 => {
                for (c, v) in bytes.chunks_exact_mut(8).zip(vals) {
                    c.copy_from_slice(&i64::from(*v).to_le_bytes());
                }
            }
            DType::F32 => f32::encode(dtype, &vals.iter().map(|&v| v as f32).collect::<Vec<_>>(), bytes),
            DType::F16 => {
                for (c, v) in bytes.chunks_exact_mut(2).zip(vals) {
                    c.copy_from_slice(&int_to_f16(i64::from(*v)).to_le_bytes());
                }
            }
            DType::BF16 => {
                for (c, v) in bytes.chunks_exact_mut(2).zip(vals) {
                    c.copy_from_slice(&int_to_bf16(i64::from(*v)).to_le_bytes());
                }
            }
        }
    }

    fn imm(dtype: DType, value: Scalar) -> Result<i32, String> {
        match (value, dtype) {
            (Scalar::Int(v), DType::I32) => Ok(v as i32),
            (Scalar::Int(v), DType::I8) => Ok(i32::from(v as i8)),
            (Scalar::Int(v), DType::I1) => Ok(i32::from(v != 0)),
            (_, d) => Err(format!("an immediate {value:?} for a {} operation", d.name())),
        }
    }
}

impl Lane for i64 {
    const NATIVE: DType = DType::I64;
    native_lanes!();

    fn decode_into(dtype: DType, bytes: &[u8], out: &mut [i64]) {
        match dtype {
            DType::I64 => {
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(8)) {
                    *o = i64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
                }
            }
            DType::I32 => {
                for (o, c) in out.iter_mut().zip(bytes.chunks_exact(4)) {
                    *o = i64::from(i32::from_le_bytes(word4(c)));
                }
            }
            DType::I8 => out.iter_mut().zip(bytes).for_each(|(o, &b)| *o = i64::from(b as i8)),
            DType::I1 => out.iter_mut().zip(bytes).for_each(|(o, &b)| *o = i64::from(b != 0)),
            DType::F32 | DType::F16 | DType::BF16 => {
                let eb = dtype.bytes() as usize;
                let mut f = [0.0f32; 64];
                for (o, c) in out.chunks_mut(64).zip(bytes.chunks(64 * eb)) {
                    f32::decode_into(dtype, c, &mut f[..o.len()]);
                    o.iter_mut().zip(&f).for_each(|(o, &x)| *o = i64::from_f32(x));
                }
            }
        }
    }

    fn encode(dtype: DType, vals: &[i64], bytes: &mut [u8]) {
        match dtype {
            DType::I64 => {
                for (c, v) in bytes.chunks_exact_mut(8).zip(vals) {
                    c.copy_from_slice(&v.to_le_bytes());
                }
            }
            DType::I32 => {
                for (c, v) in bytes.chunks_exact_mut(4).zip(vals) {
                    c.copy_from_slice(&(*v as i32).to_le_bytes());
                }
            }
            DType::I8 => bytes.iter_mut().zip(vals).for_each(|(b, v)| *b = *v as u8),
            DType::I1 => bytes.iter_mut().zip(vals).for_each(|(b, v)| *b = u8::from(*v != 0)),
            // One rounding of the exact integer, to nearest with ties to even.
            DType::F32 => {
                for (c, v) in bytes.chunks_exact_mut(4).zip(vals) {
                    c.copy_from_slice(&(*v as f32).to_le_bytes());
                }
            }
            DType::F16 => {
                for (c, v) in bytes.chunks_exact_mut(2).zip(vals) {
                    c.copy_from_slice(&int_to_f16(*v).to_le_bytes());
                }
            }
            DType::BF16 => {
                for (c, v) in bytes.chunks_exact_mut(2).zip(vals) {
                    c.copy_from_slice(&int_to_bf16(*v).to_le_bytes());
                }
            }
        }
    }

    fn imm(dtype: DType, value: Scalar) -> Result<i64, String> {
        match (value, dtype) {
            (Scalar::Int(v), DType::I64) => Ok(v),
            (Scalar::Int(v), DType::I32) => Ok(i64::from(v as i32)),
            (Scalar::Int(v), DType::I8) => Ok(i64::from(v as i8)),
            (Scalar::Int(v), DType::I1) => Ok(i64::from(v != 0)),
            (_, d) => Err(format!("an immediate {value:?} for a {} operation", d.name())),
        }
    }
}

/// Integer compute lanes: `i32` for `i32`, `i8` and `i1` data, `i64` for `i64`. Arithmetic
/// wraps in the lane width by `kiln_numerics::int`'s rules, which the encoding then narrows to
/// the dtype (keeping the low bits), so every integer dtype wraps at its own width.
pub(crate) trait Int:
    Lane
    + Integer
    + std::ops::Not<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
{
    /// 1 for true, 0 for false.
    fn of_bool(b: bool) -> Self;
}

impl Int for i32 {
    #[inline(always)]
    fn of_bool(b: bool) -> i32 {
        i32::from(b)
    }
}

impl Int for i64 {
    #[inline(always)]
    fn of_bool(b: bool) -> i64 {
        i64::from(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_to_half_rounds_once() {
        let mut b = [0u8; 2];
        i32::encode(DType::BF16, &[(1 << 24) + (1 << 16) + 1], &mut b);
        assert_eq!(bf16::from_le_bytes(b).to_f32(), ((1 << 24) + (1 << 17)) as f32);
    }

    #[test]
    fn float_to_int_saturates() {
        let mut b = [0u8; 3];
        f32::encode(DType::I8, &[300.0, f32::NAN, -1.9], &mut b);
        assert_eq!(b, [127, 0, 255]);
    }
}
