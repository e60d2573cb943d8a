//! The lowering of `hl` ops to `npuvec` vector ops, one tile at a time: each turns one `hl`
//! op whose operands already have UB buffers (or are immediates) into the `npuvec` ops that
//! write its result buffer. An elementwise op with a one-to-one `npuvec` op declares it
//! (`HlOp::vector`); the others have a pattern rooted on their definition here.

use kiln_compiler::{Ir, OpDef, OpId, Type, ValueId};
use kiln_dialects::hl::accessors::{float_value, int_list, normalize_axis};
use kiln_dialects::hl::attrs::CmpPredicate;
use kiln_dialects::hl::interfaces::HlOp;
use kiln_dialects::npuvec::{CmpPredicate as NpuCmp, ReduceKind, RoundMode};
use kiln_dialects::{arith, hl, npuvec};

use super::build::{Build, Builder};

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

/// `hl.reduce_*` -> its `npuvec.reduce` kind.
const REDUCE: &[(&OpDef, ReduceKind)] = &[
    (&hl::REDUCE_SUM, ReduceKind::Sum),
    (&hl::REDUCE_MEAN, ReduceKind::Sum),
    (&hl::REDUCE_MAX, ReduceKind::Max),
    (&hl::REDUCE_MIN, ReduceKind::Min),
    (&hl::REDUCE_PROD, ReduceKind::Prod),
];

/// A lowering pattern: writes an `hl` op's result buffer from its sources.
type Pattern = fn(&mut Builder<'_, '_>, &TileOp<'_>) -> Result<(), String>;

/// The patterns of the ops without a one-to-one `npuvec` op (those declare theirs:
/// [`HlOp::vector`](kiln_dialects::hl::interfaces::HlOp)), rooted on their definitions.
const PATTERNS: &[(&OpDef, Pattern)] = &[
    (&hl::SILU, silu),
    (&hl::CMP, cmp),
    (&hl::SELECT, select),
    (&hl::CAST, cast),
    (&hl::CLAMP, clamp),
    (&hl::BROADCAST_TO, broadcast_to),
    (&hl::REDUCE_SUM, reduce),
    (&hl::REDUCE_MEAN, reduce),
    (&hl::REDUCE_MAX, reduce),
    (&hl::REDUCE_MIN, reduce),
    (&hl::REDUCE_PROD, reduce),
];

/// The `npuvec` op that `hl` op `def` lowers to one to one (`hl.exp` -> `npuvec.exp`).
pub fn vector_lowering(def: &OpDef) -> Option<&'static OpDef> {
    def.interface::<HlOp>().and_then(|h| h.vector)
}

/// Whether `op` is an elementwise `hl` op with a one-instruction lowering (no temporary).
pub fn is_elementwise(ir: &Ir<'_>, op: OpId) -> bool {
    ir.op(op).def.is_some_and(|d| vector_lowering(d).is_some())
}

/// The element type of a memref or scalar value.
fn elem_of<'c>(ir: &Ir<'c>, v: ValueId) -> Type<'c> {
    let t = ir.value_type(v);
    t.element_type().unwrap_or(t)
}

/// Lowers one `hl` op of a tile (see [`TileOp`]); `Err` names what has no lowering.
pub fn lower_op(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let data = b.ir.op(t.op);
    let (name, def) = (data.name, data.def);
    if let Some(to) = def.and_then(vector_lowering) {
        let mut operands = t.srcs.to_vec();
        operands.push(t.dst);
        b.op(to, &operands, &[], &[], 0);
        return Ok(());
    }
    match PATTERNS.iter().find(|(d, _)| def.is_some_and(|def| std::ptr::eq(*d, def))) {
        Some((_, pattern)) => pattern(b, t),
        None => Err(format!("no vector lowering for '{name}'")),
    }
}

/// `silu(x) = x * sigmoid(x)`, the sigmoid in the temporary.
fn silu(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let temp = t.temp.ok_or("silu needs a temporary")?;
    b.op(&npuvec::SIGMOID_OP, &[t.srcs[0], temp], &[], &[], 0);
    b.op(&npuvec::MUL_OP, &[t.srcs[0], temp, t.dst], &[], &[], 0);
    Ok(())
}

fn cmp(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let pred =
        b.ir.attr(t.op, "predicate")
            .and_then(CmpPredicate::of)
            .ok_or_else(|| format!("{} without a predicate", kiln_dialects::hl::CMP.name))?;
    let pred = NpuCmp::from_keyword(pred.keyword()).ok_or("a predicate npuvec.cmp does not have")?;
    let attr = pred.attr(b.ctx);
    b.op(&npuvec::CMP_OP, &[t.srcs[0], t.srcs[1], t.dst], &[("predicate", attr)], &[], 0);
    Ok(())
}

