//! Result type inference of `hl` ops, dynamic dims included (`?` broadcast against `k > 1`
//! gives `k`; against `1` or `?` gives `?`). Each function gets the operand types, the op's
//! attributes and its declared result type (for ops whose result type is given, not derived:
//! `cast`, `reshape`, `broadcast_to`, `constant`), and returns the inferred type or a message.

use kiln_compiler::{AttrKind, Attribute, Context, Type, DYNAMIC};

use super::accessors::{bool_attr, float_value, int_list, normalize_axis, tensor_parts};

mod data;
mod indexing;
mod pool;

pub use data::{gather, iota, pad, split, trilu};
pub use indexing::{along_axis, gather_elements, gather_nd, scatter_elements, scatter_nd, topk};
pub use pool::{global_pool, pool2d, pool_params};

/// What inference sees of an op.
pub struct InferInput<'a, 'c> {
    /// Operand types.
    pub operands: &'a [Type<'c>],
    /// The declared result type.
    pub result: Option<Type<'c>>,
    /// Attribute lookup (properties, then discardable).
    pub attr: &'a dyn Fn(&str) -> Option<Attribute<'c>>,
}

/// A result type inference function.
pub type InferFn = for<'a, 'c> fn(&Context<'c>, &InferInput<'a, 'c>) -> Result<Type<'c>, String>;

/// The result type inference of an op of several results: every result's type.
pub type InferManyFn = for<'a, 'c> fn(&Context<'c>, &InferInput<'a, 'c>) -> Result<Vec<Type<'c>>, String>;

fn parts<'c>(t: Type<'c>) -> Result<(&'c [i64], Type<'c>), String> {
    tensor_parts(t).ok_or_else(|| format!("expected a ranked tensor, but got '{t}'"))
}

fn operand<'c>(input: &InferInput<'_, 'c>, i: usize) -> Result<(&'c [i64], Type<'c>), String> {
    let t = input.operands.get(i).ok_or_else(|| format!("expected operand #{i}"))?;
    parts(*t)
}

/// numpy broadcasting of two shapes.
pub fn broadcast_shapes(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let rank = a.len().max(b.len());
    let mut out = vec![0; rank];
    for i in 0..rank {
        let da = if i < rank - a.len() { 1 } else { a[i - (rank - a.len())] };
        let db = if i < rank - b.len() { 1 } else { b[i - (rank - b.len())] };
        out[i] = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            (DYNAMIC, y) => y,
            (x, DYNAMIC) => x,
            _ => return None,
        };
    }
    Some(out)
}

fn broadcast_all<'c>(input: &InferInput<'_, 'c>, from: usize) -> Result<Vec<i64>, String> {
    let mut shape = operand(input, from)?.0.to_vec();
    for (i, &t) in input.operands.iter().enumerate().skip(from + 1) {
        let (s, _) = parts(t)?;
        shape = broadcast_shapes(&shape, s).ok_or_else(|| {
            format!(
                "operands are not broadcast compatible: '{}' and '{t}' (operand #{i})",
                input.operands[from]
            )
        })?;
    }
    Ok(shape)
}

/// Elementwise over broadcast operands; the element type of operand 0, which all share.
pub fn elementwise<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let elem = operand(input, 0)?.1;
    same_elements(input, 0, elem)?;
    Ok(ctx.tensor_type(&broadcast_all(input, 0)?, elem))
}

fn same_elements<'c>(input: &InferInput<'_, 'c>, from: usize, elem: Type<'c>) -> Result<(), String> {
    for (i, &t) in input.operands.iter().enumerate().skip(from) {
        let e = parts(t)?.1;
        if e != elem {
            return Err(format!(
                "operand #{i} has element type '{e}', but '{elem}' was expected (no implicit promotion)"
            ));
        }
    }
    Ok(())
}

/// Comparison: broadcast shape, `i1` elements.
pub fn compare<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let elem = operand(input, 0)?.1;
    same_elements(input, 0, elem)?;
    Ok(ctx.tensor_type(&broadcast_all(input, 0)?, ctx.int_type(1)))
}

/// `select(cond, a, b)`: `cond` is `i1`; `a` and `b` share an element type.
pub fn select<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let cond = operand(input, 0)?.1;
    if cond != ctx.int_type(1) {
        return Err(format!("condition must have element type 'i1', but got '{cond}'"));
    }
    let elem = operand(input, 1)?.1;
    same_elements(input, 1, elem)?;
    Ok(ctx.tensor_type(&broadcast_all(input, 0)?, elem))
}

