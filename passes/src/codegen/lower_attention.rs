//! Lowering one attention kernel (after bufferization) to a flash-attention loop: the S x S
//! scores never leave the chip.
//!
//! ```text
//! scf.for %t = block_idx to B * ceil(Sq / q) step block_num {       // t -> (batch, query tile)
//!   load Q[t] -> L1 (zero padded) -> L0A                              // resident
//!   m = -inf, l = 0, O = 0                                             // per row, f32, in UB
//!   for each key tile j (k keys, the tail last):
//!     load K^T[j] -> L1 -> L0B; mmad -> L0C; fixpipe -> S (UB, QK^T's type)
//!     [S *= scale]; the score ops on the tile (mask leaves loaded per tile)
//!     m' = max(m, rowmax(S)); z = (m' == -inf) ? 0 : m'; a = exp(m - z)
//!     P = exp(S - z); l = l * a + rowsum(P); m = m'
//!     store P (PV's type) -> workspace[block_idx]; load -> L1 -> L0A; load V[j] -> L1 -> L0B
//!     mmad -> L0C; fixpipe -> PV (UB, f32); O = O * a + PV (during the next tile's softmax)
//!   O = O / l; [NaN guard: O = (O != O) ? 0 : O]; cast; store through the head merge
//! }
//! ```
//!
//! Contract. Assumes: the kernel holds an attention `AttentionForm` reads (`attention_form.rs`),
//! `npuvec.tile` is an `AttentionTiling`, and its last argument is the GM workspace
//! `[block_dim, q, k]` of PV's operand type that `kiln-codegen-bufferize` adds (the cube reads
//! its operands from L1, which only GM loads fill: P goes through one tile of GM per core, as
//! AIV and AIC exchange data on the Ascend 910B; never an S x S buffer). Guarantees: the
//! kernel computes the attention of the interpreter up to the online softmax's reordering:
//! the scores and the score ops in their own types (the interpreter's rounding), the softmax
//! in `f32` with the running max (no overflow for any finite logits), the probabilities
//! rounded to PV's type before the normalization instead of after. A row whose scores are all
//! -inf gives 0 / 0 = NaN, as the interpreter's softmax does (and 0 under a NaN guard): the
//! subtracted max `z` is 0 where the running max is -inf, so no -inf - -inf appears before.
//! Tiles of keys above a causal diagonal are not skipped: the mask is applied to every tile.

use kiln_compiler::InsertPoint;
use kiln_compiler::{Context, FloatKind, Ir, OpId, Type, ValueId};
use kiln_dialects::hl::canonicalize::splat_element;
use kiln_dialects::npuvec::{CmpPredicate, ReduceKind, RoundMode, Space};
use kiln_dialects::{arith, bufferization, func, npuvec};
use rustc_hash::FxHashMap;

use super::attention_form::{elem_of, AttentionForm, GmOperand, Slot};
use super::attention_tiling::{AttentionExtent as Ext, AttentionTiling};
use super::build::{i64_array, memref_type, split_index, Build, Builder};
use super::lower_matmul::{variants, with_tail};
use super::store_view::Factors;
use super::tiling::cdiv;
use super::vector_ops::{lower_op, reduce_partial, TileOp};

/// The GM workspace of attention kernel `kernel` (tiled): `[block_dim, q, k]` of PV's operand
/// type, one tile of probabilities per core; `None` for another kernel.
pub fn workspace_type<'c>(ctx: &Context<'c>, ir: &Ir<'c>, kernel: OpId) -> Option<Type<'c>> {
    let t = ir.attr(kernel, "npuvec.tile").and_then(AttentionTiling::from_attr)?;
    let body = ir.regions(kernel).first().and_then(|&r| ir.entry_block(r))?;
    let ops: Vec<OpId> = ir.block_ops(body).collect();
    let form = AttentionForm::of_ops(ir, &ops).ok()?;
    Some(memref_type(ctx, &[t.block_dim, t.q, t.k], form.probs_elem(ir), Space::Gm))
}

/// Row states (`Slot::Row`).
const M: usize = 0;
const L: usize = 1;
const TILE_MAX: usize = 2;
const NEW_MAX: usize = 3;
const SUB_MAX: usize = 4;
const RESCALE: usize = 5;
const TILE_SUM: usize = 6;
const PREV_RESCALE: usize = 7;

