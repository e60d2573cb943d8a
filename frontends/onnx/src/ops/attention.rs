//! `Attention` (opsets 23 to 25) decomposed into `hl` ops as ONNX's reference computes it:
//! heads split from rank-3 inputs, `sqrt(scale)` applied to Q and K, the past key and value
//! concatenated, an additive bias from the mask (a bool mask as 0 / -inf, padded with -inf to
//! the key length), the causal and sliding-window frontiers (offset by the past length, or per
//! batch by `nonpad_kv_seqlen`) and the key padding, grouped-query heads repeated,
//! `Q K^T` (`hl.batch_matmul`), the soft cap, `hl.softmax` (in `softmax_precision`), rows
//! whose bias masks every key set to 0, and the product with V. Also `RotaryEmbedding`.

use kiln_dialects::hl;
use kiln_dialects::hl::attrs::CmpPredicate;
use kiln_dialects::hl::interp::{DType, Tensor};

use super::arith::{bin, bin_c, cmp, cmp_c, reduce, require_float, select, un};
use super::elementwise::cast_to;
use super::{attr_float, attr_int, attr_opt_int};
use crate::consts::{dtype_of_onnx, elem_type};
use crate::graph::{Importer, Val};

/// `x` `[B, S, H * D]` as `[B, H, S, D]`.
fn split_heads(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, heads: i64) -> Result<Val, String> {
    let d = imp.shape(x)?;
    if heads < 1 || d[2] % heads != 0 {
        return Err(format!("a hidden size of {} does not split into {heads} heads", d[2]));
    }
    let y = imp.reshape(x, &[d[0], d[1], heads, d[2] / heads])?;
    transpose(imp, &y, &[0, 2, 1, 3])
}

fn transpose(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, perm: &[i64]) -> Result<Val, String> {
    let attr = imp.ints_attr(perm);
    imp.op(&hl::TRANSPOSE, &[x], &[("perm", attr)], None)
}

/// A host constant of element type `dtype`, shape `shape`, from `f64` values.
fn host(
    imp: &mut Importer<'_, '_, '_, '_>,
    dtype: DType,
    shape: Vec<usize>,
    v: &[f64],
) -> Result<Val, String> {
    let t = Tensor::from_f64s(dtype, shape, v).map_err(|e| e.message().to_string())?;
    imp.constant(t, "attention_bias")
}

/// The frontier bias `[q, kv]` (0 where query `i` may attend key `j`, else -inf) for a scalar
/// offset: `allowed(i + offset - j)` with `allowed` taking the distance from the query.
fn frontier(
    imp: &mut Importer<'_, '_, '_, '_>,
    dtype: DType,
    (q, kv): (i64, i64),
    offset: i64,
    allowed: impl Fn(i64) -> bool,
) -> Result<Val, String> {
    let v: Vec<f64> = (0..q)
        .flat_map(|i| (0..kv).map(move |j| (i, j)))
        .map(|(i, j)| if allowed(i + offset - j) { 0.0 } else { f64::NEG_INFINITY })
        .collect();
    host(imp, dtype, vec![q as usize, kv as usize], &v)
}