/// Unary ops: the operand's type.
pub fn same<'c>(_: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    operand(input, 0)?;
    Ok(input.operands[0])
}

fn declared<'c>(input: &InferInput<'_, 'c>) -> Result<(&'c [i64], Type<'c>, Type<'c>), String> {
    let t = input.result.ok_or("expected a result")?;
    let (s, e) = parts(t)?;
    Ok((s, e, t))
}

/// `cast`: same shape as the operand (a declared `?` takes the operand's dim), element type as
/// declared.
pub fn cast<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, _) = operand(input, 0)?;
    let (rs, re, rt) = declared(input)?;
    if !compatible_shapes(shape, rs) {
        return Err(format!("result shape must match the operand's: '{}' vs '{rt}'", input.operands[0]));
    }
    let refined: Vec<i64> = rs.iter().zip(shape).map(|(&r, &d)| if r == DYNAMIC { d } else { r }).collect();
    Ok(if refined == rs { rt } else { ctx.tensor_type(&refined, re) })
}

/// `constant`: the declared type, which must be the type of the `value` attribute.
pub fn constant<'c>(_: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, _, rt) = declared(input)?;
    if shape.contains(&DYNAMIC) {
        return Err(format!("constant must have a static shape, but has type '{rt}'"));
    }
    let value = (input.attr)("value").ok_or("requires attribute 'value'")?;
    match *value.kind() {
        AttrKind::DenseElements { ty, .. } | AttrKind::DenseResource { ty, .. } if ty == rt => Ok(rt),
        AttrKind::DenseElements { ty, .. } | AttrKind::DenseResource { ty, .. } => {
            Err(format!("value type '{ty}' does not match result type '{rt}'"))
        }
        _ => Err("attribute 'value' must be a dense elements or dense resource attribute".into()),
    }
}

/// `broadcast_to`: the declared shape, to which the operand must broadcast; a declared `?`
/// takes the size of an operand dim other than 1 (against a 1 or a `?` it stays `?`).
pub fn broadcast_to<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let (rs, re, rt) = declared(input)?;
    if re != elem {
        return Err(format!("result element type '{re}' must match operand element type '{elem}'"));
    }
    match broadcast_shapes(shape, rs) {
        Some(b) if b.len() == rs.len() && compatible_shapes(&b, rs) && shape.len() <= rs.len() => {
            Ok(if b == rs { rt } else { ctx.tensor_type(&b, re) })
        }
        _ => Err(format!("operand type '{}' cannot be broadcast to '{rt}'", input.operands[0])),
    }
}

/// `reshape {source_dims?}`: the declared shape, refined: a `?` result dim tied to an operand
/// dim (`source_dims[i] = j`: result dim `i` has the size of operand dim `j`, `-1`: not tied)
/// takes that dim's size, and a single `?` left is solved from the element count when every
/// other dim is static. Element counts must agree as far as they are known.
pub fn reshape<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let (rs, re, rt) = declared(input)?;
    if re != elem {
        return Err(format!("result element type '{re}' must match operand element type '{elem}'"));
    }
    let sources = int_list((input.attr)("source_dims"))?;
    let refined = reshape_dims(shape, rs, &sources).map_err(|why| match why {
        ReshapeError::Attr(m) => m,
        ReshapeError::Count(a, b) => format!("cannot reshape '{}' ({a}) to '{rt}' ({b})", input.operands[0]),
        ReshapeError::Overflow { operand } => {
            format!("element count of '{}' overflows", if operand { input.operands[0] } else { rt })
        }
    })?;
    Ok(if refined == rs { rt } else { ctx.tensor_type(&refined, elem) })
}

/// Why [`reshape_dims`] refuses a reshape.
pub enum ReshapeError {
    /// The `source_dims` attribute is malformed or contradicts the shapes.
    Attr(String),
    /// The element counts cannot agree: what is known of the operand's and of the result's.
    Count(String, String),
    /// The element count of the operand's (or the result's) static dims is past `i64`.
    Overflow {
        /// Whether it is the operand's.
        operand: bool,
    },
}

