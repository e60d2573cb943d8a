//! The plan of a conv2d kernel on the cube: an implicit im2col, in which no tap that falls into
//! the padding is ever read or multiplied.
//!
//! Per batch element and group, `Y[O/g, OH*OW] = W[O/g, K] x Col[K, OH*OW]` with `K = (c, kh,
//! kw)` (the OIHW weight is that `[O, K]` matrix, row-major). A result tile is a run of pixels
//! along one output row (or, when that makes fewer tiles, one output column); the valid taps
//! of a pixel are a range of `kh` (from `oh`) times a range of `kw` (from `ow`). Output rows with the same `kh` range form a *row class*, output
//! columns with the same `kw` range a *column class*; every tile of a class pair reads the same
//! taps, so its contraction is a static list of chunks, each a contiguous range of `K` (one
//! zero-padded `[m, k]` block of `W`) against a strided 2-4-D view of the input (the matching
//! `[k, n]` block of `Col`):
//! - all taps valid: whole channels, `[cc, KH, KW, n]` views (`cc` channels per chunk);
//! - all `kw` valid, some `kh` not: per channel, runs of `kh` rows, `[r, KW, n]` views;
//! - otherwise: per channel and valid `kh`, runs of `kw`, `[r, n]` views.
//!
//! The chunks run in ascending `K`, which is the interpreter's order (input channel, then
//! kernel position), and skipped taps are the ones the interpreter skips: the result is
//! bit-exact.

use kiln_compiler::{Ir, OpId};
use kiln_dialects::hl::accessors::int_list;

use kiln_targets::Target;

use super::tiling::{cdiv, MatmulShape, MatmulTiling};

/// The dims of one `hl.conv2d` (NCHW input, OIHW weight, NCHW result).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvShape {
    /// Batch.
    pub n: i64,
    /// Input channels.
    pub c: i64,
    /// Input height.
    pub h: i64,
    /// Input width.
    pub w: i64,
    /// Output channels.
    pub o: i64,
    /// Kernel height.
    pub kh: i64,
    /// Kernel width.
    pub kw: i64,
    /// Output height.
    pub oh: i64,
    /// Output width.
    pub ow: i64,
    /// `[sh, sw]`.
    pub stride: [i64; 2],
    /// `[dh, dw]`.
    pub dilation: [i64; 2],
    /// `[top, left, bottom, right]`.
    pub pad: [i64; 4],
    /// Groups.
    pub groups: i64,
    /// Bytes of an input / weight element.
    pub in_bytes: u64,
    /// Bytes of a result element.
    pub out_bytes: u64,
}

impl ConvShape {
    /// The shape of conv2d `op`.
    pub fn of_op(ir: &Ir<'_>, op: OpId) -> Result<ConvShape, String> {
        let shape = |v| ir.value_type(v).shape().filter(|s| s.iter().all(|&d| d >= 0)).map(<[i64]>::to_vec);
        let (Some(x), Some(wt), Some(y)) =
            (shape(ir.operands(op)[0]), shape(ir.operands(op)[1]), shape(ir.results(op)[0]))
        else {
            return Err("kiln-codegen needs static shapes".into());
        };
        let pair = |name: &str| -> Result<[i64; 2], String> {
            match int_list(ir.attr(op, name))?.as_slice() {
                [] => Ok([1, 1]),
                [a, b] => Ok([*a, *b]),
                _ => Err(format!("'hl.conv2d' attribute '{name}' must have two entries")),
            }
        };
        let pad = match int_list(ir.attr(op, "padding"))?.as_slice() {
            [] => [0; 4],
            [t, l, b, r] => [*t, *l, *b, *r],
            _ => return Err("'hl.conv2d' attribute 'padding' must have four entries".into()),
        };
        let groups = ir.attr(op, "groups").and_then(|g| g.as_int()).map_or(1, |g| g as i64);
        let bytes = |v| {
            u64::from(ir.value_type(v).element_type().and_then(|e| e.bit_width()).unwrap_or(8).div_ceil(8))
        };
        let s = ConvShape {
            n: x[0],
            c: x[1],
            h: x[2],
            w: x[3],
            o: wt[0],
            kh: wt[2],
            kw: wt[3],
            oh: y[2],
            ow: y[3],
            stride: pair("strides")?,
            dilation: pair("dilation")?,
            pad,
            groups,
            in_bytes: bytes(ir.operands(op)[0]),
            out_bytes: bytes(ir.results(op)[0]),
        };
        if s.groups < 1 || s.c % s.groups != 0 || s.o % s.groups != 0 || wt[1] != s.c / s.groups {
            return Err(format!(
                "'hl.conv2d' weight {wt:?} does not match {} channels in {} groups",
                s.c, s.groups
            ));
        }
        Ok(s)
    }

