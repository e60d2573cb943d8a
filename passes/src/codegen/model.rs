//! The vector kernel model: how the `hl` ops of one kernel map onto 2-D tiles of the UB.
//!
//! Every value of the kernel is laid onto one *domain*: the broadcast shape of all its values,
//! each value dim tied to a domain axis (numpy's right alignment, carried through reductions
//! and size-1 reshapes). The axes split into *kept* axes `K` (rows of a tile) and *reduced* axes
//! `A` (the columns: every reduction reduces exactly `A`; without reductions `A` is the last
//! axis). A value then occupies a `[rows, cols]` buffer whose rows exist when it spans a kept
//! axis and whose cols exist when it spans a reduced one (`[R, C]`, `[R, 1]`, `[1, C]` or
//! `[1, 1]`); splat constants are immediates and take no buffer. An input that spans only some
//! axes of its class is materialized by its load (a stride-0 view), which is exact for
//! elementwise ops; a reduction's operand must span all of `A` itself.
//!
//! [`VectorModel::buffers`] assigns buffers (results reuse a dying operand's buffer in place
//! when shape and type agree) and their lifetimes over the op sequence; the tile pass sizes
//! tiles with it and the lowering allocates exactly those buffers. The rule itself,
//! [`assign_buffers`], needs no IR: the eager direct path (`kiln-eager`'s `direct.rs`) assigns
//! its buffers with it too.

use kiln_dialects::hl;
use rustc_hash::FxHashMap;

use kiln_bytecode::isa::DType;
use kiln_compiler::{BlockId, Context, FloatKind, Ir, OpId, Type, ValueId, DYNAMIC};
use kiln_dialects::hl::accessors::{bool_attr, int_list, normalize_axis, tensor_parts};
use kiln_dialects::hl::canonicalize::{splat_element, Splat};
use kiln_dialects::hl::interfaces::{hl_op, FusionCategory, Movement};

use super::vector_ops::reduce_kind;

/// A value's place in the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// The domain axis of each dim (`None` for dims of size 1).
    pub map: Vec<Option<usize>>,
    /// The buffer has rows (the value spans a kept axis).
    pub rows: bool,
    /// The buffer has cols (the value spans a reduced axis).
    pub cols: bool,
    /// A splat constant: an immediate, no buffer.
    pub splat: Option<Splat>,
}

/// One UB buffer of a kernel's tile, over its element type `E`: an IR [`Type`] in the
/// pipeline ([`BufSpec`]), a bytecode `DType` in the eager direct path, which builds no IR but
/// assigns ([`assign_buffers`]), sizes and places (`tiling.rs`) its buffers with the same code.
#[derive(Clone, Debug, PartialEq)]
pub struct TileBuf<E> {
    /// Has rows (`rows` of the tile, else 1).
    pub rows: bool,
    /// Has cols (`cols` of the tile, else 1).
    pub cols: bool,
    /// Element type.
    pub elem: E,
    /// First op position (0 = before the first op) it is live at.
    pub first: usize,
    /// Last op position it is live at (`usize::MAX`: to the end of the tile).
    pub last: usize,
}

/// One UB buffer of a kernel's tile, with its IR element type.
pub type BufSpec<'c> = TileBuf<Type<'c>>;

/// The bytes of one element of a buffer.
pub trait ElemBytes {
    /// Bytes per element (an `i1` takes a byte).
    fn elem_bytes(&self) -> u64;
}

impl ElemBytes for Type<'_> {
    fn elem_bytes(&self) -> u64 {
        u64::from(self.bit_width().unwrap_or(8).div_ceil(8))
    }
}

impl ElemBytes for DType {
    fn elem_bytes(&self) -> u64 {
        u64::from(self.bytes())
    }
}

/// The buffer a value of a tile needs, for [`assign_buffers`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout<E> {
    /// It has rows (spans a kept axis).
    pub rows: bool,
    /// It has cols (spans a reduced axis).
    pub cols: bool,
    /// Its element type.
    pub elem: E,
}

/// Which operand's buffer an op's result may take ([`assign_buffers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reuse {
    /// The first operand's, always (a view of it).
    Alias,
    /// None: a buffer of its own (reductions and casts).
    Never,
    /// The first operand's that dies at the op and has the result's layout (in place).
    InPlace,
}

/// One op of a tile, for [`assign_buffers`].
#[derive(Clone, Debug)]
pub struct Step<'a, E> {
    /// The values it reads (see [`assign_buffers`] for the numbering).
    pub operands: &'a [usize],
    /// Its result's buffer (`None`: an immediate, no buffer).
    pub result: Option<Layout<E>>,
    /// Which operand's buffer the result may take.
    pub reuse: Reuse,
    /// A temporary it needs while it runs.
    pub temp: Option<Layout<E>>,
}