/// The result dims of reshaping `operand` to `declared` (`?` allowed in both) with the ties
/// `sources` (empty: none; else one entry per result dim, see [`reshape`]): `declared` with
/// every tied `?` replaced by its operand dim and a single remaining `?` solved from the
/// element count when everything else is static. Tied dims cancel out of the count check, so
/// `?x?x32 -> ?x?x4x8` with ties `[0, 1, -1, -1]` checks 32 against 4 * 8.
pub fn reshape_dims(operand: &[i64], declared: &[i64], sources: &[i64]) -> Result<Vec<i64>, ReshapeError> {
    let mut out = declared.to_vec();
    let mut tied = vec![false; operand.len()];
    if !sources.is_empty() {
        if sources.len() != declared.len() {
            return Err(ReshapeError::Attr(format!(
                "attribute 'source_dims' must have one entry per result dim ({}), but has {}",
                declared.len(),
                sources.len()
            )));
        }
        for (i, &j) in sources.iter().enumerate() {
            if j == -1 {
                continue;
            }
            let Some(slot) = usize::try_from(j).ok().and_then(|j| tied.get_mut(j)) else {
                return Err(ReshapeError::Attr(format!(
                    "attribute 'source_dims' entry {j} is not an operand dim (rank {}) or -1",
                    operand.len()
                )));
            };
            if std::mem::replace(slot, true) {
                return Err(ReshapeError::Attr(format!(
                    "attribute 'source_dims' names operand dim {j} twice"
                )));
            }
            let d = operand[j as usize];
            if !dims_match(out[i], d) {
                return Err(ReshapeError::Attr(format!(
                    "result dim #{i} of size {} is tied to operand dim #{j} of size {}",
                    dim(out[i]),
                    dim(d)
                )));
            }
            if out[i] == DYNAMIC {
                out[i] = d;
            }
        }
    }
    // What is left of each side once the tied dims cancel: the product of its static dims
    // and the count of its dynamic ones.
    let untied = |i: usize| sources.get(i).is_none_or(|&j| j == -1);
    let a = static_count(operand.iter().enumerate().filter(|(j, _)| !tied[*j]).map(|(_, &d)| d));
    let b = static_count(out.iter().enumerate().filter(|(i, _)| untied(*i)).map(|(_, &d)| d));
    let (a, a_dyn) = a.ok_or(ReshapeError::Overflow { operand: true })?;
    let (b, b_dyn) = b.ok_or(ReshapeError::Overflow { operand: false })?;
    let mismatch = match (a_dyn, b_dyn) {
        (0, 0) => a != b,
        // One unknown dim on one side: the other side's count must be a multiple.
        (0, 1) => b == 0 || a % b != 0,
        (1, 0) => a == 0 || b % a != 0,
        _ => false,
    };
    if mismatch {
        let describe = |n: i64, d: usize| {
            if d == 0 {
                format!("{n} elements")
            } else {
                format!("a multiple of {n} elements")
            }
        };
        return Err(ReshapeError::Count(describe(a, a_dyn), describe(b, b_dyn)));
    }
    if (a_dyn, b_dyn) == (0, 1) {
        if let Some(i) = (0..out.len()).find(|&i| out[i] == DYNAMIC && untied(i)) {
            out[i] = a / b;
        }
    }
    Ok(out)
}

/// The product of the static dims of `dims` (`None` past `i64`) and how many are dynamic.
fn static_count(mut dims: impl Iterator<Item = i64>) -> Option<(i64, usize)> {
    dims.try_fold(
        (1i64, 0usize),
        |(n, k), d| if d == DYNAMIC { Some((n, k + 1)) } else { Some((n.checked_mul(d)?, k)) },
    )
}

/// Two shapes agree up to dynamic dims.
pub fn compatible_shapes(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| x == y || x == DYNAMIC || y == DYNAMIC)
}

/// Two types agree up to dynamic dims.
pub fn compatible(a: Type<'_>, b: Type<'_>) -> bool {
    match (tensor_parts(a), tensor_parts(b)) {
        (Some((sa, ea)), Some((sb, eb))) => ea == eb && compatible_shapes(sa, sb),
        _ => a == b,
    }
}

fn axes_of(input: &InferInput<'_, '_>, name: &str, rank: usize) -> Result<Vec<usize>, String> {
    let mut axes = int_list((input.attr)(name))?
        .into_iter()
        .map(|a| normalize_axis(a, rank))
        .collect::<Result<Vec<_>, _>>()?;
    let n = axes.len();
    axes.sort_unstable();
    axes.dedup();
    if axes.len() != n {
        return Err(format!("attribute '{name}' has duplicate axes"));
    }
    Ok(axes)
}

fn reduced_shape(shape: &[i64], axes: &[usize], keep_dims: bool) -> Vec<i64> {
    let mut out = Vec::new();
    for (i, &d) in shape.iter().enumerate() {
        if axes.contains(&i) {
            if keep_dims {
                out.push(1);
            }
        } else {
            out.push(d);
        }
    }
    out
}

