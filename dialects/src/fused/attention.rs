//! Recognizing attention in primitive `hl`, as exporters emit it: the one matcher behind the
//! verifier of `#fused.kind<attention>` regions and `kiln-fuse`'s attention candidates.
//!
//! [`match_attention`] starts at a matmul (QK^T) and follows its scores forward:
//!
//! 1. **scores**: `hl.matmul` / `hl.batch_matmul` of Q and K^T (K transposed by the
//!    `transpose_b` flag, by an `hl.transpose`, or given transposed); then, in any order, a
//!    scale (`hl.mul` by a one-element value, `hl.div` of the scores by one), an additive mask
//!    (`hl.add` of a tensor that broadcasts to the scores), a select mask (`hl.select` with the
//!    scores as one branch; condition and fill broadcast to the scores) and casts;
//! 2. **softmax** over the key axis (the scores' last), decomposed: `hl.reduce_max` (keeping
//!    dims), `hl.sub`, `hl.exp`, `hl.reduce_sum` (same axis), `hl.div`;
//! 3. **probabilities**: casts and the NaN guard `select(cmp ne(p, p), c, p)` of
//!    `scaled_dot_product_attention` exports;
//! 4. **PV**: a matmul with the probabilities as its left operand; then the head merge (views
//!    and transposes, each the only user of the one before) up to the region's output;
//! 5. **prologue**: ops feeding Q, K^T and V whose results only the attention uses: views,
//!    transposes and broadcasts (head splits, K's transpose, grouped-query `expand_dims` +
//!    `broadcast_to` + `reshape`) and scales by a one-element value; and ops feeding the masks
//!    whose results only the attention uses: elementwise, broadcast, view and transpose ops
//!    (a mask built from an attention-mask input).
//!
//! Every intermediate value of steps 1 to 4 must be used only inside (the output excepted):
//! otherwise "a value escapes the region". The error of a failed match says why in words a
//! remark can show. Batch and head dims are any leading dims: the matcher reads the key axis as
//! the scores' last dim.

use std::collections::HashSet;

use kiln_compiler::{Ir, OpDef, OpId, ValueId};

use crate::hl::accessors::{bool_attr, int_list, normalize_axis};
use crate::hl::attrs::CmpPredicate;
use crate::hl::interfaces::{hl_op, FusionCategory, Movement};
use crate::hl::{
    ADD, BATCH_MATMUL, CAST, CMP, DIV, EXP, EXPAND_DIMS, MATMUL, MUL, REDUCE_MAX, REDUCE_SUM, RESHAPE,
    SELECT, SOFTMAX, SQUEEZE, SUB, TRANSPOSE,
};

/// An attention found by [`match_attention`].
#[derive(Clone, Debug)]
pub struct AttentionMatch {
    /// The QK^T matmul.
    pub qk: OpId,
    /// The PV matmul.
    pub pv: OpId,
    /// The value the attention computes (PV's result, or the head merge's).
    pub output: ValueId,
    /// Every op of the attention (prologue, scores, softmax, probabilities, PV, head merge),
    /// in no particular order.
    pub members: Vec<OpId>,
    /// The members that are the prologue (step 5): without them the rest is an attention too.
    pub prologue: Vec<OpId>,
    /// Whether a mask (additive or select) is applied to the scores.
    pub masked: bool,
}

/// The matmuls: `hl.matmul` and `hl.batch_matmul`.
const MATMULS: &[&OpDef] = &[&MATMUL, &BATCH_MATMUL];

/// Views and transposes (the head merge after PV).
const LAYOUT: &[&OpDef] = &[&RESHAPE, &EXPAND_DIMS, &SQUEEZE, &TRANSPOSE];