    /// Input channels per group.
    pub fn cg(&self) -> i64 {
        self.c / self.groups
    }

    /// Output channels per group.
    pub fn og(&self) -> i64 {
        self.o / self.groups
    }

    /// The contraction length `C / groups * KH * KW`.
    pub fn k(&self) -> i64 {
        self.cg() * self.kh * self.kw
    }

    /// The matmul the tile choice sizes buffers for: `[O/g, K] x [K, OW]` per output row.
    pub fn as_matmul(&self) -> MatmulShape {
        MatmulShape {
            batch: vec![self.n, self.groups, self.oh],
            m: self.og(),
            k: self.k(),
            n: self.ow,
            transpose_a: false,
            transpose_b: false,
            in_bytes: self.in_bytes,
            out_bytes: self.out_bytes,
        }
    }

    /// The tile grid of a class pair with lines `l` under tiles `t`: pixel blocks, lines,
    /// output-channel blocks, groups, batch (innermost first).
    pub fn tile_extents(&self, l: &Lines, t: &MatmulTiling) -> [i64; 5] {
        [cdiv(l.pixels, t.n), l.lines, cdiv(self.og(), t.m), self.groups, self.n]
    }

    /// The tiles of this conv on `target` (within the usable UB divided by `shrink`): the
    /// contraction's fitted tiles, and the cores from the class-pair tiles (an error when an
    /// output sees only padding).
    pub fn tiling(&self, target: &Target, shrink: u64) -> Result<MatmulTiling, String> {
        let mut t = MatmulTiling::fit(&self.as_matmul(), target, shrink)?;
        t.block_dim = self.tiles(&t)?.clamp(1, i64::from(target.cores.cube.max(1)));
        Ok(t)
    }

    /// The tiles of every class pair under tiles `t`.
    pub fn tiles(&self, t: &MatmulTiling) -> Result<i64, String> {
        let (rows, cols) = (self.classes(0)?, self.classes(1)?);
        let mut n = 0;
        for r in &rows {
            for c in &cols {
                n += self.tile_extents(&Lines::of(r, c, t.n), t).iter().product::<i64>();
            }
        }
        Ok(n)
    }

    /// The row classes (axis 0, over `oh`) or column classes (axis 1, over `ow`).
    pub fn classes(&self, axis: usize) -> Result<Vec<Class>, String> {
        let (outs, ins, taps) =
            if axis == 0 { (self.oh, self.h, self.kh) } else { (self.ow, self.w, self.kw) };
        let (s, d, p) = (self.stride[axis], self.dilation[axis], self.pad[axis]);
        let mut classes: Vec<Class> = Vec::new();
        for o in 0..outs {
            let valid: Vec<i64> = (0..taps).filter(|t| (0..ins).contains(&(o * s + t * d - p))).collect();
            let (Some(&lo), Some(&hi)) = (valid.first(), valid.last()) else {
                return Err(format!(
                    "output {} {o} of 'hl.conv2d' sees only padding (no cube lowering)",
                    if axis == 0 { "row" } else { "column" }
                ));
            };
            match classes.last_mut() {
                Some(c) if (c.lo, c.hi) == (lo, hi + 1) => c.len += 1,
                _ => classes.push(Class { start: o, len: 1, lo, hi: hi + 1 }),
            }
        }
        Ok(classes)
    }