/// The result of [`assign_buffers`].
#[derive(Clone, Debug)]
pub struct Assigned<E> {
    /// The buffers.
    pub specs: Vec<TileBuf<E>>,
    /// The buffer of each value (`None`: unused inputs and immediates).
    pub of: Vec<Option<usize>>,
    /// The temporary of each step that needs one.
    pub temp: Vec<Option<usize>>,
}

/// The UB buffers of a tile without IR: the values are `inputs` (numbered from 0) and the
/// results of `steps` (numbered on from `inputs.len()`, one per step, in order); `outputs` are
/// returned. Inputs are live from the start (to the end when they have no rows: they are
/// loaded once for all tiles), results from their op, outputs to the end; a result takes a
/// buffer as its step's [`Reuse`] says, a temporary lives at its op only. Step `k` is op
/// position `k + 1` (0 is before the first op). [`VectorModel::buffers`] and the eager direct
/// path assign their buffers with it.
pub fn assign_buffers<E: Copy + PartialEq>(
    inputs: &[Layout<E>],
    steps: &[Step<'_, E>],
    outputs: &[usize],
) -> Assigned<E> {
    let n = inputs.len() + steps.len();
    let mut last_use: Vec<Option<usize>> = vec![None; n];
    for (pos, step) in steps.iter().enumerate() {
        for &x in step.operands {
            last_use[x] = Some(pos + 1);
        }
    }
    for &v in outputs {
        last_use[v] = Some(usize::MAX);
    }
    let mut specs: Vec<TileBuf<E>> = Vec::new();
    let mut of: Vec<Option<usize>> = vec![None; n];
    let mut temp: Vec<Option<usize>> = vec![None; steps.len()];
    for (v, i) in inputs.iter().enumerate() {
        if let Some(last) = last_use[v] {
            // An input without rows is loaded once for all tiles: it must outlive them.
            let last = if i.rows { last } else { usize::MAX };
            of[v] = Some(specs.len());
            specs.push(TileBuf { rows: i.rows, cols: i.cols, elem: i.elem, first: 0, last });
        }
    }
    for (k, step) in steps.iter().enumerate() {
        let pos = k + 1;
        let result = inputs.len() + k;
        let Some(i) = step.result else { continue };
        let last = last_use[result].unwrap_or(pos);
        if let Some(t) = step.temp {
            temp[k] = Some(specs.len());
            specs.push(TileBuf { rows: t.rows, cols: t.cols, elem: t.elem, first: pos, last: pos });
        }
        let reusable = |x: &usize| {
            of[*x].is_some_and(|b| {
                let s = &specs[b];
                s.last == pos && s.rows == i.rows && s.cols == i.cols && s.elem == i.elem
            })
        };
        let reuse = match step.reuse {
            Reuse::Alias => step.operands.first().and_then(|&x| of[x]),
            Reuse::Never => None,
            Reuse::InPlace => step.operands.iter().find(|x| reusable(x)).and_then(|&x| of[x]),
        };
        match reuse {
            Some(b) => {
                specs[b].last = specs[b].last.max(last);
                of[result] = Some(b);
            }
            None => {
                of[result] = Some(specs.len());
                specs.push(TileBuf { rows: i.rows, cols: i.cols, elem: i.elem, first: pos, last });
            }
        }
    }
    Assigned { specs, of, temp }
}

/// The buffers of a staged tile (a row too long for the UB, computed column chunk by column
/// chunk) without IR, from its tile's assignment `whole`: one per value that has a buffer
/// there, in value order, with the value's `layout` (a view of value `x`, `view_of` gives `x`,
/// shares `x`'s when it has one), then a copy of the temporary of each step of `temps`, in that
/// order; all live for the whole tile, since each stage recomputes what it needs from them.
pub fn stage_buffers<E: Copy>(
    whole: &Assigned<E>,
    layout: impl Fn(usize) -> Layout<E>,
    view_of: impl Fn(usize) -> Option<usize>,
    temps: &[usize],
) -> Assigned<E> {
    let mut specs: Vec<TileBuf<E>> = Vec::new();
    let mut of: Vec<Option<usize>> = vec![None; whole.of.len()];
    for v in 0..whole.of.len() {
        if whole.of[v].is_none() {
            continue;
        }
        if let Some(k) = view_of(v).and_then(|x| of[x]) {
            of[v] = Some(k);
            continue;
        }
        let i = layout(v);
        of[v] = Some(specs.len());
        specs.push(TileBuf { rows: i.rows, cols: i.cols, elem: i.elem, first: 0, last: usize::MAX });
    }
    let mut temp: Vec<Option<usize>> = vec![None; whole.temp.len()];
    for &k in temps {
        if let Some(t) = whole.temp[k] {
            temp[k] = Some(specs.len());
            specs.push(TileBuf { first: 0, last: usize::MAX, ..whole.specs[t] });
        }
    }
    Assigned { specs, of, temp }
}

/// The analysis of one vector kernel.
#[derive(Clone, Debug)]
pub struct VectorModel {
    /// The domain shape.
    pub domain: Vec<i64>,
    /// Kept axes, ascending.
    pub kept: Vec<usize>,
    /// Reduced (column) axes, ascending.
    pub reduced: Vec<usize>,
    /// The kernel's inputs (the body's entry arguments or their tensor views).
    pub inputs: Vec<ValueId>,
    /// The body ops in order (the terminator excluded).
    pub ops: Vec<OpId>,
    /// The values the kernel returns, in order.
    pub outputs: Vec<ValueId>,
    /// Every value's place.
    pub info: FxHashMap<ValueId, Info>,
    /// Inputs that are views of another input (a transpose, slice, broadcast or reshape of it).
    pub views: FxHashMap<ValueId, View>,
}

/// A view of a kernel input onto the input's GM buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The input whose buffer it reads.
    pub source: ValueId,
    /// The element stride of each of the view's dims.
    pub strides: Vec<i64>,
    /// The element offset of its first element.
    pub base: i64,
}

