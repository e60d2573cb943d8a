//! Folding of `hl` ops: an op whose operands are all constants is evaluated by the reference
//! interpreter and replaced by an `hl.constant` (so folding is exact by construction: the folded
//! value is what the oracle computes). An op whose results have no elements folds to empty
//! constants whatever its operands.
//!
//! Folding is bounded by size and by work, so it never blows up a module or the compiler:
//!
//! * **Splats fold as splats.** An elementwise op whose operands are all splats is evaluated
//!   on one element of each, a broadcast or layout op (reshape, transpose, slice, concat
//!   ...) of splats of one value is a splat of that value, and a reduction of a splat is
//!   evaluated on one row (up to [`FOLD_WORK_LIMIT`] elements); none materializes the shape.
//! * Otherwise an op folds only when its result and every operand have at most
//!   [`FOLD_LIMIT`] elements and its declared cost ([`cost`]) is at most [`FOLD_WORK_LIMIT`]
//!   flops; a type whose element count does not fit in 64 bits never folds.

use kiln_compiler::dialect::FoldResult;
use kiln_compiler::{AttrKind, Attribute, Context, DenseData, Ir, NamedAttr, OpId, OperationState, Type};

use super::accessors::{checked_numel, int_list, normalize_axis, tensor_parts};
use super::interfaces::{cost, hl_op, FusionCategory};
use super::interp::program::{dense_to_tensor, eval_op, tensor_to_dense};
use super::CONSTANT;

/// Largest result or operand (in elements) that folding materializes.
pub const FOLD_LIMIT: u64 = 1 << 16;

/// Largest work (in flops of the op's declared cost) that folding spends on one op.
pub const FOLD_WORK_LIMIT: u64 = 1 << 24;

/// The folder shared by every `hl` op.
pub(crate) fn fold_hl<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    op: OpId,
    constants: &[Option<Attribute<'c>>],
) -> Option<Vec<FoldResult<'c>>> {
    if ir.is(op, &CONSTANT) {
        return Some(vec![FoldResult::Constant(ir.attr(op, "value")?)]);
    }
    if let Some(empty) = empty_results(ctx, ir, op) {
        return Some(empty);
    }
    let constants = constants.iter().copied().collect::<Option<Vec<_>>>()?;
    if constants.is_empty() {
        return None;
    }
    let types: Vec<Type<'c>> = ir.results(op).iter().map(|&r| ir.value_type(r)).collect();
    if types.is_empty() || types.iter().any(|&t| tensor_parts(t).is_none()) {
        return None;
    }
    let values = match fold_splats(ctx, ir, op, &types, &constants) {
        Some(splat) => splat?,
        None => fold_dense(ctx, ir, op, &types, &constants)?,
    };
    Some(values.into_iter().map(FoldResult::Constant).collect())
}

/// The results of `op` when each has no elements: empty constants, whatever the operands are
/// (an op computes nothing into an empty tensor, so no kernel is needed for it).
fn empty_results<'c>(ctx: &Context<'c>, ir: &Ir<'c>, op: OpId) -> Option<Vec<FoldResult<'c>>> {
    let results = ir.results(op);
    if results.is_empty() {
        return None;
    }
    results
        .iter()
        .map(|&r| {
            let ty = ir.value_type(r);
            let (shape, _) = tensor_parts(ty)?;
            (checked_numel(shape)? == 0).then(|| {
                FoldResult::Constant(
                    ctx.attr(AttrKind::DenseElements {
                        ty,
                        data: DenseData::Raw { bytes: &[], splat: false },
                    }),
                )
            })
        })
        .collect()
}

/// The element type and the element bytes of `attr`, when it is a splat.
fn splat_of<'c>(attr: Attribute<'c>) -> Option<(Type<'c>, &'c [u8])> {
    match *attr.kind() {
        AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat: true } } => {
            Some((ty.element_type()?, bytes))
        }
        _ => None,
    }
}