    /// The contraction of a tile whose taps are `kh` in `rows` and `kw` in `cols`, with
    /// chunks of at most `tk` elements of `K`. The tile has `n` pixels, `step` input elements
    /// apart.
    pub fn chunks(&self, rows: &Class, cols: &Class, tk: i64, n: i64, step: i64) -> Vec<Group> {
        let (kh, kw, hw) = (self.kh, self.kw, self.h * self.w);
        let [dh, dw] = self.dilation;
        let sw = step;
        let (nkh, nkw) = (rows.hi - rows.lo, cols.hi - cols.lo);
        let (w0, row) = (cols.lo, self.w);
        let mut groups = Vec::new();
        if nkh == kh && nkw == kw && kh * kw <= tk {
            let cc = (tk / (kh * kw)).min(self.cg());
            let chunk = |cc: i64| Chunk {
                a: 0,
                b: 0,
                k: cc * kh * kw,
                sizes: vec![cc, kh, kw, n],
                strides: vec![hw, dh * row, dw, sw],
            };
            let full = self.cg() / cc;
            groups.push(Group {
                reps: full,
                a_step: cc * kh * kw,
                b_step: cc * hw,
                a: 0,
                b: 0,
                chunks: vec![chunk(cc)],
            });
            if self.cg() % cc != 0 {
                let (a, b) = (full * cc * kh * kw, full * cc * hw);
                groups.push(Group {
                    reps: 1,
                    a_step: 0,
                    b_step: 0,
                    a,
                    b,
                    chunks: vec![chunk(self.cg() % cc)],
                });
            }
            return groups;
        }
        let mut chunks = Vec::new();
        if nkw == kw && kw <= tk {
            let r = (tk / kw).min(nkh);
            for s in (0..nkh).step_by(r as usize) {
                let rr = r.min(nkh - s);
                chunks.push(Chunk {
                    a: (rows.lo + s) * kw,
                    b: s * dh * row,
                    k: rr * kw,
                    sizes: vec![rr, kw, n],
                    strides: vec![dh * row, dw, sw],
                });
            }
        } else {
            let r = tk.min(nkw);
            for t in 0..nkh {
                for s in (0..nkw).step_by(r as usize) {
                    let rr = r.min(nkw - s);
                    chunks.push(Chunk {
                        a: (rows.lo + t) * kw + w0 + s,
                        b: t * dh * row + s * dw,
                        k: rr,
                        sizes: vec![rr, n],
                        strides: vec![dw, sw],
                    });
                }
            }
        }
        groups.push(Group { reps: self.cg(), a_step: kh * kw, b_step: hw, a: 0, b: 0, chunks });
        groups
    }
}

/// How the tiles of a class pair run: `pixels` per line along an output row (`vertical`
/// false) or column, `lines` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lines {
    /// Lines are output columns.
    pub vertical: bool,
    /// Pixels per line.
    pub pixels: i64,
    /// Lines.
    pub lines: i64,
}

impl Lines {
    /// The orientation with fewer tiles of `tn` pixels for the class pair `r`, `c` (rows on a
    /// tie).
    pub fn of(r: &Class, c: &Class, tn: i64) -> Lines {
        let vertical = c.len * cdiv(r.len, tn) < r.len * cdiv(c.len, tn);
        let (pixels, lines) = if vertical { (r.len, c.len) } else { (c.len, r.len) };
        Lines { vertical, pixels, lines }
    }
}

/// Consecutive outputs along one axis whose valid taps are the same range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    /// The first output.
    pub start: i64,
    /// How many outputs.
    pub len: i64,
    /// The first valid tap.
    pub lo: i64,
    /// One past the last valid tap.
    pub hi: i64,
}

/// Chunks repeated over channels (or channel groups): repetition `i` reads `W` at `a + i *
/// a_step` and the input at `b + i * b_step` (elements), plus each chunk's own offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Repetitions.
    pub reps: i64,
    /// `W` elements per repetition.
    pub a_step: i64,
    /// Input elements per repetition.
    pub b_step: i64,
    /// `W` offset of repetition 0.
    pub a: i64,
    /// Input offset of repetition 0.
    pub b: i64,
    /// The chunks of one repetition, in ascending `K`.
    pub chunks: Vec<Chunk>,
}

/// One contiguous range of `K`: `W[.., a .. a + k]` against the input view at `b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Offset into a row of `W`.
    pub a: i64,
    /// Offset into the input from the tile's first valid tap.
    pub b: i64,
    /// Elements of `K`.
    pub k: i64,
    /// The input view's sizes (the last is the tile's pixels).
    pub sizes: Vec<i64>,
    /// The input view's strides.
    pub strides: Vec<i64>,
}