/// Row-major element strides of `shape`.
pub fn dense_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for j in (0..shape.len().saturating_sub(1)).rev() {
        strides[j] = strides[j + 1] * shape[j + 1];
    }
    strides
}

/// The view `op` (a layout op) makes of a value whose view is `x` (strides, base), or `None`.
fn view_of(
    ir: &Ir<'_>,
    op: OpId,
    x: (&[i64], i64),
    x_shape: &[i64],
    shape: &[i64],
) -> Option<(Vec<i64>, i64)> {
    let (xs, base) = x;
    if ir.is(op, &hl::TRANSPOSE) {
        let perm = int_list(ir.attr(op, "perm")).ok()?;
        let strides =
            perm.iter().map(|&p| xs.get(usize::try_from(p).ok()?).copied()).collect::<Option<Vec<_>>>()?;
        Some((strides, base))
    } else if ir.is(op, &hl::SLICE) {
        let starts = int_list(ir.attr(op, "starts")).ok()?;
        let steps =
            int_list(ir.attr(op, "strides")).ok().filter(|s| !s.is_empty()).unwrap_or(vec![1; xs.len()]);
        let offset: i64 = starts.iter().zip(xs).map(|(s, x)| s * x).sum();
        Some((xs.iter().zip(&steps).map(|(x, s)| x * s).collect(), base + offset))
    } else if ir.is(op, &hl::BROADCAST_TO) {
        let r = xs.len();
        let mut strides = vec![0i64; shape.len()];
        for k in 0..r {
            if x_shape[k] != 1 {
                strides[shape.len() - r + k] = xs[k];
            }
        }
        Some((strides, base))
    } else if ir.is_any(op, &[&hl::RESHAPE, &hl::EXPAND_DIMS, &hl::SQUEEZE]) {
        // Only a dense source reshapes to a strided view.
        (xs == dense_strides(x_shape).as_slice()).then(|| (dense_strides(shape), base))
    } else {
        None
    }
}

/// The axes (normalized) that reduction `op` folds, or `None` when it is not an `hl.reduce_*`
/// or its `axes` do not fit its operand.
fn reduced_axes(ir: &Ir<'_>, op: OpId) -> Option<Vec<usize>> {
    reduce_kind(ir, op)?;
    let rank = tensor_parts(ir.value_type(*ir.operands(op).first()?))?.0.len();
    int_list(ir.attr(op, "axes")).ok()?.into_iter().map(|a| normalize_axis(a, rank).ok()).collect()
}

/// Whether `op` is an `hl.reduce_*` that folds some axis longer than 1. A reduction over
/// size-1 axes only combines nothing: each result element is its one operand element, so the
/// model treats it as a view of its operand (see [`is_view`]).
pub fn is_reduction(ir: &Ir<'_>, op: OpId) -> bool {
    reduced_axes(ir, op).is_some_and(|axes| {
        let shape = dims(ir, ir.operands(op)[0]).unwrap_or_default();
        axes.iter().any(|&a| shape.get(a) != Some(&1))
    })
}

