//! A tile whose rows are too long for the UB, reduced column chunk by column chunk.
//!
//! The tile's values split into row values (no cols: reduction results and what is computed
//! from them) and column values. Each reduction is a stage: for every chunk of columns the
//! stage loads the column inputs it needs, recomputes the column values its operand depends on
//! and folds the chunk into the reduction's accumulator (`accumulate` after the first chunk, so
//! the fold runs in column order, as the interpreter's); between stages, the row values whose
//! operands are ready are computed once. A last pass over the chunks computes and stores the
//! column outputs. The full chunks after the first run in an `scf.for` (the chunk index makes
//! the GM offsets), the first and the tail chunk on their own (the first starts each fold, the
//! tail has its own width); every value has its own buffer (`VectorModel::staged_buffers`), so
//! recomputation clobbers nothing.
//!
//! With several reduced axes longer than 1, chunks run along the last of them, one index of the
//! others at a time: index 0 of the others first (its first chunk starts the fold), then the
//! rest in an `scf.for` over their flattened index `q` (every chunk accumulates), so the fold
//! still runs in the row-major order of the reduced elements.

use kiln_dialects::arith;
use kiln_dialects::npuvec;
use rustc_hash::{FxHashMap, FxHashSet};

use kiln_compiler::{Ir, OpId, ValueId};

use super::build::{i64_array, Build, Builder};
use super::lower_vector::{feed, Strides, Tile};
use super::model::{is_reduction, is_view, Buffers, VectorModel};
use super::tiling::cdiv;
use super::vector_ops::{lower_op, reduce_finish, reduce_kind, reduce_partial, TileOp};

/// Where a chunk starts along the chunked axis: a static first column, or chunk number `kk` (a
/// loop index) of full chunks.
#[derive(Clone, Copy)]
enum Col {
    At(i64),
    Chunk(ValueId),
}

/// Where a chunk is: the index of each other long reduced axis (`(axis, index)`; none for
/// index 0 of all) and its start along the chunked axis.
#[derive(Clone, Copy)]
struct At<'a> {
    rep: &'a [(usize, ValueId)],
    col: Col,
}

/// The index of each axis of `others` (ascending, row-major) in their flattened index `q`.
fn rep_indices(
    b: &mut Builder<'_, '_>,
    m: &VectorModel,
    others: &[usize],
    q: ValueId,
) -> Vec<(usize, ValueId)> {
    let mut inner = 1i64;
    let mut out = Vec::with_capacity(others.len());
    for (k, &a) in others.iter().enumerate().rev() {
        let mut i = q;
        if inner > 1 {
            let d = b.index(inner);
            i = b.index_op(&arith::DIVUI_OP, i, d);
        }
        if k > 0 {
            let d = b.index(m.domain[a]);
            i = b.index_op(&arith::REMUI_OP, i, d);
        }
        out.push((a, i));
        inner *= m.domain[a];
    }
    out
}

