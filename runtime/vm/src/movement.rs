//! Data movement between on-chip buffers, bit for bit: `Copy` (UB -> UB), `MoveL1`
//! (L1 -> L0A / L0B), `Broadcast` and `Transpose`. Rows go through a byte scratch so that a
//! destination may alias its source.

use kiln_bytecode::isa::{Buf, Space};

use crate::mem::{expect_same_dtype, expect_same_shape, expect_space, Mem};

/// Copies `src` into `dst` row by row (same shape and type).
fn copy_rows(mem: &mut Mem, scratch: &mut Vec<u8>, dst: &Buf, src: &Buf) -> Result<(), String> {
    expect_same_shape(dst, src, "copy")?;
    expect_same_dtype(dst, src, "copy")?;
    let (d, s) = (mem.region(dst)?, mem.region(src)?);
    for r in 0..d.rows {
        scratch.clear();
        scratch.extend_from_slice(mem.row(&s, r));
        mem.row_mut(&d, r).copy_from_slice(scratch);
    }
    Ok(())
}

/// `Copy`: UB -> UB.
pub(crate) fn copy(mem: &mut Mem, scratch: &mut Vec<u8>, dst: &Buf, src: &Buf) -> Result<(), String> {
    expect_space(dst, &[Space::Ub], "copy destination")?;
    expect_space(src, &[Space::Ub], "copy source")?;
    copy_rows(mem, scratch, dst, src)
}

/// `MoveL1`: L1 -> L0A / L0B.
pub(crate) fn move_l1(mem: &mut Mem, scratch: &mut Vec<u8>, dst: &Buf, src: &Buf) -> Result<(), String> {
    expect_space(dst, &[Space::L0a, Space::L0b], "move destination")?;
    expect_space(src, &[Space::L1], "move source")?;
    copy_rows(mem, scratch, dst, src)
}

/// `Broadcast`: `src` (`[rows, 1]`, `[1, cols]` or `[1, 1]`) repeated over `dst`.
pub(crate) fn broadcast(mem: &mut Mem, scratch: &mut Vec<u8>, dst: &Buf, src: &Buf) -> Result<(), String> {
    expect_same_dtype(dst, src, "broadcast")?;
    let rows_ok = src.rows == dst.rows || src.rows == 1;
    let cols_ok = src.cols == dst.cols || src.cols == 1;
    if !rows_ok || !cols_ok || src.rows == 0 || src.cols == 0 {
        return Err(format!(
            "broadcast source of shape [{}, {}] does not broadcast to [{}, {}]",
            src.rows, src.cols, dst.rows, dst.cols
        ));
    }
    let (d, s) = (mem.region(dst)?, mem.region(src)?);
    let eb = dst.dtype.bytes() as usize;
    for r in 0..d.rows {
        let row = mem.row(&s, if src.rows == 1 { 0 } else { r });
        scratch.clear();
        if src.cols == dst.cols {
            scratch.extend_from_slice(row);
        } else {
            let element = &row[..eb];
            for _ in 0..dst.cols {
                scratch.extend_from_slice(element);
            }
        }
        mem.row_mut(&d, r).copy_from_slice(scratch);
    }
    Ok(())
}

/// `Transpose`: `dst[j][i] = src[i][j]`; both dims multiples of 16.
pub(crate) fn transpose(mem: &mut Mem, scratch: &mut Vec<u8>, dst: &Buf, src: &Buf) -> Result<(), String> {
    expect_same_dtype(dst, src, "transpose")?;
    if (dst.rows, dst.cols) != (src.cols, src.rows) {
        return Err(format!(
            "transpose of [{}, {}] into [{}, {}]: the shapes are not transposed",
            src.rows, src.cols, dst.rows, dst.cols
        ));
    }
    if !src.rows.is_multiple_of(16) || !src.cols.is_multiple_of(16) {
        return Err(format!("transpose of [{}, {}]: dims must be multiples of 16", src.rows, src.cols));
    }
    let (d, s) = (mem.region(dst)?, mem.region(src)?);
    let eb = dst.dtype.bytes() as usize;
    scratch.clear();
    for r in 0..s.rows {
        scratch.extend_from_slice(mem.row(&s, r));
    }
    let src_cols = src.cols as usize;
    for j in 0..d.rows {
        let row = mem.row_mut(&d, j);
        for (i, out) in row.chunks_exact_mut(eb).enumerate() {
            let at = (i * src_cols + j) * eb;
            out.copy_from_slice(&scratch[at..at + eb]);
        }
    }
    Ok(())
}