/// Lowers the attention kernel `kernel` in place.
pub fn lower_attention_kernel<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId) -> Result<(), String> {
    let body =
        ir.regions(kernel).first().and_then(|&r| ir.entry_block(r)).ok_or("a kernel without a body")?;
    let t = ir
        .attr(kernel, "npuvec.tile")
        .and_then(AttentionTiling::from_attr)
        .ok_or("the kernel has no npuvec.tile (run kiln-codegen-tile)")?;
    let old: Vec<OpId> = ir.block_ops(body).collect();
    let form = AttentionForm::of_ops(ir, &old)?;
    let out_gm = old
        .iter()
        .find(|&&o| {
            ir.is(o, &bufferization::MATERIALIZE_IN_DESTINATION_OP) && ir.operands(o)[0] == form.output
        })
        .map(|&o| ir.operands(o)[1])
        .ok_or("the attention's output is not stored")?;
    let workspace = *ir.block_args(body).last().ok_or("a kernel without arguments")?;
    let view = form.store_view(ir)?;
    let buffers = form.tile_buffers(ctx, ir);
    let loc = ir.op(kernel).loc;
    let mut b = Builder::new(ctx, ir, InsertPoint::Before(old[0]), loc);
    let f = 16;
    let up = |x: i64| cdiv(x.max(1), f) * f;
    let (dp, dvp) = (up(form.d), up(form.dv));
    let qk_elem = elem_of(b.ir, b.ir.operands(form.qk)[0]);
    let pv_elem = form.probs_elem(b.ir);
    let f32t = ctx.float_type(FloatKind::F32);
    let alloc = |b: &mut Builder<'_, 'c>, shape: &[i64], elem, space| {
        b.value(&npuvec::ALLOC_OP, &[], &[], memref_type(ctx, shape, elem, space))
    };
    let cube = CubeSide {
        q1: alloc(&mut b, &[t.q, dp], qk_elem, Space::L1),
        k1: alloc(&mut b, &[dp, t.k], qk_elem, Space::L1),
        p1: alloc(&mut b, &[t.q, t.k], pv_elem, Space::L1),
        v1: alloc(&mut b, &[t.k, dvp], pv_elem, Space::L1),
        qa: alloc(&mut b, &[t.q, dp], qk_elem, Space::L0a),
        pa: alloc(&mut b, &[t.q, t.k], pv_elem, Space::L0a),
        kb: alloc(&mut b, &[dp, t.k], qk_elem, Space::L0b),
        vb: alloc(&mut b, &[t.k, dvp], pv_elem, Space::L0b),
        sc: alloc(&mut b, &[t.q, t.k], f32t, Space::L0c),
        oc: alloc(&mut b, &[t.q, dvp], f32t, Space::L0c),
    };
    // The UB buffers of every (query rows, keys) tile variant.
    let mut ub: FxHashMap<(Slot, i64, i64), ValueId> = FxHashMap::default();
    for &vq in &variants(form.sq, t.q) {
        for &vk in &variants(form.skv, t.k) {
            for &(slot, r, c, elem) in &buffers {
                let extent = |e: Ext| match e {
                    Ext::One => 1,
                    Ext::Queries => vq,
                    Ext::Keys => vk,
                    Ext::Values => form.dv,
                };
                let key = (slot, vq, if r == Ext::Queries && c != Ext::Keys { 0 } else { vk });
                if let std::collections::hash_map::Entry::Vacant(e) = ub.entry(key) {
                    e.insert(alloc(&mut b, &[extent(r), extent(c)], elem, Space::Ub));
                }
            }
        }
    }
    let bid = b.value(&npuvec::BLOCK_IDX_OP, &[], &[], ctx.index_type());
    let nb = b.value(&npuvec::BLOCK_NUM_OP, &[], &[], ctx.index_type());
    let batch: i64 = form.batch.iter().product();
    let nqt = cdiv(form.sq, t.q);
    let tiles = b.index(batch * nqt);
    let k = Kernel { form: &form, t: &t, cube, ub, workspace, out_gm, bid, view_batch: view.batch.clone() };
    let (out_rows, out_cols) = match view.n {
        super::store_view::Cols::One(s) => (view.m, s),
        super::store_view::Cols::Heads { .. } => return Err("a head merge of several heads".into()),
    };
    b.for_loop([bid, tiles, nb], |lb, ti| {
        let n = lb.index(nqt);
        let qi = lb.index_op(&arith::REMUI_OP, ti, n);
        let bi = (batch > 1).then(|| lb.index_op(&arith::DIVUI_OP, ti, n));
        with_tail(lb, Some(qi), form.sq, t.q, &mut |b, vq| k.query_tile(b, bi, qi, vq, (out_rows, out_cols)))
    })?;
    for &op in old.iter().rev() {
        if !b.ir.is(op, &func::RETURN_OP) {
            b.ir.erase_op(op);
        }
    }
    Ok(())
}

