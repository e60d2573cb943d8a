//! `Gather`: the indexed DMA of an embedding lookup (GM table rows picked by GM indices, into
//! UB), on MTE2.
//!
//! The indices are data, so the addresses are computed at run time, as the device does it:
//! the scalar unit reads the `dst.rows` indices (`i32` or `i64`) from GM, resolves each one
//! (a negative index counts from the end of the table's first dim, as `hl.gather`'s
//! interpreter does) and checks it against the table's size, then the DMA engine copies the
//! slice of the table at that index into the next row of `dst`. An index outside
//! `[-size, size)` is an error naming the row and the index; nothing is read out of bounds: the
//! whole table view is bounds-checked against its buffer first.
//!
//! Charged as `1 + dst.rows` DMA transfers (the indices, then one per row) and the bytes of
//! the indices and the rows read.

use kiln_bytecode::isa::{Buf, DType, GmView, Space, NUM_REGS};

use crate::core::buf_access;
use crate::event::{Access, Work};
use crate::gm::{resolve, runs, Args};
use crate::mem::{expect_space, Mem};

/// The GM byte ranges and the UB range a gather touches: it reads the indices and (at most)
/// the whole table, and writes `dst`.
pub(crate) fn accesses(
    dst: &Buf,
    table: &GmView,
    indices: &GmView,
    index: DType,
    regs: &[i64; NUM_REGS],
    args: &Args,
) -> Result<Vec<Access>, String> {
    let gm = |v: &GmView, dtype: DType, numel: u64| -> Result<Access, String> {
        let (_, r) = resolve(v, None, regs, args, dtype, numel)?;
        let eb = u64::from(dtype.bytes());
        Ok(Access { space: Space::Gm, gm_arg: v.arg, start: r.lo * eb, end: r.hi * eb, write: false })
    };
    let size = table.dims.first().map_or(0, |d| u64::from(d.size));
    Ok(vec![
        gm(indices, index, u64::from(dst.rows))?,
        gm(table, dst.dtype, size * u64::from(dst.cols))?,
        buf_access(dst, true),
    ])
}

/// Executes `Gather`.
pub(crate) fn gather(
    mem: &mut Mem,
    dst: &Buf,
    table: &GmView,
    indices: &GmView,
    index: DType,
    regs: &[i64; NUM_REGS],
    args: &Args,
) -> Result<Work, String> {
    expect_space(dst, &[Space::Ub], "gather destination")?;
    let ib = match index {
        DType::I32 | DType::I64 => index.bytes() as usize,
        other => return Err(format!("gather indices of type {}, expected i32 or i64", other.name())),
    };
    let region = mem.region(dst)?;
    let rows = u64::from(dst.rows);
    // The indices first (and the lock released: `table` may be the same buffer).
    let (buffer, view) = resolve(indices, None, regs, args, index, rows)?;
    let mut picked = Vec::with_capacity(dst.rows as usize);
    {
        let gm = args.buffers[buffer].bytes.read().map_err(|_| "gm buffer lock poisoned")?;
        runs(&view, |g, _, len| {
            let bytes = &gm[g * ib..(g + len) * ib];
            if ib == 8 {
                picked.extend(
                    bytes.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8]))),
                );
            } else {
                picked.extend(
                    bytes.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().unwrap_or([0; 4])) as i64),
                );
            }
        });
    }
    let first = table.dims.first().ok_or("a gather table view without dims")?;
    let (size, stride) = (i64::from(first.size), first.stride);
    let (buffer, view) =
        resolve(table, None, regs, args, dst.dtype, first.size as u64 * u64::from(dst.cols))?;
    let gm = args.buffers[buffer].bytes.read().map_err(|_| "gm buffer lock poisoned")?;
    let space = &mut mem.spaces[region.space];
    let eb = dst.dtype.bytes() as usize;
    for (r, &i) in picked.iter().enumerate() {
        let at = if i < 0 { i + size } else { i };
        if !(0..size).contains(&at) {
            return Err(format!("gather index {i} of row {r} is out of range for a table of {size} rows"));
        }
        let row = region.addr + r * region.stride;
        runs(&view.slice(at * stride), |g, e, len| {
            let to = row + e * eb;
            space[to..to + len * eb].copy_from_slice(&gm[g * eb..(g + len) * eb]);
        });
    }
    let bytes = rows * (u64::from(dst.cols) * eb as u64 + ib as u64);
    Ok(Work { gm_read: bytes, dma: 1 + rows, ..Work::default() })
}