/// Whether `op`'s result is its operand's elements in its operand's order, so that it shares
/// the operand's buffer: a layout view (`hl.reshape`, `hl.expand_dims`, `hl.squeeze`) or a
/// reduction over size-1 axes only.
pub fn is_view(ir: &Ir<'_>, op: OpId) -> bool {
    matches!(hl_op(ir, op).map(|h| h.category), Some(FusionCategory::Layout(Movement::View)))
        || (reduced_axes(ir, op).is_some() && !is_reduction(ir, op))
}

/// Why a kernel does not fit the model (the outline pass then splits its region).
pub type Unsupported = String;

/// Ops the model computes elementwise (their lowering is in `lower_vector`).
pub fn is_elementwise(ir: &Ir<'_>, op: OpId) -> bool {
    hl_op(ir, op).is_some_and(|h| h.category == FusionCategory::Elementwise)
        || ir.is_any(op, &[&hl::CAST, &hl::CMP, &hl::SELECT, &hl::CLAMP])
}

/// The size the model gives a `?` dim: a stand-in that ties it to its domain axis like any
/// dim longer than 1 (a `?` is never broadcast from 1, see `row_class.rs`). Only the row class
/// of a kernel uses it, and it refuses a kernel where a static dim has this size.
pub const STANDIN: i64 = 65_521;

/// `shape` with each `?` dim the [`STANDIN`], or an error when an element count over it
/// would not stay far from overflow.
pub fn model_shape(shape: &[i64]) -> Result<Vec<i64>, Unsupported> {
    let shape: Vec<i64> = shape.iter().map(|&d| if d == DYNAMIC { STANDIN } else { d }).collect();
    if shape.iter().any(|&d| d < 0) {
        return Err("a negative dim".into());
    }
    let count = shape.iter().try_fold(1i64, |n, &d| n.checked_mul(d.max(1)).filter(|&n| n < 1 << 56));
    if count.is_none() {
        return Err(format!("a value of more than 2^56 elements (a `?` dim counts as {STANDIN})"));
    }
    Ok(shape)
}

fn dims(ir: &Ir<'_>, v: ValueId) -> Result<Vec<i64>, Unsupported> {
    let (shape, _) = tensor_parts(ir.value_type(v)).ok_or("a value is not a ranked tensor")?;
    model_shape(shape)
}

/// Right-aligned axes of a value of `shape` in a domain of rank `n` (size-1 dims untied).
fn aligned(shape: &[i64], n: usize) -> Vec<Option<usize>> {
    let r = shape.len();
    shape.iter().enumerate().map(|(j, &d)| (d != 1).then_some(n - r + j)).collect()
}

impl VectorModel {
    /// Analyzes the ops of `block` (ending in a terminator whose operands are the outputs),
    /// whose inputs are `inputs`.
    pub fn analyze(ir: &Ir<'_>, block: BlockId, inputs: &[ValueId]) -> Result<VectorModel, Unsupported> {
        let mut ops: Vec<OpId> = ir.block_ops(block).collect();
        let term = ops.pop().ok_or("an empty kernel")?;
        let outputs = ir.operands(term).to_vec();
        Self::analyze_ops(ir, ops, inputs, outputs)
    }

