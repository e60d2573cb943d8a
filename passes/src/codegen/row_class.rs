//! The row shape class: one vector kernel for every size of its `?` dims.
//!
//! A vector kernel is a *row class* when its `?` dims all lie on kept (non-reduced) axes of its
//! domain (`model.rs`), the reduced axes are the trailing ones and static, and every value with
//! rows spans every kept axis longer than 1. Its kept axes then flatten into one row axis of
//! `N` rows (the product of the kept dims: the static ones times the `?` ones, known at
//! launch), along which every row value is laid out with a static *row stride* (the elements
//! of one row of it in GM: the product of its trailing static dims). The model sizes a `?` dim
//! as [`STANDIN`] (any size longer than 1 would do: a `?` is never broadcast from 1; a size-1
//! dim that broadcasts is a static 1 in the program).
//!
//! The tile is `rows` rows of that axis, chosen at compile time by [`Tiling::choose_in`] for a
//! row count larger than any launch's ([`MAX_ROWS`]): the most rows whose buffers fit the UB,
//! on all the target's cores. The kernel takes two launch parameters, `N` and
//! `ceil_div(N, rows)` (the tile count); its tile loop runs `block_idx .. tiles step
//! block_num`; tile `t` reads and writes its row values at `t * rows * row_stride` and bounds
//! their row dim by the extent `min(N - t * rows, rows)`, so the last tile is the body tile
//! with fewer rows (no tail variant).
//!
//! Outside the class, and a located error ("not a row shape class: ..."): a kernel other than
//! a vector one with `?` dims, a reduction over a `?` axis, a value with rows that spans only
//! some kept axes, a view of an input that does not flatten, a row that does not fit the UB.
//!
//! The tile step records the class in the kernel's `npuvec.row_class` ([`RowClass`]); the
//! lowering reads it (`lower_vector.rs`), and `kiln-codegen-bufferize` derives the host's
//! symbols and size expressions from it (`class_host.rs`).

use kiln_compiler::{Attribute, Context, Ir, NamedAttr, OpId, ValueId, DYNAMIC};
use kiln_dialects::npuvec::MAX_VIEW_DIMS;
use kiln_targets::Target;

use kiln_dialects::arith;

use super::build::{i64_array, i64_array_values, i64_attr, set_attr, Build, Builder};
use super::model::{VectorModel, STANDIN};
use super::tiling::{TileDomain, Tiling};

/// The kernel attribute that records its row class.
pub const ROW_CLASS_ATTR: &str = "npuvec.row_class";

/// The row count the class tile is chosen for: more than any launch has (2^40 rows).
pub const MAX_ROWS: i64 = 1 << 40;

/// A kernel's row class, as `npuvec.row_class = {rows, static_rows, axes}` records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowClass {
    /// Rows of the flattened row axis per tile.
    pub rows: i64,
    /// The product of the static kept dims (`N` is this times the `?` dims).
    pub static_rows: i64,
    /// For each GM argument of the kernel (its inputs, then its outputs), for each dim: the
    /// domain axis of a `?` dim, else -1.
    pub axes: Vec<Vec<i64>>,
}

impl RowClass {
    /// The `?` kept axes, each once, ascending.
    pub fn dynamic_axes(&self) -> Vec<i64> {
        let mut axes: Vec<i64> = self.axes.iter().flatten().copied().filter(|&a| a >= 0).collect();
        axes.sort_unstable();
        axes.dedup();
        axes
    }

    /// The `npuvec.row_class` attribute: the axes flattened, with each argument's rank.
    pub fn attr<'c>(&self, ctx: &Context<'c>) -> Attribute<'c> {
        let ranks: Vec<i64> = self.axes.iter().map(|a| a.len() as i64).collect();
        let flat: Vec<i64> = self.axes.iter().flatten().copied().collect();
        let fields = [
            NamedAttr { name: ctx.intern_str("rows"), value: i64_attr(ctx, self.rows) },
            NamedAttr { name: ctx.intern_str("static_rows"), value: i64_attr(ctx, self.static_rows) },
            NamedAttr { name: ctx.intern_str("ranks"), value: i64_array(ctx, &ranks) },
            NamedAttr { name: ctx.intern_str("axes"), value: i64_array(ctx, &flat) },
        ];
        ctx.dict_attr(&fields)
    }

    /// The row class of `kernel`, when it has one.
    pub fn of(ir: &Ir<'_>, kernel: OpId) -> Option<RowClass> {
        let attr = ir.attr(kernel, ROW_CLASS_ATTR)?;
        let get = |n: &str| attr.dict_get(n).and_then(|a| a.as_int()).map(|v| v as i64).filter(|&v| v >= 1);
        let ranks = i64_array_values(attr.dict_get("ranks")?)?;
        let mut flat = i64_array_values(attr.dict_get("axes")?)?.into_iter();
        let axes = ranks.iter().map(|&r| flat.by_ref().take(r as usize).collect()).collect();
        Some(RowClass { rows: get("rows")?, static_rows: get("static_rows")?, axes })
    }
}

