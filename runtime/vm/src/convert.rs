//! `Reduce` (per row, sequential in column order from the first element or from the
//! destination's value, accumulating in the lane domain: `f32` for floats, wrapping `i32` for
//! integers, rounded to the destination type once; a float max / min runs in independent
//! lanes when that provably gives the sequential fold's bits; a float sum / product folds
//! eight rows side by side, each still in column order) and
//! `Cast` (every dtype pair, with its rounding mode), with the interpreter's rules.

use half::{bf16, f16};
use kiln_bytecode::isa::{Buf, DType, ReduceOp, Round};

use crate::lanes::{nan_max, nan_min, Lane};
use crate::mem::{expect_same_shape, Mem, Region};
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

/// The max (`MAX`) or min of `start` and `values` in 16 independent lanes, when that is the
/// sequential fold's bits: no NaN (the fold keeps the first NaN) and a nonzero result (`+0.0`
/// and `-0.0` compare equal and the fold keeps the first of them; equal nonzero floats have
/// equal bits). `None` sends the row to the sequential fold.
fn lanewise_extreme<const MAX: bool>(start: Option<f32>, values: &[f32]) -> Option<f32> {
    let pick = |a: f32, x: f32| if (MAX && x > a) || (!MAX && x < a) { x } else { a };
    let first = start.or(values.first().copied())?;
    let (mut acc, mut nan) = ([first; 16], [u32::from(first.is_nan()); 16]);
    let rest = crate::simd::fold16(&mut acc, &mut nan, values, pick, f32::is_nan);
    for &x in rest {
        nan[0] |= u32::from(x.is_nan());
        acc[0] = pick(acc[0], x);
    }
    let v = acc.into_iter().reduce(pick)?;
    (!nan.contains(&1) && v != 0.0).then_some(v)
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
    if src.dtype.is_float() && src.cols > 0 {
        let rows = ((&d, dst), (&r, src));
        match op {
            ReduceOp::Sum => {
                fold_rows(mem, s, rows, accumulate, |a, x| a + x);
                return Ok(());
            }
            ReduceOp::Prod => {
                fold_rows(mem, s, rows, accumulate, |a, x| a * x);
                return Ok(());
            }
            ReduceOp::Max | ReduceOp::Min => {}
        }
    }
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
            let fast = match op {
                ReduceOp::Max => lanewise_extreme::<true>(start, &s.fa),
                ReduceOp::Min => lanewise_extreme::<false>(start, &s.fa),
                ReduceOp::Sum | ReduceOp::Prod => None,
            };
            let v = match fast {
                Some(v) => v,
                None => fold(op, start, &s.fa, (|a, b| a + b, |a, b| a * b, 0.0, 1.0)).ok_or_else(empty)?,
            };
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

/// Rows [`fold_rows`] folds side by side.
const ROWS: usize = 8;

/// The destination and the source of a reduction, each with its region.
type Operands<'a> = ((&'a Region, &'a Buf), (&'a Region, &'a Buf));

/// A float sum or product (`f`) of every row of `src` (not empty) into `dst`, [`ROWS`] rows
/// side by side: each row folds sequentially in column order, from `dst`'s value with
/// `accumulate` (else from its first element), so the bits are the sequential fold's, but a
/// column step advances [`ROWS`] independent folds, which the CPU overlaps, instead of every
/// add waiting for the one before.
fn fold_rows(
    mem: &mut Mem,
    s: &mut Scratch,
    ((d, dst), (r, src)): Operands<'_>,
    accumulate: bool,
    f: impl Fn(f32, f32) -> f32,
) {
    let (rows, cols) = (dst.rows as usize, src.cols as usize);
    let eb = dst.dtype.bytes() as usize;
    for first in (0..rows).step_by(ROWS) {
        let n = ROWS.min(rows - first);
        // Rows read in place where their bytes are `f32` lanes, else decoded after a row of
        // zeros, which the lanes past `n` fold (and drop).
        s.fa.clear();
        s.fa.resize(cols, 0.0);
        for row in first..first + n {
            let bytes = mem.row(r, row);
            if f32::native(src.dtype, bytes).is_none() {
                f32::decode(src.dtype, bytes, &mut s.fa);
            }
        }
        let mut decoded = 0;
        let lanes: [&[f32]; ROWS] = std::array::from_fn(|k| match k < n {
            false => &s.fa[..cols],
            true => f32::native(src.dtype, mem.row(r, first + k)).unwrap_or_else(|| {
                decoded += 1;
                &s.fa[decoded * cols..(decoded + 1) * cols]
            }),
        });
        let mut acc = [0f32; ROWS];
        let from = if accumulate {
            s.fb.clear();
            for row in first..first + n {
                f32::decode(dst.dtype, &mem.row(d, row)[..eb], &mut s.fb);
            }
            acc[..n].copy_from_slice(&s.fb);
            0
        } else {
            for (a, lane) in acc.iter_mut().zip(&lanes) {
                *a = lane[0];
            }
            1
        };
        for c in from..cols {
            for (a, lane) in acc.iter_mut().zip(&lanes) {
                *a = f(*a, lane[c]);
            }
        }
        for (k, &v) in acc[..n].iter().enumerate() {
            f32::encode(dst.dtype, &[v], mem.row_mut(d, first + k));
        }
    }
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
    fn lanewise_max_and_min_give_the_sequential_bits_or_defer() {
        let ring: Ring<f32> = (|a, b| a + b, |a, b| a * b, 0.0, 1.0);
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        // Ties of signed zeros and of equal values; NaNs (two payloads) in one pick of 64.
        let mut pool = vec![0.0, -0.0, 1.5, -1.5, 2.0, f32::INFINITY, f32::NEG_INFINITY, -3.0];
        pool.extend(std::iter::repeat_n(0.0, 24).chain(std::iter::repeat_n(-0.0, 30)));
        pool.extend([f32::NAN, -f32::NAN]);
        let mut fast = 0;
        for len in 0..80 {
            for _ in 0..40 {
                let row: Vec<f32> = (0..len)
                    .map(|_| {
                        s ^= s << 13;
                        s ^= s >> 7;
                        s ^= s << 17;
                        pool[(s % pool.len() as u64) as usize]
                    })
                    .collect();
                let start = s.is_multiple_of(3).then_some(pool[(s >> 8) as usize % pool.len()]);
                for (op, got) in [
                    (ReduceOp::Max, lanewise_extreme::<true>(start, &row)),
                    (ReduceOp::Min, lanewise_extreme::<false>(start, &row)),
                ] {
                    if let Some(v) = got {
                        fast += 1;
                        let want = fold(op, start, &row, ring).map(f32::to_bits);
                        assert_eq!(Some(v.to_bits()), want, "{op:?} of {row:?} from {start:?}");
                    }
                }
            }
        }
        assert!(fast > 1000, "the lane-wise path ran {fast} times");
    }

    /// `fold_rows` (rows side by side) against the sequential `fold` of each row: every row
    /// count around [`ROWS`], pitches above the cols, `f32` and `f16` sources (into `f32`), from
    /// the destination or from the first element, with zeros, infinities and NaNs.
    #[test]
    fn rows_side_by_side_give_each_rows_sequential_bits() {
        let target = kiln_targets::Target::load(kiln_targets::DEFAULT_TARGET).unwrap();
        let mut mem = Mem::new(&target, kiln_bytecode::module::Core::Aiv);
        let mut scratch = Scratch::default();
        let ring: Ring<f32> = (|a, b| a + b, |a, b| a * b, 0.0, 1.0);
        let pool = [0.0, -0.0, 1.5, -2.25, 1e30, -1e-30, 3.0e-3, f32::INFINITY, f32::NAN, 7.0, 0.1, -0.7];
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % n as u64) as usize
        };
        for rows in 1..=19u32 {
            for (cols, src_dtype) in [(1, DType::F32), (5, DType::F16), (37, DType::F32), (300, DType::F16)] {
                for (op, accumulate) in
                    [(ReduceOp::Sum, false), (ReduceOp::Sum, true), (ReduceOp::Prod, false)]
                {
                    let pitch = cols + 16;
                    let src = Buf {
                        space: kiln_bytecode::isa::Space::Ub,
                        dtype: src_dtype,
                        addr: 0,
                        rows,
                        cols,
                        pitch,
                    };
                    let dst_addr = 64 * 1024;
                    let dst = Buf { dtype: DType::F32, addr: dst_addr, cols: 1, pitch: 8, ..src };
                    let (sr, dr) = (mem.region(&src).unwrap(), mem.region(&dst).unwrap());
                    let mut want = Vec::new();
                    for r in 0..rows as usize {
                        let row: Vec<f32> = (0..cols).map(|_| pool[next(pool.len())]).collect();
                        f32::encode(src_dtype, &row, mem.row_mut(&sr, r));
                        let start = pool[next(pool.len())];
                        f32::encode(DType::F32, &[start], mem.row_mut(&dr, r));
                        let mut decoded = Vec::new();
                        f32::decode(src_dtype, mem.row(&sr, r), &mut decoded);
                        want.push(fold(op, accumulate.then_some(start), &decoded, ring).unwrap().to_bits());
                    }
                    reduce(&mut mem, &mut scratch, op, &dst, &src, accumulate).unwrap();
                    for (r, w) in want.iter().enumerate() {
                        let mut got = Vec::new();
                        f32::decode(DType::F32, mem.row(&dr, r), &mut got);
                        assert_eq!(got[0].to_bits(), *w, "{op:?} row {r} of {rows}x{cols} {src_dtype:?}");
                    }
                }
            }
        }
    }

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
