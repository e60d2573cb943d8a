//! Choosing a vector kernel's tile from the target and the actual shape, and the
//! `npuvec.tile` attribute that carries the choice from `kiln-codegen-tile` to the lowering.
//!
//! A tile is `rows x cols`: `cols` is the whole reduced part of the domain, `rows` a box of the
//! kept axes: the axes inside the *key* axis whole, the key axis `block` at a time, the axes
//! outside it one at a time. The grid of tiles is the product of the outer axes and
//! `ceil(key / block)`; the last block of the key axis is a tail of `key % block`. The rows are
//! the most whose buffers' peak of aligned live bytes (from [`VectorModel::buffers`]) fits the
//! target's usable UB, then fewer so that every core gets a tile when there are enough rows.
//!
//! [`tile_bytes`] is the one model of a tile's UB bytes: the peak of the placement
//! `kiln-codegen-plan-ub` makes ([`peak_bytes`]), plus a staged row's tail chunk. The tile
//! choice sizes tiles with it, and `kiln-fuse` checks a candidate region's smallest tile with
//! it (`fusion/model.rs`); a mix kernel's result tiles are [`result_tile_bytes`] each.
//!
//! The choice itself needs no IR: [`Tiling::choose_in`] takes the domain's facts
//! ([`TileDomain`]) and the buffers ([`TileBuf`]s over any element type), and
//! [`tile_placement`] places them as `kiln-codegen-plan-ub` does. [`Tiling::choose`] reads
//! them off the [`VectorModel`]; the eager direct path (`kiln-eager`'s `direct.rs`), which
//! builds no IR, gives them for the elementwise kernel of its segment's shape and takes its
//! tile and its buffer addresses from the same two functions.

use kiln_compiler::{Attribute, Context, Ir, NamedAttr, ValueId};
use kiln_dialects::hl;
use kiln_targets::Target;
use smallvec::SmallVec;

use kiln_dialects::npuvec::MAX_VIEW_DIMS;

use super::build::i64_attr;
use super::model::{ElemBytes, TileBuf, VectorModel};
use super::placement::{peak, place, Item};
use super::store_view::StoreView;

/// A vector kernel's tiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// The key axis (a kept axis of the domain).
    pub key: usize,
    /// Elements of the key axis per tile.
    pub block: i64,
    /// Cores the kernel runs on.
    pub block_dim: i64,
    /// Bytes a tile's buffers need at their peak.
    pub peak_bytes: u64,
    /// Columns per chunk: all of them, or, when a row does not fit the UB, at most the length of
    /// the last reduced axis longer than 1 (the row is then reduced chunk by chunk along that
    /// axis, one index of the other reduced axes at a time, see `staged.rs`).
    pub col_block: i64,
    /// Copies of each buffer: 1, or 2 when the tile loop is double-buffered (the loads of one
    /// tile overlap the vector work and the stores of the one before; `kiln-codegen-plan-ub`
    /// makes the copies, or falls back to 1 when they do not fit).
    pub buffers: i64,
}

/// What [`Tiling::choose_in`] needs to know of a kernel's domain (the [`VectorModel`]'s
/// facts, without IR).
#[derive(Clone, Copy, Debug)]
pub struct TileDomain<'a> {
    /// The domain shape.
    pub domain: &'a [i64],
    /// Kept axes, ascending.
    pub kept: &'a [usize],
    /// The element count of the reduced axes (a whole row).
    pub cols: i64,
    /// The length of the axis a row too long for the UB is chunked along (1: none).
    pub chunk_axis_len: i64,
    /// The most GM view dims the columns of an input or output take, of a whole row and of a
    /// column chunk.
    pub col_view_dims: [usize; 2],
}

/// Rows of a buffer padded to the target's alignment: bytes of one row of `cols` elements.
pub fn row_bytes(target: &Target, cols: i64, elem_bytes: u64) -> u64 {
    target.align(cols as u64 * elem_bytes)
}

