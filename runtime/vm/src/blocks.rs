//! Blocked elementwise row loops: a destination row is computed [`BLOCK`] lanes at a time and
//! the op applied in one tight loop (no per-element dispatch; two-source ops through
//! [`crate::simd::zip`], so AVX-512 / AVX2 where the host has them). No row-sized scratch
//! copies: where the bytes of a block already are the lanes (an aligned `f32` or `i32`
//! buffer, [`Lane::native`]) the loop reads and writes them in place; otherwise (`f16`,
//! `bf16`, `i8`, `i1`, or a misaligned buffer) each source block is decoded into a stack array
//! of `f32` / `i32` lanes and the results encoded back into the row.
//!
//! Each source of a row is located once: it is the destination row itself (same space, same
//! bytes: read block by block just before the block is written), disjoint from it (read in
//! place), a splat (one element, read before the row is written) or, when it overlaps the row
//! only partly, decoded whole into scratch first. Every row therefore computes what decoding
//! all its sources before writing would, the interpreter's order.

use std::ops::Range;

use kiln_bytecode::isa::{Buf, DType, Src};

use crate::lanes::Lane;
use crate::mem::{Around, Mem, Region};

/// Lanes per block: three blocks of `f32` stay in registers and L1.
pub(crate) const BLOCK: usize = 256;

/// A source checked against the destination shape.
pub(crate) enum Plan<T> {
    /// An immediate, rounded to the operation's type.
    Imm(T),
    /// A buffer: `one_row` / `one_col` broadcast its single row / column.
    Buf { region: Region, dtype: DType, one_row: bool, one_col: bool },
}

fn shape(b: &Buf) -> String {
    format!("[{}, {}]", b.rows, b.cols)
}

/// `src` checked to broadcast to `dst` and to have element type `dtype`.
pub(crate) fn plan<T: Lane>(
    mem: &Mem,
    src: &Src,
    dst: &Buf,
    dtype: DType,
    what: &str,
) -> Result<Plan<T>, String> {
    match src {
        Src::Imm(v) => Ok(Plan::Imm(T::imm(dtype, *v)?)),
        Src::Buf(b) => {
            if b.dtype != dtype {
                return Err(format!("{what} has element type {}, expected {}", b.dtype.name(), dtype.name()));
            }
            let rows_ok = b.rows == dst.rows || b.rows == 1;
            let cols_ok = b.cols == dst.cols || b.cols == 1;
            if !rows_ok || !cols_ok || (dst.rows > 0 && dst.cols > 0 && (b.rows == 0 || b.cols == 0)) {
                return Err(format!("{what} of shape {} does not broadcast to {}", shape(b), shape(dst)));
            }
            let region = mem.region(b)?;
            Ok(Plan::Buf { region, dtype, one_row: b.rows == 1, one_col: b.cols == 1 && dst.cols != 1 })
        }
    }
}

/// Where one source row is, relative to the destination row.
enum Place<T> {
    Splat(T),
    Dst,
    Apart(usize, Range<usize>),
    /// Decoded into the source's scratch.
    Decoded,
}

/// Source row `r` of `plan` placed against destination row `row` of space `space`.
fn place<T: Lane>(
    mem: &Mem,
    plan: &Plan<T>,
    r: usize,
    (space, row): (usize, &Range<usize>),
    scratch: &mut Vec<T>,
) -> Place<T> {
    let Plan::Buf { region, dtype, one_row, one_col } = plan else {
        let Plan::Imm(v) = plan else { unreachable!("a plan is an immediate or a buffer") };
        return Place::Splat(*v);
    };
    let range = region.row(if *one_row { 0 } else { r });
    let bytes = &mem.spaces[region.space][range.clone()];
    if *one_col {
        let mut v = [T::default()];
        T::decode_into(*dtype, bytes, &mut v);
        return Place::Splat(v[0]);
    }
    let overlaps = region.space == space && range.start < row.end && row.start < range.end;
    if !overlaps {
        Place::Apart(region.space, range)
    } else if range == *row {
        Place::Dst
    } else {
        scratch.clear();
        T::decode(*dtype, bytes, scratch);
        Place::Decoded
    }
}

/// A placed source row, borrowable while the destination row is written.
enum Lanes<'a, T> {
    Splat,
    Dst,
    Bytes(&'a [u8]),
    Decoded(&'a [T]),
}

fn lanes<'a, T: Lane>(
    place: &Place<T>,
    around: &'a Around,
    scratch: &'a [T],
    block: &mut [T; BLOCK],
) -> Lanes<'a, T> {
    match place {
        Place::Splat(v) => {
            block.fill(*v);
            Lanes::Splat
        }
        Place::Dst => Lanes::Dst,
        Place::Apart(space, range) => Lanes::Bytes(around.get(*space, range.clone())),
        Place::Decoded => Lanes::Decoded(scratch),
    }
}

/// Lanes `at..at + len` of a source (of `dtype`, `eb` bytes per element) in `block`'s stead:
/// read in place when its bytes are the lanes themselves ([`Lane::native`]), else decoded
/// into `block` (the destination row's own bytes always are, as the row is written next).
#[inline(always)]
fn fetch<'b, T: Lane>(
    src: &'b Lanes<T>,
    (dtype, eb): (DType, usize),
    row: &[u8],
    (at, len): (usize, usize),
    block: &'b mut [T; BLOCK],
) -> &'b [T] {
    let bytes = match src {
        Lanes::Splat => return &block[..len],
        Lanes::Decoded(v) => return &v[at..at + len],
        Lanes::Dst => &row[at * eb..(at + len) * eb],
        Lanes::Bytes(b) => {
            let bytes = &b[at * eb..(at + len) * eb];
            if let Some(lanes) = T::native(dtype, bytes) {
                return lanes;
            }
            bytes
        }
    };
    T::decode_into(dtype, bytes, &mut block[..len]);
    &block[..len]
}