/// Whether any of `values` has a `?` dim.
pub fn any_dynamic(ir: &Ir<'_>, values: impl IntoIterator<Item = ValueId>) -> bool {
    values.into_iter().any(|v| ir.value_type(v).shape().is_some_and(|s| s.contains(&DYNAMIC)))
}

/// The row axis of `model`: its innermost kept axis longer than 1 (the key of the class tile).
fn row_axis(model: &VectorModel) -> Option<usize> {
    model.kept.iter().rev().copied().find(|&a| model.domain[a] > 1)
}

/// Checks that the vector kernel over `model` (inputs `args`, outputs `model.outputs`) is a
/// row class, chooses its tile on `target` within the usable UB divided by `shrink`
/// (`double_buffer`: it may be double-buffered, when that pays for many tiles per core), and
/// returns both. The errors say why it is not a row class.
pub fn choose<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    model: &VectorModel,
    args: &[ValueId],
    target: &Target,
    shrink: u64,
    double_buffer: bool,
) -> Result<(Tiling, RowClass), String> {
    let values: Vec<ValueId> = args
        .iter()
        .chain(model.ops.iter().flat_map(|&o| ir.results(o)))
        .chain(&model.outputs)
        .copied()
        .collect();
    // Axes of `?` dims, and the static dims that would be taken for one.
    let mut dynamic: Vec<usize> = Vec::new();
    for &v in &values {
        let Some(info) = model.info.get(&v) else { continue };
        for (j, &d) in ir.value_type(v).shape().unwrap_or(&[]).iter().enumerate() {
            if d == STANDIN {
                return Err(format!("a static dim of {STANDIN} (the size the model gives a `?` dim)"));
            }
            if let (DYNAMIC, Some(a)) = (d, info.map.get(j).copied().flatten()) {
                dynamic.push(a);
            }
        }
    }
    if let Some(&a) = dynamic.iter().find(|a| model.reduced.contains(a)) {
        return Err(format!("it reduces axis {a}, which is `?` (a row class reduces static trailing axes)"));
    }
    let n = model.domain.len();
    if model.reduced.iter().enumerate().any(|(i, &a)| a != n - model.reduced.len() + i) {
        return Err("it reduces axes that are not the trailing ones".into());
    }
    let key = row_axis(model).ok_or("it has no rows")?;
    let long_kept: Vec<usize> = model.kept.iter().copied().filter(|&a| model.domain[a] > 1).collect();
    for &v in &values {
        let Some(info) = model.info.get(&v) else { continue };
        if !info.rows || info.splat.is_some() {
            continue;
        }
        if long_kept.iter().any(|a| !info.map.contains(&Some(*a))) {
            return Err(format!(
                "a value of type {} spans only some of the kept axes (the rows of a row class flatten)",
                ir.value_type(v)
            ));
        }
    }
    // Every row value read or written in GM must lay its rows at one stride.
    for &v in model.inputs.iter().chain(&model.outputs) {
        if !model.info[&v].rows {
            continue;
        }
        let s = model.gm_strides(ir, v, model.views.get(&v));
        let flat = long_kept.windows(2).all(|w| s[w[0]] == s[w[1]] * model.domain[w[1]]);
        if !flat {
            return Err(format!("the rows of a {} do not lie at one stride in GM", ir.value_type(v)));
        }
    }
    let cols_dims = [model.col_view_dims(ir, false), model.col_view_dims(ir, true)];
    if cols_dims[0] >= MAX_VIEW_DIMS {
        return Err(format!("its columns take all {MAX_VIEW_DIMS} dims of a GM view"));
    }
    let dom = TileDomain {
        domain: &[MAX_ROWS],
        kept: &[0],
        cols: model.cols(),
        chunk_axis_len: model.chunk_axis_len(),
        col_view_dims: cols_dims,
    };
    let specs = model.buffers(ctx, ir).specs;
    let tile =
        |shrink: u64| Tiling::choose_in(target, &dom, &specs, || None, shrink).map(|t| Tiling { key, ..t });
    let single = tile(shrink)?;
    // A rows-less input is loaded once before the loop: its buffer carries over from tile to
    // tile, which double buffering cannot split (`double_buffer.rs`).
    let hoisted = specs.iter().any(|s| !s.rows && s.first == 0);
    let half = tile(shrink.max(1).saturating_mul(2)).ok().filter(|_| double_buffer && !hoisted);
    let tiling = match half {
        Some(half) if buffered(ctx, ir, model, target, &single, &half) => Tiling { buffers: 2, ..half },
        _ => single,
    };
    let static_rows: i64 =
        model.kept.iter().filter(|a| !dynamic.contains(a)).map(|&a| model.domain[a]).product();
    let arg_axes = |v: ValueId| -> Vec<i64> {
        let map = &model.info[&v].map;
        let shape = ir.value_type(v).shape().unwrap_or(&[]).to_vec();
        shape
            .iter()
            .zip(map)
            .map(|(&d, m)| if d == DYNAMIC { m.map_or(-1, |a| a as i64) } else { -1 })
            .collect()
    };
    let axes: Vec<Vec<i64>> = args.iter().chain(&model.outputs).map(|&v| arg_axes(v)).collect();
    let class = RowClass { rows: tiling.block, static_rows, axes };
    dynamic.sort_unstable();
    dynamic.dedup();
    let carried = class.dynamic_axes();
    if let Some(a) = dynamic.iter().find(|&&a| !carried.contains(&(a as i64))) {
        return Err(format!("its `?` axis {a} is the dim of no input or output"));
    }
    Ok((tiling, class))
}