/// The attention whose QK^T matmul is `qk`, with members among the ops `scope` admits (a
/// use by an op outside `scope` is a use outside the attention). `Err`: why `qk` does not
/// start an attention, for a remark.
pub fn match_attention(
    ir: &Ir<'_>,
    qk: OpId,
    scope: &dyn Fn(OpId) -> bool,
) -> Result<AttentionMatch, String> {
    let mut m = Matcher { ir, scope, members: vec![qk], masked: false };
    m.matmul(qk, "QK^T")?;
    let scores = result(ir, qk)?;
    let shape = ir.value_type(scores).shape().unwrap_or(&[]).to_vec();
    if shape.len() < 2 {
        return Err(format!("the scores of '{}' have rank {}, not at least 2", name(ir, qk), shape.len()));
    }
    let s = m.scores(scores, &shape)?;
    let p = m.softmax(s, shape.len())?;
    let pv = m.probabilities(p)?;
    m.matmul(pv, "PV")?;
    let mut output = result(ir, pv)?;
    // The head merge: views and transposes, each the only user of the value before.
    while let [u] = users(ir, output)[..] {
        let Ok(next) = result(ir, u) else { break };
        if !(m.scope)(u) || !ir.is_any(u, LAYOUT) {
            break;
        }
        m.members.push(u);
        output = next;
    }
    m.escapes(output)?;
    let core = m.members.len();
    m.prologue(qk, pv);
    let prologue = m.members[core..].to_vec();
    Ok(AttentionMatch { qk, pv, output, members: m.members, prologue, masked: m.masked })
}

/// The name of an op, for messages.
fn name<'a>(ir: &'a Ir<'_>, op: OpId) -> &'a str {
    ir.op(op).name
}

/// The distinct ops using `v`, in use order.
fn users(ir: &Ir<'_>, v: ValueId) -> Vec<OpId> {
    let mut out: Vec<OpId> = Vec::new();
    for u in ir.uses(v) {
        if !out.contains(&u.op) {
            out.push(u.op);
        }
    }
    out
}

/// The one result of `op`, or why it has not one (bad IR: the op's own verifier reports it).
fn result(ir: &Ir<'_>, op: OpId) -> Result<ValueId, String> {
    match ir.results(op) {
        [r] => Ok(*r),
        rs => Err(format!("'{}' has {} results, not 1", name(ir, op), rs.len())),
    }
}

/// Whether `v` has one element (a scale).
fn scalar(ir: &Ir<'_>, v: ValueId) -> bool {
    ir.value_type(v).shape().is_some_and(|s| s.iter().all(|&d| d == 1))
}

/// Whether a value of `from` broadcasts to `to` without growing it (numpy rules, right-aligned).
fn broadcasts_to(from: &[i64], to: &[i64]) -> bool {
    from.len() <= to.len() && from.iter().rev().zip(to.iter().rev()).all(|(&f, &t)| f == t || f == 1)
}

struct Matcher<'a, 'c> {
    ir: &'a Ir<'c>,
    scope: &'a dyn Fn(OpId) -> bool,
    members: Vec<OpId>,
    masked: bool,
}

impl Matcher<'_, '_> {
    /// Checks that `op` is a matmul reading its left operand as it is.
    fn matmul(&self, op: OpId, role: &str) -> Result<(), String> {
        let ir = self.ir;
        if !ir.is_any(op, MATMULS) {
            return Err(format!("{role} is '{}', not a matmul", name(ir, op)));
        }
        if ir.operands(op).len() != 2 {
            return Err(format!("{role} '{}' has {} operands, not 2", name(ir, op), ir.operands(op).len()));
        }
        result(ir, op)?;
        if bool_attr(ir.attr(op, "transpose_a")) {
            return Err(format!("{role} '{}' reads its left operand transposed", name(ir, op)));
        }
        Ok(())
    }