/// The cube's buffers: Q, K^T, P and V in L1 and L0, the scores and PV in L0C.
struct CubeSide {
    q1: ValueId,
    k1: ValueId,
    p1: ValueId,
    v1: ValueId,
    qa: ValueId,
    pa: ValueId,
    kb: ValueId,
    vb: ValueId,
    sc: ValueId,
    oc: ValueId,
}

/// What every tile uses.
struct Kernel<'k> {
    form: &'k AttentionForm,
    t: &'k AttentionTiling,
    cube: CubeSide,
    ub: FxHashMap<(Slot, i64, i64), ValueId>,
    workspace: ValueId,
    out_gm: ValueId,
    bid: ValueId,
    view_batch: Vec<i64>,
}

/// `(index, scale)` terms of the GM offset of batch element `bi` (the scores' batch dims
/// flattened) in a view whose batch dims are `dims`: each dim's index split into its factors.
fn batch_terms(
    b: &mut Builder<'_, '_>,
    bi: Option<ValueId>,
    batch: &[i64],
    dims: &[Factors],
) -> Vec<(Option<ValueId>, i64)> {
    let Some(bi) = bi else { return vec![] };
    let mut terms = Vec::new();
    for (d, idx) in split_index(b, bi, batch) {
        let sizes: Vec<i64> = dims[d].iter().map(|f| f.0).collect();
        for (i, sub) in split_index(b, idx, &sizes) {
            if dims[d][i].1 != 0 {
                terms.push((Some(sub), dims[d][i].1));
            }
        }
    }
    terms
}

/// `npuvec.load` of `sizes` elements of `gm` at `off` with `strides` into `dst`.
fn load(
    b: &mut Builder<'_, '_>,
    gm: ValueId,
    off: ValueId,
    dst: ValueId,
    sizes: &[i64],
    strides: &[i64],
    pad: bool,
) {
    let mut attrs = vec![("sizes", i64_array(b.ctx, sizes)), ("strides", i64_array(b.ctx, strides))];
    if pad {
        attrs.push(("zero_pad", b.ctx.unit_attr()));
    }
    b.op(&npuvec::LOAD_OP, &[gm, off, dst], &attrs, &[], 0);
}

/// `npuvec.store` of `src` to `gm` at `off`.
fn store(b: &mut Builder<'_, '_>, src: ValueId, gm: ValueId, off: ValueId, sizes: &[i64], strides: &[i64]) {
    let (sz, st) = (i64_array(b.ctx, sizes), i64_array(b.ctx, strides));
    b.op(&npuvec::STORE_OP, &[src, gm, off], &[("sizes", sz), ("strides", st)], &[], 0);
}