    /// Analyzes `ops` (in program order) with inputs `inputs` and outputs `outputs`.
    pub fn analyze_ops(
        ir: &Ir<'_>,
        ops: Vec<OpId>,
        inputs: &[ValueId],
        outputs: Vec<ValueId>,
    ) -> Result<VectorModel, Unsupported> {
        let mut n = 1;
        for &v in inputs.iter().chain(ops.iter().flat_map(|&o| ir.results(o))) {
            n = n.max(dims(ir, v)?.len());
        }
        let mut info: FxHashMap<ValueId, Info> = FxHashMap::default();
        let mut views: FxHashMap<ValueId, View> = FxHashMap::default();
        let mut inputs = inputs.to_vec();
        for &v in &inputs.clone() {
            let map = aligned(&dims(ir, v)?, n);
            info.insert(v, Info { map, rows: false, cols: false, splat: None });
        }
        let mut reductions: Vec<(OpId, Vec<usize>)> = Vec::new();
        for &op in &ops {
            let name = ir.op(op).name;
            let result = *ir.results(op).first().ok_or_else(|| format!("'{name}' has no result"))?;
            let shape = dims(ir, result)?;
            let get = |v: ValueId| {
                info.get(&v).cloned().ok_or_else(|| format!("'{name}' uses a value from outside the kernel"))
            };
            if let Some(x) =
                ir.operands(op).first().copied().filter(|x| inputs.contains(x) || views.contains_key(x))
            {
                let x_shape = dims(ir, x)?;
                let (xs, base, source) = match views.get(&x) {
                    Some(v) => (v.strides.clone(), v.base, v.source),
                    None => (dense_strides(&x_shape), 0, x),
                };
                if let Some((strides, base)) = view_of(ir, op, (&xs, base), &x_shape, &shape) {
                    views.insert(result, View { source, strides, base });
                    inputs.push(result);
                    info.insert(
                        result,
                        Info { map: aligned(&shape, n), rows: false, cols: false, splat: None },
                    );
                    continue;
                }
            }
            let map = if ir.is(op, &hl::CONSTANT) {
                let Some(s) = splat_element(ir, result) else {
                    return Err("a non-splat constant inside a kernel".into());
                };
                info.insert(
                    result,
                    Info { map: vec![None; shape.len()], rows: false, cols: false, splat: Some(s) },
                );
                continue;
            } else if is_elementwise(ir, op) {
                let mut map = aligned(&shape, n);
                for (j, m) in map.iter_mut().enumerate() {
                    let pos_from_end = shape.len() - j;
                    let mut tied = None;
                    for &x in ir.operands(op) {
                        let xi = get(x)?;
                        if xi.map.len() < pos_from_end {
                            continue;
                        }
                        if let Some(a) = xi.map[xi.map.len() - pos_from_end] {
                            if tied.is_some_and(|t| t != a) {
                                return Err(format!("'{name}' combines dims of different axes"));
                            }
                            tied = Some(a);
                        }
                    }
                    if shape[j] != 1 {
                        *m = tied.or(*m);
                    }
                }
                map
            } else if let Some(FusionCategory::Reduce) = hl_op(ir, op).map(|h| h.category) {
                if reduce_kind(ir, op).is_none() {
                    return Err(format!("no vector lowering for '{name}'"));
                }
                let x = get(ir.operands(op)[0])?;
                let rank = x.map.len();
                let axes: Vec<usize> = int_list(ir.attr(op, "axes"))?
                    .into_iter()
                    .map(|a| normalize_axis(a, rank))
                    .collect::<Result<_, _>>()?;
                if x.splat.is_some() {
                    return Err(format!("'{name}' of a splat constant (fold it first)"));
                }
                if is_reduction(ir, op) {
                    let mut tied: Vec<usize> = axes.iter().filter_map(|&a| x.map[a]).collect();
                    tied.sort_unstable();
                    reductions.push((op, tied));
                }
                if bool_attr(ir.attr(op, "keep_dims")) {
                    x.map.iter().enumerate().map(|(j, &m)| if axes.contains(&j) { None } else { m }).collect()
                } else {
                    x.map.iter().enumerate().filter(|(j, _)| !axes.contains(j)).map(|(_, &m)| m).collect()
                }
            } else if matches!(
                hl_op(ir, op).map(|h| h.category),
                Some(FusionCategory::Layout(Movement::View))
            ) || ir.is(op, &hl::BROADCAST_TO)
            {
                let x = get(ir.operands(op)[0])?;
                if x.splat.is_some() {
                    info.insert(result, Info { map: vec![None; shape.len()], ..x });
                    continue;
                }
                let xs = dims(ir, ir.operands(op)[0])?;
                let from: Vec<Option<usize>> =
                    xs.iter().zip(&x.map).filter(|(&d, _)| d != 1).map(|(_, &m)| m).collect();
                let big: Vec<usize> = (0..shape.len()).filter(|&j| shape[j] != 1).collect();
                if ir.is(op, &hl::BROADCAST_TO) {
                    let mut map = aligned(&shape, n);
                    let r = x.map.len();
                    for (k, &m) in x.map.iter().enumerate() {
                        if m.is_some() {
                            map[shape.len() - r + k] = m;
                        }
                    }
                    map
                } else if from.len() == big.len()
                    && big.iter().zip(xs.iter().filter(|&&d| d != 1)).all(|(&j, &d)| shape[j] == d)
                {
                    let mut map = vec![None; shape.len()];
                    for (&j, m) in big.iter().zip(from) {
                        map[j] = m;
                    }
                    map
                } else {
                    return Err(format!("'{name}' reorders elements inside a kernel"));
                }
            } else {
                return Err(format!("no vector lowering for '{name}'"));
            };
            let mut tied: Vec<usize> = map.iter().flatten().copied().collect();
            tied.sort_unstable();
            if tied.windows(2).any(|w| w[0] == w[1]) {
                // `[7]` tied to the rows broadcast against `[7, 1]` along the cols, say: the
                // value would have to be transposed onto the domain.
                return Err(format!("'{name}' ties two of its dims to one axis"));
            }
            info.insert(result, Info { map, rows: false, cols: false, splat: None });
        }

        // The domain, over every value but the inputs only read through views.
        let read_whole = |v: ValueId| {
            outputs.contains(&v)
                || ops.iter().any(|&o| !views.contains_key(&ir.results(o)[0]) && ir.operands(o).contains(&v))
        };
        let mut domain = vec![1i64; n];
        for (&v, i) in &info {
            if i.splat.is_some() || (inputs.contains(&v) && !views.contains_key(&v) && !read_whole(v)) {
                continue;
            }
            for (d, m) in dims(ir, v)?.iter().zip(&i.map) {
                if let Some(a) = *m {
                    if domain[a] != 1 && domain[a] != *d {
                        return Err("values disagree on the size of an axis".into());
                    }
                    domain[a] = *d;
                }
            }
        }
        let mut reduced: Vec<usize> = Vec::new();
        for (_, axes) in &reductions {
            let axes: Vec<usize> = axes.iter().copied().filter(|&a| domain[a] != 1).collect();
            if !reductions.is_empty() && reduced.is_empty() {
                reduced = axes.clone();
            }
            if axes != reduced {
                return Err("reductions over different axes in one kernel".into());
            }
        }
        for (op, _) in &reductions {
            let x = &info[&ir.operands(*op)[0]];
            if reduced.iter().any(|a| !x.map.contains(&Some(*a))) {
                return Err("a reduction of a broadcast operand".into());
            }
        }
        if reductions.is_empty() {
            reduced = vec![n - 1];
        }
        let kept: Vec<usize> = (0..n).filter(|a| !reduced.contains(a)).collect();
        let ops: Vec<OpId> = ops.into_iter().filter(|o| !views.contains_key(&ir.results(*o)[0])).collect();
        let mut model = VectorModel { domain, kept, reduced, inputs, ops, outputs, info, views };
        model.classify(ir);
        Ok(model)
    }

