//! Constant folding of the `arith` integer ops on scalar integer and `index` constants (the
//! index arithmetic of loop bounds and addresses), and the dialect's constant materializer.
//!
//! Results wrap to the type's width (`index` is 64 bits, as in MLIR); a division or remainder
//! by zero, and a signed `MIN / -1`, do not fold (they are undefined behavior). Types wider than
//! 128 bits and shaped constants do not fold.

use kiln_compiler::dialect::FoldResult;
use kiln_compiler::{AttrKind, Attribute, Context, Ir, NamedAttr, OpId, OperationState, Type};

use super::attrs::CMPI_PREDICATES;
use super::CONSTANT_OP;

/// A scalar integer constant: its value (sign-extended) and width in bits.
fn scalar(attr: Attribute<'_>) -> Option<(i128, u32)> {
    match *attr.kind() {
        AttrKind::Integer { value, ty } => ty.bit_width().filter(|&w| w <= 128).map(|w| (value, w)),
        _ => None,
    }
}

/// `value` wrapped to `width` bits, sign-extended.
fn wrap(value: i128, width: u32) -> i128 {
    let shift = 128 - width;
    (value << shift) >> shift
}

/// `value` (sign-extended from `width` bits) read as unsigned.
fn unsigned(value: i128, width: u32) -> u128 {
    let shift = 128 - width;
    ((value as u128) << shift) >> shift
}

/// The value of an integer binary op `name` on `a` and `b` of `width` bits, before wrapping.
fn evaluate(name: &str, a: i128, b: i128, width: u32) -> Option<i128> {
    let (ua, ub) = (unsigned(a, width), unsigned(b, width));
    let min = wrap(1 << (width - 1), width);
    Some(match name {
        "arith.addi" => a.wrapping_add(b),
        "arith.subi" => a.wrapping_sub(b),
        "arith.muli" => a.wrapping_mul(b),
        "arith.divui" if ub != 0 => (ua / ub) as i128,
        "arith.remui" if ub != 0 => (ua % ub) as i128,
        "arith.divsi" if b != 0 && !(a == min && b == -1) => a / b,
        "arith.remsi" if b != 0 && !(a == min && b == -1) => a % b,
        "arith.minsi" => a.min(b),
        "arith.maxsi" => a.max(b),
        "arith.minui" => {
            if ua <= ub {
                a
            } else {
                b
            }
        }
        "arith.maxui" => {
            if ua >= ub {
                a
            } else {
                b
            }
        }
        _ => return None,
    })
}

/// `arith.cmpi` predicate `index` on `a` and `b` of `width` bits.
fn compare(index: i128, a: i128, b: i128, width: u32) -> Option<bool> {
    let (ua, ub) = (unsigned(a, width), unsigned(b, width));
    let predicate = CMPI_PREDICATES.get(usize::try_from(index).ok()?)?;
    Some(match *predicate {
        "eq" => a == b,
        "ne" => a != b,
        "slt" => a < b,
        "sle" => a <= b,
        "sgt" => a > b,
        "sge" => a >= b,
        "ult" => ua < ub,
        "ule" => ua <= ub,
        "ugt" => ua > ub,
        _ => ua >= ub,
    })
}

/// The folder of the `arith` ops: a constant folds to its value; an integer op or `cmpi`
/// whose operands are scalar constants folds to the computed constant.
pub(crate) fn fold_arith<'c>(
    ctx: &Context<'c>,
    ir: &Ir<'c>,
    op: OpId,
    constants: &[Option<Attribute<'c>>],
) -> Option<Vec<FoldResult<'c>>> {
    let name = ir.op(op).name;
    if name == CONSTANT_OP.name {
        return Some(vec![FoldResult::Constant(ir.attr(op, "value")?)]);
    }
    let [Some(lhs), Some(rhs)] = constants else { return None };
    let ((a, width), (b, _)) = (scalar(*lhs)?, scalar(*rhs)?);
    let result = if name == "arith.cmpi" {
        ctx.bool_attr(compare(ir.attr(op, "predicate")?.as_int()?, a, b, width)?)
    } else {
        let ty = ir.value_type(ir.results(op)[0]);
        ctx.int_attr(wrap(evaluate(name, a, b, width)?, width), ty)
    };
    Some(vec![FoldResult::Constant(result)])
}

/// Materializes `value` of type `ty` as a detached `arith.constant` (the dialect's constant
/// materializer, used when folds produce constants).
pub(crate) fn materialize<'c>(
    ctx: &Context<'c>,
    ir: &mut Ir<'c>,
    value: Attribute<'c>,
    ty: Type<'c>,
    loc: Attribute<'c>,
) -> Option<OpId> {
    let mut state = OperationState::new(CONSTANT_OP.name, Some(&CONSTANT_OP), loc);
    state.properties = Some(ctx.dict_attr(&[NamedAttr { name: ctx.intern_str("value"), value }]));
    state.result_types = vec![ty];
    Some(ir.create_op(state))
}