impl Kernel<'_> {
    /// The UB buffer of `slot` at `vq` query rows and `vk` keys.
    fn buf(&self, slot: Slot, vq: i64, vk: i64) -> ValueId {
        let slot = match slot {
            Slot::Value(v) => Slot::Value(self.form.home(v)),
            other => other,
        };
        self.ub.get(&(slot, vq, vk)).or_else(|| self.ub.get(&(slot, vq, 0))).copied().expect("allocated")
    }

    fn row(&self, i: usize, vq: i64) -> ValueId {
        self.buf(Slot::Row(i), vq, 0)
    }

    /// The work of one query tile of `vq` rows (batch element `bi`, tile `qi`).
    fn query_tile(
        &self,
        b: &mut Builder<'_, '_>,
        bi: Option<ValueId>,
        qi: ValueId,
        vq: i64,
        out: (i64, i64),
    ) -> Result<(), String> {
        let (form, t, c) = (self.form, self.t, &self.cube);
        let f32t = b.ctx.float_type(FloatKind::F32);
        let nb = form.batch.len();
        let mut terms = batch_terms(b, bi, &form.batch, &form.q.dims[..nb]);
        terms.push((Some(qi), t.q * form.q.stride(0)));
        let off = b.linear(&terms, 0);
        load(b, form.q.src, off, c.q1, &[vq, form.d], &[form.q.stride(0), form.q.stride(1)], true);
        b.op(&npuvec::MOVE_OP, &[c.q1, c.qa], &[], &[], 0);
        let (m, l, acc) = (self.row(M, vq), self.row(L, vq), self.buf(Slot::Acc, vq, 0));
        for (dst, v) in [(m, f64::NEG_INFINITY), (l, 0.0), (acc, 0.0)] {
            let imm = b.scalar(f32t, v);
            b.op(&npuvec::FILL_OP, &[imm, dst], &[], &[], 0);
        }
        // The key tiles, software-pipelined: step j computes the scores of tile j + 1 on the
        // cube while the vector unit works on tile j.
        let (full, tail) = (form.skv / t.k, form.skv % t.k);
        let keys = |j: i64| if j < full { t.k } else { tail };
        let n = full + i64::from(tail > 0);
        let zero = b.index(0);
        self.scores(b, bi, zero, vq, keys(0));
        let mut first = 0;
        if full >= 2 {
            let one = b.index(1);
            self.key_tile(b, bi, qi, zero, vq, t.k, Some((one, t.k)), false)?;
            if full >= 3 {
                let end = b.index(full - 1);
                b.for_loop([one, end, one], |lb, j| {
                    let next = lb.index_op(&arith::ADDI_OP, j, one);
                    self.key_tile(lb, bi, qi, j, vq, t.k, Some((next, t.k)), true)
                })?;
            }
            first = full - 1;
        }
        for j in first..n {
            let (at, next) = (b.index(j), (j + 1 < n).then(|| b.index(j + 1)));
            self.key_tile(b, bi, qi, at, vq, keys(j), next.map(|x| (x, keys(j + 1))), j > 0)?;
        }
        self.accumulate(b, vq, RESCALE);
        b.op(&npuvec::DIV_OP, &[acc, l, acc], &[], &[], 0);
        if form.guard {
            let mask = self.buf(Slot::GuardMask, vq, 0);
            let ne = CmpPredicate::Ne.attr(b.ctx);
            b.op(&npuvec::CMP_OP, &[acc, acc, mask], &[("predicate", ne)], &[], 0);
            let zero = b.scalar(f32t, 0.0);
            b.op(&npuvec::SELECT_OP, &[mask, zero, acc, acc], &[], &[], 0);
        }
        let result = if elem_of(b.ir, form.output) != f32t {
            let o = self.buf(Slot::Out, vq, 0);
            let rint = RoundMode::Rint.attr(b.ctx);
            b.op(&npuvec::CAST_OP, &[acc, o], &[("round", rint)], &[], 0);
            o
        } else {
            acc
        };
        let dims: Vec<Factors> =
            self.view_batch.iter().zip(&form.batch).map(|(&s, &n)| vec![(n, s)]).collect();
        let mut terms = batch_terms(b, bi, &form.batch, &dims);
        terms.push((Some(qi), t.q * out.0));
        let off = b.linear(&terms, 0);
        store(b, result, self.out_gm, off, &[vq, form.dv], &[out.0, out.1]);
        Ok(())
    }

    /// The scores of key tile `j` (`vk` keys) on the cube, into L0C.
    fn scores(&self, b: &mut Builder<'_, '_>, bi: Option<ValueId>, j: ValueId, vq: i64, vk: i64) {
        let (form, t, c) = (self.form, self.t, &self.cube);
        let nb = form.batch.len();
        let mut terms = batch_terms(b, bi, &form.batch, &form.kt.dims[..nb]);
        terms.push((Some(j), t.k * form.kt.stride(1)));
        let off = b.linear(&terms, 0);
        load(b, form.kt.src, off, c.k1, &[form.d, vk], &[form.kt.stride(0), form.kt.stride(1)], true);
        b.op(&npuvec::MOVE_OP, &[c.k1, c.kb], &[], &[], 0);
        b.op(&npuvec::MMAD_OP, &[c.qa, c.kb, c.sc], &[], &[], 0);
        self.drain_scores(b, vq, vk);
    }

    /// The scores in L0C to their UB tile of `vq x vk`.
    fn drain_scores(&self, b: &mut Builder<'_, '_>, vq: i64, vk: i64) {
        let s = self.buf(Slot::Value(b.ir.results(self.form.qk)[0]), vq, vk);
        b.op(&npuvec::FIXPIPE_OP, &[self.cube.sc, s], &[], &[], 0);
    }

    /// `O = O * rescale + PV` of the previous key tile, its rescale in row state `rescale`.
    fn accumulate(&self, b: &mut Builder<'_, '_>, vq: i64, rescale: usize) {
        let (pv, acc) = (self.buf(Slot::Pv, vq, 0), self.buf(Slot::Acc, vq, 0));
        b.op(&npuvec::MUL_OP, &[acc, self.row(rescale, vq), acc], &[], &[], 0);
        b.op(&npuvec::ADD_OP, &[acc, pv, acc], &[], &[], 0);
    }

    /// One key tile `j` of `vk` keys for the query tile of `vq` rows, its scores already in
    /// UB; with `next` (the next tile and its keys), the next tile's scores computed on the
    /// cube meanwhile, drained to UB once this tile's are consumed; with `prev`, the previous
    /// tile's PV (computed on the cube during this tile's softmax) added to the output after
    /// the softmax. The last tile's PV is added by the caller.
    #[allow(clippy::too_many_arguments)]
    fn key_tile(
        &self,
        b: &mut Builder<'_, '_>,
        bi: Option<ValueId>,
        qi: ValueId,
        j: ValueId,
        vq: i64,
        vk: i64,
        next: Option<(ValueId, i64)>,
        prev: bool,
    ) -> Result<(), String> {
        let (form, t, c) = (self.form, self.t, &self.cube);
        let f32t = b.ctx.float_type(FloatKind::F32);
        let nb = form.batch.len();
        // The mask leaves first: the vector unit needs them before the cube needs K and V.
        for (v, leaf) in &form.leaves {
            let dst = self.buf(Slot::Value(*v), vq, vk);
            let shape = b.ir.value_type(dst).shape().unwrap_or(&[]).to_vec();
            self.load_leaf(b, bi, qi, j, leaf, dst, &shape);
        }
        let qk = b.ir.results(form.qk)[0];
        let s = self.buf(Slot::Value(qk), vq, vk);
        if let Some(scale) = form.scale {
            let imm = b.scalar(elem_of(b.ir, qk), scale);
            b.op(&npuvec::MUL_OP, &[s, imm, s], &[], &[], 0);
        }
        // The score ops.
        for &op in &form.score_ops {
            let srcs: Vec<ValueId> =
                b.ir.operands(op)
                    .to_vec()
                    .into_iter()
                    .map(|x| match splat_element(b.ir, x) {
                        Some(s) => {
                            let elem = elem_of(b.ir, x);
                            b.immediate(elem, s)
                        }
                        None => self.buf(Slot::Value(x), vq, vk),
                    })
                    .collect();
            let dst = self.buf(Slot::Value(b.ir.results(op)[0]), vq, vk);
            lower_op(b, &TileOp { op, srcs: &srcs, dst, temp: None })?;
        }
        // The next tile's scores and this tile's V: in the cube's queue after the score ops
        // (a flag is set where its wait is, so the vector unit waits for nothing loaded here).
        if let Some((jn, _)) = next {
            let mut terms = batch_terms(b, bi, &form.batch, &form.kt.dims[..nb]);
            terms.push((Some(jn), t.k * form.kt.stride(1)));
            let off = b.linear(&terms, 0);
            let vn = next.map_or(vk, |n| n.1);
            load(b, form.kt.src, off, c.k1, &[form.d, vn], &[form.kt.stride(0), form.kt.stride(1)], true);
            b.op(&npuvec::MOVE_OP, &[c.k1, c.kb], &[], &[], 0);
            b.op(&npuvec::MMAD_OP, &[c.qa, c.kb, c.sc], &[], &[], 0);
        }
        let mut terms = batch_terms(b, bi, &form.batch, &form.v.dims[..nb]);
        terms.push((Some(j), t.k * form.v.stride(0)));
        let off = b.linear(&terms, 0);
        load(b, form.v.src, off, c.v1, &[vk, form.dv], &[form.v.stride(0), form.v.stride(1)], true);
        let mut x = self.buf(Slot::Value(form.scores), vq, vk);
        if elem_of(b.ir, form.scores) != f32t {
            let wide = self.buf(Slot::Wide, vq, vk);
            let rint = RoundMode::Rint.attr(b.ctx);
            b.op(&npuvec::CAST_OP, &[x, wide], &[("round", rint)], &[], 0);
            x = wide;
        }
        // The online softmax (the previous tile's rescale kept for its PV).
        let r = |i| self.row(i, vq);
        if prev {
            b.op(&npuvec::COPY_OP, &[r(RESCALE), r(PREV_RESCALE)], &[], &[], 0);
        }
        reduce_partial(b, ReduceKind::Max, x, r(TILE_MAX), false);
        b.op(&npuvec::MAX_OP, &[r(M), r(TILE_MAX), r(NEW_MAX)], &[], &[], 0);
        let mask = self.buf(Slot::RowMask, vq, 0);
        let (ninf, zero) = (b.scalar(f32t, f64::NEG_INFINITY), b.scalar(f32t, 0.0));
        let eq = CmpPredicate::Eq.attr(b.ctx);
        b.op(&npuvec::CMP_OP, &[r(NEW_MAX), ninf, mask], &[("predicate", eq)], &[], 0);
        b.op(&npuvec::SELECT_OP, &[mask, zero, r(NEW_MAX), r(SUB_MAX)], &[], &[], 0);
        b.op(&npuvec::SUB_OP, &[r(M), r(SUB_MAX), r(RESCALE)], &[], &[], 0);
        b.op(&npuvec::EXP_OP, &[r(RESCALE), r(RESCALE)], &[], &[], 0);
        b.op(&npuvec::SUB_OP, &[x, r(SUB_MAX), x], &[], &[], 0);
        b.op(&npuvec::EXP_OP, &[x, x], &[], &[], 0);
        reduce_partial(b, ReduceKind::Sum, x, r(TILE_SUM), false);
        b.op(&npuvec::MUL_OP, &[r(L), r(RESCALE), r(L)], &[], &[], 0);
        b.op(&npuvec::ADD_OP, &[r(L), r(TILE_SUM), r(L)], &[], &[], 0);
        b.op(&npuvec::COPY_OP, &[r(NEW_MAX), r(M)], &[], &[], 0);
        let mut p = x;
        if form.probs_elem(b.ir) != f32t {
            p = self.buf(Slot::Probs, vq, vk);
            let rint = RoundMode::Rint.attr(b.ctx);
            b.op(&npuvec::CAST_OP, &[x, p], &[("round", rint)], &[], 0);
        }
        // P through this core's GM workspace tile into L1.
        let slot = b.linear(&[(Some(self.bid), t.q * t.k)], 0);
        store(b, p, self.workspace, slot, &[vq, vk], &[t.k, 1]);
        if let Some((_, vn)) = next {
            self.drain_scores(b, vq, vn);
        }
        if prev {
            self.accumulate(b, vq, PREV_RESCALE);
        }
        load(b, self.workspace, slot, c.p1, &[vq, vk], &[t.k, 1], true);
        b.op(&npuvec::MOVE_OP, &[c.p1, c.pa], &[], &[], 0);
        b.op(&npuvec::MOVE_OP, &[c.v1, c.vb], &[], &[], 0);
        b.op(&npuvec::MMAD_OP, &[c.pa, c.vb, c.oc], &[], &[], 0);
        b.op(&npuvec::FIXPIPE_OP, &[c.oc, self.buf(Slot::Pv, vq, 0)], &[], &[], 0);
        Ok(())
    }

    /// Loads the tile of mask leaf `leaf` into `dst` (`[rows or 1, keys or 1]`).
    #[allow(clippy::too_many_arguments)]
    fn load_leaf(
        &self,
        b: &mut Builder<'_, '_>,
        bi: Option<ValueId>,
        qi: ValueId,
        j: ValueId,
        leaf: &GmOperand,
        dst: ValueId,
        shape: &[i64],
    ) {
        let (form, t) = (self.form, self.t);
        let nb = form.batch.len();
        let (rows, cols) = (shape[0], shape[1]);
        let mut terms = batch_terms(b, bi, &form.batch, &leaf.dims[..nb]);
        let (rs, cs) = (leaf.stride(0), leaf.stride(1));
        terms.extend([(Some(qi), t.q * rs), (Some(j), t.k * cs)].into_iter().filter(|&(_, s)| s != 0));
        let off = b.linear(&terms, 0);
        load(b, leaf.src, off, dst, &[rows, cols], &[rs, cs], false);
    }
}
