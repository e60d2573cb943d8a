//! Folding of `hl` ops: an op whose operands are all constants is evaluated by the reference
//! interpreter and replaced by an `hl.constant` (so folding is exact by construction: the folded
//! value is what the oracle computes). Results larger than [`FOLD_LIMIT`] elements are left
//! alone, so folding never blows up a module.

use kiln_compiler::dialect::FoldResult;
use kiln_compiler::{Attribute, Context, Ir, NamedAttr, OpId, OperationState, Type, DYNAMIC};

use super::accessors::tensor_parts;
use super::interp::program::{dense_to_tensor, eval_op, tensor_to_dense};
use super::CONSTANT;

/// Largest result (in elements) that folding materializes.
pub const FOLD_LIMIT: usize = 1 << 16;

/// The folder shared by every `hl` op.
pub(crate) fn fold_hl<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    op: OpId,
    constants: &[Option<Attribute<'c>>],
) -> Option<Vec<FoldResult<'c>>> {
    if ir.op(op).name == CONSTANT.name {
        return Some(vec![FoldResult::Constant(ir.attr(op, "value")?)]);
    }
    if constants.is_empty() || constants.iter().any(Option::is_none) {
        return None;
    }
    let ty = ir.value_type(*ir.results(op).first()?);
    let (shape, _) = tensor_parts(ty)?;
    if shape.contains(&DYNAMIC) || shape.iter().product::<i64>() as usize > FOLD_LIMIT {
        return None;
    }
    let inputs = constants
        .iter()
        .map(|c| dense_to_tensor(c.expect("checked above")).ok())
        .collect::<Option<Vec<_>>>()?;
    let result = eval_op(ir, op, &inputs).ok()?;
    Some(vec![FoldResult::Constant(tensor_to_dense(ctx, ty, &result))])
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