impl Tile<'_> {
    /// Emits a staged tile of `rows` rows; `sets` holds the buffers of each chunk width.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_staged<'c>(
        &self,
        b: &mut Builder<'_, 'c>,
        bufs: &Buffers<'c>,
        sets: &[(i64, Vec<ValueId>)],
        rows: i64,
        chunk: i64,
        offsets: &FxHashMap<Strides, ValueId>,
        strides_of: &dyn Fn(&Ir<'c>, ValueId, bool) -> Strides,
    ) -> Result<(), String> {
        let m = self.model;
        let col_axes = m.col_axes();
        let (&axis, others) = col_axes.split_last().ok_or("a staged tile needs a reduced axis")?;
        let total = m.domain[axis];
        let reps: i64 = others.iter().map(|&a| m.domain[a]).product();
        let chunks = cdiv(total, chunk);
        let width = |c: i64| if c == chunks - 1 && total % chunk != 0 { total % chunk } else { chunk };
        let set = |c: i64| &sets.iter().find(|(w, _)| *w == width(c)).expect("a set per chunk width").1;
        let row_set = set(0);
        let has_cols = |v: &ValueId| bufs.of.get(v).is_some_and(|&k| bufs.specs[k].cols);
        let mut avail: FxHashSet<ValueId> = FxHashSet::default();
        for (&v, i) in &m.info {
            if i.splat.is_some() {
                avail.insert(v);
            }
        }
        // Row inputs now; inputs with neither rows nor cols were loaded before the loop.
        for &v in self.inputs {
            let Some(&k) = bufs.of.get(&v) else { continue };
            let spec = &bufs.specs[k];
            if spec.cols {
                continue;
            }
            if spec.rows {
                let strides = strides_of(b.ir, v, false);
                let (sizes, st) = self.geo.view(m, &strides, true, false, rows, None);
                feed(b, v, self.feeds[&v], offsets[&strides], row_set[k], &sizes, &st)?;
            }
            avail.insert(v);
        }
        self.rowwise(b, bufs, row_set, &mut avail)?;
        for &red in &m.ops {
            let result = b.ir.results(red)[0];
            let Some((kind, mean)) = reduce_kind(b.ir, red).filter(|_| is_reduction(b.ir, red)) else {
                continue;
            };
            if avail.contains(&result) {
                continue;
            }
            let x = b.ir.operands(red)[0];
            let (inputs, ops) = self.cone(b.ir, bufs, &[x], &avail);
            let acc = bufs.temp.get(&red).map_or(row_set[bufs.of[&result]], |&k| row_set[k]);
            let src = |c: i64| if has_cols(&x) { set(c)[bufs.of[&x]] } else { row_set[bufs.of[&x]] };
            let fold = |b: &mut Builder<'_, 'c>,
                        c: i64,
                        at: At<'_>,
                        accumulate: bool|
             -> Result<(), String> {
                self.chunk(b, bufs, set(c), rows, at, width(c), axis, &inputs, &ops, offsets, strides_of)?;
                reduce_partial(b, kind, src(c), acc, accumulate);
                Ok(())
            };
            // One index of the other reduced axes: its chunk 0, the other full chunks in a
            // loop, the tail chunk last. Chunk 0 of the first index starts the fold.
            let fold_row = |b: &mut Builder<'_, 'c>,
                            rep: &[(usize, ValueId)],
                            first: bool|
             -> Result<(), String> {
                fold(b, 0, At { rep, col: Col::At(0) }, !first)?;
                let full = total / chunk;
                if full > 2 {
                    let (lo, hi, one) = (b.index(1), b.index(full), b.index(1));
                    b.for_loop([lo, hi, one], |bb, kk| fold(bb, 1, At { rep, col: Col::Chunk(kk) }, true))?;
                } else if full == 2 {
                    fold(b, 1, At { rep, col: Col::At(chunk) }, true)?;
                }
                if chunks > full.max(1) {
                    fold(b, chunks - 1, At { rep, col: Col::At((chunks - 1) * chunk) }, true)?;
                }
                Ok(())
            };
            fold_row(b, &[], true)?;
            if reps > 1 {
                let (lo, hi, one) = (b.index(1), b.index(reps), b.index(1));
                b.for_loop([lo, hi, one], |bb, q| {
                    let rep = rep_indices(bb, m, others, q);
                    fold_row(bb, &rep, false)
                })?;
            }
            reduce_finish(b, red, acc, row_set[bufs.of[&result]], mean)?;
            avail.insert(result);
            self.rowwise(b, bufs, row_set, &mut avail)?;
        }
        // Column outputs, chunk by chunk; then row outputs.
        let col_outputs: Vec<ValueId> = self.outputs.iter().copied().filter(|v| has_cols(v)).collect();
        let (inputs, ops) = self.cone(b.ir, bufs, &col_outputs, &avail);
        let pass = |b: &mut Builder<'_, 'c>, c: i64, at: At<'_>| -> Result<(), String> {
            self.chunk(b, bufs, set(c), rows, at, width(c), axis, &inputs, &ops, offsets, strides_of)?;
            for (&v, &gm) in self.outputs.iter().zip(self.out_gm) {
                if has_cols(&v) {
                    let spec = &bufs.specs[bufs.of[&v]];
                    let strides = strides_of(b.ir, v, true);
                    let (sizes, st) = self.geo.view(m, &strides, spec.rows, true, rows, Some(width(c)));
                    let start = self.start(b, spec.rows, &strides, offsets, at, strides[axis], chunk);
                    let (s, t) = (i64_array(b.ctx, &sizes), i64_array(b.ctx, &st));
                    b.op(
                        &npuvec::STORE_OP,
                        &[set(c)[bufs.of[&v]], gm, start],
                        &[("sizes", s), ("strides", t)],
                        &[],
                        0,
                    );
                }
            }
            Ok(())
        };
        let pass_row = |b: &mut Builder<'_, 'c>, rep: &[(usize, ValueId)]| -> Result<(), String> {
            let full = total / chunk;
            if full > 1 {
                let (lo, hi, one) = (b.index(0), b.index(full), b.index(1));
                b.for_loop([lo, hi, one], |bb, kk| pass(bb, 0, At { rep, col: Col::Chunk(kk) }))?;
            } else if full == 1 {
                pass(b, 0, At { rep, col: Col::At(0) })?;
            }
            if chunks > full {
                pass(b, chunks - 1, At { rep, col: Col::At((chunks - 1) * chunk) })?;
            }
            Ok(())
        };
        if !col_outputs.is_empty() && reps > 1 {
            let (lo, hi, one) = (b.index(0), b.index(reps), b.index(1));
            b.for_loop([lo, hi, one], |bb, q| {
                let rep = rep_indices(bb, m, others, q);
                pass_row(bb, &rep)
            })?;
        } else if !col_outputs.is_empty() {
            pass_row(b, &[])?;
        }
        for (&v, &gm) in self.outputs.iter().zip(self.out_gm) {
            if !has_cols(&v) {
                let spec = &bufs.specs[bufs.of[&v]];
                let strides = strides_of(b.ir, v, true);
                let (sizes, st) = self.geo.view(m, &strides, spec.rows, false, rows, None);
                let start =
                    self.start(b, spec.rows, &strides, offsets, At { rep: &[], col: Col::At(0) }, 0, 0);
                let (s, t) = (i64_array(b.ctx, &sizes), i64_array(b.ctx, &st));
                b.op(
                    &npuvec::STORE_OP,
                    &[row_set[bufs.of[&v]], gm, start],
                    &[("sizes", s), ("strides", t)],
                    &[],
                    0,
                );
            }
        }
        Ok(())
    }

    /// The GM start of a value's chunk: its tile offset (or its base, without rows) plus the
    /// chunk's first column `at` times the column stride `stride` (`chunk` columns per chunk),
    /// plus the indices of the other reduced axes times their strides.
    #[allow(clippy::too_many_arguments)]
    fn start(
        &self,
        b: &mut Builder<'_, '_>,
        rows: bool,
        strides: &Strides,
        offsets: &FxHashMap<Strides, ValueId>,
        at: At<'_>,
        stride: i64,
        chunk: i64,
    ) -> ValueId {
        let base = strides.last().copied().unwrap_or(0);
        let mut tile = match offsets.get(strides) {
            Some(&o) if rows => Some(o),
            _ => None,
        };
        let terms: Vec<(Option<ValueId>, i64)> =
            at.rep.iter().filter(|&&(a, _)| strides[a] != 0).map(|&(a, i)| (Some(i), strides[a])).collect();
        if !terms.is_empty() {
            let origin = tile.unwrap_or_else(|| b.index(base));
            let shift = b.linear(&terms, 0);
            tile = Some(b.index_op(&arith::ADDI_OP, origin, shift));
        }
        match at.col {
            Col::At(first) => {
                let extra = first * stride;
                match tile {
                    Some(o) if extra == 0 => o,
                    Some(o) => {
                        let e = b.index(extra);
                        b.index_op(&arith::ADDI_OP, o, e)
                    }
                    None => b.index(base + extra),
                }
            }
            Col::Chunk(kk) => {
                let shift = b.linear(&[(Some(kk), chunk * stride)], 0);
                let origin = tile.unwrap_or_else(|| b.index(base));
                b.index_op(&arith::ADDI_OP, origin, shift)
            }
        }
    }

    /// Computes, once, every row value (no cols, not a reduction) whose operands are ready.
    fn rowwise<'c>(
        &self,
        b: &mut Builder<'_, 'c>,
        bufs: &Buffers<'c>,
        set: &[ValueId],
        avail: &mut FxHashSet<ValueId>,
    ) -> Result<(), String> {
        loop {
            let mut progress = false;
            for &op in &self.model.ops {
                let r = b.ir.results(op)[0];
                let ready = b.ir.operands(op).iter().all(|x| avail.contains(x));
                let cols = bufs.of.get(&r).is_some_and(|&k| bufs.specs[k].cols);
                if avail.contains(&r) || !ready || cols || is_reduction(b.ir, op) {
                    continue;
                }
                self.lower_one(b, bufs, set, op)?;
                avail.insert(r);
                progress = true;
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// The column inputs and ops (in program order) that `targets` need beyond `avail`.
    fn cone(
        &self,
        ir: &Ir<'_>,
        bufs: &Buffers<'_>,
        targets: &[ValueId],
        avail: &FxHashSet<ValueId>,
    ) -> (Vec<ValueId>, Vec<OpId>) {
        let mut need: FxHashSet<ValueId> = FxHashSet::default();
        let mut stack: Vec<ValueId> = targets.to_vec();
        while let Some(v) = stack.pop() {
            if avail.contains(&v) || !need.insert(v) {
                continue;
            }
            if let Some(d) = ir.defining_op(v).filter(|d| self.model.ops.contains(d)) {
                stack.extend(ir.operands(d).iter().copied());
            }
        }
        let inputs =
            self.inputs.iter().copied().filter(|v| need.contains(v) && bufs.of.contains_key(v)).collect();
        let ops = self.model.ops.iter().copied().filter(|&o| need.contains(&ir.results(o)[0])).collect();
        (inputs, ops)
    }

    /// Loads the column inputs of one chunk and runs `ops` on it.
    #[allow(clippy::too_many_arguments)]
    fn chunk<'c>(
        &self,
        b: &mut Builder<'_, 'c>,
        bufs: &Buffers<'c>,
        set: &[ValueId],
        rows: i64,
        at: At<'_>,
        width: i64,
        axis: usize,
        inputs: &[ValueId],
        ops: &[OpId],
        offsets: &FxHashMap<Strides, ValueId>,
        strides_of: &dyn Fn(&Ir<'c>, ValueId, bool) -> Strides,
    ) -> Result<(), String> {
        for &v in inputs {
            let k = bufs.of[&v];
            let spec = &bufs.specs[k];
            let strides = strides_of(b.ir, v, false);
            let (sizes, st) = self.geo.view(self.model, &strides, spec.rows, true, rows, Some(width));
            let start = self.start(b, spec.rows, &strides, offsets, at, strides[axis], width);
            feed(b, v, self.feeds[&v], start, set[k], &sizes, &st)?;
        }
        for &op in ops {
            self.lower_one(b, bufs, set, op)?;
        }
        Ok(())
    }

    /// Lowers one op with its operands' and result's buffers from `set`.
    fn lower_one<'c>(
        &self,
        b: &mut Builder<'_, 'c>,
        bufs: &Buffers<'c>,
        set: &[ValueId],
        op: OpId,
    ) -> Result<(), String> {
        let result = b.ir.results(op)[0];
        let operands = b.ir.operands(op).to_vec();
        if is_view(b.ir, op) && operands.first().and_then(|x| bufs.of.get(x)) == bufs.of.get(&result) {
            return Ok(());
        }
        let mut srcs = Vec::with_capacity(operands.len());
        for &x in &operands {
            srcs.push(match self.model.info[&x].splat {
                Some(v) => {
                    let elem = b.ir.value_type(x).element_type().ok_or("a non-tensor operand")?;
                    b.immediate(elem, v)
                }
                None => set[bufs.of[&x]],
            });
        }
        let t =
            TileOp { op, srcs: &srcs, dst: set[bufs.of[&result]], temp: bufs.temp.get(&op).map(|&k| set[k]) };
        lower_op(b, &t).map_err(|e| format!("{e} (at {})", b.ir.op(op).loc))
    }
}
