//! The lowering patterns of `hl` ops to `npuvec` vector ops, one tile at a time: each pattern
//! turns one `hl` op whose operands already have UB buffers (or are immediates) into the
//! `npuvec` ops that write its result buffer. The table is keyed by op name, as conversion
//! patterns are rooted on an op definition.

use kiln_compiler::{Ir, OpId, Type, ValueId};
use kiln_dialects::hl::accessors::{float_value, int_list, normalize_axis};
use kiln_dialects::hl::attrs::CmpPredicate;

use super::build::{npuvec_enum, Builder};

/// A source operand of a tile op: a UB buffer or an immediate (an `arith.constant`).
pub type Src = ValueId;

/// What a pattern gets: the op, its operands as sources, its result buffer, its temporary.
pub struct TileOp<'o> {
    /// The `hl` op.
    pub op: OpId,
    /// Its operands, lowered.
    pub srcs: &'o [Src],
    /// Its result's buffer.
    pub dst: ValueId,
    /// Its temporary buffer, when the model gave it one.
    pub temp: Option<ValueId>,
}

/// `hl` unary op -> `npuvec` op.
const UNARY: &[(&str, &str)] = &[
    ("hl.neg", "npuvec.neg"),
    ("hl.abs", "npuvec.abs"),
    ("hl.exp", "npuvec.exp"),
    ("hl.log", "npuvec.log"),
    ("hl.sqrt", "npuvec.sqrt"),
    ("hl.rsqrt", "npuvec.rsqrt"),
    ("hl.reciprocal", "npuvec.recip"),
    ("hl.tanh", "npuvec.tanh"),
    ("hl.erf", "npuvec.erf"),
    ("hl.sigmoid", "npuvec.sigmoid"),
    ("hl.relu", "npuvec.relu"),
    ("hl.floor", "npuvec.floor"),
    ("hl.ceil", "npuvec.ceil"),
    ("hl.round", "npuvec.round"),
    ("hl.sign", "npuvec.sign"),
    ("hl.not", "npuvec.not"),
];

/// `hl` binary op -> `npuvec` op.
const BINARY: &[(&str, &str)] = &[
    ("hl.add", "npuvec.add"),
    ("hl.sub", "npuvec.sub"),
    ("hl.mul", "npuvec.mul"),
    ("hl.div", "npuvec.div"),
    ("hl.maximum", "npuvec.max"),
    ("hl.minimum", "npuvec.min"),
    ("hl.pow", "npuvec.pow"),
    ("hl.and", "npuvec.and"),
    ("hl.or", "npuvec.or"),
];

/// `hl.reduce_*` -> `#npuvec.reduce<..>` keyword.
const REDUCE: &[(&str, &str)] = &[
    ("hl.reduce_sum", "sum"),
    ("hl.reduce_mean", "sum"),
    ("hl.reduce_max", "max"),
    ("hl.reduce_min", "min"),
    ("hl.reduce_prod", "prod"),
];

/// Whether `name` is an elementwise op with a one-instruction lowering (no temporary).
pub fn is_elementwise(name: &str) -> bool {
    unary_lowering(name).is_some() || binary_lowering(name).is_some()
}

/// The `npuvec` op that `hl` unary op `name` lowers to, one to one (`hl.exp` -> `npuvec.exp`).
pub fn unary_lowering(name: &str) -> Option<&'static str> {
    lookup(UNARY, name)
}

/// The `npuvec` op that `hl` binary op `name` lowers to, one to one (`hl.maximum` ->
/// `npuvec.max`).
pub fn binary_lowering(name: &str) -> Option<&'static str> {
    lookup(BINARY, name)
}

fn lookup(table: &[(&str, &'static str)], name: &str) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == name).map(|(_, v)| *v)
}

/// The element type of a memref or scalar value.
fn elem_of<'c>(ir: &Ir<'c>, v: ValueId) -> Type<'c> {
    let t = ir.value_type(v);
    t.element_type().unwrap_or(t)
}