/// Bytes of one buffer at `rows x cols`.
pub fn buffer_bytes<E: ElemBytes>(target: &Target, spec: &TileBuf<E>, rows: i64, cols: i64) -> u64 {
    let r = if spec.rows { rows } else { 1 } as u64;
    let c = if spec.cols { cols } else { 1 };
    r * row_bytes(target, c, spec.elem.elem_bytes())
}

/// The UB footprint of `specs` at `rows x cols`: the peak of their placement
/// ([`tile_placement`]).
pub fn peak_bytes<E: ElemBytes>(target: &Target, specs: &[TileBuf<E>], rows: i64, cols: i64) -> u64 {
    peak(&items(target, specs, rows, cols), target.memory.alignment_bytes)
}

/// The offset of each of `specs` at `rows x cols` and their peak: the placement of
/// `placement.rs`, the same `kiln-codegen-plan-ub` makes.
pub fn tile_placement<E: ElemBytes>(
    target: &Target,
    specs: &[TileBuf<E>],
    rows: i64,
    cols: i64,
) -> (Vec<u64>, u64) {
    place(&items(target, specs, rows, cols), target.memory.alignment_bytes)
}

/// The items to place for `specs` at `rows x cols`. Buffers without rows that are live from
/// the start are loaded once before the tile loop, so they live throughout.
fn items<E: ElemBytes>(target: &Target, specs: &[TileBuf<E>], rows: i64, cols: i64) -> SmallVec<[Item; 16]> {
    specs
        .iter()
        .map(|s| {
            let whole = s.first == 0 && !s.rows;
            Item {
                first: s.first,
                last: if whole { usize::MAX } else { s.last },
                bytes: buffer_bytes(target, s, rows, cols),
            }
        })
        .collect()
}

/// The UB bytes of a tile with `rows` rows and `cols` columns over the buffers `specs` of a
/// kernel whose whole row is `full_cols` elements and whose chunked axis is `chunk_axis_len`
/// long: their peak ([`peak_bytes`]), and, when `cols` is less than a row (a staged row, see
/// `staged.rs`) and the chunked axis leaves a tail chunk, the column buffers of that chunk on
/// top (both chunk widths are live at once). What [`Tiling::choose_in`] sizes tiles with, and
/// what `kiln-fuse` checks a candidate region's smallest tile with.
pub fn tile_bytes<E: ElemBytes + Clone>(
    target: &Target,
    (full_cols, chunk_axis_len): (i64, i64),
    specs: &[TileBuf<E>],
    rows: i64,
    cols: i64,
) -> u64 {
    let tail = if cols < full_cols { chunk_axis_len % cols } else { 0 };
    let body = peak_bytes(target, specs, rows, cols);
    if tail == 0 {
        return body;
    }
    let col_specs: SmallVec<[TileBuf<E>; 16]> = specs.iter().filter(|s| s.cols).cloned().collect();
    body + peak_bytes(target, &col_specs, rows, tail)
}

