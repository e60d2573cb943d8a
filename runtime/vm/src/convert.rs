//! `Reduce` (per row, sequential in column order from the first element or from the
//! destination's value, accumulating in the lane domain: `f32` for floats, wrapping `i32` for
//! integers, rounded to the destination type once) and
//! `Cast` (every dtype pair, with its rounding mode), with the interpreter's rules.

use half::{bf16, f16};
use kiln_bytecode::isa::{Buf, DType, ReduceOp, Round};

use crate::lanes::{nan_max, nan_min, Lane};
use crate::mem::{expect_same_shape, Mem};
use crate::vector::Scratch;

/// A lane domain's `add`, `mul`, zero and one.
type Ring<T> = (fn(T, T) -> T, fn(T, T) -> T, T, T);

/// Folds `values` by `op` sequentially, from `start` when given, else from the first value;
/// `None` for an empty max / min without a start.
fn fold<T: Lane + PartialOrd>(op: ReduceOp, start: Option<T>, values: &[T], ring: Ring<T>) -> Option<T> {
    let (add, mul, zero, one) = ring;
    let it = start.into_iter().chain(values.iter().copied());
    match op {
        ReduceOp::Sum => Some(it.reduce(add).unwrap_or(zero)),
        ReduceOp::Prod => Some(it.reduce(mul).unwrap_or(one)),
        ReduceOp::Max => it.reduce(nan_max),
        ReduceOp::Min => it.reduce(nan_min),
    }
}

/// `Reduce`: each row of `src` folded into the `[rows, 1]` `dst` (of `src`'s type, or `f32`
/// for an `f16` / `bf16` source); with `accumulate` the fold starts from `dst`'s value.
pub(crate) fn reduce(
    mem: &mut Mem,
    s: &mut Scratch,
    op: ReduceOp,
    dst: &Buf,
    src: &Buf,
    accumulate: bool,
) -> Result<(), String> {
    let wide = dst.dtype == DType::F32 && matches!(src.dtype, DType::F16 | DType::BF16);
    if dst.dtype != src.dtype && !wide {
        return Err(format!(
            "reduce of {} into {}: element types do not match",
            src.dtype.name(),
            dst.dtype.name()
        ));
    }
    if dst.rows != src.rows || dst.cols != 1 {
        return Err(format!(
            "reduce of [{}, {}] into [{}, {}]: expected [{}, 1]",
            src.rows, src.cols, dst.rows, dst.cols, src.rows
        ));
    }
    let (d, r) = (mem.region(dst)?, mem.region(src)?);
    let empty = || format!("{op:?} of an empty row has no identity").to_lowercase();
    let eb = dst.dtype.bytes() as usize;
    for row in 0..dst.rows as usize {
        let bytes = if src.cols == 0 { &[][..] } else { mem.row(&r, row) };
        let acc = &mem.row(&d, row)[..eb];
        if src.dtype.is_float() {
            s.fa.clear();
            f32::decode(src.dtype, bytes, &mut s.fa);
            s.fb.clear();
            f32::decode(dst.dtype, acc, &mut s.fb);
            let start = accumulate.then(|| s.fb[0]);
            let v = fold(op, start, &s.fa, (|a, b| a + b, |a, b| a * b, 0.0, 1.0)).ok_or_else(empty)?;
            f32::encode(dst.dtype, &[v], mem.row_mut(&d, row));
        } else {
            s.ia.clear();
            i32::decode(src.dtype, bytes, &mut s.ia);
            s.ib.clear();
            i32::decode(dst.dtype, acc, &mut s.ib);
            let start = accumulate.then(|| s.ib[0]);
            let v = fold(op, start, &s.ia, (i32::wrapping_add, i32::wrapping_mul, 0, 1)).ok_or_else(empty)?;
            i32::encode(dst.dtype, &[v], mem.row_mut(&d, row));
        }
    }
    Ok(())
}

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
        DType::I32 | DType::I8 => {
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
            s.ia.clear();
            i32::decode(src.dtype, bytes, &mut s.ia);
            i32::encode(dst.dtype, &s.ia, mem.row_mut(&d, row));
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
