//! GM: the host program's buffers, shared by the cores of a launch, and `Load` / `Store`
//! through strided [`GmView`]s.
//!
//! Memory safety with cores on several threads: each GM buffer sits behind its own
//! `RwLock`. An input buffer borrows the caller's bytes and is copied on its first store
//! (copy on write), so a run reads its inputs in place. A load holds the read lock for one DMA transfer (cores load the same inputs
//! concurrently), a store the write lock (so atomic add / max / min stores are atomic per
//! transfer, and plain stores of different cores never race). A transfer copies a whole tile,
//! so the lock costs little next to the copy; cores of a correct program write disjoint ranges
//! and rarely wait on each other.
//!
//! Every view is bounds-checked before the transfer: its lowest and highest element (from the
//! signs of the strides, in `i128`) must lie inside the buffer. Contiguous inner runs (stride
//! 1) are copied as slices.
//!
//! A view of a shape class may move fewer elements than its static sizes ([`Sizes`], from its
//! extents): each moved element lands at its place in the full view (the *layout*), so a
//! short tail tile fills the first rows of its buffer and leaves the rest as it was.
//!
//! Host caches: a plain store run of 4 KiB or more into a buffer of 16 MiB or more
//! (`STREAM_BYTES`, past a core's share of the last-level cache) uses non-temporal stores, as
//! large `memcpy`s do: the lines are not read into the cache just to be overwritten, and the
//! tiles still to be loaded are not evicted for them. The bytes are the same. Loads feed
//! [`crate::prefetch`], which fetches a load's predicted next tile while the vector work runs.

use std::borrow::Cow;
use std::sync::{Mutex, RwLock};

use kiln_bytecode::isa::{Atomic, Buf, DType, GmView, Space, MAX_VIEW_DIMS, NUM_REGS};

use crate::event::Work;
use crate::lanes::Lane;
use crate::lazy::{Deferred, Span};
use crate::mem::{expect_space, Mem, Region};
use crate::prefetch::Transfer;
use kiln_numerics::order::{nan_max, nan_min};

/// One GM buffer of the host program.
pub(crate) struct GmBuffer<'a> {
    /// Its bytes: an input's borrowed until a store writes it.
    pub bytes: RwLock<Cow<'a, [u8]>>,
    /// Its byte size (fixed).
    pub len: u64,
    /// Constants are read only.
    pub read_only: bool,
    /// For a recycled temporary that the program only stores to (see [`crate::host`]): a
    /// bit per [`PAGE`] bytes, set while the page still holds a previous run's bytes. The
    /// first store into such a page zeroes it (unless the store covers it whole) and the run
    /// zeroes the pages no store reached, so the buffer reads as one that started zeroed.
    /// Only stores touch it, under the buffer's write lock.
    pub stale: Option<Mutex<Vec<u64>>>,
}

/// The page size of [`GmBuffer::stale`].
pub(crate) const PAGE: usize = 4096;

/// A [`GmBuffer::stale`] map of a `len`-byte buffer with every page stale.
pub(crate) fn all_stale(len: usize) -> Vec<u64> {
    vec![u64::MAX; len.div_ceil(PAGE).div_ceil(64)]
}

/// Before bytes `at..at + n` of `bytes` are written: zeroes each page of the range that
/// `stale` marks and the range does not cover whole, and marks the range's pages fresh.
fn freshen(stale: &mut [u64], bytes: &mut [u8], at: usize, n: usize) {
    if n == 0 {
        return;
    }
    for p in at / PAGE..=(at + n - 1) / PAGE {
        let (word, bit) = (p / 64, 1u64 << (p % 64));
        if stale[word] & bit != 0 {
            stale[word] &= !bit;
            let (start, end) = (p * PAGE, ((p + 1) * PAGE).min(bytes.len()));
            if start < at || at + n < end {
                bytes[start..end].fill(0);
            }
        }
    }
}

/// Zeroes the pages of `bytes` that `stale` still marks (no store reached them).
pub(crate) fn zero_stale(stale: &[u64], bytes: &mut [u8]) {
    for p in 0..bytes.len().div_ceil(PAGE) {
        if stale[p / 64] & (1u64 << (p % 64)) != 0 {
            let end = ((p + 1) * PAGE).min(bytes.len());
            bytes[p * PAGE..end].fill(0);
        }
    }
}

/// The GM buffers a launch binds to its arguments.
pub(crate) struct Args<'a, 'g> {
    /// All buffers of the run.
    pub buffers: &'a [GmBuffer<'g>],
    /// The buffer of each kernel argument.
    pub bound: &'a [usize],
}

/// The run-time size of each dim of a view (the first `dims.len()` entries count).
pub(crate) type Sizes = [u32; MAX_VIEW_DIMS];