fn select(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let srcs = t.srcs;
    match immediate_mask(b.ir, srcs[0]) {
        // A splat condition picks one side for the whole tile.
        Some(true) => assign(b, srcs[1], t.dst),
        Some(false) => assign(b, srcs[2], t.dst),
        None => {
            b.op(&npuvec::SELECT_OP, &[srcs[0], srcs[1], srcs[2], t.dst], &[], &[], 0);
        }
    }
    Ok(())
}

/// Float to integer truncates (as C and the interpreter do), everything else rounds to
/// nearest even.
fn cast(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let to_int = elem_of(b.ir, t.srcs[0]).is_float() && !elem_of(b.ir, t.dst).is_float();
    let attr = if to_int { RoundMode::Trunc } else { RoundMode::Rint }.attr(b.ctx);
    b.op(&npuvec::CAST_OP, &[t.srcs[0], t.dst], &[("round", attr)], &[], 0);
    Ok(())
}

/// `min(max(x, lo), hi)` with the bounds it has as immediates.
fn clamp(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let elem = elem_of(b.ir, t.dst);
    let (lo, hi) =
        (b.ir.attr(t.op, "min").and_then(float_value), b.ir.attr(t.op, "max").and_then(float_value));
    let mut cur = t.srcs[0];
    for (bound, op) in [(lo, &npuvec::MAX_OP), (hi, &npuvec::MIN_OP)] {
        if let Some(v) = bound {
            let imm = b.scalar(elem, v);
            b.op(op, &[cur, imm, t.dst], &[], &[], 0);
            cur = t.dst;
        }
    }
    if cur != t.dst {
        b.op(&npuvec::COPY_OP, &[cur, t.dst], &[], &[], 0);
    }
    Ok(())
}

fn broadcast_to(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    assign(b, t.srcs[0], t.dst);
    Ok(())
}

/// The value of an `i1` immediate (an `arith.constant`), or `None` for a buffer.
fn immediate_mask(ir: &Ir<'_>, src: Src) -> Option<bool> {
    let def = ir.defining_op(src).filter(|&d| ir.is(d, &arith::CONSTANT_OP))?;
    ir.attr(def, "value").and_then(|a| a.as_int()).map(|v| v != 0)
}

/// `dst = src` broadcast to `dst`'s shape: a fill from an immediate, a copy of a buffer of the
/// same shape, a broadcast of a `[R, 1]`, `[1, C]` or `[1, 1]` one.
fn assign(b: &mut Builder<'_, '_>, src: Src, dst: ValueId) {
    let to = if b.ir.value_type(src).shape().is_none() {
        &npuvec::FILL_OP
    } else if b.ir.value_type(src) == b.ir.value_type(dst) {
        &npuvec::COPY_OP
    } else {
        &npuvec::BROADCAST_OP
    };
    b.op(to, &[src, dst], &[], &[], 0);
}

/// A reduction of the tile's cols: straight into `dst`, or through the `f32` temporary for
/// `f16`/`bf16` (the interpreter accumulates in `f32` and rounds once); a mean divides by the
/// reduced element count in `f32`.
fn reduce(b: &mut Builder<'_, '_>, t: &TileOp<'_>) -> Result<(), String> {
    let (kind, mean) = reduce_kind(b.ir, t.op).ok_or("not a reduction")?;
    let acc = t.temp.unwrap_or(t.dst);
    reduce_partial(b, kind, t.srcs[0], acc, false);
    reduce_finish(b, t.op, acc, t.dst, mean)
}

/// The `npuvec.reduce` kind of `hl.reduce_*` op `op`, and whether it is a mean.
pub fn reduce_kind(ir: &Ir<'_>, op: OpId) -> Option<(ReduceKind, bool)> {
    let (_, kind) = REDUCE.iter().find(|(d, _)| ir.is(op, d))?;
    Some((*kind, ir.is(op, &hl::REDUCE_MEAN)))
}

/// Folds the cols of `src` into `acc` (continuing from `acc` with `accumulate`).
pub fn reduce_partial(
    b: &mut Builder<'_, '_>,
    kind: ReduceKind,
    src: ValueId,
    acc: ValueId,
    accumulate: bool,
) {
    let kind_attr = kind.attr(b.ctx);
    let mut attrs = vec![("kind", kind_attr)];
    if accumulate {
        attrs.push(("accumulate", b.ctx.unit_attr()));
    }
    b.op(&npuvec::REDUCE_OP, &[src, acc], &attrs, &[], 0);
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
        b.op(&npuvec::DIV_OP, &[acc, n, acc], &[], &[], 0);
    }
    if acc != dst {
        let attr = RoundMode::Rint.attr(b.ctx);
        b.op(&npuvec::CAST_OP, &[acc, dst], &[("round", attr)], &[], 0);
    }
    Ok(())
}