/// The frontier bias `[B, 1, q, kv]` for per-batch offsets `nonpad - q` (the external cache).
fn frontier_per_batch(
    imp: &mut Importer<'_, '_, '_, '_>,
    like: &Val,
    nonpad: &Val,
    (q, kv): (i64, i64),
    window: (i64, i64),
    causal: bool,
) -> Result<Val, String> {
    let b = imp.shape(nonpad)?.iter().product::<i64>();
    let i64s = |imp: &mut Importer<'_, '_, '_, '_>, shape: Vec<usize>, v: Vec<i64>| -> Result<Val, String> {
        let t = Tensor::from_i64s(DType::I64, shape, &v).map_err(|e| e.message().to_string())?;
        imp.constant(t, "attention_positions")
    };
    // diff[b, i, j] = i + (nonpad[b] - q) - j
    let nonpad = cast_to(imp, nonpad, imp.ctx().int_type(64))?;
    let offset = imp.reshape(&nonpad, &[b, 1, 1])?;
    let offset = bin_c(imp, &hl::SUB, &offset, q as f64)?;
    let ij: Vec<i64> = (0..q).flat_map(|i| (0..kv).map(move |j| i - j)).collect();
    let ij = i64s(imp, vec![q as usize, kv as usize], ij)?;
    let diff = bin(imp, &hl::ADD, &offset, &ij)?;
    let mut ok: Option<Val> = None;
    let mut and = |imp: &mut Importer<'_, '_, '_, '_>, c: Val| -> Result<(), String> {
        ok = Some(match ok.take() {
            Some(o) => bin(imp, &hl::AND, &o, &c)?,
            None => c,
        });
        Ok(())
    };
    if causal {
        let c = cmp_c(imp, &diff, 0.0, CmpPredicate::Ge)?;
        and(imp, c)?;
    }
    if window.0 >= 0 {
        let c = cmp_c(imp, &diff, window.0 as f64, CmpPredicate::Le)?;
        and(imp, c)?;
    }
    if window.1 >= 0 {
        let c = cmp_c(imp, &diff, -window.1 as f64, CmpPredicate::Ge)?;
        and(imp, c)?;
    }
    let ok = ok.ok_or("no frontier")?;
    let (zero, ninf) = (imp.scalar_like(like, 0.0)?, imp.scalar_like(like, f64::NEG_INFINITY)?);
    let bias = select(imp, &ok, &zero, &ninf)?;
    imp.reshape(&bias, &[b, 1, q, kv])
}

/// `a + b`, either absent.
fn add_opt(imp: &mut Importer<'_, '_, '_, '_>, a: Option<Val>, b: Val) -> Result<Option<Val>, String> {
    Ok(Some(match a {
        Some(a) => bin(imp, &hl::ADD, &a, &b)?,
        None => b,
    }))
}

/// The mask as an additive bias of `like`'s element type, padded with -inf (false) to `kv`
/// keys.
fn mask_bias(imp: &mut Importer<'_, '_, '_, '_>, mask: &Val, like: &Val, kv: i64) -> Result<Val, String> {
    let d = imp.shape(mask)?;
    let last = *d.last().ok_or("the mask has rank 0")?;
    let is_bool = imp.dtype(mask)? == DType::I1;
    let mut m = mask.clone();
    if last < kv {
        let mut high = vec![0; d.len()];
        *high.last_mut().unwrap_or(&mut 0) = kv - last;
        let value = if is_bool { 0.0 } else { f64::NEG_INFINITY };
        let value = imp.number_attr(imp.elem(mask), value);
        let attrs =
            [("low", imp.ints_attr(&vec![0; d.len()])), ("high", imp.ints_attr(&high)), ("value", value)];
        m = imp.op(&hl::PAD, &[&m], &attrs, None)?;
    }
    if is_bool {
        let (zero, ninf) = (imp.scalar_like(like, 0.0)?, imp.scalar_like(like, f64::NEG_INFINITY)?);
        return select(imp, &m, &zero, &ninf);
    }
    cast_to(imp, &m, imp.elem(like))
}

/// `x` `[B, H, S, D]` with each head repeated `r` times in place (`[h0, h0, h1, h1, ...]`).
fn repeat_heads(imp: &mut Importer<'_, '_, '_, '_>, x: &Val, r: i64) -> Result<Val, String> {
    if r == 1 {
        return Ok(x.clone());
    }
    let d = imp.shape(x)?;
    let y = imp.reshape(x, &[d[0], d[1], 1, d[2], d[3]])?;
    let ty = imp.ctx().tensor_type(&[d[0], d[1], r, d[2], d[3]], imp.elem(x));
    let y = imp.op(&hl::BROADCAST_TO, &[&y], &[], Some(ty))?;
    imp.reshape(&y, &[d[0], d[1] * r, d[2], d[3]])
}