/// Whether a class tile loop runs faster double-buffered at `half` (tiles sized for half the
/// budget) than single-buffered at `single`, for a row count large enough that every core
/// runs many tiles (the row count is unknown; a small one runs a tile or two either way): the
/// busiest pipe of a `half` tile per row against the three pipes of a `single` tile in turn per
/// row, by the estimate of [`Tiling::pipe_cycles`] (`Tiling::choose_buffered`'s).
fn buffered<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    model: &VectorModel,
    target: &Target,
    single: &Tiling,
    half: &Tiling,
) -> bool {
    let (l1, v1, s1) = single.pipe_cycles(ctx, ir, model, target);
    let (l2, v2, s2) = half.pipe_cycles(ctx, ir, model, target);
    let overlapped = u128::from(l2.max(v2).max(s2)) * single.block as u128;
    overlapped < u128::from(l1 + v1 + s1) * half.block as u128
}

/// Records `class` on `kernel`.
pub fn set_class<'c>(ctx: &Context<'c>, ir: &mut Ir<'c>, kernel: OpId, class: &RowClass) {
    set_attr(ctx, ir, kernel, ROW_CLASS_ATTR, class.attr(ctx));
}

/// The extent of tile `t`'s row dim: `min(n - t * rows, rows)`.
pub fn extent(b: &mut Builder<'_, '_>, t: ValueId, n: ValueId, rows: i64) -> ValueId {
    let r = b.index(rows);
    let start = b.index_op(&arith::MULI_OP, t, r);
    let left = b.index_op(&arith::SUBI_OP, n, start);
    b.index_op(&arith::MINSI_OP, left, r)
}

/// Bounds the row dim (view dim 0) of load or store `op` by the extent `e` ([`extent`]): its
/// trailing `extents` operand, with `extent_dims = [0]`.
pub fn bound_rows(b: &mut Builder<'_, '_>, op: OpId, e: ValueId) {
    let mut operands = b.ir.operands(op).to_vec();
    operands.push(e);
    b.ir.set_operands(op, &operands);
    let name = b.ctx.intern_str("extent_dims");
    let data = b.ir.op_mut(op);
    let mut entries: Vec<NamedAttr<'_>> = data.properties.and_then(|p| p.as_dict()).unwrap_or(&[]).to_vec();
    entries.push(NamedAttr { name, value: i64_array(b.ctx, &[0]) });
    entries.sort_by_key(|e| e.name);
    data.properties = Some(b.ctx.dict_attr(&entries));
}