impl Tiling {
    /// Chooses the tiling of `model` on `target` within the usable UB divided by `shrink` (1
    /// normally, 2 for the half a double-buffered tile may take: [`Tiling::choose_buffered`]):
    /// [`Tiling::choose_in`] on the model's domain and buffers.
    pub fn choose<'c>(
        ctx: &Context<'c>,
        ir: &Ir<'c>,
        model: &VectorModel,
        target: &Target,
        shrink: u64,
    ) -> Result<Tiling, String> {
        let domain = TileDomain {
            domain: &model.domain,
            kept: &model.kept,
            cols: model.cols(),
            chunk_axis_len: model.chunk_axis_len(),
            col_view_dims: [model.col_view_dims(ir, false), model.col_view_dims(ir, true)],
        };
        let specs = model.buffers(ctx, ir).specs;
        Tiling::choose_in(target, &domain, &specs, || Some(model.staged_buffers(ctx, ir).specs), shrink)
    }

    /// Chooses the tiling of a kernel over `dom` whose tile has the buffers `specs`, on `target`
    /// within the usable UB divided by `shrink`, without IR. When a row does not fit, the row
    /// is staged in column chunks with the buffers `staged()` gives (`None`: it cannot be).
    pub fn choose_in<E: ElemBytes + Clone>(
        target: &Target,
        dom: &TileDomain<'_>,
        specs: &[TileBuf<E>],
        staged: impl FnOnce() -> Option<Vec<TileBuf<E>>>,
        shrink: u64,
    ) -> Result<Tiling, String> {
        let mem = &target.memory;
        if mem.ub_usable_bytes < target.vector.repeat_bytes {
            return Err(format!(
                "the target's UB ({} bytes, memory.ub_usable_bytes) cannot hold one vector repeat of {} bytes (vector.repeat_bytes)",
                mem.ub_usable_bytes, target.vector.repeat_bytes
            ));
        }
        let staged_specs: Vec<TileBuf<E>>;
        let mut specs = specs;
        let mut cols = dom.cols;
        let full_cols = cols;
        let budget = mem.ub_usable_bytes / shrink.max(1);
        let total_rows: i64 = dom.kept.iter().map(|&a| dom.domain[a]).product();
        // A row whose GM view needs more dims than a transfer has is staged as well: a chunk
        // is one index of all reduced axes but the last.
        let wide_view = dom.col_view_dims[0] > MAX_VIEW_DIMS;
        if wide_view || peak_bytes(target, specs, 1, cols) > budget {
            // A row does not fit: reduce it in column chunks, as wide as one row's buffers allow.
            let need = peak_bytes(target, specs, 1, cols);
            let along = dom.chunk_axis_len;
            let Some(staged) = (along > 1).then(staged).flatten() else {
                return Err(format!("a row of {cols} elements needs {need} bytes of UB, more than the {budget} bytes available"));
            };
            staged_specs = staged;
            specs = &staged_specs;
            let fits_cols = |c: i64| tile_bytes(target, (full_cols, along), specs, 1, c) <= budget;
            if !fits_cols(1) {
                return Err(format!(
                    "one element per buffer needs {} bytes of UB, more than the {budget} bytes available",
                    peak_bytes(target, specs, 1, 1)
                ));
            }
            let (mut lo, mut hi) = (1i64, along);
            while lo < hi {
                let mid = lo + (hi - lo + 1) / 2;
                if fits_cols(mid) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            cols = lo;
        }
        let footprint = |rows: i64| tile_bytes(target, (full_cols, dom.chunk_axis_len), specs, rows, cols);
        let fits = |rows: i64| footprint(rows) <= budget;
        let (mut lo, mut hi) = (1i64, total_rows.max(1));
        if specs.iter().all(|s| s.rows) {
            // Every buffer has rows: sizes, offsets and so the footprint are linear in the rows
            // (whole aligned rows), so one row's gives the most that fit, as the search would.
            lo = budget
                .checked_div(footprint(1))
                .map_or(hi, |r| i64::try_from(r).unwrap_or(i64::MAX).clamp(1, hi));
            hi = lo;
        }
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            if fits(mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let max_rows = lo;
        // A GM view has at most MAX_VIEW_DIMS dims: what the columns leave is for the box's
        // axes longer than 1 (counted unmerged); the axes outside the box are looped over.
        let box_dims = MAX_VIEW_DIMS.saturating_sub(dom.col_view_dims[usize::from(cols < full_cols)]);
        // The box: inner kept axes whole while they fit, then the key axis.
        let kept_desc: Vec<usize> = dom.kept.iter().rev().copied().collect();
        let mut inner = 1i64;
        let mut taken = 0;
        let mut key = *dom.kept.first().unwrap_or(&0);
        let mut block = 1i64;
        for (i, &a) in kept_desc.iter().enumerate() {
            let d = dom.domain[a];
            let dims = usize::from(d > 1);
            if inner * d <= max_rows && i + 1 < kept_desc.len() && taken + dims < box_dims {
                inner *= d;
                taken += dims;
                continue;
            }
            key = a;
            block = if taken < box_dims { (max_rows / inner).clamp(1, d) } else { 1 };
            break;
        }
        let key_len = if dom.kept.contains(&key) { dom.domain[key] } else { 1 };
        let outer: i64 = dom.kept.iter().filter(|&&a| a < key).map(|&a| dom.domain[a]).product();
        let cores = i64::from(target.cores.vector.max(1));
        // Spread over the cores when one tile would hold the rows of several.
        let wanted = cdiv(cores, outer.max(1));
        if outer * cdiv(key_len, block) < cores && wanted > 1 && taken < box_dims {
            block = cdiv(key_len, wanted.min(key_len)).max(1);
        }
        let tiles = outer * cdiv(key_len, block);
        let rows = block * inner;
        Ok(Tiling {
            key,
            block,
            block_dim: tiles.clamp(1, cores),
            peak_bytes: footprint(rows),
            col_block: cols,
            buffers: 1,
        })
    }

    /// [`Tiling::choose`] for a double-buffered tile loop when that pays: within half the
    /// budget the rows are whole (no column chunks), every core gets at least two tiles, and the
    /// estimate of [`Tiling::pipe_cycles`] is lower with the loads of one tile under the work of
    /// the other than with twice the tile in turn (each DMA transfer has a setup cost, so halving
    /// the tile does not always pay). Otherwise the single-buffered choice.
    pub fn choose_buffered<'c>(
        ctx: &Context<'c>,
        ir: &Ir<'c>,
        model: &VectorModel,
        target: &Target,
        shrink: u64,
    ) -> Result<Tiling, String> {
        let single = Tiling::choose(ctx, ir, model, target, shrink)?;
        let Ok(half) = Tiling::choose(ctx, ir, model, target, shrink.max(1).saturating_mul(2)) else {
            return Ok(single);
        };
        if half.col_block != model.cols() || half.tiles(model) < 2 * half.block_dim {
            return Ok(single);
        }
        let per_core = |t: &Tiling| cdiv(t.tiles(model), t.block_dim).max(1) as u64;
        let (l1, v1, s1) = single.pipe_cycles(ctx, ir, model, target);
        let (l2, v2, s2) = half.pipe_cycles(ctx, ir, model, target);
        let in_turn = per_core(&single) * (l1 + v1 + s1);
        let overlapped = (per_core(&half) - 1) * l2.max(v2).max(s2) + l2 + v2 + s2;
        Ok(if overlapped < in_turn { Tiling { buffers: 2, ..half } } else { single })
    }

    /// Estimated cycles of one body tile on MTE2 (loads), V and MTE3 (stores), from the
    /// target's rates: a DMA setup per transfer plus bytes over the pipe's rate, and one vector
    /// repeat per op and row per `repeat_bytes` of the row.
    pub fn pipe_cycles<'c>(
        &self,
        ctx: &Context<'c>,
        ir: &Ir<'c>,
        model: &VectorModel,
        target: &Target,
    ) -> (u64, u64, u64) {
        let bufs = model.buffers(ctx, ir);
        let rows = self.block
            * model.kept.iter().filter(|&&a| a > self.key).map(|&a| model.domain[a]).product::<i64>();
        let bytes = |v: &ValueId| {
            let spec = bufs.of.get(v).map(|&i| &bufs.specs[i])?;
            let r = if spec.rows { rows } else { 1 } as u64;
            let c = if spec.cols { self.col_block } else { 1 } as u64;
            Some(r * c * spec.elem.elem_bytes())
        };
        let setup = (u64::from(target.costs.dma_setup_ns) * u64::from(target.clock.mhz)).div_ceil(1000);
        let transfers = |vs: &[ValueId], rate: u32| -> u64 {
            vs.iter().filter_map(bytes).map(|b| setup + b.div_ceil(u64::from(rate.max(1)))).sum()
        };
        let p = &target.pipes;
        let load = transfers(&model.inputs, p.mte2_bytes_per_cycle);
        let store = transfers(&model.outputs, p.mte3_bytes_per_cycle);
        let row_repeats = (self.col_block as u64 * 4).div_ceil(target.vector.repeat_bytes.max(1));
        let vector =
            model.ops.len() as u64 * rows as u64 * row_repeats * u64::from(p.vector_cycles_per_repeat);
        (load, vector, store)
    }

    /// The number of tiles of `model` under this tiling.
    pub fn tiles(&self, model: &VectorModel) -> i64 {
        let key_len = if model.kept.contains(&self.key) { model.domain[self.key] } else { 1 };
        let outer: i64 = model.kept.iter().filter(|&&a| a < self.key).map(|&a| model.domain[a]).product();
        outer * cdiv(key_len, self.block)
    }

    /// The `npuvec.tile` attribute: `{block, block_dim, col_block, key, peak_bytes}`, and
    /// `buffers = 2` when double-buffered.
    pub fn attr<'c>(&self, ctx: &Context<'c>) -> Attribute<'c> {
        let e = |n: &str, v: i64| NamedAttr { name: ctx.intern_str(n), value: i64_attr(ctx, v) };
        let mut fields = vec![
            e("key", self.key as i64),
            e("block", self.block),
            e("block_dim", self.block_dim),
            e("peak_bytes", self.peak_bytes as i64),
            e("col_block", self.col_block),
        ];
        if self.buffers > 1 {
            fields.push(e("buffers", self.buffers));
        }
        ctx.dict_attr(&fields)
    }

    /// Reads an `npuvec.tile` attribute.
    pub fn from_attr(attr: Attribute<'_>) -> Option<Tiling> {
        let get = |n: &str| attr.dict_get(n).and_then(|a| a.as_int()).map(|v| v as i64);
        Some(Tiling {
            key: usize::try_from(get("key")?).ok()?,
            block: get("block").filter(|&b| b >= 1)?,
            block_dim: get("block_dim").filter(|&b| b >= 1)?,
            peak_bytes: u64::try_from(get("peak_bytes")?).ok()?,
            col_block: get("col_block").filter(|&c| c >= 1)?,
            buffers: match attr.dict_get("buffers") {
                None => 1,
                Some(_) => get("buffers").filter(|b| (1..=2).contains(b))?,
            },
        })
    }
}

