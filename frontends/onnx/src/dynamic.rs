//! Dynamic dims at import: a graph input's symbolic (`dim_param`) or unknown dim, which no
//! `--input-shape` fixes, is a `?` of the `hl` signature.
//!
//! - **Symbols.** Each such dim gets a symbol, one per `dim_param` name (two inputs whose dims
//!   share a name share a symbol), and the importer follows which `?` dim of each value is
//!   which symbol: an `hl` op's `?` result dims are matched to its operands' by running the
//!   op's own type inference on probe sizes (each symbol a distinct large size), so every rule
//!   of `hl` inference (broadcast, contraction, transpose, reduction, ...) carries symbols
//!   without a table here. A `?` whose size no symbol gives (a product, a broadcast of two
//!   symbols) has none.
//! - **Run-time sizes.** `Shape` of a value with `?` dims is a vector of sizes, each known at
//!   import or the size of a symbol; `Gather`, `Slice`, `Unsqueeze`, `Squeeze`, `Concat`,
//!   `Cast`, `Identity` and integer `Add`/`Sub`/`Mul`/`Div` of such vectors stay vectors of
//!   sizes (a size computed from a symbol is unknown), folded to a constant when every size is
//!   known. A `Reshape` to such a vector keeps each symbol's dim: the result dim is tied
//!   (`hl.reshape {source_dims}`) to the operand dim of the same symbol, and at most one dim
//!   may be left to the element count.
//! - **Errors.** An op that needs a static dim, or a run-time size as data, fails naming the
//!   node, the dim and the graph input dim behind it, with the `--input-shape` that fixes it.

use std::collections::HashMap;
use std::rc::Rc;

use kiln_compiler::{Context, Ir, OpId, Type, ValueId, DYNAMIC};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::infer::InferInput;
use kiln_dialects::hl::interfaces::hl_op;
use kiln_dialects::hl::interp::{DType, Tensor};
use onnx_protobuf::tensor_shape_proto::dimension::Value as DimValue;
use onnx_protobuf::{NodeProto, ValueInfoProto};

use crate::graph::{Importer, Val};
use crate::ops::{attr_int, axes_of, norm_axis};

/// A dynamic dim's identity: dims of one symbol have one size at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Sym(usize);

/// One entry of a vector of run-time sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Size {
    /// Known at import.
    Known(i64),
    /// The size of a symbol.
    Of(Sym),
    /// Computed at run time from a symbol's size.
    Unknown,
}

/// A rank-0 or rank-1 `i64` value whose entries are sizes, some known only at run time (see
/// the module doc).
#[derive(Clone, Debug)]
pub(crate) struct Sizes {
    /// A rank-0 value (one entry).
    pub scalar: bool,
    /// The entries.
    pub entries: Vec<Size>,
}

/// Where a symbol comes from: the graph input, its dim, its `dim_param`.
struct Origin {
    input: String,
    dim: usize,
    param: Option<String>,
}

/// The symbols of an import and the symbol of each `?` dim of each value.
#[derive(Default)]
pub(crate) struct Symbols {
    origins: Vec<Origin>,
    of: HashMap<ValueId, Rc<[Option<Sym>]>>,
}

/// Probe sizes: symbol `k` is `PROBE + k * PROBE_STEP` (large and spaced, so that no static dim
/// and no size an inference computes from them is mistaken for one; two multiply without
/// overflow); a `?` without a symbol gets the next free one.
const PROBE: i64 = (1 << 30) + 1;
const PROBE_STEP: i64 = 1 << 10;

/// ONNX's `TensorProto.DataType` code of `int64`.
const INT64: i64 = 7;

impl Symbols {
    /// Gives the `?` dims of graph input `arg` (of type `ty`, declared by `input`) their
    /// symbols: one per `dim_param` name, a new one for an unnamed dim.
    pub fn add_input(&mut self, arg: ValueId, ty: Type<'_>, input: &ValueInfoProto) {
        let Some((shape, _)) = tensor_parts(ty) else { return };
        let declared = match input.type_.value.as_ref() {
            Some(onnx_protobuf::type_proto::Value::TensorType(t)) => t.shape.as_ref().map(|s| &s.dim[..]),
            _ => None,
        };
        let syms: Vec<Option<Sym>> = (0..shape.len())
            .map(|i| {
                if shape[i] != DYNAMIC {
                    return None;
                }
                let param = match declared.and_then(|d| d.get(i)).and_then(|d| d.value.as_ref()) {
                    Some(DimValue::DimParam(p)) if !p.is_empty() => Some(p.clone()),
                    _ => None,
                };
                let known = param
                    .as_ref()
                    .and_then(|p| self.origins.iter().position(|o| o.param.as_ref() == Some(p)));
                Some(Sym(known.unwrap_or_else(|| {
                    self.origins.push(Origin { input: input.name.clone(), dim: i, param });
                    self.origins.len() - 1
                })))
            })
            .collect();
        if syms.iter().any(Option::is_some) {
            self.of.insert(arg, syms.into());
        }
    }