/// The fold of an op of all-splat operands without materializing them (one value per result
/// type of `types`): `None` when the operands are not all splats or the op is not elementwise,
/// broadcast, layout or a reduction; `Some(None)` when it is such an op that does not fold.
fn fold_splats<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    op: OpId,
    types: &[Type<'c>],
    constants: &[Attribute<'c>],
) -> Option<Option<Vec<Attribute<'c>>>> {
    let splats = constants.iter().map(|&c| splat_of(c)).collect::<Option<Vec<_>>>()?;
    match hl_op(ir, op)?.category {
        FusionCategory::Elementwise => {
            let scalars = splats
                .iter()
                .map(|&(elem, bytes)| {
                    let data = DenseData::Raw { bytes, splat: true };
                    let scalar = ctx.attr(AttrKind::DenseElements { ty: ctx.tensor_type(&[], elem), data });
                    dense_to_tensor(scalar).ok()
                })
                .collect::<Option<Vec<_>>>();
            let results = scalars.and_then(|s| eval_op(ir, op, &s).ok());
            Some(results.map(|r| types.iter().zip(&r).map(|(&ty, r)| tensor_to_dense(ctx, ty, r)).collect()))
        }
        FusionCategory::Broadcast | FusionCategory::Layout(_) => {
            let same = splats.iter().all(|&s| s == splats[0])
                && types.iter().all(|t| t.element_type() == Some(splats[0].0));
            let data = DenseData::Raw { bytes: splats[0].1, splat: true };
            let splat = |&ty: &Type<'c>| ctx.attr(AttrKind::DenseElements { ty, data });
            Some(same.then(|| types.iter().map(splat).collect()))
        }
        FusionCategory::Reduce => Some(fold_splat_reduction(ctx, ir, op, types, splats[0])),
        _ => None,
    }
}

/// The fold of a reduction of a splat: every output element reduces the same number of equal
/// values in the same order, so the reduction of one row (the operand's reduced dims, the
/// others 1) is the whole result's value. `None` when that row is larger than
/// [`FOLD_WORK_LIMIT`] elements or does not evaluate.
fn fold_splat_reduction<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    op: OpId,
    types: &[Type<'c>],
    (elem, bytes): (Type<'c>, &'c [u8]),
) -> Option<Vec<Attribute<'c>>> {
    let shape = ir.value_type(*ir.operands(op).first()?).shape()?;
    let axes = match ir.attr(op, "axes") {
        Some(list) => int_list(Some(list)).ok()?,
        None => vec![ir.attr(op, "axis").and_then(|a| a.as_int()).unwrap_or(0) as i64],
    };
    let axes: Vec<usize> =
        axes.into_iter().map(|a| normalize_axis(a, shape.len())).collect::<Result<_, _>>().ok()?;
    let row: Vec<i64> =
        shape.iter().enumerate().map(|(i, &d)| if axes.contains(&i) { d } else { 1 }).collect();
    if checked_numel(&row)? > FOLD_WORK_LIMIT {
        return None;
    }
    let data = DenseData::Raw { bytes, splat: true };
    let row =
        dense_to_tensor(ctx.attr(AttrKind::DenseElements { ty: ctx.tensor_type(&row, elem), data })).ok()?;
    let results = eval_op(ir, op, &[row]).ok()?;
    types
        .iter()
        .zip(&results)
        .map(|(&ty, r)| {
            let one = tensor_to_dense(ctx, ctx.tensor_type(&[], ty.element_type()?), r);
            let AttrKind::DenseElements { data: DenseData::Raw { bytes, .. }, .. } = *one.kind() else {
                return None;
            };
            (r.numel() == 1).then(|| {
                ctx.attr(AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat: true } })
            })
        })
        .collect()
}

/// The fold of `op` by materializing its operands and result, within the limits.
fn fold_dense<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    op: OpId,
    types: &[Type<'c>],
    constants: &[Attribute<'c>],
) -> Option<Vec<Attribute<'c>>> {
    let small =
        |t: Type<'_>| tensor_parts(t).and_then(|(s, _)| checked_numel(s)).is_some_and(|n| n <= FOLD_LIMIT);
    let operands_small = ir.operands(op).iter().all(|&v| small(ir.value_type(v)));
    if !types.iter().all(|&t| small(t)) || !operands_small || cost(ir, op).flops > FOLD_WORK_LIMIT {
        return None;
    }
    let inputs = constants.iter().map(|&c| dense_to_tensor(c).ok()).collect::<Option<Vec<_>>>()?;
    let results = eval_op(ir, op, &inputs).ok()?;
    Some(types.iter().zip(&results).map(|(&ty, r)| tensor_to_dense(ctx, ty, r)).collect())
}