    /// "a value escapes": the first user of `v` that is not among `expected`.
    fn escape(&self, v: ValueId, expected: &[&'static OpDef]) -> String {
        let ir = self.ir;
        let what = ir.defining_op(v).map_or("an argument", |d| name(ir, d));
        let outside = users(ir, v).into_iter().find(|&u| !(self.scope)(u) || !ir.is_any(u, expected));
        match outside {
            Some(u) => format!(
                "a value escapes the region: the result of '{what}' is used outside by '{}'",
                name(ir, u)
            ),
            None => {
                format!("a value escapes the region: the result of '{what}' has {} users", users(ir, v).len())
            }
        }
    }

    /// The one op using `v` inside the scope, or why there is none.
    fn sole_user(&self, v: ValueId, what: &str) -> Result<OpId, String> {
        let ir = self.ir;
        let us = users(ir, v);
        match us[..] {
            [u] if (self.scope)(u) => Ok(u),
            [] => Err(format!("{what} is not used")),
            _ => {
                let all: Vec<String> = us.iter().map(|&u| format!("'{}'", name(ir, u))).collect();
                let def = ir.defining_op(v).map_or("an argument", |d| name(ir, d));
                Err(format!(
                    "a value escapes the region: the result of '{def}' ({what}) is used by {}",
                    all.join(" and ")
                ))
            }
        }
    }

    /// Step 1: the scale, mask and cast ops after QK^T; returns the scores the softmax reads.
    fn scores(&mut self, mut v: ValueId, shape: &[i64]) -> Result<ValueId, String> {
        let ir = self.ir;
        loop {
            let us = users(ir, v);
            if us.len() != 1 {
                return Ok(v);
            }
            let u = self.sole_user(v, "the scores")?;
            let Ok(next) = result(ir, u) else { return Ok(v) };
            let ops = ir.operands(u);
            let other = |i: usize| ops[1 - i];
            let scale = (ir.is(u, &MUL) && ops.len() == 2 && scalar(ir, other(usize::from(ops[1] == v))))
                || (ir.is(u, &DIV) && ops.len() == 2 && ops[0] == v && ops[1] != v && scalar(ir, ops[1]));
            if ir.is(u, &ADD) && ops.len() == 2 {
                let mask = other(usize::from(ops[1] == v));
                self.mask_fits(mask, u, shape)?;
                self.masked = true;
            } else if ir.is(u, &SELECT) && ops.len() == 3 && ops[0] != v && (ops[1] == v) != (ops[2] == v) {
                self.mask_fits(ops[0], u, shape)?;
                self.mask_fits(if ops[1] == v { ops[2] } else { ops[1] }, u, shape)?;
                self.masked = true;
            } else if ir.is(u, &SOFTMAX) {
                return Err("the softmax is the composite 'hl.softmax' (hl-decompose expands it when its shape is static)".into());
            } else if !scale && !ir.is(u, &CAST) {
                return Ok(v);
            }
            self.members.push(u);
            v = next;
        }
    }

    /// Checks that a mask operand `m` of `op` broadcasts to the scores' `shape`.
    fn mask_fits(&self, m: ValueId, op: OpId, shape: &[i64]) -> Result<(), String> {
        let ir = self.ir;
        let ms = ir.value_type(m).shape().unwrap_or(&[]);
        let out = ir.value_type(result(ir, op)?);
        if !broadcasts_to(ms, shape) || out.shape() != Some(shape) {
            let dims = |s: &[i64]| s.iter().map(i64::to_string).collect::<Vec<_>>().join("x");
            return Err(format!(
                "mask shape {} of '{}' is not broadcastable to scores {}",
                dims(ms),
                name(ir, op),
                dims(shape)
            ));
        }
        Ok(())
    }

    /// The reduction over the key axis `op` must be (`def`, keeping dims).
    fn key_reduction(&self, op: OpId, def: &'static OpDef, rank: usize) -> Result<(), String> {
        let ir = self.ir;
        if !ir.is(op, def) {
            return Err(format!("the softmax needs '{}', not '{}'", def.name, name(ir, op)));
        }
        let axes: Vec<usize> = int_list(ir.attr(op, "axes"))?
            .into_iter()
            .map(|a| normalize_axis(a, rank))
            .collect::<Result<_, _>>()?;
        if axes != [rank - 1] {
            return Err(format!(
                "softmax axis is not the key axis: '{}' reduces axes {axes:?} of rank-{rank} scores",
                name(ir, op)
            ));
        }
        if ir.value_type(result(ir, op)?).shape().map_or(0, <[i64]>::len) != rank {
            return Err(format!("'{}' drops the key axis (keep_dims = false)", name(ir, op)));
        }
        Ok(())
    }

    /// Step 2: the decomposed softmax of `s` (scores of `rank`); returns the probabilities.
    fn softmax(&mut self, s: ValueId, rank: usize) -> Result<ValueId, String> {
        let ir = self.ir;
        let us = users(ir, s);
        let [a, b] = us[..] else {
            return match us[..] {
                [u] => Err(format!("the scores feed '{}', not a softmax", name(ir, u))),
                _ => Err(self.escape(s, &[&REDUCE_MAX, &SUB])),
            };
        };
        let (max, sub) = if ir.is(a, &SUB) { (b, a) } else { (a, b) };
        if !(self.scope)(max) || !(self.scope)(sub) {
            return Err(self.escape(s, &[&REDUCE_MAX, &SUB]));
        }
        self.key_reduction(max, &REDUCE_MAX, rank)?;
        let row_max = result(ir, max)?;
        if !ir.is(sub, &SUB) || ir.operands(sub) != [s, row_max] {
            return Err(format!("the scores feed '{}', not the softmax's 'hl.sub'", name(ir, sub)));
        }
        self.sole_user(row_max, "the row max")?;
        let exp = self.sole_user(result(ir, sub)?, "the shifted scores")?;
        if !ir.is(exp, &EXP) {
            return Err(format!("the shifted scores feed '{}', not 'hl.exp'", name(ir, exp)));
        }
        let e = result(ir, exp)?;
        let eu = users(ir, e);
        let [c, d] = eu[..] else {
            return Err(self.escape(e, &[&REDUCE_SUM, &DIV]));
        };
        let (sum, div) = if ir.is(c, &DIV) { (d, c) } else { (c, d) };
        if !(self.scope)(sum) || !(self.scope)(div) {
            return Err(self.escape(e, &[&REDUCE_SUM, &DIV]));
        }
        self.key_reduction(sum, &REDUCE_SUM, rank)?;
        let row_sum = result(ir, sum)?;
        if !ir.is(div, &DIV) || ir.operands(div) != [e, row_sum] {
            return Err(format!("the exponentials feed '{}', not the softmax's 'hl.div'", name(ir, div)));
        }
        self.sole_user(row_sum, "the row sum")?;
        self.members.extend([max, sub, exp, sum, div]);
        result(ir, div)
    }

    /// Step 3: casts and NaN guards of the probabilities `p`; returns the PV matmul.
    fn probabilities(&mut self, mut p: ValueId) -> Result<OpId, String> {
        let ir = self.ir;
        loop {
            let us = users(ir, p);
            if let [cmp, select] = us[..] {
                let (cmp, select) = if ir.is(cmp, &SELECT) { (select, cmp) } else { (cmp, select) };
                let ne = ir.attr(cmp, "predicate").and_then(CmpPredicate::of) == Some(CmpPredicate::Ne);
                let (c, sel) = (result(ir, cmp), result(ir, select));
                let guard = (self.scope)(cmp)
                    && (self.scope)(select)
                    && ir.is(cmp, &CMP)
                    && ne
                    && ir.operands(cmp) == [p, p]
                    && ir.is(select, &SELECT)
                    && sel.is_ok() && c.as_ref().is_ok_and(|&c| {
                    matches!(ir.operands(select), &[cond, fill, x] if cond == c && x == p && scalar(ir, fill))
                        && users(ir, c) == [select]
                });
                if !guard {
                    return Err(format!(
                        "a value escapes the region: the probabilities are used by '{}' and '{}'",
                        name(ir, cmp),
                        name(ir, select)
                    ));
                }
                self.members.extend([cmp, select]);
                p = sel?;
                continue;
            }
            let u = self.sole_user(p, "the probabilities")?;
            if ir.is(u, &CAST) {
                p = result(ir, u)?;
                self.members.push(u);
            } else if ir.is_any(u, MATMULS) && matches!(ir.operands(u), &[a, b] if a == p && b != p) {
                self.members.push(u);
                return Ok(u);
            } else {
                return Err(format!("the probabilities feed '{}', not the PV matmul", name(ir, u)));
            }
        }
    }

    /// Checks that only `output` of the members' results is used outside them.
    fn escapes(&self, output: ValueId) -> Result<(), String> {
        let ir = self.ir;
        let set: HashSet<OpId> = self.members.iter().copied().collect();
        for &op in &self.members {
            for &r in ir.results(op) {
                if r == output {
                    continue;
                }
                if let Some(u) = ir.uses(r).iter().find(|u| !set.contains(&u.op)) {
                    return Err(format!(
                        "a value escapes the region: the result of '{}' is used outside by '{}'",
                        name(ir, op),
                        name(ir, u.op)
                    ));
                }
            }
        }
        Ok(())
    }

    /// Step 5: the ops feeding Q, K^T, V and the masks that only the attention uses.
    fn prologue(&mut self, qk: OpId, pv: OpId) {
        let ir = self.ir;
        let mut set: HashSet<OpId> = self.members.iter().copied().collect();
        // (value, whether it feeds a mask).
        let mut work: Vec<(ValueId, bool)> =
            vec![(ir.operands(qk)[0], false), (ir.operands(qk)[1], false), (ir.operands(pv)[1], false)];
        for &op in &self.members {
            if ir.is_any(op, &[&ADD, &SELECT]) {
                work.extend(ir.operands(op).iter().map(|&v| (v, true)));
            }
        }
        while let Some((v, mask)) = work.pop() {
            let Some(d) = ir.defining_op(v) else { continue };
            if set.contains(&d) || !(self.scope)(d) || ir.results(d).len() != 1 {
                continue;
            }
            if !ir.uses(v).iter().all(|u| set.contains(&u.op)) {
                continue;
            }
            let Some(feeds) = feeding(ir, d, mask) else { continue };
            set.insert(d);
            self.members.push(d);
            work.extend(feeds.into_iter().map(|f| (f, mask)));
        }
    }
}

/// The operands through which the prologue grows past `op`, when `op` may join it: for Q, K
/// and V (`mask` false) views, transposes, broadcasts and scales by one element; for masks
/// also elementwise ops.
fn feeding(ir: &Ir<'_>, op: OpId, mask: bool) -> Option<Vec<ValueId>> {
    let cat = hl_op(ir, op)?.category;
    let ops = ir.operands(op);
    match cat {
        FusionCategory::Layout(Movement::View | Movement::Transpose) | FusionCategory::Broadcast => {
            Some(ops.to_vec())
        }
        FusionCategory::Elementwise if mask => Some(ops.to_vec()),
        FusionCategory::Elementwise if ir.is(op, &MUL) && ops.len() == 2 => {
            if scalar(ir, ops[1]) {
                Some(vec![ops[0]])
            } else if scalar(ir, ops[0]) {
                Some(vec![ops[1]])
            } else {
                None
            }
        }
        FusionCategory::Elementwise if ir.is(op, &DIV) && ops.len() == 2 && scalar(ir, ops[1]) => {
            Some(vec![ops[0]])
        }
        _ => None,
    }
}

/// The first op of `ops` that starts an attention (within `ops`) and the match, or the reason
/// of the first matmul that does not.
pub fn find_attention(ir: &Ir<'_>, ops: &[OpId]) -> Result<AttentionMatch, String> {
    let set: HashSet<OpId> = ops.iter().copied().collect();
    let scope = |op: OpId| set.contains(&op);
    let mut first_err = None;
    for &op in ops.iter().filter(|&&o| ir.is_any(o, MATMULS)) {
        match match_attention(ir, op, &scope) {
            Ok(m) => return Ok(m),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.unwrap_or_else(|| "holds no matmul".into()))
}