    /// Whether `axes` contains an axis of the domain longer than 1 that `map` spans.
    fn spans(&self, map: &[Option<usize>], axes: &[usize]) -> bool {
        map.iter().flatten().any(|a| axes.contains(a) && self.domain[*a] > 1)
    }

    fn classify(&mut self, ir: &Ir<'_>) {
        for v in self.inputs.clone() {
            let map = self.info[&v].map.clone();
            let (rows, cols) = (self.spans(&map, &self.kept), self.spans(&map, &self.reduced));
            let i = self.info.get_mut(&v).expect("inputs have info");
            (i.rows, i.cols) = (rows, cols);
        }
        for op in self.ops.clone() {
            let result = ir.results(op)[0];
            if self.info[&result].splat.is_some() {
                continue;
            }
            let (mut rows, mut cols) = ir.operands(op).iter().fold((false, false), |(r, c), x| {
                let i = &self.info[x];
                (r || i.rows, c || i.cols)
            });
            let map = self.info[&result].map.clone();
            if is_reduction(ir, op) {
                cols = false;
            } else {
                // A result spans what its shape spans, even where no operand does (the
                // operand that sets the shape may be a splat constant, an immediate).
                rows |= self.spans(&map, &self.kept);
                cols |= self.spans(&map, &self.reduced);
            }
            let i = self.info.get_mut(&result).expect("results have info");
            (i.rows, i.cols) = (rows, cols);
        }
    }

    /// The GM element strides of value `v` (an input or output of the kernel) along each
    /// domain axis (0 where `v` does not span it), then the element offset of its first
    /// element: through `view` when it is read or written through one, else dense.
    pub fn gm_strides(&self, ir: &Ir<'_>, v: ValueId, view: Option<&View>) -> Vec<i64> {
        let shape = model_shape(ir.value_type(v).shape().unwrap_or(&[])).unwrap_or_default();
        let (own, base) = match view {
            Some(view) => (view.strides.clone(), view.base),
            None => (dense_strides(&shape), 0),
        };
        let mut s = vec![0i64; self.domain.len()];
        for (j, &stride) in own.iter().enumerate() {
            if let Some(a) = self.info[&v].map[j] {
                s[a] = stride;
            }
        }
        s.push(base);
        s
    }

    /// The most GM view dims that the reduced axes (a tile's columns) of an input or output
    /// take, adjacent dims merged as the lowering merges them; `staged`: chunks of one axis.
    pub fn col_view_dims(&self, ir: &Ir<'_>, staged: bool) -> usize {
        if staged {
            return 1;
        }
        let values = self.inputs.iter().chain(&self.outputs);
        let dims_of = |v: &ValueId| {
            let s = self.gm_strides(ir, *v, self.views.get(v));
            let dims = self.col_axes().into_iter().map(|a| (self.domain[a], s[a]));
            merged_len(dims)
        };
        values.filter(|v| self.info[v].cols).map(dims_of).max().unwrap_or(0)
    }