    /// `dim #1 (\`seq\`) of graph input \`x\``.
    pub fn describe(&self, s: Sym) -> String {
        let o = &self.origins[s.0];
        match &o.param {
            Some(p) => format!("dim #{} (`{p}`) of graph input `{}`", o.dim, o.input),
            None => format!("dim #{} of graph input `{}`", o.dim, o.input),
        }
    }

    /// The fix for symbol `s`: `--input-shape x=...`.
    pub fn fix(&self, s: Sym) -> String {
        format!("--input-shape {}=...", self.origins[s.0].input)
    }

    /// The symbol of dim `i` of `v`, if it is a `?` with one.
    pub fn dim(&self, v: ValueId, i: usize) -> Option<Sym> {
        self.of.get(&v).and_then(|s| s.get(i).copied().flatten())
    }

    /// Records the symbols of the `?` result dims of `op` (just built), from its operands'.
    pub fn follow<'c>(&mut self, ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) {
        let dynamic =
            |&v: &ValueId| tensor_parts(ir.value_type(v)).is_some_and(|(s, _)| s.contains(&DYNAMIC));
        let Some(h) = hl_op(ir, op).filter(|_| ir.operands(op).iter().any(dynamic)) else { return };
        let mut spare = self.origins.len() as i64;
        let mut probe = |v: ValueId| -> Type<'c> {
            let ty = ir.value_type(v);
            let Some((shape, elem)) = tensor_parts(ty) else { return ty };
            let dims: Vec<i64> = (0..shape.len())
                .map(|i| match (shape[i], self.dim(v, i)) {
                    (DYNAMIC, Some(s)) => PROBE + s.0 as i64 * PROBE_STEP,
                    (DYNAMIC, None) => {
                        spare += 1;
                        PROBE + (spare - 1) * PROBE_STEP
                    }
                    (d, _) => d,
                })
                .collect();
            ctx.tensor_type(&dims, elem)
        };
        let operands: Vec<Type<'c>> = ir.operands(op).iter().map(|&v| probe(v)).collect();
        let results = ir.results(op);
        let attr = |n: &str| ir.attr(op, n);
        let input = InferInput {
            operands: &operands,
            result: results.first().map(|&r| ir.value_type(r)),
            attr: &attr,
        };
        let Ok(probed) = h.infer.results(ctx, &input) else { return };
        let count = self.origins.len() as i64;
        for (&r, p) in results.iter().zip(probed) {
            let (Some((shape, _)), Some((sizes, _))) = (tensor_parts(ir.value_type(r)), tensor_parts(p))
            else {
                continue;
            };
            let syms: Vec<Option<Sym>> = shape
                .iter()
                .zip(sizes)
                .map(|(&d, &p)| {
                    let k = (p - PROBE) / PROBE_STEP;
                    let probe = p >= PROBE && (p - PROBE) % PROBE_STEP == 0 && k < count;
                    (d == DYNAMIC && probe).then_some(Sym(k as usize))
                })
                .collect();
            if shape.len() == sizes.len() && syms.iter().any(Option::is_some) {
                self.of.insert(r, syms.into());
            }
        }
    }
}

impl Importer<'_, '_, '_, '_> {
    /// What a `?` dim `i` of `v` is, for messages: the graph input dim its symbol comes from.
    pub fn dynamic_dim(&self, v: &Val, i: usize) -> String {
        match self.syms.dim(v.id, i) {
            Some(s) => format!("the size of {}; fix it with {}", self.syms.describe(s), self.syms.fix(s)),
            None => "a size computed from the graph inputs' dynamic dims; fix them with --input-shape".into(),
        }
    }

    /// The error for a run-time size used where its value is needed at import.
    pub fn needs_value(&self, sizes: &Sizes, what: &str) -> String {
        let sym = sizes.entries.iter().find_map(|s| match s {
            Size::Of(s) => Some(*s),
            _ => None,
        });
        match sym {
            Some(s) => format!(
                "{what} must be known at import, but it holds the run-time size of {} (fix it with {})",
                self.syms.describe(s),
                self.syms.fix(s)
            ),
            None => format!(
                "{what} must be known at import, but it is computed from the graph inputs' dynamic dims \
                 (fix them with --input-shape)"
            ),
        }
    }