/// Writes `f`'s results for one block into `bytes` (of `dtype`): straight into the lanes when
/// the bytes are [`Lane::native`], else through `out` and [`Lane::encode`].
#[inline(always)]
fn put<U: Lane>(dtype: DType, bytes: &mut [u8], out: &mut [U], f: impl FnOnce(&mut [U])) {
    match U::native_mut(dtype, bytes) {
        Some(lanes) => f(lanes),
        None => {
            f(out);
            U::encode(dtype, out, bytes);
        }
    }
}

/// The row loop of a one-source op: `dst = f(src)` block by block, where `f` maps a block of
/// source lanes into a block of results (same length).
pub(crate) fn map_rows<T: Lane>(
    mem: &mut Mem,
    scratch: &mut Vec<T>,
    (dst, dtype): (&Region, DType),
    src: &Plan<T>,
    f: impl Fn(&[T], &mut [T]),
) {
    let eb = dtype.bytes() as usize;
    // The blocks live across rows (no per-row initialization).
    let (mut xa, mut out) = ([T::default(); BLOCK], [T::default(); BLOCK]);
    for r in 0..dst.rows {
        let p = place(mem, src, r, (dst.space, &dst.row(r)), scratch);
        let (row, around) = mem.split_row(dst, r);
        let la = lanes(&p, &around, scratch, &mut xa);
        let n = row.len() / eb;
        for at in (0..n).step_by(BLOCK) {
            let len = BLOCK.min(n - at);
            let x = fetch(&la, (dtype, eb), row, (at, len), &mut xa);
            put(dtype, &mut row[at * eb..(at + len) * eb], &mut out[..len], |o| f(x, o));
        }
    }
}

/// The row loop of a two-source op: `dst = f(a, b)` (sources of `src_dtype`, the destination
/// of `dst_dtype`, splats broadcast).
pub(crate) fn zip_rows<T: Lane, U: Lane>(
    mem: &mut Mem,
    (sa, sb): (&mut Vec<T>, &mut Vec<T>),
    (dst, dst_dtype): (&Region, DType),
    (a, b, src_dtype): (&Plan<T>, &Plan<T>, DType),
    f: impl Fn(T, T) -> U,
) {
    let (eb, ob) = (src_dtype.bytes() as usize, dst_dtype.bytes() as usize);
    let (mut xa, mut xb) = ([T::default(); BLOCK], [T::default(); BLOCK]);
    let mut out = [U::default(); BLOCK];
    for r in 0..dst.rows {
        let at_row = (dst.space, &dst.row(r));
        let (pa, pb) = (place(mem, a, r, at_row, sa), place(mem, b, r, at_row, sb));
        let (row, around) = mem.split_row(dst, r);
        let (la, lb) = (lanes(&pa, &around, sa, &mut xa), lanes(&pb, &around, sb, &mut xb));
        let n = row.len() / ob;
        for at in (0..n).step_by(BLOCK) {
            let len = BLOCK.min(n - at);
            let x = fetch(&la, (src_dtype, eb), row, (at, len), &mut xa);
            let y = fetch(&lb, (src_dtype, eb), row, (at, len), &mut xb);
            put(dst_dtype, &mut row[at * ob..(at + len) * ob], &mut out[..len], |o| {
                crate::simd::zip(x, y, o, &f)
            });
        }
    }
}

/// The row loop of `Select`: `dst = mask != 0 ? a : b` (the mask `i1`, the rest of `dtype`).
pub(crate) fn select_rows<T: Lane>(
    mem: &mut Mem,
    (sm, sa, sb): (&mut Vec<i32>, &mut Vec<T>, &mut Vec<T>),
    (dst, dtype): (&Region, DType),
    (m, a, b): (&Plan<i32>, &Plan<T>, &Plan<T>),
) {
    let eb = dtype.bytes() as usize;
    let mut xm = [0i32; BLOCK];
    let (mut xa, mut xb, mut out) = ([T::default(); BLOCK], [T::default(); BLOCK], [T::default(); BLOCK]);
    for r in 0..dst.rows {
        let at_row = (dst.space, &dst.row(r));
        let pm = place(mem, m, r, at_row, sm);
        let (pa, pb) = (place(mem, a, r, at_row, sa), place(mem, b, r, at_row, sb));
        let (row, around) = mem.split_row(dst, r);
        let lm = lanes(&pm, &around, sm, &mut xm);
        let (la, lb) = (lanes(&pa, &around, sa, &mut xa), lanes(&pb, &around, sb, &mut xb));
        let n = row.len() / eb;
        for at in (0..n).step_by(BLOCK) {
            let len = BLOCK.min(n - at);
            let c = fetch(&lm, (DType::I1, 1), row, (at, len), &mut xm);
            let x = fetch(&la, (dtype, eb), row, (at, len), &mut xa);
            let y = fetch(&lb, (dtype, eb), row, (at, len), &mut xb);
            put(dtype, &mut row[at * eb..(at + len) * eb], &mut out[..len], |o| {
                for (((o, &c), &x), &y) in o.iter_mut().zip(c).zip(x).zip(y) {
                    *o = if c != 0 { x } else { y };
                }
            });
        }
    }
}
