//! What a flash-attention kernel reads off the ops of an attention (`#fused.kind<attention>`,
//! matched by `kiln_dialects::fused::attention`): the one analysis behind
//! `kiln-codegen-outline`'s choice (one kernel or the region's parts) and the lowering
//! (`lower_attention.rs`).
//!
//! [`AttentionForm::of_ops`] takes the ops (in program order) and finds:
//! - **Q, K^T and V** as strided views of values computed outside the ops (kernel arguments):
//!   the chain of views, transposes and broadcasts between them (head splits, K's transpose,
//!   grouped-query `expand_dims` + `broadcast_to` + `reshape`) composed into `(size, stride)`
//!   factors per dim of the scores' batch dims and the two matrix dims (`store_view.rs`'s
//!   regrouping); a scale of Q or K by a splat becomes a scale of the scores;
//! - the **score ops**: every op between QK^T and the softmax (scale, additive or select mask,
//!   casts, and the mask's own elementwise computation), each lowered per tile by
//!   `vector_ops.rs`; their operands from outside are splat immediates or **leaves**, strided
//!   views of kernel arguments loaded tile by tile (a broadcast dim has stride 0);
//! - the softmax input, the probabilities' NaN guard (a fill of 0 only), and the head merge
//!   after PV (a `StoreView`, dense without one).
//!
//! `Err` says in words why the ops are not one flash kernel (a remark shows it): a value the
//! kernel cannot view (a prologue op it does not absorb), an op without a tile lowering (an
//! `hl.iota` or `hl.trilu` mask: it stays the parts' work), a guard filling other than 0.

use std::collections::HashSet;

use kiln_compiler::{Context, FloatKind, Ir, OpId, Type, ValueId};
use kiln_dialects::bufferization::TO_TENSOR_OP;
use kiln_dialects::fused::attention::find_attention;
use kiln_dialects::hl;
use kiln_dialects::hl::accessors::{bool_attr, int_list};
use kiln_dialects::hl::canonicalize::{splat_element, splat_value};
use rustc_hash::FxHashMap;

use super::attention_tiling::{AttentionExtent as Ext, AttentionShape};
use super::model::dense_strides;
use super::store_view::{is_chain_op, regroup, Cols, Factors, StoreView};
use super::vector_ops::vector_lowering;

/// A value read from a kernel argument through a strided view: per dim of the scores (batch
/// dims, then rows and cols), `(size, stride)` factors, outer first.
#[derive(Clone, Debug)]
pub struct GmOperand {
    /// The argument (a host value at outline time, a GM buffer after bufferization).
    pub src: ValueId,
    /// The factors of each dim, right-aligned to the scores' rank.
    pub dims: Vec<Factors>,
}

impl GmOperand {
    /// The stride of matrix dim `i` (0: rows, 1: cols): 0 for a broadcast or size-1 dim.
    pub fn stride(&self, i: usize) -> i64 {
        let r = self.dims.len();
        self.dims[r - 2 + i].first().map_or(0, |f| f.1)
    }
}

/// A UB buffer of one tile of the kernel, by what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slot {
    /// A score op's result or a leaf (by value); QK^T's result is the fixpipe's output.
    Value(ValueId),
    /// The scores in `f32` (when the softmax input is narrower).
    Wide,
    /// The probabilities in PV's operand type (when it is not `f32`).
    Probs,
    /// Row state `i` (`f32`, one per row): see `lower_attention.rs`.
    Row(usize),
    /// The row mask of `m == -inf`.
    RowMask,
    /// The output accumulator (`f32`).
    Acc,
    /// PV of one key tile (`f32`).
    Pv,
    /// The NaN mask of the guard.
    GuardMask,
    /// The output in its type (when it is not `f32`).
    Out,
}

/// The row states: running max, running sum, tile max, new max, subtracted max, rescale, tile
/// sum, the previous tile's rescale.
pub const ROWS: usize = 8;