    /// The element count of the reduced axes (a tile's `cols`).
    pub fn cols(&self) -> i64 {
        self.reduced.iter().map(|&a| self.domain[a]).product()
    }

    /// The UB buffers of a tile: the buffer of each value (splats have none) and the
    /// temporary of each op that needs one (`f32` accumulators of `f16`/`bf16` reductions, the
    /// sigmoid of `silu`), by [`assign_buffers`]: a view shares its operand's buffer, a
    /// reduction or a cast gets its own, any other result takes the buffer of an operand that
    /// dies at its op when shape and element type agree (in place).
    pub fn buffers<'c>(&self, ctx: &Context<'c>, ir: &Ir<'c>) -> Buffers<'c> {
        let (number, whole) = self.assigned(ctx, ir);
        self.named(&number, whole)
    }

    /// The values of the tile numbered as [`assign_buffers`] numbers them (the inputs, then one
    /// result per op) and their assignment.
    fn assigned<'c>(
        &self,
        ctx: &Context<'c>,
        ir: &Ir<'c>,
    ) -> (FxHashMap<ValueId, usize>, Assigned<Type<'c>>) {
        let elem = |v: ValueId| ir.value_type(v).element_type().expect("tensor values");
        let layout = |v: ValueId| self.layout(ir, v);
        let mut number: FxHashMap<ValueId, usize> = FxHashMap::default();
        number.extend(self.inputs.iter().enumerate().map(|(k, &v)| (v, k)));
        let results = self.ops.iter().map(|&op| ir.results(op)[0]);
        number.extend(results.enumerate().map(|(k, v)| (v, self.inputs.len() + k)));
        let operands: Vec<Vec<usize>> = self
            .ops
            .iter()
            .map(|&op| ir.operands(op).iter().filter_map(|x| number.get(x).copied()).collect())
            .collect();
        let steps: Vec<Step<'_, Type<'c>>> = self
            .ops
            .iter()
            .zip(&operands)
            .map(|(&op, operands)| {
                let result = ir.results(op)[0];
                let reduction = is_reduction(ir, op);
                let wide = reduction && elem(result).bit_width() != Some(32) && elem(result).is_float();
                let temp = (wide || ir.is(op, &hl::SILU)).then(|| {
                    let elem = if wide { ctx.float_type(FloatKind::F32) } else { elem(result) };
                    Layout { elem, ..layout(result) }
                });
                let reuse = if is_view(ir, op) {
                    Reuse::Alias
                } else if reduction || ir.is(op, &hl::CAST) {
                    Reuse::Never
                } else {
                    Reuse::InPlace
                };
                let result = self.info[&result].splat.is_none().then(|| layout(result));
                Step { operands, result, reuse, temp }
            })
            .collect();
        let inputs: Vec<Layout<Type<'c>>> = self.inputs.iter().map(|&v| layout(v)).collect();
        let outputs: Vec<usize> = self.outputs.iter().filter_map(|v| number.get(v).copied()).collect();
        let whole = assign_buffers(&inputs, &steps, &outputs);
        (number, whole)
    }

    /// The buffer layout of value `v`.
    fn layout<'c>(&self, ir: &Ir<'c>, v: ValueId) -> Layout<Type<'c>> {
        let i = &self.info[&v];
        Layout { rows: i.rows, cols: i.cols, elem: ir.value_type(v).element_type().expect("tensor values") }
    }

    /// An assignment of the values numbered `number`, by value and op.
    fn named<'c>(&self, number: &FxHashMap<ValueId, usize>, a: Assigned<Type<'c>>) -> Buffers<'c> {
        let of = number.iter().filter_map(|(&v, &k)| Some((v, a.of[k]?))).collect();
        let temp = self.ops.iter().zip(&a.temp).filter_map(|(&op, &t)| Some((op, t?))).collect();
        Buffers { specs: a.specs, of, temp }
    }

    /// The buffers of a staged tile (a row too long for the UB, reduced column chunk by
    /// column chunk), by [`stage_buffers`].
    pub fn staged_buffers<'c>(&self, ctx: &Context<'c>, ir: &Ir<'c>) -> Buffers<'c> {
        let (number, whole) = self.assigned(ctx, ir);
        // The temporaries in the order of the tile's map of them.
        let step: FxHashMap<OpId, usize> = self.ops.iter().enumerate().map(|(k, &op)| (op, k)).collect();
        let order: Vec<usize> = self.named(&number, whole.clone()).temp.keys().map(|op| step[op]).collect();
        let values: Vec<ValueId> =
            self.inputs.iter().copied().chain(self.ops.iter().map(|&o| ir.results(o)[0])).collect();
        let view_of = |k: usize| {
            let d = ir.defining_op(values[k]).filter(|&d| is_view(ir, d))?;
            ir.operands(d).first().and_then(|x| number.get(x).copied())
        };
        let staged = stage_buffers(&whole, |k| self.layout(ir, values[k]), view_of, &order);
        self.named(&number, staged)
    }

    /// The reduced axes longer than 1, ascending. A row too long for the UB is cut into
    /// column chunks along the last of them, one index of the others at a time (see
    /// `staged.rs`).
    pub fn col_axes(&self) -> Vec<usize> {
        self.reduced.iter().copied().filter(|&a| self.domain[a] > 1).collect()
    }

    /// The length of the axis a staged row is chunked along (the last of
    /// [`VectorModel::col_axes`]), or 1 when no reduced axis is longer than 1.
    pub fn chunk_axis_len(&self) -> i64 {
        self.col_axes().last().map_or(1, |&a| self.domain[a])
    }
}