/// `Attention(Q, K, V, attn_mask?, past_key?, past_value?, nonpad_kv_seqlen?)`: `Y`,
/// `present_key`, `present_value` and `qk_matmul_output` (see the module docs).
pub(super) fn attention(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (q0, k0, v0) = (imp.input(node, 0)?, imp.input(node, 1)?, imp.input(node, 2)?);
    require_float(imp, &q0, "Attention")?;
    let rank = imp.rank(&q0);
    if ![3, 4].contains(&rank) || imp.rank(&k0) != rank || imp.rank(&v0) != rank {
        return Err("Q, K and V must all have rank 3 or all rank 4".into());
    }
    let (mut q, mut k, mut v) = (q0, k0, v0);
    if rank == 3 {
        let hq = attr_opt_int(node, "q_num_heads")?.ok_or("rank-3 inputs need `q_num_heads`")?;
        let hkv = attr_opt_int(node, "kv_num_heads")?.ok_or("rank-3 inputs need `kv_num_heads`")?;
        q = split_heads(imp, &q, hq)?;
        k = split_heads(imp, &k, hkv)?;
        v = split_heads(imp, &v, hkv)?;
    }
    let dtype = imp.dtype(&q)?;
    let qs = imp.shape(&q)?;
    let scale = match attr_float(node, "scale", f64::NAN)? {
        s if s.is_nan() => 1.0 / (qs[3] as f64).sqrt(),
        s => s,
    };
    let root = scale.sqrt();
    let qsc = bin_c(imp, &hl::MUL, &q, root)?;
    let mut ksc = bin_c(imp, &hl::MUL, &k, root)?;
    let (past_k, past_v) = (imp.opt_input(node, 4)?, imp.opt_input(node, 5)?);
    let nonpad = imp.opt_input(node, 6)?;
    if past_k.is_some() != past_v.is_some() {
        return Err("`past_key` and `past_value` must be given together".into());
    }
    let past = match &past_k {
        Some(p) => imp.shape(p)?.get(2).copied().unwrap_or(0),
        None => 0,
    };
    let concat2 = |imp: &mut Importer<'_, '_, '_, '_>, a: &Val, b: &Val| {
        let axis = imp.int_attr(2);
        imp.op(&hl::CONCAT, &[a, b], &[("axis", axis)], None)
    };
    let (mut present_k, mut present_v) = (k.clone(), v.clone());
    if let (Some(pk), Some(pv)) = (&past_k, &past_v) {
        let pks = bin_c(imp, &hl::MUL, pk, root)?;
        ksc = concat2(imp, &pks, &ksc)?;
        present_k = concat2(imp, pk, &k)?;
        present_v = concat2(imp, pv, &v)?;
    }
    let (sq, skv) = (qs[2], imp.shape(&present_k)?[2]);
    let causal = attr_int(node, "is_causal", 0)? != 0;
    let window = (attr_int(node, "left_window_size", -1)?, attr_int(node, "right_window_size", -1)?);
    let windowed = window.0 >= 0 || window.1 >= 0;
    let mut bias = match imp.opt_input(node, 3)? {
        Some(m) => Some(mask_bias(imp, &m, &q, skv)?),
        None => None,
    };
    let per_batch = nonpad.as_ref().filter(|_| past_k.is_none());
    if causal || windowed {
        let b = match per_batch {
            Some(n) => frontier_per_batch(imp, &q, n, (sq, skv), window, causal)?,
            None => frontier(imp, dtype, (sq, skv), past, |d| {
                (!causal || d >= 0) && (window.0 < 0 || d <= window.0) && (window.1 < 0 || -d <= window.1)
            })?,
        };
        bias = add_opt(imp, bias, b)?;
    }
    if let Some(n) = &nonpad {
        let b = imp.shape(n)?.iter().product::<i64>();
        let n = cast_to(imp, n, imp.ctx().int_type(64))?;
        let n = imp.reshape(&n, &[b, 1, 1, 1])?;
        let pos: Vec<i64> = (0..skv).collect();
        let pos =
            Tensor::from_i64s(DType::I64, vec![skv as usize], &pos).map_err(|e| e.message().to_string())?;
        let pos = imp.constant(pos, "key_positions")?;
        let keep = cmp(imp, &pos, &n, CmpPredicate::Lt)?;
        let (zero, ninf) = (imp.scalar_like(&q, 0.0)?, imp.scalar_like(&q, f64::NEG_INFINITY)?);
        let pad = select(imp, &keep, &zero, &ninf)?;
        bias = add_opt(imp, bias, pad)?;
    }
    let (hq, hk) = (qs[1], imp.shape(&ksc)?[1]);
    if hq != hk && (hk == 0 || hq % hk != 0) {
        return Err(format!("{hq} query heads cannot share {hk} key / value heads"));
    }
    let ksc = repeat_heads(imp, &ksc, hq / hk)?;
    let vr = repeat_heads(imp, &present_v, hq / hk)?;
    let kt = transpose(imp, &ksc, &[0, 1, 3, 2])?;
    let mut qk = imp.op(&hl::BATCH_MATMUL, &[&qsc, &kt], &[], None)?;
    let softcap = attr_float(node, "softcap", 0.0)?;
    if softcap > 0.0 {
        let t = bin_c(imp, &hl::DIV, &qk, softcap)?;
        let t = un(imp, &hl::TANH, &t)?;
        qk = bin_c(imp, &hl::MUL, &t, softcap)?;
    }
    let with_bias = match &bias {
        Some(b) => bin(imp, &hl::ADD, &qk, b)?,
        None => qk.clone(),
    };
    let mode = attr_int(node, "qk_matmul_output_mode", 0)?;
    let mut scores = with_bias.clone();
    if let Some(p) = attr_opt_int(node, "softmax_precision")? {
        scores = cast_to(imp, &scores, elem_type(imp.ctx(), dtype_of_onnx(p as i32)?))?;
    }
    let axis = imp.int_attr(3);
    let mut probs = imp.op(&hl::SOFTMAX, &[&scores], &[("axis", axis)], None)?;
    if let Some(b) = &bias {
        let rank = imp.rank(b) as i64;
        let top = reduce(imp, &hl::REDUCE_MAX, b, &[rank - 1], true)?;
        let masked = cmp_c(imp, &top, f64::NEG_INFINITY, CmpPredicate::Eq)?;
        let zero = imp.scalar_like(&probs, 0.0)?;
        probs = select(imp, &masked, &zero, &probs)?;
    }
    let probs = cast_to(imp, &probs, imp.elem(&q))?;
    let mut y = imp.op(&hl::BATCH_MATMUL, &[&probs, &vr], &[], None)?;
    if rank == 3 {
        y = transpose(imp, &y, &[0, 2, 1, 3])?;
        let d = imp.shape(&y)?;
        y = imp.reshape(&y, &[d[0], d[1], d[2] * d[3]])?;
    }
    let qk_out = match mode {
        0 | 1 => qk,
        2 => with_bias,
        3 => probs,
        other => return Err(format!("unknown `qk_matmul_output_mode` {other}")),
    };
    Ok(vec![y, present_k, present_v, qk_out])
}