/// `ceil(a / b)` for positive `b`.
pub fn cdiv(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The shape of a matmul kernel: `C[batch, M, N] = A[batch, M, K] x B[batch, K, N]`, read from
/// its single `hl.matmul` / `hl.batch_matmul`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatmulShape {
    /// The batch dims of the result (empty for `hl.matmul`).
    pub batch: Vec<i64>,
    /// Rows of the result.
    pub m: i64,
    /// Contraction length.
    pub k: i64,
    /// Cols of the result.
    pub n: i64,
    /// `A` is given as `[K, M]`.
    pub transpose_a: bool,
    /// `B` is given as `[N, K]`.
    pub transpose_b: bool,
    /// Bytes of an `A` / `B` element.
    pub in_bytes: u64,
    /// Bytes of a result element.
    pub out_bytes: u64,
}

impl MatmulShape {
    /// The shape of matmul `op`.
    pub fn of_op(ir: &Ir<'_>, op: kiln_compiler::OpId) -> Result<MatmulShape, String> {
        let name = ir.op(op).name;
        if !ir.is_any(op, &[&hl::MATMUL, &hl::BATCH_MATMUL]) {
            return Err(format!("no cube lowering for '{name}'"));
        }
        let shape = |v| ir.value_type(v).shape().filter(|s| s.iter().all(|&d| d >= 0)).map(<[i64]>::to_vec);
        let (Some(a), Some(b), Some(c)) =
            (shape(ir.operands(op)[0]), shape(ir.operands(op)[1]), shape(ir.results(op)[0]))
        else {
            return Err("kiln-codegen needs static shapes".into());
        };
        let flag = |n: &str| kiln_dialects::hl::accessors::bool_attr(ir.attr(op, n));
        let (transpose_a, transpose_b) = (flag("transpose_a"), flag("transpose_b"));
        let r = c.len();
        if a.len() != r || b.len() != r {
            return Err(format!("'{name}' with broadcast batch dims has no cube lowering"));
        }
        let k = if transpose_a { a[r - 2] } else { a[r - 1] };
        let bytes = |v| {
            u64::from(ir.value_type(v).element_type().and_then(|e| e.bit_width()).unwrap_or(8).div_ceil(8))
        };
        if a[..r - 2] != c[..r - 2] || b[..r - 2] != c[..r - 2] {
            return Err(format!("'{name}' with broadcast batch dims has no cube lowering"));
        }
        Ok(MatmulShape {
            batch: c[..r - 2].to_vec(),
            m: c[r - 2],
            k,
            n: c[r - 1],
            transpose_a,
            transpose_b,
            in_bytes: bytes(ir.operands(op)[0]),
            out_bytes: bytes(ir.results(op)[0]),
        })
    }
}