/// A flash-attention kernel's reading of its ops (see the module documentation).
pub struct AttentionForm {
    /// QK^T.
    pub qk: OpId,
    /// PV.
    pub pv: OpId,
    /// The head merge after PV.
    pub merge: Vec<OpId>,
    /// The attention's value.
    pub output: ValueId,
    /// Q `[.., Sq, D]`.
    pub q: GmOperand,
    /// K^T `[.., D, Skv]`.
    pub kt: GmOperand,
    /// V `[.., Skv, Dv]`.
    pub v: GmOperand,
    /// A scale of Q or K, applied to the scores.
    pub scale: Option<f64>,
    /// The score ops, in program order.
    pub score_ops: Vec<OpId>,
    /// The leaves the score ops read.
    pub leaves: Vec<(ValueId, GmOperand)>,
    /// The score op results written in place over an operand: the value whose buffer they use.
    pub homes: FxHashMap<ValueId, ValueId>,
    /// The softmax's input.
    pub scores: ValueId,
    /// Whether NaN probabilities are replaced by 0.
    pub guard: bool,
    /// The scores' batch dims.
    pub batch: Vec<i64>,
    /// Query length, key length, head dims of Q / K and of V.
    pub sq: i64,
    /// Key length.
    pub skv: i64,
    /// Head dim of Q and K.
    pub d: i64,
    /// Head dim of V.
    pub dv: i64,
}

/// The shape of `v`.
fn shape_of(ir: &Ir<'_>, v: ValueId) -> Vec<i64> {
    ir.value_type(v).shape().unwrap_or(&[]).to_vec()
}

/// The element type of `v`.
pub fn elem_of<'c>(ir: &Ir<'c>, v: ValueId) -> Type<'c> {
    let t = ir.value_type(v);
    t.element_type().unwrap_or(t)
}

/// Bytes of an element of `t` (`i1`: one).
pub fn elem_bytes(t: Type<'_>) -> u64 {
    u64::from(t.bit_width().unwrap_or(8).div_ceil(8))
}

/// Whether `op` is lowered tile by tile by `vector_ops.rs` as a score op.
fn tile_op(ir: &Ir<'_>, op: OpId) -> bool {
    ir.op(op).def.is_some_and(|d| vector_lowering(d).is_some())
        || ir.is_any(op, &[&hl::CMP, &hl::SELECT, &hl::CAST, &hl::CLAMP, &hl::BROADCAST_TO])
}

impl AttentionForm {
    /// Reads the attention of the `hl` ops among `ops` (program order; constants and ops of
    /// other dialects are skipped), see the module documentation.
    pub fn of_ops(ir: &Ir<'_>, ops: &[OpId]) -> Result<AttentionForm, String> {
        let ops: Vec<OpId> =
            ops.iter().copied().filter(|&o| hl::HL.owns(ir.op(o).def) && !ir.is(o, &hl::CONSTANT)).collect();
        let m = find_attention(ir, &ops)?;
        let members: HashSet<OpId> = m.members.iter().copied().collect();
        if let Some(&extra) = ops.iter().find(|o| !members.contains(o)) {
            return Err(format!("'{}' is not part of the attention", ir.op(extra).name));
        }
        let set: HashSet<OpId> = ops.iter().copied().collect();
        let s_shape = shape_of(ir, ir.results(m.qk)[0]);
        let rank = s_shape.len();
        let mut scale = None;
        let flag = |op: OpId, n: &str| bool_attr(ir.attr(op, n));
        let q = operand_view(ir, ir.operands(m.qk)[0], &set, rank, Some(&mut scale))?;
        let mut kt = operand_view(ir, ir.operands(m.qk)[1], &set, rank, Some(&mut scale))?;
        if flag(m.qk, "transpose_b") {
            kt.dims.swap(rank - 2, rank - 1);
        }
        let v = operand_view(ir, ir.operands(m.pv)[1], &set, rank, None)?;
        if flag(m.pv, "transpose_b") {
            return Err("PV reads V transposed".into());
        }
        // The softmax: the reduce_max whose operand the sub also reads.
        let max = m
            .members
            .iter()
            .copied()
            .find(|&o| {
                ir.is(o, &hl::REDUCE_MAX)
                    && ir
                        .uses(ir.operands(o)[0])
                        .iter()
                        .any(|u| ir.is(u.op, &hl::SUB) && members.contains(&u.op))
            })
            .ok_or("no softmax found")?;
        let scores = ir.operands(max)[0];
        let mut form = AttentionForm {
            qk: m.qk,
            pv: m.pv,
            merge: Vec::new(),
            output: m.output,
            q,
            kt,
            v,
            scale,
            score_ops: Vec::new(),
            leaves: Vec::new(),
            homes: FxHashMap::default(),
            scores,
            guard: false,
            batch: s_shape[..rank - 2].to_vec(),
            sq: s_shape[rank - 2],
            skv: s_shape[rank - 1],
            d: shape_of(ir, ir.operands(m.qk)[0]).last().copied().unwrap_or(1),
            dv: shape_of(ir, ir.results(m.pv)[0]).last().copied().unwrap_or(1),
        };
        form.visit(ir, &set, scores)?;
        form.score_ops.sort_by_key(|o| ops.iter().position(|x| x == o));
        form.place_in_operands(ir);
        form.guard = guard(ir, &members)?;
        // The head merge: views and transposes from PV's result to the output.
        let mut cur = ir.results(m.pv)[0];
        while cur != m.output {
            let u = ir.uses(cur).first().map(|u| u.op).filter(|&u| is_chain_op(ir, u) && set.contains(&u));
            let u = u.ok_or("the output is not PV's result or a view of it")?;
            form.merge.push(u);
            cur = ir.results(u)[0];
        }
        form.store_view(ir)?;
        Ok(form)
    }