/// `reduce_*`: the reduced axes removed (or kept as 1 with `keep_dims`).
pub fn reduce<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let axes = axes_of(input, "axes", shape.len())?;
    if axes.is_empty() {
        return Err("attribute 'axes' must name at least one axis".into());
    }
    let keep = bool_attr((input.attr)("keep_dims"));
    Ok(ctx.tensor_type(&reduced_shape(shape, &axes, keep), elem))
}

/// `argmax`/`argmin`: one axis reduced, `i64` indices.
pub fn arg_reduce<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, _) = operand(input, 0)?;
    let axis = (input.attr)("axis").and_then(|a| a.as_int()).ok_or("requires integer attribute 'axis'")?;
    let axis = normalize_axis(axis as i64, shape.len())?;
    let keep = bool_attr((input.attr)("keep_dims"));
    Ok(ctx.tensor_type(&reduced_shape(shape, &[axis], keep), ctx.int_type(64)))
}

fn dims_match(a: i64, b: i64) -> bool {
    a == b || a == DYNAMIC || b == DYNAMIC
}

/// `matmul`: rank-2 operands.
pub fn matmul<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    contract(ctx, input, false)
}

/// `batch_matmul`: operands of rank >= 2 (one of them >= 3) whose batch dims broadcast (a
/// missing leading dim broadcasts).
pub fn batch_matmul<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    contract(ctx, input, true)
}

fn contract<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>, batched: bool) -> Result<Type<'c>, String> {
    let (a, ea) = operand(input, 0)?;
    let (b, eb) = operand(input, 1)?;
    if ea != eb {
        return Err(format!("operands must have the same element type, but got '{ea}' and '{eb}'"));
    }
    let ranks_ok = if batched {
        a.len() >= 2 && b.len() >= 2 && a.len().max(b.len()) >= 3
    } else {
        a.len() == 2 && b.len() == 2
    };
    if !ranks_ok {
        let want = if batched { "rank 2 or more, one of them rank 3 or more" } else { "rank 2" };
        return Err(format!(
            "operands must have {want}, but got '{}' and '{}'",
            input.operands[0], input.operands[1]
        ));
    }
    let ta = bool_attr((input.attr)("transpose_a"));
    let tb = bool_attr((input.attr)("transpose_b"));
    let (ra, rb) = (a.len(), b.len());
    let (m, ka) = if ta { (a[ra - 1], a[ra - 2]) } else { (a[ra - 2], a[ra - 1]) };
    let (kb, n) = if tb { (b[rb - 1], b[rb - 2]) } else { (b[rb - 2], b[rb - 1]) };
    if !dims_match(ka, kb) {
        return Err(format!(
            "contraction dims do not match: '{}' and '{}' (k = {} vs {})",
            input.operands[0],
            input.operands[1],
            dim(ka),
            dim(kb)
        ));
    }
    let mut shape = if batched {
        broadcast_shapes(&a[..ra - 2], &b[..rb - 2]).ok_or("batch dims are not broadcast compatible")?
    } else {
        Vec::new()
    };
    shape.extend([m, n]);
    Ok(ctx.tensor_type(&shape, ea))
}

fn dim(d: i64) -> String {
    if d == DYNAMIC {
        "?".into()
    } else {
        d.to_string()
    }
}

fn pair(input: &InferInput<'_, '_>, name: &str, default: [i64; 2]) -> Result<[i64; 2], String> {
    match int_list((input.attr)(name))?.as_slice() {
        [] => Ok(default),
        [a, b] if *a >= 1 && *b >= 1 => Ok([*a, *b]),
        other => Err(format!("attribute '{name}' must be two positive integers, but got {other:?}")),
    }
}

