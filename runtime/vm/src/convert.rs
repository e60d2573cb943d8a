//! `Cast` (every dtype pair, with its rounding mode), by the interpreter's rules.

use half::{bf16, f16};
use kiln_bytecode::isa::{Buf, DType, Round};

use crate::lanes::Lane;
use crate::mem::{expect_same_shape, Mem};
use crate::vector::Scratch;

/// A 16-bit float's bits one step toward -inf (`down`) or +inf.
fn step16(bits: u16, down: bool) -> u16 {
    let negative = bits & 0x8000 != 0;
    match (bits & 0x7fff == 0, negative == down) {
        (true, _) => {
            if down {
                0x8001
            } else {
                0x0001
            }
        }
        (false, true) => bits + 1,
        (false, false) => bits - 1,
    }
}

/// `x` rounded to a 16-bit float format by `round`: nearest first, then one step back when
/// the rounding went the wrong way.
fn narrow16(x: f32, round: Round, nearest: impl Fn(f32) -> (u16, f32)) -> u16 {
    let (bits, value) = nearest(x);
    if x.is_nan() || value == x {
        return bits;
    }
    match round {
        Round::Rint => bits,
        Round::Floor if value > x => step16(bits, true),
        Round::Ceil if value < x => step16(bits, false),
        Round::Trunc if value.abs() > x.abs() => bits - 1,
        _ => bits,
    }
}

/// `x` rounded to an integer value by `round` (before the saturating conversion).
fn round_float(x: f32, round: Round) -> f32 {
    match round {
        Round::Rint => x.round_ties_even(),
        Round::Trunc => x.trunc(),
        Round::Floor => x.floor(),
        Round::Ceil => x.ceil(),
    }
}

/// Converts one row of float lanes to `to` with `round`.
fn encode_float(to: DType, round: Round, vals: &mut [f32], out: &mut [u8]) {
    match to {
        DType::F16 if round != Round::Rint => {
            for (c, &v) in out.chunks_exact_mut(2).zip(vals.iter()) {
                let bits = narrow16(v, round, |x| {
                    let h = f16::from_f32(x);
                    (h.to_bits(), h.to_f32())
                });
                c.copy_from_slice(&bits.to_le_bytes());
            }
        }
        DType::BF16 if round != Round::Rint => {
            for (c, &v) in out.chunks_exact_mut(2).zip(vals.iter()) {
                let bits = narrow16(v, round, |x| {
                    let h = bf16::from_f32(x);
                    (h.to_bits(), h.to_f32())
                });
                c.copy_from_slice(&bits.to_le_bytes());
            }
        }
        DType::I64 | DType::I32 | DType::I8 => {
            vals.iter_mut().for_each(|v| *v = round_float(*v, round));
            f32::encode(to, vals, out);
        }
        _ => f32::encode(to, vals, out),
    }
}

/// `Cast`: `src` converted to `dst`'s type. Float to integer rounds by `round` then saturates
/// (NaN gives 0); float to a narrower float rounds by `round`; integer to float rounds to
/// nearest, ties to even, whatever `round` says (an integer has no fraction to direct);
/// integer to integer keeps the low bits; to `i1` is `x != 0`.
pub(crate) fn cast(mem: &mut Mem, s: &mut Scratch, dst: &Buf, src: &Buf, round: Round) -> Result<(), String> {
    expect_same_shape(dst, src, "cast")?;
    let (d, r) = (mem.region(dst)?, mem.region(src)?);
    for row in 0..d.rows {
        let bytes = mem.row(&r, row);
        if src.dtype.is_float() {
            s.fa.clear();
            f32::decode(src.dtype, bytes, &mut s.fa);
            encode_float(dst.dtype, round, &mut s.fa, mem.row_mut(&d, row));
        } else {
            // i64 lanes hold every integer exactly.
            s.la.clear();
            i64::decode(src.dtype, bytes, &mut s.la);
            i64::encode(dst.dtype, &s.la, mem.row_mut(&d, row));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_narrowing() {
        let nearest = |x: f32| {
            let h = f16::from_f32(x);
            (h.to_bits(), h.to_f32())
        };
        let x = 1.0 + 1.0 / 4096.0;
        assert_eq!(f16::from_bits(narrow16(x, Round::Ceil, nearest)).to_f32(), 1.0 + 1.0 / 1024.0);
        assert_eq!(f16::from_bits(narrow16(x, Round::Floor, nearest)).to_f32(), 1.0);
        assert_eq!(f16::from_bits(narrow16(-x, Round::Floor, nearest)).to_f32(), -(1.0 + 1.0 / 1024.0));
        assert_eq!(f16::from_bits(narrow16(-x, Round::Trunc, nearest)).to_f32(), -1.0);
        assert_eq!(f16::from_bits(narrow16(1e6, Round::Floor, nearest)).to_f32(), 65504.0);
        assert_eq!(f16::from_bits(narrow16(1e-9, Round::Ceil, nearest)).to_bits(), 1);
    }
}