    /// Collects the score ops computing `w` and their leaves.
    fn visit(&mut self, ir: &Ir<'_>, set: &HashSet<OpId>, w: ValueId) -> Result<(), String> {
        let qk = ir.results(self.qk)[0];
        let known = |f: &AttentionForm| {
            f.leaves.iter().any(|(l, _)| *l == w) || f.score_ops.iter().any(|&o| ir.results(o)[0] == w)
        };
        if w == qk || known(self) || splat_element(ir, w).is_some() {
            return Ok(());
        }
        let rank = self.batch.len() + 2;
        let def = ir.defining_op(w).filter(|d| set.contains(d));
        let computed = def.filter(|&d| tile_op(ir, d) && !ir.is(d, &hl::BROADCAST_TO));
        let leaf = match computed {
            Some(_) => None,
            None => Some(operand_view(ir, w, set, rank, None)),
        };
        match (leaf, def) {
            (Some(Ok(view)), _) => self.leaves.push((w, view)),
            (Some(Err(why)), Some(d)) if !ir.is(d, &hl::BROADCAST_TO) => return Err(why),
            (_, Some(d)) if tile_op(ir, d) => {
                for &x in ir.operands(d) {
                    self.visit(ir, set, x)?;
                }
                self.score_ops.push(d);
            }
            (Some(Err(why)), _) => return Err(why),
            (None, _) => unreachable!("a computed value has a defining op"),
        }
        Ok(())
    }

    /// A score op writes over an operand of the same full tile and type that only it reads
    /// (QK^T's result or another score op's): [`AttentionForm::homes`].
    fn place_in_operands(&mut self, ir: &Ir<'_>) {
        let qk = ir.results(self.qk)[0];
        let full = (Ext::Queries, Ext::Keys);
        for &op in &self.score_ops {
            let v = ir.results(op)[0];
            let reuse = ir.operands(op).iter().copied().find(|&o| {
                let computed = o == qk || ir.defining_op(o).is_some_and(|d| self.score_ops.contains(&d));
                computed
                    && self.extents(ir, o) == full
                    && self.extents(ir, v) == full
                    && elem_of(ir, o) == elem_of(ir, v)
                    && ir.uses(o).len() == 1
            });
            if let Some(o) = reuse {
                let home = self.home(o);
                self.homes.insert(v, home);
            }
        }
    }

    /// The value whose UB buffer holds `v`.
    pub fn home(&self, v: ValueId) -> ValueId {
        self.homes.get(&v).copied().unwrap_or(v)
    }