/// `conv2d`: input NCHW, weights OIHW (I = C / groups), padding `[top, left, bottom, right]`,
/// an optional bias `[O]`.
pub fn conv2d<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (x, ex) = operand(input, 0)?;
    let (w, ew) = operand(input, 1)?;
    if ex != ew {
        return Err(format!("input and weights must have the same element type, but got '{ex}' and '{ew}'"));
    }
    if x.len() != 4 || w.len() != 4 {
        return Err("input and weights must have rank 4 (NCHW and OIHW)".into());
    }
    if input.operands.len() > 3 {
        return Err(format!("expected 2 or 3 operands, but got {}", input.operands.len()));
    }
    if input.operands.len() == 3 {
        let (b, eb) = operand(input, 2)?;
        if eb != ex || b.len() != 1 || !dims_match(b[0], w[0]) {
            return Err(format!(
                "bias '{}' must be rank 1 with the output channels of weights '{}'",
                input.operands[2], input.operands[1]
            ));
        }
    }
    let strides = pair(input, "strides", [1, 1])?;
    let dilation = pair(input, "dilation", [1, 1])?;
    let padding = match int_list((input.attr)("padding"))?.as_slice() {
        [] => [0; 4],
        [t, l, b, r] if [*t, *l, *b, *r].iter().all(|&p| p >= 0) => [*t, *l, *b, *r],
        other => {
            return Err(format!("attribute 'padding' must be four non-negative integers, but got {other:?}"))
        }
    };
    let groups = (input.attr)("groups").and_then(|a| a.as_int()).unwrap_or(1) as i64;
    if groups < 1 {
        return Err(format!("attribute 'groups' must be positive, but got {groups}"));
    }
    let (c, o, i) = (x[1], w[0], w[1]);
    if c != DYNAMIC && i != DYNAMIC && (c % groups != 0 || c / groups != i) {
        return Err(format!(
            "weights expect {} input channels per group, but input has {} channels for groups = {groups}",
            dim(i),
            dim(c)
        ));
    }
    if o != DYNAMIC && o % groups != 0 {
        return Err(format!("output channels {o} are not divisible by groups {groups}"));
    }
    let out = |size: i64, k: i64, pad: i64, s: i64, d: i64| -> Result<i64, String> {
        if size == DYNAMIC || k == DYNAMIC {
            return Ok(DYNAMIC);
        }
        let overflow = || "convolution sizes overflow".to_string();
        let eff = (k - 1).checked_mul(d).and_then(|e| e.checked_add(1)).ok_or_else(overflow)?;
        let padded = size.checked_add(pad).ok_or_else(overflow)?;
        let span = padded - eff;
        if span < 0 {
            return Err(format!("kernel extent {eff} exceeds padded input size {padded}"));
        }
        Ok(span / s + 1)
    };
    let pad = |a: i64, b: i64| a.checked_add(b).ok_or_else(|| "convolution padding overflows".to_string());
    let h = out(x[2], w[2], pad(padding[0], padding[2])?, strides[0], dilation[0])?;
    let wd = out(x[3], w[3], pad(padding[1], padding[3])?, strides[1], dilation[1])?;
    Ok(ctx.tensor_type(&[x[0], o, h, wd], ex))
}

/// `transpose {perm}`.
pub fn transpose<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let perm = int_list((input.attr)("perm"))?;
    let mut seen = vec![false; shape.len()];
    if perm.len() != shape.len()
        || !perm
            .iter()
            .all(|&p| (0..shape.len() as i64).contains(&p) && !std::mem::replace(&mut seen[p as usize], true))
    {
        return Err(format!("attribute 'perm' {perm:?} is not a permutation of rank {}", shape.len()));
    }
    let out: Vec<i64> = perm.iter().map(|&p| shape[p as usize]).collect();
    Ok(ctx.tensor_type(&out, elem))
}

/// `slice {starts, limits, strides}` (strides default to 1).
pub fn slice<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let starts = int_list((input.attr)("starts"))?;
    let limits = int_list((input.attr)("limits"))?;
    let mut strides = int_list((input.attr)("strides"))?;
    if strides.is_empty() {
        strides = vec![1; shape.len()];
    }
    if starts.len() != shape.len() || limits.len() != shape.len() || strides.len() != shape.len() {
        return Err(format!("'starts', 'limits' and 'strides' must each have {} entries", shape.len()));
    }
    let mut out = Vec::with_capacity(shape.len());
    for i in 0..shape.len() {
        let (s, l, st, d) = (starts[i], limits[i], strides[i], shape[i]);
        if st < 1 || s < 0 || l < s || (d != DYNAMIC && l > d) {
            return Err(format!("invalid slice [{s}:{l}:{st}] of dim #{i} (size {})", dim(d)));
        }
        out.push(((l - s) as u64).div_ceil(st as u64) as i64);
    }
    Ok(ctx.tensor_type(&out, elem))
}