/// A view resolved against the registers and its buffer: first element, dims, extent.
pub(crate) struct Resolved {
    /// Index of the first element.
    start: i64,
    /// (size, stride) per dim, outermost first: the sizes this transfer moves.
    dims: Vec<(u64, i64)>,
    /// The static size of each dim (the first `dims.len()`): where each element sits in the
    /// on-chip buffer.
    layout: [u64; MAX_VIEW_DIMS],
    /// Lowest and one past the highest element touched.
    pub lo: u64,
    /// One past the highest element touched.
    pub hi: u64,
}

/// `view` checked against the registers, the argument list, the buffer size (in elements of
/// `dtype`) and the element count `numel` its static sizes must have; with `sizes` (at most
/// the static ones, checked by the caller) it moves that many elements per dim instead.
pub(crate) fn resolve(
    view: &GmView,
    sizes: Option<&Sizes>,
    regs: &[i64; NUM_REGS],
    args: &Args,
    dtype: DType,
    numel: u64,
) -> Result<(usize, Resolved), String> {
    let arg = view.arg as usize;
    let buffer = *args
        .bound
        .get(arg)
        .ok_or_else(|| format!("gm argument #{arg} is past the {} arguments", args.bound.len()))?;
    if view.dims.is_empty() || view.dims.len() > MAX_VIEW_DIMS {
        return Err(format!("a gm view has {} dims (1 to {MAX_VIEW_DIMS} allowed)", view.dims.len()));
    }
    let dynamic = match view.offset {
        Some(r) => *regs.get(r.0 as usize).ok_or_else(|| format!("register r{} does not exist", r.0))?,
        None => 0,
    };
    let start = view.base.checked_add(dynamic).ok_or("gm view offset overflows")?;
    let count = view.dims.iter().try_fold(1u64, |n, d| n.checked_mul(u64::from(d.size)));
    if count != Some(numel) {
        return Err(format!(
            "gm view of {} elements for a buffer of {numel}",
            count.map_or("too many".into(), |c| c.to_string())
        ));
    }
    let size = |i: usize| sizes.map_or(view.dims[i].size, |s| s[i]);
    let (mut lo, mut hi) = (i128::from(start), i128::from(start));
    for (i, d) in view.dims.iter().enumerate() {
        let span = i128::from(size(i).saturating_sub(1)) * i128::from(d.stride);
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    let elems = args.buffers[buffer].len / u64::from(dtype.bytes());
    if numel > 0 && (lo < 0 || hi >= i128::from(elems)) {
        return Err(format!(
            "gm view of argument #{arg} reaches elements [{lo}, {}] outside the buffer's {elems}",
            hi
        ));
    }
    let dims = view.dims.iter().enumerate().map(|(i, d)| (u64::from(size(i)), d.stride)).collect();
    let mut layout = [1; MAX_VIEW_DIMS];
    for (l, d) in layout.iter_mut().zip(&view.dims) {
        *l = u64::from(d.size);
    }
    let (lo, hi) = if numel == 0 { (0, 0) } else { (lo as u64, hi as u64 + 1) };
    Ok((buffer, Resolved { start, dims, layout, lo, hi }))
}

impl Resolved {
    /// The elements the transfer moves.
    pub(crate) fn count(&self) -> u64 {
        self.dims.iter().map(|d| d.0).product()
    }

    /// Whether the moved elements are the first ones of the layout (every dim but the
    /// outermost whole), so that they fill a prefix of the on-chip buffer.
    pub(crate) fn fills_prefix(&self) -> bool {
        self.dims.iter().zip(&self.layout).skip(1).all(|(d, &l)| d.0 == l)
    }

    /// Whether the view's elements are one contiguous run in row-major order, from `lo`.
    pub(crate) fn is_contiguous(&self) -> bool {
        let mut expect = 1i64;
        for &(size, stride) in self.dims.iter().rev() {
            if size == 1 {
                continue;
            }
            if stride != expect {
                return false;
            }
            expect = match expect.checked_mul(size as i64) {
                Some(e) => e,
                None => return false,
            };
        }
        self.start >= 0 && self.start as u64 == self.lo
    }

    /// The slice of the view at `offset` elements past its start (`index * stride` of its
    /// first dim) without that dim: one element when the view has one dim. The bounds of
    /// the whole view were checked; `offset` must stay within its first dim.
    pub(crate) fn slice(&self, offset: i64) -> Resolved {
        let dims = if self.dims.len() > 1 { self.dims[1..].to_vec() } else { vec![(1, 1)] };
        let mut layout = [1; MAX_VIEW_DIMS];
        for (l, d) in layout.iter_mut().zip(&dims) {
            *l = d.0;
        }
        Resolved { start: self.start + offset, dims, layout, lo: self.lo, hi: self.hi }
    }
}

/// Calls `run(gm_element, buffer_element, len)` for each contiguous run of the view, in
/// row-major order (`buffer_element` is the element's place in the layout: the view's
/// elements counted with its static sizes).
pub(crate) fn runs(v: &Resolved, mut run: impl FnMut(usize, usize, usize)) {
    if v.lo == v.hi {
        // No elements (and strides of empty views are unchecked).
        return;
    }
    let n = v.dims.len();
    let (inner_size, inner_stride) = v.dims[n - 1];
    let outer: u64 = v.dims[..n - 1].iter().map(|d| d.0).product();
    // The layout's row-major strides.
    let mut pitch = [1u64; MAX_VIEW_DIMS];
    for d in (0..n - 1).rev() {
        pitch[d] = pitch[d + 1] * v.layout[d + 1];
    }
    let mut index = [0u64; MAX_VIEW_DIMS];
    for _ in 0..outer {
        let base = v.start + v.dims[..n - 1].iter().zip(&index).map(|(d, &i)| i as i64 * d.1).sum::<i64>();
        let e = index[..n - 1].iter().zip(&pitch).map(|(&i, &p)| i * p).sum::<u64>() as usize;
        if inner_stride == 1 {
            run(base as usize, e, inner_size as usize);
        } else {
            for j in 0..inner_size as i64 {
                run((base + j * inner_stride) as usize, e + j as usize, 1);
            }
        }
        for d in (0..n - 1).rev() {
            index[d] += 1;
            if index[d] < v.dims[d].0 {
                break;
            }
            index[d] = 0;
        }
    }
}

/// Splits `len` view elements starting at buffer element `e` at row ends of `region`
/// (`cols` per row): `part(byte address in the space, element offset in the run, count)`.
fn split_rows(
    region: &Region,
    cols: usize,
    eb: usize,
    e: usize,
    len: usize,
    mut part: impl FnMut(usize, usize, usize),
) {
    let mut done = 0;
    while done < len {
        let (r, c) = ((e + done) / cols, (e + done) % cols);
        let n = (cols - c).min(len - done);
        part(region.addr + r * region.stride + c * eb, done, n);
        done += n;
    }
}

/// What a `Load` did.
pub(crate) struct Loaded {
    /// Its work (counted at the load, deferred or not).
    pub work: Work,
    /// The GM bytes it read (for [`crate::prefetch`]).
    pub transfer: Transfer,
    /// With `defer`: the copy it left to [`crate::lazy`] (none: it copied).
    pub deferred: Option<Deferred>,
}

/// `Load`: GM -> UB or L1, optionally zeroing the destination's `rows x pitch` first; `sizes`
/// from the view's extents. With `defer`, a load of one contiguous GM run into a prefix of a
/// dense UB buffer is returned undone.
#[allow(clippy::too_many_arguments)]
pub(crate) fn load(
    mem: &mut Mem,
    dst: &Buf,
    src: &GmView,
    sizes: Option<&Sizes>,
    zero_pad: bool,
    regs: &[i64; NUM_REGS],
    args: &Args,
    defer: bool,
) -> Result<Loaded, String> {
    expect_space(dst, &[Space::Ub, Space::L1], "load destination")?;
    let region = mem.region(dst)?;
    // A zero-padded load writes a block: the view's last dim is its cols.
    let cols = if zero_pad { src.dims.last().map_or(1, |d| d.size) } else { dst.cols };
    let rows = if zero_pad {
        src.dims
            .iter()
            .rev()
            .skip(1)
            .try_fold(1u64, |n, d| n.checked_mul(u64::from(d.size)))
            .unwrap_or(u64::MAX)
    } else {
        u64::from(dst.rows)
    };
    if rows > u64::from(dst.rows) || cols > dst.cols {
        return Err(format!(
            "load block of {rows}x{cols} is larger than the destination's {}x{}",
            dst.rows, dst.cols
        ));
    }
    let (buffer, view) = resolve(src, sizes, regs, args, dst.dtype, rows * u64::from(cols))?;
    let numel = view.count();
    let eb = dst.dtype.bytes() as usize;
    if zero_pad {
        let end = (region.addr as u64).saturating_add(dst.padded_bytes());
        let space = &mut mem.spaces[region.space];
        if end > space.len() as u64 {
            return Err(format!(
                "zero padding [{}, {end}) is outside the {}-byte {}",
                region.addr,
                space.len(),
                dst.space.name()
            ));
        }
        space[region.addr..end as usize].fill(0);
    }
    let gm = args.buffers[buffer].bytes.read().map_err(|_| "gm buffer lock poisoned")?;
    let transfer = Transfer {
        buffer,
        lo: view.lo * eb as u64,
        hi: view.hi * eb as u64,
        base: gm.as_ptr() as usize,
        len: gm.len() as u64,
    };
    let work = Work { gm_read: numel * eb as u64, dma: 1, ..Work::default() };
    // One contiguous GM run into a dense UB buffer can wait (see `crate::lazy`).
    if defer
        && !zero_pad
        && dst.space == Space::Ub
        && dst.is_dense()
        && numel > 0
        && view.is_contiguous()
        && view.fills_prefix()
    {
        let (at, n) = (view.lo as usize * eb, numel as usize * eb);
        let deferred = Deferred { at: Span::new(region.space, region.addr, n), buffer, gm: at };
        return Ok(Loaded { work, transfer, deferred: Some(deferred) });
    }
    let space = &mut mem.spaces[region.space];
    let cols = cols as usize;
    runs(&view, |g, e, len| {
        split_rows(&region, cols, eb, e, len, |addr, off, n| {
            let from = (g + off) * eb;
            space[addr..addr + n * eb].copy_from_slice(&gm[from..from + n * eb]);
        })
    });
    Ok(Loaded { work, transfer, deferred: None })
}

/// Plain stores of at least 4 KiB into GM buffers of at least this many bytes bypass the host's
/// caches (see the module documentation).
const STREAM_BYTES: usize = 16 << 20;

/// The shortest store run that bypasses the caches (see [`STREAM_BYTES`]).
const STREAM_RUN: usize = 4096;

/// `gm = combine(gm, value)` over one run of lanes.
fn rmw<T: Lane>(
    dtype: DType,
    gm: &mut [u8],
    src: &[u8],
    combine: impl Fn(T, T) -> T,
    scratch: &mut (Vec<T>, Vec<T>),
) {
    let (g, s) = scratch;
    g.clear();
    s.clear();
    T::decode(dtype, gm, g);
    T::decode(dtype, src, s);
    g.iter_mut().zip(s.iter()).for_each(|(a, &b)| *a = combine(*a, b));
    T::encode(dtype, g, gm);
}

/// `Store`: UB -> GM, plain or atomic (under the buffer's write lock); `sizes` from the
/// view's extents.
pub(crate) fn store(
    mem: &Mem,
    dst: &GmView,
    sizes: Option<&Sizes>,
    src: &Buf,
    atomic: Atomic,
    regs: &[i64; NUM_REGS],
    args: &Args,
) -> Result<Work, String> {
    expect_space(src, &[Space::Ub], "store source")?;
    let region = mem.region(src)?;
    let (buffer, view) =
        resolve(dst, sizes, regs, args, src.dtype, u64::from(src.rows) * u64::from(src.cols))?;
    let numel = view.count();
    if args.buffers[buffer].read_only {
        return Err(format!("store to gm argument #{} bound to a constant", dst.arg));
    }
    let (eb, cols, dtype) = (src.dtype.bytes() as usize, src.cols as usize, src.dtype);
    let mut lock = args.buffers[buffer].bytes.write().map_err(|_| "gm buffer lock poisoned")?;
    let gm = lock.to_mut();
    let mut stale = match &args.buffers[buffer].stale {
        Some(m) => Some(m.lock().map_err(|_| "gm buffer lock poisoned")?),
        None => None,
    };
    let streaming = gm.len() >= STREAM_BYTES;
    let space = &mem.spaces[region.space];
    let (mut fs, mut is) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
    runs(&view, |g, e, len| {
        split_rows(&region, cols, eb, e, len, |addr, off, n| {
            let to = (g + off) * eb;
            if let Some(stale) = stale.as_deref_mut() {
                freshen(stale, gm, to, n * eb);
            }
            let (out, from) = (&mut gm[to..to + n * eb], &space[addr..addr + n * eb]);
            match (atomic, dtype.is_float()) {
                (Atomic::None, _) if streaming && out.len() >= STREAM_RUN => {
                    crate::simd::stream_copy(out, from)
                }
                (Atomic::None, _) => out.copy_from_slice(from),
                (Atomic::Add, true) => rmw::<f32>(dtype, out, from, |a, b| a + b, &mut fs),
                (Atomic::Max, true) => rmw::<f32>(dtype, out, from, nan_max, &mut fs),
                (Atomic::Min, true) => rmw::<f32>(dtype, out, from, nan_min, &mut fs),
                (Atomic::Add, false) => rmw::<i64>(dtype, out, from, i64::wrapping_add, &mut is),
                (Atomic::Max, false) => rmw::<i64>(dtype, out, from, |a, b| a.max(b), &mut is),
                (Atomic::Min, false) => rmw::<i64>(dtype, out, from, |a, b| a.min(b), &mut is),
            }
        })
    });
    Ok(Work { gm_written: numel * eb as u64, dma: 1, ..Work::default() })
}