/// Materializes `value` of type `ty` as a detached `hl.constant` (the dialect's constant
/// materializer, used when folds produce constants).
pub(crate) fn materialize<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    value: Attribute<'c>,
    ty: Type<'c>,
    loc: Attribute<'c>,
) -> Option<OpId> {
    let name = ctx.intern_str("value");
    let mut state = OperationState::new(CONSTANT.name, Some(&CONSTANT), loc);
    state.properties = Some(ctx.dict_attr(&[NamedAttr { name, value }]));
    state.result_types = vec![ty];
    Some(ir.create_op(state))
}

#[cfg(test)]
mod tests {
    use bumpalo::Bump;
    use kiln_compiler::ir::WalkOrder;
    use kiln_compiler::syntax::parse_source;

    use super::*;

    /// Folds the op named `name` of `text` with its operands' constant values: `None` when it
    /// does not fold, else the element bytes of its result when that is one splat (else empty).
    fn fold_named(text: &str, name: &str) -> Option<Vec<u8>> {
        let arena = Bump::new();
        let ctx = Context::new(&arena, crate::all_dialects());
        let module = parse_source(&ctx, text, "test.mlir").map_err(|d| format!("{d:?}")).unwrap();
        let ir = &module.ir;
        let op = ir.walk(module.top, WalkOrder::PreOrder).find(|&op| ir.op(op).name == name).unwrap();
        let constants: Vec<_> =
            ir.operands(op).iter().map(|&v| ir.defining_op(v).and_then(|d| ir.attr(d, "value"))).collect();
        let folded = fold_hl(&ctx, ir, op, &constants)?;
        let splat = match folded[..] {
            [FoldResult::Constant(attr)] => splat_of(attr).map(|(_, bytes)| bytes.to_vec()),
            _ => None,
        };
        Some(splat.unwrap_or_default())
    }

    /// A matmul of non-splat `n`x`n` constants.
    fn matmul(n: usize) -> String {
        let hex: String =
            (0..n * n).map(|i| format!("{:08X}", (i as f32 / 7.0).to_bits().swap_bytes())).collect();
        let t = format!("tensor<{n}x{n}xf32>");
        format!(
            "func.func @f() -> {t} {{\n  %a = hl.constant dense<\"0x{hex}\"> : {t}\n  \
             %m = hl.matmul %a, %a : {t}, {t} -> {t}\n  return %m : {t}\n}}\n"
        )
    }

    #[test]
    fn work_bound_refuses_heavy_folds_of_small_operands() {
        // 2 * 64^3 flops folds; 2 * 256^3 = 2^25 exceeds FOLD_WORK_LIMIT with operands and
        // result of exactly FOLD_LIMIT elements.
        assert!(fold_named(&matmul(64), "hl.matmul").is_some());
        assert!(fold_named(&matmul(256), "hl.matmul").is_none());
    }

    /// The value that folding `op` of `text` gives, as a splat's one f32.
    fn folded_splat(text: &str, name: &str) -> f32 {
        f32::from_le_bytes(fold_named(text, name).expect("folds").try_into().expect("a splat of one f32"))
    }

    #[test]
    fn reductions_of_large_splats_fold_as_splats_of_one_row() {
        // 512 x 256 elements, twice FOLD_LIMIT: the row of 256 is evaluated, not the tensor.
        let text = |op: &str, axes: &str, result: &str| {
            format!(
                "func.func @f() -> {result} {{\n  %c = hl.constant dense<1.001> : tensor<512x256xf32>\n  \
                 %r = {op} %c {{axes = {axes}}} : tensor<512x256xf32> -> {result}\n  return %r : {result}\n}}\n"
            )
        };
        let prod = folded_splat(&text("hl.reduce_prod", "[1]", "tensor<512xf32>"), "hl.reduce_prod");
        let want = (0..256).fold(1.0f32, |p, _| p * 1.001);
        assert_eq!(prod.to_bits(), want.to_bits());
        let sum = folded_splat(&text("hl.reduce_sum", "[0]", "tensor<256xf32>"), "hl.reduce_sum");
        assert_eq!(sum.to_bits(), (0..512).fold(0.0f32, |s, _| s + 1.001).to_bits());
        let max = folded_splat(&text("hl.reduce_max", "[0, 1]", "tensor<f32>"), "hl.reduce_max");
        assert_eq!(max, 1.001);
    }
}
