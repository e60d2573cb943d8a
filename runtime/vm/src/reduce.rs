//! `Reduce`: each row of a `[rows, cols]` source folded into the `[rows, 1]` destination, by
//! the interpreter's rules: sequentially in column order, from the first element or (with
//! `accumulate`) from the destination's value, in the lane domain (`f32` for floats, wrapping
//! `i32` for integers), rounded to the destination type once.
//!
//! Two shortcuts keep those bits. A float max / min runs in 16 independent lanes when that
//! provably gives the sequential fold's bits. A float sum / product folds up to [`ROWS`] rows
//! side by side, each still in column order: a column step advances independent folds, which
//! the CPU overlaps, instead of every add waiting for the one before. Source rows are read in
//! place where their bytes are native `f32` lanes, from the UB or, for a deferred load
//! ([`crate::lazy`]), from the GM bytes the load would have copied ([`Rows`]).

use kiln_bytecode::isa::{Buf, DType, ReduceOp};

use crate::lanes::{Int, Lane};
use crate::mem::{Mem, Region};
use crate::vector::Scratch;
use kiln_numerics::int;
use kiln_numerics::order::{nan_max, nan_min};

/// A lane domain's `add`, `mul`, zero and one.
type Ring<T> = (fn(T, T) -> T, fn(T, T) -> T, T, T);

/// Rows [`side_by_side`] folds at once.
const ROWS: usize = 8;

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

/// The source rows of a reduction: a region's bytes, in its space or in a copy of them.
#[derive(Clone, Copy)]
pub(crate) struct Rows<'a> {
    /// The bytes, byte `origin` of the space first.
    bytes: &'a [u8],
    origin: usize,
    region: Region,
}