/// Lowers one `hl` op of a tile (see [`TileOp`]); `Err` names what has no lowering.
pub fn lower_op(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let name = b.ir.op(t.op).name;
    let (srcs, dst) = (t.srcs, t.dst);
    if let Some(to) = lookup(UNARY, name) {
        b.op(to, &[srcs[0], dst], &[], &[], 0);
    } else if let Some(to) = lookup(BINARY, name) {
        b.op(to, &[srcs[0], srcs[1], dst], &[], &[], 0);
    } else if name == "hl.silu" {
        let temp = t.temp.ok_or("silu needs a temporary")?;
        b.op("npuvec.sigmoid", &[srcs[0], temp], &[], &[], 0);
        b.op("npuvec.mul", &[srcs[0], temp, dst], &[], &[], 0);
    } else if name == "hl.cmp" {
        let pred =
            b.ir.attr(t.op, "predicate").and_then(CmpPredicate::of).ok_or("hl.cmp without a predicate")?;
        let attr = npuvec_enum(b.ctx, "cmp", pred.keyword());
        b.op("npuvec.cmp", &[srcs[0], srcs[1], dst], &[("predicate", attr)], &[], 0);
    } else if name == "hl.select" {
        match immediate_mask(b.ir, srcs[0]) {
            // A splat condition picks one side for the whole tile.
            Some(true) => assign(b, srcs[1], dst),
            Some(false) => assign(b, srcs[2], dst),
            None => {
                b.op("npuvec.select", &[srcs[0], srcs[1], srcs[2], dst], &[], &[], 0);
            }
        }
    } else if name == "hl.cast" {
        let round = if elem_of(b.ir, srcs[0]).is_float() && !elem_of(b.ir, dst).is_float() {
            "trunc"
        } else {
            "rint"
        };
        let attr = npuvec_enum(b.ctx, "round", round);
        b.op("npuvec.cast", &[srcs[0], dst], &[("round", attr)], &[], 0);
    } else if name == "hl.clamp" {
        let elem = elem_of(b.ir, dst);
        let (lo, hi) =
            (b.ir.attr(t.op, "min").and_then(float_value), b.ir.attr(t.op, "max").and_then(float_value));
        let mut cur = srcs[0];
        for (bound, op) in [(lo, "npuvec.max"), (hi, "npuvec.min")] {
            if let Some(v) = bound {
                let imm = b.scalar(elem, v);
                b.op(op, &[cur, imm, dst], &[], &[], 0);
                cur = dst;
            }
        }
        if cur != dst {
            b.op("npuvec.copy", &[cur, dst], &[], &[], 0);
        }
    } else if let Some((kind, mean)) = reduce_kind(name) {
        reduce(b, t, kind, mean)?;
    } else if name == "hl.broadcast_to" {
        assign(b, srcs[0], dst);
    } else {
        return Err(format!("no vector lowering for '{name}'"));
    }
    Ok(())
}

/// The value of an `i1` immediate (an `arith.constant`), or `None` for a buffer.
fn immediate_mask(ir: &Ir<'_>, src: Src) -> Option<bool> {
    let def = ir.defining_op(src).filter(|&d| ir.op(d).name == "arith.constant")?;
    ir.attr(def, "value").and_then(|a| a.as_int()).map(|v| v != 0)
}

/// `dst = src` broadcast to `dst`'s shape: a fill from an immediate, a copy of a buffer of the
/// same shape, a broadcast of a `[R, 1]`, `[1, C]` or `[1, 1]` one.
fn assign(b: &mut Builder<'_, '_>, src: Src, dst: ValueId) {
    let to = if b.ir.value_type(src).shape().is_none() {
        "npuvec.fill"
    } else if b.ir.value_type(src) == b.ir.value_type(dst) {
        "npuvec.copy"
    } else {
        "npuvec.broadcast"
    };
    b.op(to, &[src, dst], &[], &[], 0);
}

/// A reduction of the tile's cols: straight into `dst`, or through the `f32` temporary for
/// `f16`/`bf16` (the interpreter accumulates in `f32` and rounds once); a mean divides by the
/// reduced element count in `f32`.
fn reduce(b: &mut Builder<'_, '_>, t: &TileOp<'_>, kind: &str, mean: bool) -> Result<(), String> {
    let acc = t.temp.unwrap_or(t.dst);
    reduce_partial(b, kind, t.srcs[0], acc, false);
    reduce_finish(b, t.op, acc, t.dst, mean)
}

/// The `npuvec.reduce` keyword of an `hl.reduce_*` op, and whether it is a mean.
pub fn reduce_kind(name: &str) -> Option<(&'static str, bool)> {
    lookup(REDUCE, name).map(|k| (k, name == "hl.reduce_mean"))
}

/// Folds the cols of `src` into `acc` (continuing from `acc` with `accumulate`).
pub fn reduce_partial(b: &mut Builder<'_, '_>, kind: &str, src: ValueId, acc: ValueId, accumulate: bool) {
    let kind_attr = npuvec_enum(b.ctx, "reduce", kind);
    let mut attrs = vec![("kind", kind_attr)];
    if accumulate {
        attrs.push(("accumulate", b.ctx.unit_attr()));
    }
    b.op("npuvec.reduce", &[src, acc], &attrs, &[], 0);
}

/// Finishes reduction `op` from its accumulator: the mean's division, the rounding of a wide
/// accumulator into `dst`.
pub fn reduce_finish(
    b: &mut Builder<'_, '_>,
    op: OpId,
    acc: ValueId,
    dst: ValueId,
    mean: bool,
) -> Result<(), String> {
    if mean {
        let x = b.ir.operands(op)[0];
        let shape = b.ir.value_type(x).shape().unwrap_or(&[]).to_vec();
        let axes = int_list(b.ir.attr(op, "axes"))?;
        let count: i64 = axes
            .iter()
            .map(|&a| normalize_axis(a, shape.len()).map(|a| shape[a]))
            .collect::<Result<Vec<_>, _>>()?
            .iter()
            .product();
        let elem = elem_of(b.ir, acc);
        let n = b.scalar(elem, count as f64);
        b.op("npuvec.div", &[acc, n, acc], &[], &[], 0);
    }
    if acc != dst {
        let attr = npuvec_enum(b.ctx, "round", "rint");
        b.op("npuvec.cast", &[acc, dst], &[("round", attr)], &[], 0);
    }
    Ok(())
}