/// The last-dim slice `[from, to)` of `x` with `step`.
fn last_dim(
    imp: &mut Importer<'_, '_, '_, '_>,
    x: &Val,
    from: i64,
    to: i64,
    step: i64,
) -> Result<Val, String> {
    let d = imp.shape(x)?;
    let n = d.len();
    let (mut lo, mut hi, mut st) = (vec![0; n], d.clone(), vec![1; n]);
    (lo[n - 1], hi[n - 1], st[n - 1]) = (from, to, step);
    super::layout::slice_dims(imp, x, &lo, &hi, &st)
}

/// `RotaryEmbedding(input, cos_cache, sin_cache, position_ids?, interleaved, num_heads,
/// rotary_embedding_dim)`: the first `rotary_embedding_dim` (default all) features of every head
/// rotated in pairs (halves, or neighbours with `interleaved`): `(x1 cos - x2 sin, x1 sin + x2
/// cos)`, the caches gathered at `position_ids` when given; the rest passed through.
pub(super) fn rotary(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x0 = imp.input(node, 0)?;
    let (cos, sin) = (imp.input(node, 1)?, imp.input(node, 2)?);
    let d0 = imp.shape(&x0)?;
    let x = match d0.len() {
        4 => transpose(imp, &x0, &[0, 2, 1, 3])?,
        3 => {
            let h = attr_int(node, "num_heads", 0)?;
            if h < 1 || d0[2] % h != 0 {
                return Err(format!("rank-3 inputs need `num_heads` dividing {}", d0[2]));
            }
            imp.reshape(&x0, &[d0[0], d0[1], h, d0[2] / h])?
        }
        r => return Err(format!("the input must have rank 3 or 4, not {r}")),
    };
    let d = imp.shape(&x)?;
    let head = d[3];
    let rot = match attr_int(node, "rotary_embedding_dim", 0)? {
        0 => head,
        r if r > 0 && r <= head && r % 2 == 0 => r,
        r => return Err(format!("`rotary_embedding_dim` {r} does not fit heads of {head}")),
    };
    let half = rot / 2;
    let (mut cos, mut sin) = (cos, sin);
    if let Some(p) = imp.opt_input(node, 3)? {
        let axis = imp.int_attr(0);
        cos = imp.op(&hl::GATHER, &[&cos, &p], &[("axis", axis)], None)?;
        let axis = imp.int_attr(0);
        sin = imp.op(&hl::GATHER, &[&sin, &p], &[("axis", axis)], None)?;
    }
    let cs = imp.shape(&cos)?;
    if cs.len() != 3 || cs[2] != half {
        return Err(format!("the caches {cs:?} must be [batch, sequence, {half}]"));
    }
    let cos = imp.reshape(&cos, &[cs[0], cs[1], 1, half])?;
    let sin = imp.reshape(&sin, &[cs[0], cs[1], 1, half])?;
    let interleaved = attr_int(node, "interleaved", 0)? != 0;
    let (x1, x2) = if interleaved {
        (last_dim(imp, &x, 0, rot, 2)?, last_dim(imp, &x, 1, rot, 2)?)
    } else {
        (last_dim(imp, &x, 0, half, 1)?, last_dim(imp, &x, half, rot, 1)?)
    };
    let (a, b) = (bin(imp, &hl::MUL, &cos, &x1)?, bin(imp, &hl::MUL, &sin, &x2)?);
    let real = bin(imp, &hl::SUB, &a, &b)?;
    let (a, b) = (bin(imp, &hl::MUL, &sin, &x1)?, bin(imp, &hl::MUL, &cos, &x2)?);
    let imag = bin(imp, &hl::ADD, &a, &b)?;
    let axis = imp.int_attr(if interleaved { 4 } else { 3 });
    let mut y = if interleaved {
        let pair = [d[0], d[1], d[2], half, 1];
        let (r, i) = (imp.reshape(&real, &pair)?, imp.reshape(&imag, &pair)?);
        let y = imp.op(&hl::CONCAT, &[&r, &i], &[("axis", axis)], None)?;
        imp.reshape(&y, &[d[0], d[1], d[2], rot])?
    } else {
        imp.op(&hl::CONCAT, &[&real, &imag], &[("axis", axis)], None)?
    };
    if rot < head {
        let rest = last_dim(imp, &x, rot, head, 1)?;
        let axis = imp.int_attr(3);
        y = imp.op(&hl::CONCAT, &[&y, &rest], &[("axis", axis)], None)?;
    }
    Ok(vec![match d0.len() {
        4 => transpose(imp, &y, &[0, 2, 1, 3])?,
        _ => imp.reshape(&y, &d0)?,
    }])
}