/// The UB bytes of one `m x n` result tile of a matmul, of `out_bytes` elements: the fixpipe's
/// output (a `mix` kernel's epilogue holds `Epilogue::ub_buffers` such tiles).
pub fn result_tile_bytes(target: &Target, m: u64, n: u64, out_bytes: u64) -> u64 {
    m * target.align(n * out_bytes)
}

/// A matmul kernel's tiling: result tiles of `m x n`, the contraction in chunks of `k`, all
/// multiples of the cube's fractal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatmulTiling {
    /// Result rows per tile.
    pub m: i64,
    /// Result cols per tile.
    pub n: i64,
    /// Contraction elements per step.
    pub k: i64,
    /// Cores the kernel runs on.
    pub block_dim: i64,
}

impl MatmulTiling {
    /// Chooses the tiles of the kernel body `body` (one matmul or batch matmul, the first `hl`
    /// op other than a constant; conv2d: `ConvShape::tiling` in `conv_plan.rs`) on `target`: the
    /// largest fractal multiples (up to 128 x 128 x 256) whose L1, L0A, L0B, L0C and UB (the
    /// fixpipe output, within the usable UB divided by `shrink`) footprints fit.
    pub fn choose(
        ir: &Ir<'_>,
        body: kiln_compiler::BlockId,
        target: &Target,
        shrink: u64,
    ) -> Result<MatmulTiling, String> {
        let op = ir
            .block_ops(body)
            .find(|&o| hl::HL.owns(ir.op(o).def) && !ir.is(o, &hl::CONSTANT))
            .ok_or("an empty kernel")?;
        let shape = MatmulShape::of_op(ir, op)?;
        let mut t = Self::fit(&shape, target, shrink)?;
        // A result stored through a head split: tiles of whole heads or inside one head.
        if let Some((_, view)) = StoreView::of_body(ir, body) {
            let f = i64::from(target.cube.fractal.max(1));
            t.n =
                (1..=t.n / f).rev().map(|i| i * f).find(|&n| view.n_tile_ok(shape.n, n)).ok_or_else(
                    || format!("no tile of {f}-column fractals stores whole heads of the result"),
                )?;
            t.block_dim = Self::cores_for(&shape, target, t.m, t.n);
        }
        Ok(t)
    }