    /// The entries of a constant integer vector or of a vector of sizes (`what` names it).
    pub fn sizes(&self, v: &Val, what: &str) -> Result<Vec<Size>, String> {
        match &v.sizes {
            Some(s) => Ok(s.entries.clone()),
            None => Ok(self.const_ints(v, what)?.into_iter().map(Size::Known).collect()),
        }
    }

    /// A value holding `sizes`: a constant when every size is known, else a placeholder IR
    /// value (an `i64` constant no op may read, erased at the end) carrying them.
    fn sizes_value(&mut self, sizes: Sizes) -> Result<Val, String> {
        let shape = if sizes.scalar { vec![] } else { vec![sizes.entries.len()] };
        let known: Option<Vec<i64>> = sizes
            .entries
            .iter()
            .map(|s| match s {
                Size::Known(k) => Some(*k),
                _ => None,
            })
            .collect();
        if let Some(known) = known {
            let t = Tensor::from_i64s(DType::I64, shape, &known).map_err(|e| e.message().to_string())?;
            return self.constant(t, "shape");
        }
        let placeholder = self.constant(Tensor::zeros(DType::I64, shape), "shape")?;
        Ok(Val { id: placeholder.id, konst: None, sizes: Some(Rc::new(sizes)) })
    }
}

/// Imports `node` when it computes on run-time sizes (see the module doc): `Ok(None)` when it
/// does not (the op table imports it).
pub(crate) fn import(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Option<Vec<Val>>, String> {
    let node = &imp.nodes[index];
    match node.op_type.as_str() {
        "Shape" => return shape(imp, node),
        // Reads its `shape` input as sizes itself.
        "Reshape" => return Ok(None),
        _ => {}
    }
    let inputs: Vec<Option<Val>> =
        (0..node.input.len()).map(|i| imp.opt_input(node, i)).collect::<Result<_, _>>()?;
    let Some(sized) = inputs.iter().flatten().find_map(|v| v.sizes.clone()) else { return Ok(None) };
    let input0 = inputs.first().cloned().flatten().ok_or("input #0 is missing")?;
    let sizes = |v: &Val, what: &str| imp.sizes(v, what);
    let result = match node.op_type.as_str() {
        "Identity" => sizes(&input0, "input #0")?.into_iter().collect::<Vec<_>>(),
        // To `int64` (the sizes' own type): the same sizes.
        "Cast" if attr_int(node, "to", 0)? == INT64 => sizes(&input0, "input #0")?,
        "Gather" => {
            if norm_axis(attr_int(node, "axis", 0)?, 1)? != 0 || input0.sizes.is_none() {
                return Err(imp.needs_value(&sized, "input `data`"));
            }
            let entries = sizes(&input0, "input `data`")?;
            let idx = imp.input(node, 1)?;
            let picks = imp.const_ints(&idx, "input `indices`")?;
            let n = entries.len() as i64;
            let picked = picks
                .iter()
                .map(|&i| {
                    let j = if i < 0 { i + n } else { i };
                    entries.get(usize::try_from(j).map_err(|_| ())?).copied().ok_or(())
                })
                .collect::<Result<Vec<_>, ()>>()
                .map_err(|()| format!("indices {picks:?} out of range for {n} sizes"))?;
            let scalar = imp.rank(&idx) == 0;
            return Ok(Some(vec![imp.sizes_value(Sizes { scalar, entries: picked })?]));
        }
        "Unsqueeze" | "Squeeze" => {
            let axes = axes_of(imp, node, 1, "axes")?;
            let scalar = node.op_type == "Squeeze";
            let ok = match &axes {
                Some(a) => a.len() == 1 && (a[0] == 0 || a[0] == -1),
                None => scalar,
            };
            let entries = sizes(&input0, "input #0")?;
            if !ok || entries.len() != 1 || input0.sizes.as_ref().is_some_and(|s| s.scalar) == scalar {
                return Err(imp.needs_value(&sized, "input #0"));
            }
            return Ok(Some(vec![imp.sizes_value(Sizes { scalar, entries })?]));
        }
        "Concat" => {
            let mut entries = Vec::new();
            for (i, v) in inputs.iter().enumerate() {
                let v = v.as_ref().ok_or_else(|| format!("input #{i} is missing"))?;
                if imp.rank(v) != 1 {
                    return Err(imp.needs_value(&sized, &format!("input #{i}")));
                }
                entries.extend(sizes(v, &format!("input #{i}"))?);
            }
            entries
        }
        "Slice" => {
            let entries = sizes(&input0, "input `data`")?;
            let int = |i: usize, what: &str| -> Result<Option<Vec<i64>>, String> {
                match imp.opt_input(node, i)? {
                    Some(v) => imp.const_ints(&v, what).map(Some),
                    None => Ok(None),
                }
            };
            let (starts, ends) = (int(1, "input `starts`")?, int(2, "input `ends`")?);
            let (axes, steps) = (int(3, "input `axes`")?, int(4, "input `steps`")?);
            let n = entries.len() as i64;
            let one = |v: Option<Vec<i64>>| v.filter(|v| v.len() == 1).map(|v| v[0]);
            let (Some(start), Some(end)) = (one(starts), one(ends)) else {
                return Err(imp.needs_value(&sized, "input `data`"));
            };
            if axes.is_some_and(|a| a != [0] && a != [-1]) || steps.is_some_and(|s| s != [1]) {
                return Err(imp.needs_value(&sized, "input `data`"));
            }
            let clamp = |v: i64| (if v < 0 { v.saturating_add(n) } else { v }).clamp(0, n) as usize;
            let (lo, hi) = (clamp(start), clamp(end));
            entries[lo..hi.max(lo)].to_vec()
        }
        "Add" | "Sub" | "Mul" | "Div" => {
            let b = imp.input(node, 1)?;
            let (x, y) = (sizes(&input0, "input `A`")?, sizes(&b, "input `B`")?);
            let len = x.len().max(y.len());
            if (x.len() != len && x.len() != 1) || (y.len() != len && y.len() != 1) {
                return Err(imp.needs_value(&sized, "input `A`"));
            }
            let at = |v: &[Size], i: usize| if v.len() == 1 { v[0] } else { v[i] };
            let entries = (0..len).map(|i| arith(&node.op_type, at(&x, i), at(&y, i))).collect();
            let scalar = [&input0, &b].iter().all(|v| imp.rank(v) == 0);
            return Ok(Some(vec![imp.sizes_value(Sizes { scalar, entries })?]));
        }
        _ => return Err(imp.needs_value(&sized, "an input")),
    };
    let scalar = input0.sizes.as_ref().is_some_and(|s| s.scalar) && node.op_type != "Concat";
    Ok(Some(vec![imp.sizes_value(Sizes { scalar, entries: result })?]))
}

/// One entry of an integer `Add`/`Sub`/`Mul`/`Div` of sizes: exact for known sizes (`Div`
/// only when it divides), the symbol itself for `+ 0`, `- 0`, `* 1`, `/ 1`, else unknown.
fn arith(op: &str, a: Size, b: Size) -> Size {
    match (op, a, b) {
        ("Add", Size::Known(x), Size::Known(y)) => x.checked_add(y).map_or(Size::Unknown, Size::Known),
        ("Sub", Size::Known(x), Size::Known(y)) => x.checked_sub(y).map_or(Size::Unknown, Size::Known),
        ("Mul", Size::Known(x), Size::Known(y)) => x.checked_mul(y).map_or(Size::Unknown, Size::Known),
        ("Div", Size::Known(x), Size::Known(y)) if y != 0 && x % y == 0 => Size::Known(x / y),
        ("Add" | "Sub", s, Size::Known(0))
        | ("Mul" | "Div", s, Size::Known(1))
        | ("Add", Size::Known(0), s) => s,
        ("Mul", Size::Known(1), s) => s,
        _ => Size::Unknown,
    }
}

/// `Shape(x, start, end)` of an `x` with `?` dims: its sizes (`Ok(None)` for a static `x`, which
/// folds to a constant).
fn shape(imp: &mut Importer<'_, '_, '_, '_>, node: &NodeProto) -> Result<Option<Vec<Val>>, String> {
    let x = imp.input(node, 0)?;
    let dims = imp.dims(&x);
    if !dims.contains(&DYNAMIC) {
        return Ok(None);
    }
    let rank = dims.len() as i64;
    let clampi = |v: i64| (if v < 0 { v + rank } else { v }).clamp(0, rank) as usize;
    let start = clampi(attr_int(node, "start", 0)?);
    let end = clampi(attr_int(node, "end", rank)?).max(start);
    let entries = (start..end)
        .map(|i| match (dims[i], imp.syms.dim(x.id, i)) {
            (DYNAMIC, Some(s)) => Size::Of(s),
            (DYNAMIC, None) => Size::Unknown,
            (d, _) => Size::Known(d),
        })
        .collect();
    Ok(Some(vec![imp.sizes_value(Sizes { scalar: false, entries })?]))
}