/// `concat {axis}`: dims other than `axis` agree; `axis` dims add up.
pub fn concat<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (first, elem) = operand(input, 0)?;
    same_elements(input, 0, elem)?;
    let axis = (input.attr)("axis").and_then(|a| a.as_int()).ok_or("requires integer attribute 'axis'")?;
    let axis = normalize_axis(axis as i64, first.len())?;
    let mut out = first.to_vec();
    for (i, &t) in input.operands.iter().enumerate().skip(1) {
        let (s, _) = parts(t)?;
        if s.len() != first.len() {
            return Err(format!(
                "operand #{i} has rank {}, but operand #0 has rank {}",
                s.len(),
                first.len()
            ));
        }
        for (d, (&a, &b)) in out.clone().iter().zip(s).enumerate() {
            if d == axis {
                out[d] = if a == DYNAMIC || b == DYNAMIC {
                    DYNAMIC
                } else {
                    a.checked_add(b).ok_or_else(|| format!("concatenated dim #{d} overflows"))?
                };
            } else if !dims_match(a, b) {
                return Err(format!(
                    "operand #{i} has dim #{d} of size {}, but {} was expected",
                    dim(b),
                    dim(a)
                ));
            }
        }
    }
    Ok(ctx.tensor_type(&out, elem))
}

/// `expand_dims {axis}`: a unit dim inserted at `axis` (in `0..=rank`).
pub fn expand_dims<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let axis = (input.attr)("axis").and_then(|a| a.as_int()).ok_or("requires integer attribute 'axis'")?;
    let axis = normalize_axis(axis as i64, shape.len() + 1)?;
    let mut out = shape.to_vec();
    out.insert(axis, 1);
    Ok(ctx.tensor_type(&out, elem))
}

/// `squeeze {axes}`: the listed unit dims removed.
pub fn squeeze<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let axes = axes_of(input, "axes", shape.len())?;
    for &a in &axes {
        if shape[a] != 1 && shape[a] != DYNAMIC {
            return Err(format!("cannot squeeze dim #{a} of size {}", shape[a]));
        }
    }
    Ok(ctx.tensor_type(&reduced_shape(shape, &axes, false), elem))
}

/// Normalizations and `softmax`-like composites: the type of operand 0; `axis` must be valid
/// and extra operands (scale, bias, statistics) must broadcast against it.
pub fn normalization<'c>(_: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    same_elements(input, 0, elem)?;
    if let Some(axis) = (input.attr)("axis").and_then(|a| a.as_int()) {
        normalize_axis(axis as i64, shape.len())?;
    }
    for (i, &t) in input.operands.iter().enumerate().skip(1) {
        let (s, _) = parts(t)?;
        let fits = s.len() <= shape.len()
            && broadcast_shapes(shape, s).is_some_and(|b| compatible_shapes(&b, shape));
        if !fits {
            return Err(format!("operand #{i} of type '{t}' does not broadcast to '{}'", input.operands[0]));
        }
    }
    Ok(input.operands[0])
}

/// `swiglu {axis}`: `axis` split in halves, so its size halves.
pub fn swiglu<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    let axis = (input.attr)("axis").and_then(|a| a.as_int()).unwrap_or(-1);
    let axis = normalize_axis(axis as i64, shape.len())?;
    let mut out = shape.to_vec();
    if out[axis] != DYNAMIC {
        if out[axis] % 2 != 0 {
            return Err(format!("dim #{axis} of size {} cannot be split in halves", out[axis]));
        }
        out[axis] /= 2;
    }
    Ok(ctx.tensor_type(&out, elem))
}

/// `clamp {min, max}`: the operand's type; `min <= max`.
pub fn clamp<'c>(ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let value = |n: &str| (input.attr)(n).and_then(float_value);
    if let (Some(lo), Some(hi)) = (value("min"), value("max")) {
        if lo > hi {
            return Err(format!("'min' ({lo}) must not exceed 'max' ({hi})"));
        }
    }
    same(ctx, input)
}

/// `bias_add {axis}`: a rank-1 bias whose length is dim `axis` of `x` (default: the last).
pub fn bias_add<'c>(_: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Type<'c>, String> {
    let (shape, elem) = operand(input, 0)?;
    same_elements(input, 0, elem)?;
    let (bias, _) = operand(input, 1)?;
    let axis = (input.attr)("axis").and_then(|a| a.as_int()).unwrap_or(-1);
    let axis = normalize_axis(axis as i64, shape.len())?;
    if bias.len() != 1 || !dims_match(bias[0], shape[axis]) {
        return Err(format!(
            "bias '{}' must be rank 1 with the size of dim #{axis} of '{}'",
            input.operands[1], input.operands[0]
        ));
    }
    Ok(input.operands[0])
}
