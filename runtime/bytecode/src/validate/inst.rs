//! Per-instruction checks: registers, events, buffers (space, range, alignment, pitch), GM
//! views, and each instruction's space, shape and element type rules (as [`crate::isa`]
//! documents them).

use kiln_targets::Target;

use crate::isa::{Buf, DType, GmView, Inst, Pipe, Reg, Space, Src, MAX_VIEW_DIMS, NUM_REGS, TRANSPOSE_BLOCK};
use crate::module::Kernel;

/// Checks every instruction of `kernel`; an error names the instruction's index.
pub(super) fn check_all(kernel: &Kernel, target: &Target) -> Result<(), (usize, String)> {
    let cx = Checker { kernel, target };
    for (i, inst) in kernel.code.iter().enumerate() {
        cx.inst(inst).map_err(|reason| (i, reason))?;
    }
    Ok(())
}

struct Checker<'a> {
    kernel: &'a Kernel,
    target: &'a Target,
}

fn shape(b: &Buf) -> String {
    format!("{} [{}, {}]", b.dtype.name(), b.rows, b.cols)
}

fn regs(regs: &[Reg]) -> Result<(), String> {
    match regs.iter().find(|r| r.0 as usize >= NUM_REGS) {
        Some(r) => Err(format!("register r{} does not exist (registers are r0..r{})", r.0, NUM_REGS - 1)),
        None => Ok(()),
    }
}

fn same_shape(x: (&str, &Buf), y: (&str, &Buf)) -> Result<(), String> {
    if (x.1.rows, x.1.cols) != (y.1.rows, y.1.cols) {
        return Err(format!("`{}` is {} but `{}` is {}", x.0, shape(x.1), y.0, shape(y.1)));
    }
    Ok(())
}

fn same_dtype(x: (&str, &Buf), y: (&str, &Buf)) -> Result<(), String> {
    if x.1.dtype != y.1.dtype {
        return Err(format!("`{}` is {} but `{}` is {}", x.0, shape(x.1), y.0, shape(y.1)));
    }
    Ok(())
}

fn dtype(name: &str, b: &Buf, want: DType) -> Result<(), String> {
    if b.dtype != want {
        return Err(format!("`{name}` is {}, expected element type {}", shape(b), want.name()));
    }
    Ok(())
}

/// `src` broadcasts against `dst` as numpy does: each dim equal or 1.
fn broadcasts(src: (&str, &Buf), dst: &Buf) -> Result<(), String> {
    let fits = |s: u32, d: u32| s == d || s == 1;
    if !fits(src.1.rows, dst.rows) || !fits(src.1.cols, dst.cols) {
        return Err(format!("`{}` ({}) does not broadcast to `dst` ({})", src.0, shape(src.1), shape(dst)));
    }
    Ok(())
}