/// The number of dims of a view over `dims` (size, stride), outermost first, once each dim is
/// merged into the one before it where their strides make them one dim.
pub fn merged_len(dims: impl IntoIterator<Item = (i64, i64)>) -> usize {
    merge_dims(dims).len()
}

/// `dims` (size, stride), outermost first, with each dim merged into the one before it where
/// the outer one's stride is the inner one's span.
pub fn merge_dims(dims: impl IntoIterator<Item = (i64, i64)>) -> Vec<(i64, i64)> {
    let mut merged: Vec<(i64, i64)> = Vec::new();
    for (size, stride) in dims {
        match merged.last_mut() {
            Some(last) if last.1 == stride * size => {
                last.0 *= size;
                last.1 = stride;
            }
            _ => merged.push((size, stride)),
        }
    }
    merged
}

/// The result of [`VectorModel::buffers`].
#[derive(Clone, Debug)]
pub struct Buffers<'c> {
    /// The buffers.
    pub specs: Vec<BufSpec<'c>>,
    /// The buffer of each value.
    pub of: FxHashMap<ValueId, usize>,
    /// The temporary of each op that needs one.
    pub temp: FxHashMap<OpId, usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW: Layout<DType> = Layout { rows: true, cols: true, elem: DType::F32 };

    fn step(operands: &[usize], reuse: Reuse) -> Step<'_, DType> {
        Step { operands, result: Some(ROW), reuse, temp: None }
    }

    #[test]
    fn results_take_a_dying_operand_in_place_and_outputs_live_to_the_end() {
        // Values: x, y; s = x + y; e = exp(s); c (an immediate); m = e * c; r = m - x.
        let steps = [
            step(&[0, 1], Reuse::InPlace),
            step(&[2], Reuse::InPlace),
            Step { operands: &[], result: None, reuse: Reuse::InPlace, temp: None },
            step(&[3], Reuse::InPlace),
            step(&[5, 0], Reuse::InPlace),
        ];
        let a = assign_buffers(&[ROW, ROW], &steps, &[6, 2]);
        // y dies at the sum, which takes its buffer; the sum is an output, so exp gets one.
        assert_eq!(a.of, vec![Some(0), Some(1), Some(1), Some(2), None, Some(2), Some(2)]);
        let live: Vec<(usize, usize)> = a.specs.iter().map(|s| (s.first, s.last)).collect();
        assert_eq!(live, vec![(0, 5), (0, usize::MAX), (2, usize::MAX)]);
        // A cast (never in place) gets its own.
        let a = assign_buffers(&[ROW], &[step(&[0], Reuse::Never)], &[1]);
        assert_eq!(a.of, vec![Some(0), Some(1)]);
    }

    #[test]
    fn a_staged_tile_has_a_buffer_per_value_live_throughout() {
        let steps = [step(&[0, 1], Reuse::InPlace), step(&[2], Reuse::Alias)];
        let whole = assign_buffers(&[ROW, ROW], &steps, &[3]);
        let staged = stage_buffers(&whole, |_| ROW, |v| (v == 3).then_some(2), &[]);
        assert_eq!(staged.of, vec![Some(0), Some(1), Some(2), Some(2)]);
        assert!(staged.specs.iter().all(|s| s.first == 0 && s.last == usize::MAX));
    }
}