    /// The largest tiles of the matmul `s` that fit `target` (see [`MatmulTiling::choose`]).
    pub fn fit(s: &MatmulShape, target: &Target, shrink: u64) -> Result<MatmulTiling, String> {
        let f = i64::from(target.cube.fractal.max(1));
        let up = |x: i64| cdiv(x.max(1), f) * f;
        let (mut m, mut n, mut k) = (up(s.m).min(128), up(s.n).min(128), up(s.k).min(256));
        let mem = &target.memory;
        let ub = mem.ub_usable_bytes / shrink.max(1);
        let fits = |m: i64, n: i64, k: i64| {
            let (m, n, k) = (m as u64, n as u64, k as u64);
            m * k * s.in_bytes <= mem.l0a_bytes
                && k * n * s.in_bytes <= mem.l0b_bytes
                && m * n * 4 <= mem.l0c_bytes
                && (m * k + k * n) * s.in_bytes <= mem.l1_bytes
                && result_tile_bytes(target, m, n, s.out_bytes) <= ub
        };
        while !fits(m, n, k) {
            if k > f {
                k = (k / 2 / f).max(1) * f;
            } else if n > f && n >= m {
                n = (n / 2 / f).max(1) * f;
            } else if m > f {
                m = (m / 2 / f).max(1) * f;
            } else {
                return Err(format!(
                    "one {f}x{f} fractal tile does not fit the target's buffers (UB {ub} bytes, L0C {} bytes)",
                    mem.l0c_bytes
                ));
            }
        }
        Ok(MatmulTiling { m, n, k, block_dim: Self::cores_for(s, target, m, n) })
    }