impl<'a> Rows<'a> {
    /// `region`'s rows in `mem`.
    pub fn on_chip(mem: &'a Mem, region: Region) -> Rows<'a> {
        Rows { bytes: &mem.spaces[region.space], origin: 0, region }
    }

    /// `region`'s rows in `bytes`, the bytes of its span from its address on (a deferred
    /// load's GM bytes).
    pub fn copied(bytes: &'a [u8], region: Region) -> Rows<'a> {
        Rows { bytes, origin: region.addr, region }
    }

    /// Row `r` (empty for a source without columns).
    fn row(&self, r: usize) -> &'a [u8] {
        if self.region.row_bytes == 0 {
            return &[];
        }
        let at = self.region.row(r);
        &self.bytes[at.start - self.origin..at.end - self.origin]
    }
}

/// `Reduce`: each row of `src` folded into the `[rows, 1]` `dst` (of `src`'s type, or `f32`
/// for an `f16` / `bf16` source); with `accumulate` the fold starts from `dst`'s value.
/// `forwarded` holds `src`'s bytes when they are a deferred load's (see [`Rows::copied`]).
pub(crate) fn reduce(
    mem: &mut Mem,
    s: &mut Scratch,
    op: ReduceOp,
    (dst, src): (&Buf, &Buf),
    accumulate: bool,
    forwarded: Option<&[u8]>,
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
    let rows = match forwarded {
        Some(bytes) => Rows::copied(bytes, r),
        None => Rows::on_chip(mem, r),
    };
    let (n, eb) = (dst.rows as usize, dst.dtype.bytes() as usize);
    if src.dtype.is_float() {
        s.fb.clear();
        if accumulate {
            (0..n).for_each(|i| f32::decode(dst.dtype, &mem.row(&d, i)[..eb], &mut s.fb));
        }
        let mut out = std::mem::take(&mut s.fc);
        out.clear();
        let done = float_rows(op, rows, n, src.dtype, accumulate.then_some(&s.fb[..]), &mut s.fa, &mut out);
        for (i, v) in out.iter().enumerate() {
            f32::encode(dst.dtype, std::slice::from_ref(v), mem.row_mut(&d, i));
        }
        s.fc = out;
        done
    } else if src.dtype == DType::I64 {
        let lanes = (&mut s.la, &mut s.lb, &mut s.lc);
        let done = int_rows::<i64>(mem, op, (rows, src.dtype), (&d, dst.dtype, n, eb), accumulate, lanes);
        write_rows(mem, &d, dst.dtype, &s.lc);
        done
    } else {
        let lanes = (&mut s.ia, &mut s.ib, &mut s.ic);
        let done = int_rows::<i32>(mem, op, (rows, src.dtype), (&d, dst.dtype, n, eb), accumulate, lanes);
        write_rows(mem, &d, dst.dtype, &s.ic);
        done
    }
}

/// The integer fold of each of the `n` rows of `rows` (of `src_dtype`) into `out`, in lanes
/// `T`, from `d`'s values with `accumulate`. On an error, `out` holds the rows before the
/// failing one.
fn int_rows<T: Int>(
    mem: &Mem,
    op: ReduceOp,
    (rows, src_dtype): (Rows<'_>, DType),
    (d, dst_dtype, n, eb): (&Region, DType, usize, usize),
    accumulate: bool,
    (row, starts, out): (&mut Vec<T>, &mut Vec<T>, &mut Vec<T>),
) -> Result<(), String> {
    starts.clear();
    if accumulate {
        (0..n).for_each(|i| T::decode(dst_dtype, &mem.row(d, i)[..eb], starts));
    }
    out.clear();
    let ring: Ring<T> = (int::add, int::mul, T::ZERO, T::ONE);
    for i in 0..n {
        row.clear();
        T::decode(src_dtype, rows.row(i), row);
        match fold(op, accumulate.then(|| starts.get(i).copied()).flatten(), row, ring) {
            Some(v) => out.push(v),
            None => return Err(empty(op)),
        }
    }
    Ok(())
}

/// Writes `vals` (one per row) into the rows of `d`, of `dtype`.
fn write_rows<T: Lane>(mem: &mut Mem, d: &Region, dtype: DType, vals: &[T]) {
    for (i, v) in vals.iter().enumerate() {
        T::encode(dtype, std::slice::from_ref(v), mem.row_mut(d, i));
    }
}

/// The error of a max / min over a row without elements or start.
fn empty(op: ReduceOp) -> String {
    format!("{op:?} of an empty row has no identity").to_lowercase()
}

/// The float fold of each of the `n` rows of `rows` (of `dtype`) into `out`, from `starts`
/// when given; rows that are not native lanes are decoded into `decoded`. On an error, `out`
/// holds the rows before the failing one.
fn float_rows(
    op: ReduceOp,
    rows: Rows<'_>,
    n: usize,
    dtype: DType,
    starts: Option<&[f32]>,
    decoded: &mut Vec<f32>,
    out: &mut Vec<f32>,
) -> Result<(), String> {
    let ring: Ring<f32> = (|a, b| a + b, |a, b| a * b, 0.0, 1.0);
    let cols = rows.region.row_bytes / dtype.bytes() as usize;
    if cols > 0 && matches!(op, ReduceOp::Sum | ReduceOp::Prod) {
        for first in (0..n).step_by(ROWS) {
            let k = ROWS.min(n - first);
            decoded.clear();
            for i in first..first + k {
                let bytes = rows.row(i);
                if f32::native(dtype, bytes).is_none() {
                    f32::decode(dtype, bytes, decoded);
                }
            }
            let mut next = 0;
            let lanes: [&[f32]; ROWS] = std::array::from_fn(|j| match j < k {
                false => &[][..],
                true => f32::native(dtype, rows.row(first + j)).unwrap_or_else(|| {
                    next += 1;
                    &decoded[(next - 1) * cols..next * cols]
                }),
            });
            let mut acc = [0f32; ROWS];
            let from = match starts {
                Some(starts) => {
                    acc[..k].copy_from_slice(&starts[first..first + k]);
                    0
                }
                None => {
                    (0..k).for_each(|j| acc[j] = lanes[j][0]);
                    1
                }
            };
            match op {
                ReduceOp::Sum => side_by_side_k(&lanes[..k], &mut acc[..k], from, |a, x| a + x),
                _ => side_by_side_k(&lanes[..k], &mut acc[..k], from, |a, x| a * x),
            }
            out.extend_from_slice(&acc[..k]);
        }
        return Ok(());
    }
    for i in 0..n {
        let bytes = rows.row(i);
        let values = match f32::native(dtype, bytes) {
            Some(v) => v,
            None => {
                decoded.clear();
                f32::decode(dtype, bytes, decoded);
                &decoded[..]
            }
        };
        let start = starts.map(|s| s[i]);
        let fast = match op {
            ReduceOp::Max => lanewise_extreme::<true>(start, values),
            ReduceOp::Min => lanewise_extreme::<false>(start, values),
            ReduceOp::Sum | ReduceOp::Prod => None,
        };
        out.push(match fast {
            Some(v) => v,
            None => fold(op, start, values, ring).ok_or_else(|| empty(op))?,
        });
    }
    Ok(())
}

/// [`side_by_side`] for `lanes.len()` (1 to [`ROWS`]) rows.
fn side_by_side_k(lanes: &[&[f32]], acc: &mut [f32], from: usize, f: impl Fn(f32, f32) -> f32 + Copy) {
    match lanes.len() {
        1 => side_by_side::<1>(lanes, acc, from, f),
        2 => side_by_side::<2>(lanes, acc, from, f),
        3 => side_by_side::<3>(lanes, acc, from, f),
        4 => side_by_side::<4>(lanes, acc, from, f),
        5 => side_by_side::<5>(lanes, acc, from, f),
        6 => side_by_side::<6>(lanes, acc, from, f),
        7 => side_by_side::<7>(lanes, acc, from, f),
        _ => side_by_side::<ROWS>(lanes, acc, from, f),
    }
}

/// Folds columns `from..` of the `K` equally long `lanes` into `acc` by `f`, each row in
/// column order, the `K` folds side by side.
#[inline(always)]
fn side_by_side<const K: usize>(lanes: &[&[f32]], acc: &mut [f32], from: usize, f: impl Fn(f32, f32) -> f32) {
    let cols = lanes[0].len();
    let lanes: [&[f32]; K] = std::array::from_fn(|j| &lanes[j][..cols]);
    let mut a: [f32; K] = std::array::from_fn(|j| acc[j]);
    for c in from..cols {
        for (a, lane) in a.iter_mut().zip(&lanes) {
            *a = f(*a, lane[c]);
        }
    }
    acc[..K].copy_from_slice(&a);
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

    /// [`side_by_side`] rows against the sequential `fold` of each row: every row
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
                    reduce(&mut mem, &mut scratch, op, (&dst, &src), accumulate, None).unwrap();
                    for (r, w) in want.iter().enumerate() {
                        let mut got = Vec::new();
                        f32::decode(DType::F32, mem.row(&dr, r), &mut got);
                        assert_eq!(got[0].to_bits(), *w, "{op:?} row {r} of {rows}x{cols} {src_dtype:?}");
                    }
                }
            }
        }
    }
}
