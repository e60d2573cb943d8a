//! The cube unit: `Mmad` (`c (+)= a x b` with `f32` accumulation, `k` ascending, operands
//! `f16` / `bf16` / `f32`) and `Fixpipe` (L0C -> UB, cast to the destination type with
//! rounding to nearest, optional relu).

use kiln_bytecode::isa::{Buf, DType, Space};

use crate::lanes::Lane;
use crate::mem::{expect_space, Mem, Region};
use crate::vector::Scratch;
use kiln_numerics::order::nan_max;

/// All rows of `region` decoded into `out` (row-major, `cols` per row).
fn decode_all(mem: &Mem, region: &Region, dtype: DType, out: &mut Vec<f32>) {
    out.clear();
    for r in 0..region.rows {
        f32::decode(dtype, mem.row(region, r), out);
    }
}

/// `Mmad`: `a` `[m, k]` (L0A) times `b` `[k, n]` (L0B) into or onto `c` `[m, n]` (L0C, `f32`).
/// Returns the multiply-accumulates done.
pub(crate) fn mmad(
    mem: &mut Mem,
    s: &mut Scratch,
    c: &Buf,
    a: &Buf,
    b: &Buf,
    accumulate: bool,
    fractal: u32,
) -> Result<u64, String> {
    expect_space(a, &[Space::L0a], "mmad left operand")?;
    expect_space(b, &[Space::L0b], "mmad right operand")?;
    expect_space(c, &[Space::L0c], "mmad accumulator")?;
    if c.dtype != DType::F32 || a.dtype != b.dtype || !a.dtype.is_float() {
        return Err(format!(
            "mmad takes f16, bf16 or f32 operands of one type into f32, got {} x {} into {}",
            a.dtype.name(),
            b.dtype.name(),
            c.dtype.name()
        ));
    }
    let (m, k, n) = (a.rows, a.cols, b.cols);
    if b.rows != k || (c.rows, c.cols) != (m, n) {
        return Err(format!(
            "mmad of [{m}, {k}] x [{}, {n}] into [{}, {}]: shapes do not match",
            b.rows, c.rows, c.cols
        ));
    }
    if fractal == 0 || m % fractal != 0 || k % fractal != 0 || n % fractal != 0 {
        return Err(format!("mmad dims {m}, {k}, {n} must be multiples of the fractal {fractal}"));
    }
    let (ra, rb, rc) = (mem.region(a)?, mem.region(b)?, mem.region(c)?);
    decode_all(mem, &ra, a.dtype, &mut s.fa);
    decode_all(mem, &rb, b.dtype, &mut s.fb);
    let (m, k, n) = (m as usize, k as usize, n as usize);
    if accumulate {
        decode_all(mem, &rc, DType::F32, &mut s.fc);
    } else {
        s.fc.clear();
        s.fc.resize(m * n, 0.0);
    }
    for i in 0..m {
        let row = &mut s.fc[i * n..(i + 1) * n];
        for kk in 0..k {
            let x = s.fa[i * k + kk];
            for (o, &y) in row.iter_mut().zip(&s.fb[kk * n..(kk + 1) * n]) {
                *o += x * y;
            }
        }
    }
    for i in 0..rc.rows {
        f32::encode(DType::F32, &s.fc[i * n..(i + 1) * n], mem.row_mut(&rc, i));
    }
    Ok((m * k * n) as u64)
}

/// `Fixpipe`: L0C (`f32`) -> UB in `dst`'s type, optionally `max(x, 0)` first. Returns the
/// bytes moved out of L0C.
pub(crate) fn fixpipe(
    mem: &mut Mem,
    s: &mut Scratch,
    dst: &Buf,
    src: &Buf,
    relu: bool,
) -> Result<u64, String> {
    expect_space(src, &[Space::L0c], "fixpipe source")?;
    expect_space(dst, &[Space::Ub], "fixpipe destination")?;
    if dst.rows > src.rows || dst.cols > src.cols {
        return Err(format!(
            "fixpipe: destination [{}, {}] is larger than source [{}, {}]",
            dst.rows, dst.cols, src.rows, src.cols
        ));
    }
    if src.dtype != DType::F32 {
        return Err(format!("fixpipe source must be f32, got {}", src.dtype.name()));
    }
    let (d, r) = (mem.region(dst)?, mem.region(src)?);
    for row in 0..d.rows {
        s.fa.clear();
        f32::decode(DType::F32, mem.row(&r, row), &mut s.fa);
        s.fa.truncate(dst.cols as usize);
        if relu {
            s.fa.iter_mut().for_each(|x| *x = nan_max(*x, 0.0));
        }
        f32::encode(dst.dtype, &s.fa, mem.row_mut(&d, row));
    }
    Ok(src.span_bytes())
}