    /// The cube cores tiles of `m x n` of `s` take: one a tile, at most the target's.
    fn cores_for(s: &MatmulShape, target: &Target, m: i64, n: i64) -> i64 {
        let tiles = s.batch.iter().product::<i64>() * cdiv(s.m, m) * cdiv(s.n, n);
        tiles.clamp(1, i64::from(target.cores.cube.max(1)))
    }

    /// The `npuvec.tile` attribute: `{block_dim = N, k = K, m = M, n = N}`.
    pub fn attr<'c>(&self, ctx: &Context<'c>) -> Attribute<'c> {
        let e = |n: &str, v: i64| NamedAttr { name: ctx.intern_str(n), value: i64_attr(ctx, v) };
        ctx.dict_attr(&[e("m", self.m), e("n", self.n), e("k", self.k), e("block_dim", self.block_dim)])
    }

    /// Reads an `npuvec.tile` attribute of a matmul kernel.
    pub fn from_attr(attr: Attribute<'_>) -> Option<MatmulTiling> {
        let get = |n: &str| attr.dict_get(n).and_then(|a| a.as_int()).map(|v| v as i64).filter(|&v| v >= 1);
        Some(MatmulTiling { m: get("m")?, n: get("n")?, k: get("k")?, block_dim: get("block_dim")? })
    }
}

#[cfg(test)]
mod tests {
    use kiln_bytecode::isa::DType;

    use super::*;

    /// With one core (no spreading), the rows are the most whose placed buffers fit, found
    /// from one row's footprint when every buffer has rows, by the search otherwise.
    #[test]
    fn the_rows_are_the_most_that_fit() {
        let mut target = Target::load("tiny-npu").unwrap();
        target.cores.vector = 1;
        let buf = |rows, first, last| TileBuf { rows, cols: true, elem: DType::F32, first, last };
        for rows_everywhere in [true, false] {
            let specs = [buf(true, 0, 2), buf(true, 1, 3), buf(rows_everywhere, 0, 3)];
            for (r, c) in [(1000, 8), (77, 130), (5, 1000), (300, 3)] {
                let domain = [r, c];
                let dom = TileDomain {
                    domain: &domain,
                    kept: &[0],
                    cols: c,
                    chunk_axis_len: c,
                    col_view_dims: [1, 1],
                };
                let t = Tiling::choose_in(&target, &dom, &specs, || None, 1).unwrap();
                let fits = |rows| peak_bytes(&target, &specs, rows, c) <= target.memory.ub_usable_bytes;
                assert!(t.block == r || (fits(t.block) && !fits(t.block + 1)), "{r} x {c}: {t:?}");
                assert_eq!(t.peak_bytes, peak_bytes(&target, &specs, t.block, c));
            }
        }
    }
}