impl Checker<'_> {
    fn inst(&self, inst: &Inst) -> Result<(), String> {
        use Space::{L0a, L0b, L0c, Ub, L1};
        match inst {
            Inst::Const { dst, .. } | Inst::BlockIdx { dst } | Inst::BlockNum { dst } => regs(&[*dst]),
            Inst::Scalar { dst, a, b, .. } => regs(&[*dst, *a, *b]),
            Inst::For { iv, lo, hi, step, .. } => regs(&[*iv, *lo, *hi, *step]),
            Inst::If { cond, .. } => regs(&[*cond]),
            Inst::Load { dst, src, zero_pad } => {
                self.buf("dst", dst, &[Ub, L1])?;
                if *zero_pad {
                    self.block_view("src", src, dst)
                } else {
                    self.view("src", src, ("dst", dst))
                }
            }
            Inst::Store { dst, src, .. } => {
                self.buf("src", src, &[Ub])?;
                self.view("dst", dst, ("src", src))
            }
            Inst::Gather { dst, table, indices, index } => {
                self.buf("dst", dst, &[Ub])?;
                if !matches!(index, DType::I32 | DType::I64) {
                    return Err(format!("indices of type {}, expected i32 or i64", index.name()));
                }
                let slice =
                    self.gm_view("table", table)?.and_then(|n| n.checked_div(table.dims[0].size as u64));
                if slice != Some(dst.cols as u64) {
                    let sizes: Vec<u32> = table.dims.iter().map(|d| d.size).collect();
                    return Err(format!(
                        "`table` has sizes {sizes:?}, slices of its first dim are not `dst`'s rows ({})",
                        shape(dst)
                    ));
                }
                if self.gm_view("indices", indices)? != Some(dst.rows as u64) {
                    let sizes: Vec<u32> = indices.dims.iter().map(|d| d.size).collect();
                    return Err(format!(
                        "`indices` has sizes {sizes:?}, not one index per row of `dst` ({})",
                        shape(dst)
                    ));
                }
                Ok(())
            }
            Inst::Copy { dst, src } | Inst::Unary { dst, src, .. } => {
                self.buf("dst", dst, &[Ub])?;
                self.buf("src", src, &[Ub])?;
                same_shape(("dst", dst), ("src", src))?;
                same_dtype(("dst", dst), ("src", src))
            }
            Inst::Cast { dst, src, .. } => {
                self.buf("dst", dst, &[Ub])?;
                self.buf("src", src, &[Ub])?;
                same_shape(("dst", dst), ("src", src))
            }
            Inst::Fixpipe { dst, src, .. } => {
                self.buf("dst", dst, &[Ub])?;
                self.buf("src", src, &[L0c])?;
                if dst.rows > src.rows || dst.cols > src.cols {
                    return Err(format!("`dst` ({}) is larger than `src` ({})", shape(dst), shape(src)));
                }
                Ok(())
            }
            Inst::Binary { dst, a, b, .. } => {
                self.buf("dst", dst, &[Ub])?;
                self.src("a", a, dst, Some(dst.dtype))?;
                self.src("b", b, dst, Some(dst.dtype))
            }
            Inst::Cmp { dst, a, b, .. } => {
                self.buf("dst", dst, &[Ub])?;
                dtype("dst", dst, DType::I1)?;
                self.src("a", a, dst, None)?;
                self.src("b", b, dst, None)?;
                match (a, b) {
                    (Src::Buf(a), Src::Buf(b)) => same_dtype(("a", a), ("b", b)),
                    _ => Ok(()),
                }
            }
            Inst::Select { dst, mask, a, b } => {
                self.buf("dst", dst, &[Ub])?;
                self.buf("mask", mask, &[Ub])?;
                dtype("mask", mask, DType::I1)?;
                broadcasts(("mask", mask), dst)?;
                self.src("a", a, dst, Some(dst.dtype))?;
                self.src("b", b, dst, Some(dst.dtype))
            }
            Inst::Reduce { dst, src, .. } => {
                self.buf("dst", dst, &[Ub])?;
                self.buf("src", src, &[Ub])?;
                if dst.cols != 1 || dst.rows != src.rows {
                    return Err(format!(
                        "`dst` is {}, expected [{}, 1] for `src` {}",
                        shape(dst),
                        src.rows,
                        shape(src)
                    ));
                }
                let widened = dst.dtype == DType::F32 && matches!(src.dtype, DType::F16 | DType::BF16);
                if widened {
                    return Ok(());
                }
                same_dtype(("dst", dst), ("src", src))
            }
            Inst::Broadcast { dst, src } => {
                self.buf("dst", dst, &[Ub])?;
                self.buf("src", src, &[Ub])?;
                broadcasts(("src", src), dst)?;
                same_dtype(("dst", dst), ("src", src))
            }
            Inst::Fill { dst, .. } => self.buf("dst", dst, &[Ub]),
            Inst::Transpose { dst, src } => {
                self.buf("dst", dst, &[Ub])?;
                self.buf("src", src, &[Ub])?;
                same_dtype(("dst", dst), ("src", src))?;
                if !src.rows.is_multiple_of(TRANSPOSE_BLOCK) || !src.cols.is_multiple_of(TRANSPOSE_BLOCK) {
                    return Err(format!(
                        "`src` is {}, its dims must be multiples of {TRANSPOSE_BLOCK}",
                        shape(src)
                    ));
                }
                if (dst.rows, dst.cols) != (src.cols, src.rows) {
                    return Err(format!(
                        "`dst` is {}, expected [{}, {}] for `src` {}",
                        shape(dst),
                        src.cols,
                        src.rows,
                        shape(src)
                    ));
                }
                Ok(())
            }
            Inst::MoveL1 { dst, src } => {
                self.buf("dst", dst, &[L0a, L0b])?;
                self.buf("src", src, &[L1])?;
                same_shape(("dst", dst), ("src", src))?;
                same_dtype(("dst", dst), ("src", src))
            }
            Inst::Mmad { c, a, b, .. } => {
                self.buf("c", c, &[L0c])?;
                self.buf("a", a, &[L0a])?;
                self.buf("b", b, &[L0b])?;
                dtype("c", c, DType::F32)?;
                same_dtype(("a", a), ("b", b))?;
                if a.cols != b.rows || c.rows != a.rows || c.cols != b.cols {
                    return Err(format!(
                        "shapes do not multiply: `c` {} = `a` {} x `b` {}",
                        shape(c),
                        shape(a),
                        shape(b)
                    ));
                }
                let f = self.target.cube.fractal;
                if [a.rows, a.cols, b.cols].iter().any(|d| !d.is_multiple_of(f)) {
                    return Err(format!(
                        "m, k and n ({}, {}, {}) must be multiples of the fractal {f}",
                        a.rows, a.cols, b.cols
                    ));
                }
                Ok(())
            }
            Inst::SetFlag { src, dst, event } | Inst::WaitFlag { src, dst, event } => {
                let ids = self.target.sync.event_ids;
                if *event as u32 >= ids {
                    return Err(format!("event id {event} is out of range (the target has {ids} event ids)"));
                }
                if *src == Pipe::All || *dst == Pipe::All {
                    return Err("a flag joins two pipes; `all` is only a barrier's pipe".to_string());
                }
                Ok(())
            }
            Inst::Barrier { .. } => Ok(()),
        }
    }

    fn space_bytes(&self, space: Space) -> u64 {
        let m = &self.target.memory;
        match space {
            Space::Gm => self.target.hbm.capacity_bytes,
            Space::Ub => m.ub_bytes,
            Space::L1 => m.l1_bytes,
            Space::L0a => m.l0a_bytes,
            Space::L0b => m.l0b_bytes,
            Space::L0c => m.l0c_bytes,
        }
    }

    /// Checks an on-chip buffer operand that must be in one of `spaces`.
    fn buf(&self, name: &str, b: &Buf, spaces: &[Space]) -> Result<(), String> {
        if !spaces.contains(&b.space) {
            let want: Vec<&str> = spaces.iter().map(|s| s.name()).collect();
            return Err(format!("`{name}` is in {}, expected {}", b.space.name(), want.join(" or ")));
        }
        if b.rows == 0 || b.cols == 0 {
            return Err(format!("`{name}` ({}) is empty", shape(b)));
        }
        if b.dtype == DType::I64 && !self.target.vector.int64 {
            return Err(format!(
                "`{name}` is {}: the target's vector unit has no i64 (`vector.int64`)",
                shape(b)
            ));
        }
        if b.pitch < b.cols {
            return Err(format!("`{name}` has pitch {} < cols {}", b.pitch, b.cols));
        }
        let align = self.target.memory.alignment_bytes;
        if !(b.addr as u64).is_multiple_of(align) {
            return Err(format!("`{name}` address {:#x} is not aligned to {align} bytes", b.addr));
        }
        let end = (b.addr as u64).saturating_add(b.span_bytes());
        let range = format!("`{name}` occupies [{:#x}, {end:#x}) of {}", b.addr, b.space.name());
        let size = self.space_bytes(b.space);
        if end > size {
            return Err(format!("{range}, past its {size} bytes on the target"));
        }
        if b.space == Space::Ub && end > self.kernel.ub_bytes as u64 {
            return Err(format!("{range}, past the kernel's ub_bytes ({})", self.kernel.ub_bytes));
        }
        Ok(())
    }

    /// Checks a vector source: an immediate, or a UB buffer (of `dtype`, when given) that
    /// broadcasts to `dst`.
    fn src(&self, name: &str, s: &Src, dst: &Buf, want: Option<DType>) -> Result<(), String> {
        let Src::Buf(b) = s else { return Ok(()) };
        self.buf(name, b, &[Space::Ub])?;
        if let Some(want) = want {
            dtype(name, b, want)?;
        }
        broadcasts((name, b), dst)
    }

    /// A zero-padded load's view: a block of at most the buffer's rows and cols.
    fn block_view(&self, name: &str, v: &GmView, buf: &Buf) -> Result<(), String> {
        let last = v.dims.last().map_or(1, |d| d.size as u64);
        let rows = v.dims.iter().rev().skip(1).try_fold(1u64, |n, d| n.checked_mul(d.size as u64));
        let block = Buf {
            rows: buf.rows.min(rows.unwrap_or(u64::MAX).min(u32::MAX as u64) as u32),
            cols: buf.cols.min(last.min(u32::MAX as u64) as u32),
            ..*buf
        };
        if rows.is_none_or(|r| r > buf.rows as u64) || last > buf.cols as u64 {
            let sizes: Vec<u32> = v.dims.iter().map(|d| d.size).collect();
            return Err(format!("`{name}` has sizes {sizes:?}, a block larger than `dst` ({})", shape(buf)));
        }
        self.view(name, v, ("dst", &block))
    }

    /// Checks a GM view against the on-chip buffer it transfers.
    fn view(&self, name: &str, v: &GmView, buf: (&str, &Buf)) -> Result<(), String> {
        let elements = self.gm_view(name, v)?;
        let want = buf.1.rows as u64 * buf.1.cols as u64;
        if elements != Some(want) {
            let sizes: Vec<u32> = v.dims.iter().map(|d| d.size).collect();
            return Err(format!(
                "`{name}` has sizes {sizes:?}, {} elements in all, but `{}` ({}) has {want}",
                match elements {
                    Some(n) => n.to_string(),
                    None => "more than 2^64".to_string(),
                },
                buf.0,
                shape(buf.1)
            ));
        }
        Ok(())
    }

    /// Checks a GM view's argument, register and dims; its element count (`None` when it
    /// overflows `u64`).
    fn gm_view(&self, name: &str, v: &GmView) -> Result<Option<u64>, String> {
        if v.arg >= self.kernel.num_args {
            return Err(format!("`{name}` is argument {}, the kernel takes {}", v.arg, self.kernel.num_args));
        }
        if let Some(r) = v.offset {
            regs(&[r])?;
        }
        if v.dims.is_empty() || v.dims.len() > MAX_VIEW_DIMS {
            return Err(format!("`{name}` has {} dims, expected 1 to {MAX_VIEW_DIMS}", v.dims.len()));
        }
        if let Some(d) = v.dims.iter().position(|d| d.size == 0) {
            return Err(format!("`{name}` dim #{d} has size 0"));
        }
        Ok(v.dims.iter().try_fold(1u64, |n, d| n.checked_mul(d.size as u64)))
    }
}