    /// The extents of `v`'s tile: QK^T's result is a full tile; another value has the rows and
    /// cols its shape (right-aligned to the scores) does not broadcast.
    fn extents(&self, ir: &Ir<'_>, v: ValueId) -> (Ext, Ext) {
        if v == ir.results(self.qk)[0] {
            return (Ext::Queries, Ext::Keys);
        }
        let s = shape_of(ir, v);
        let dim = |back: usize| s.len().checked_sub(back).map_or(1, |i| s[i]);
        (if dim(2) != 1 { Ext::Queries } else { Ext::One }, if dim(1) != 1 { Ext::Keys } else { Ext::One })
    }

    /// The output's layout: the head merge composed, or dense.
    pub fn store_view(&self, ir: &Ir<'_>) -> Result<StoreView, String> {
        if self.merge.is_empty() {
            let shape = shape_of(ir, self.output);
            let strides = dense_strides(&shape);
            let r = strides.len();
            return Ok(StoreView { batch: strides[..r - 2].to_vec(), m: strides[r - 2], n: Cols::One(1) });
        }
        match StoreView::of_ops(ir, self.pv, &self.merge, &[self.output]) {
            Some((_, view @ StoreView { n: Cols::One(_), .. })) => Ok(view),
            _ => Err("the head merge after PV is not a strided store of whole rows".into()),
        }
    }

    /// The UB buffers of one tile, by slot: (rows, cols, element type).
    pub fn tile_buffers<'c>(&self, ctx: &Context<'c>, ir: &Ir<'c>) -> Vec<(Slot, Ext, Ext, Type<'c>)> {
        let f32t = ctx.float_type(FloatKind::F32);
        let i1 = ctx.int_type(1);
        let qk = ir.results(self.qk)[0];
        let mut out = Vec::new();
        let values = std::iter::once(qk)
            .chain(self.leaves.iter().map(|(v, _)| *v))
            .chain(self.score_ops.iter().map(|&o| ir.results(o)[0]));
        for v in values.filter(|v| !self.homes.contains_key(v)) {
            let (r, c) = self.extents(ir, v);
            out.push((Slot::Value(v), r, c, elem_of(ir, v)));
        }
        if elem_of(ir, self.scores) != f32t {
            out.push((Slot::Wide, Ext::Queries, Ext::Keys, f32t));
        }
        if self.probs_elem(ir) != f32t {
            out.push((Slot::Probs, Ext::Queries, Ext::Keys, self.probs_elem(ir)));
        }
        out.extend((0..ROWS).map(|i| (Slot::Row(i), Ext::Queries, Ext::One, f32t)));
        out.push((Slot::RowMask, Ext::Queries, Ext::One, i1));
        out.push((Slot::Acc, Ext::Queries, Ext::Values, f32t));
        out.push((Slot::Pv, Ext::Queries, Ext::Values, f32t));
        if self.guard {
            out.push((Slot::GuardMask, Ext::Queries, Ext::Values, i1));
        }
        if elem_of(ir, self.output) != f32t {
            out.push((Slot::Out, Ext::Queries, Ext::Values, elem_of(ir, self.output)));
        }
        out
    }

    /// The element type of the probabilities PV reads (and of V).
    pub fn probs_elem<'c>(&self, ir: &Ir<'c>) -> Type<'c> {
        elem_of(ir, ir.operands(self.pv)[0])
    }

    /// The facts the tile choice reads.
    pub fn shape<'c>(&self, ctx: &Context<'c>, ir: &Ir<'c>) -> AttentionShape {
        AttentionShape {
            batch: self.batch.iter().product(),
            sq: self.sq,
            skv: self.skv,
            d: self.d,
            dv: self.dv,
            qk_bytes: elem_bytes(elem_of(ir, ir.operands(self.qk)[0])),
            pv_bytes: elem_bytes(self.probs_elem(ir)),
            ub: self.tile_buffers(ctx, ir).into_iter().map(|(_, r, c, t)| (r, c, elem_bytes(t))).collect(),
        }
    }
}

/// Whether the probabilities pass a NaN guard (`select(cmp ne(p, p), 0, p)`, the only
/// select among `members` whose condition compares a value with itself); `Err` for a guard
/// filling another value.
fn guard(ir: &Ir<'_>, members: &HashSet<OpId>) -> Result<bool, String> {
    let mut found = false;
    for &op in members {
        if !ir.is(op, &hl::SELECT) || ir.operands(op).len() != 3 {
            continue;
        }
        let cond = ir.defining_op(ir.operands(op)[0]);
        let is_guard = cond.is_some_and(|c| {
            ir.is(c, &hl::CMP) && members.contains(&c) && ir.operands(c)[0] == ir.operands(c)[1]
        });
        if !is_guard {
            continue;
        }
        match splat_value(ir, ir.operands(op)[1]) {
            Some(0.0) => found = true,
            _ => return Err("the probabilities' NaN guard fills another value than 0".into()),
        }
    }
    Ok(found)
}

/// The strided view of `v` over a kernel argument through the views, transposes and broadcasts
/// among `set`, right-aligned to `rank` dims; with `scale`, a mul or div by a splat on the way
/// is taken as a scale (multiplied into it).
fn operand_view(
    ir: &Ir<'_>,
    v: ValueId,
    set: &HashSet<OpId>,
    rank: usize,
    mut scale: Option<&mut Option<f64>>,
) -> Result<GmOperand, String> {
    let mut chain = Vec::new();
    let mut cur = v;
    let src = loop {
        let def = ir.defining_op(cur);
        match def {
            Some(d) if ir.is(d, &TO_TENSOR_OP) => break ir.operands(d)[0],
            Some(d) if set.contains(&d) => {
                let ops = ir.operands(d);
                if is_chain_op(ir, d) || ir.is(d, &hl::BROADCAST_TO) {
                    chain.push(d);
                    cur = ops[0];
                    continue;
                }
                let splat = |i: usize| ops.get(i).and_then(|&x| splat_value(ir, x));
                let by = if ir.is(d, &hl::MUL) && ops.len() == 2 {
                    splat(1).map(|c| (c, 0)).or_else(|| splat(0).map(|c| (c, 1)))
                } else if ir.is(d, &hl::DIV) && ops.len() == 2 {
                    splat(1).map(|c| (1.0 / c, 0))
                } else {
                    None
                };
                match (by, scale.as_deref_mut()) {
                    (Some((c, x)), Some(s)) => {
                        *s = Some(s.unwrap_or(1.0) * c);
                        cur = ops[x];
                    }
                    _ => {
                        return Err(format!(
                            "an operand is computed by '{}' inside the attention, not viewed",
                            ir.op(d).name
                        ))
                    }
                }
            }
            _ => break cur,
        }
    };
    let shape = shape_of(ir, src);
    let mut dims: Vec<Factors> = shape
        .iter()
        .zip(dense_strides(&shape))
        .map(|(&d, s)| if d == 1 { vec![] } else { vec![(d, s)] })
        .collect();
    let bad = |op: OpId| format!("'{}' makes a view the kernel cannot stride", ir.op(op).name);
    for &op in chain.iter().rev() {
        let to = shape_of(ir, ir.results(op)[0]);
        dims = if ir.is(op, &hl::TRANSPOSE) {
            let perm = int_list(ir.attr(op, "perm"))?;
            perm.iter()
                .map(|&p| dims.get(p as usize).cloned())
                .collect::<Option<_>>()
                .ok_or_else(|| bad(op))?
        } else if ir.is(op, &hl::BROADCAST_TO) {
            let from = shape_of(ir, ir.operands(op)[0]);
            let off = to.len().checked_sub(from.len()).ok_or_else(|| bad(op))?;
            (0..to.len())
                .map(|k| match k.checked_sub(off) {
                    Some(j) if from[j] == to[k] => dims[j].clone(),
                    _ if to[k] == 1 => vec![],
                    _ => vec![(to[k], 0)],
                })
                .collect()
        } else {
            regroup(&dims, &to).ok_or_else(|| bad(op))?
        };
    }
    if dims.len() > rank {
        return Err("an operand has more dims than the scores".into());
    }
    let mut aligned = vec![Factors::new(); rank - dims.len()];
    aligned.extend(dims);
    // The matrix dims are one factor each (a strided DMA row and column).
    if aligned[rank - 2..].iter().any(|f| f.len() > 1) {
        return Err("an operand's rows or columns are not one stride in its argument".into());
    }
    Ok(GmOperand { src, dims: aligned })
}
