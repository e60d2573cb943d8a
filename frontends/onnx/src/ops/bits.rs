//! Integer and predicate ops: `Mod`, the bitwise ops and `BitShift`, `Xor`, `IsNaN`, `IsInf`.

use kiln_dialects::hl;
use kiln_dialects::hl::attrs::CmpPredicate;

use super::arith::{bin, cmp, cmp_c, select};
use super::{attr_int, attr_str};
use crate::graph::{Importer, Val};

/// `Mod(a, b, fmod)`: `fmod = 1` is `hl.rem` (the sign of `a`); `fmod = 0` the remainder with
/// the sign of `b` (numpy's `mod`): `rem + b` where the remainder is not 0 and its sign differs
/// from `b`'s.
pub(super) fn modulo(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (a, b) = (imp.input(node, 0)?, imp.input(node, 1)?);
    let r = bin(imp, &hl::REM, &a, &b)?;
    if attr_int(node, "fmod", 0)? != 0 {
        return Ok(vec![r]);
    }
    let nonzero = cmp_c(imp, &r, 0.0, CmpPredicate::Ne)?;
    let r_neg = cmp_c(imp, &r, 0.0, CmpPredicate::Lt)?;
    let b_neg = cmp_c(imp, &b, 0.0, CmpPredicate::Lt)?;
    let differ = cmp(imp, &r_neg, &b_neg, CmpPredicate::Ne)?;
    let fix = bin(imp, &hl::AND, &nonzero, &differ)?;
    let shifted = bin(imp, &hl::ADD, &r, &b)?;
    Ok(vec![select(imp, &fix, &shifted, &r)?])
}

/// `BitwiseAnd`, `BitwiseOr`, `BitwiseXor`, `BitwiseNot`, `BitShift(direction)`, and `Xor`
/// (`hl.cmp ne` on booleans).
pub(super) fn bitwise(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let a = imp.input(node, 0)?;
    let def = match node.op_type.as_str() {
        "BitwiseNot" => return Ok(vec![imp.op(&hl::BITWISE_NOT, &[&a], &[], None)?]),
        "Xor" => {
            let b = imp.input(node, 1)?;
            return Ok(vec![cmp(imp, &a, &b, CmpPredicate::Ne)?]);
        }
        "BitwiseAnd" => &hl::BITWISE_AND,
        "BitwiseOr" => &hl::BITWISE_OR,
        "BitwiseXor" => &hl::BITWISE_XOR,
        "BitShift" => match attr_str(node, "direction", "")?.as_str() {
            "LEFT" => &hl::SHIFT_LEFT,
            "RIGHT" => &hl::SHIFT_RIGHT,
            other => return Err(format!("attribute `direction` must be LEFT or RIGHT, not '{other}'")),
        },
        _ => return Err("not a bitwise op".into()),
    };
    let mut b = imp.input(node, 1)?;
    if node.op_type == "BitShift" {
        // ONNX shifts by a negative amount as by the bit width or more (`hl` gives 0 for a
        // negative right shift): 64 is past every width.
        let negative = cmp_c(imp, &b, 0.0, CmpPredicate::Lt)?;
        let past = imp.scalar_like(&b, 64.0)?;
        b = select(imp, &negative, &past, &b)?;
    }
    Ok(vec![bin(imp, def, &a, &b)?])
}

/// `IsNaN`: `x != x`; `IsInf(detect_positive, detect_negative)`: `x == inf` or `x == -inf`.
pub(super) fn is_special(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    if node.op_type == "IsNaN" {
        return Ok(vec![cmp(imp, &x, &x, CmpPredicate::Ne)?]);
    }
    let pos = cmp_c(imp, &x, f64::INFINITY, CmpPredicate::Eq)?;
    let neg = cmp_c(imp, &x, f64::NEG_INFINITY, CmpPredicate::Eq)?;
    let y = match (attr_int(node, "detect_positive", 1)? != 0, attr_int(node, "detect_negative", 1)? != 0) {
        (true, true) => bin(imp, &hl::OR, &pos, &neg)?,
        (true, false) => pos,
        (false, true) => neg,
        // Never both: all false.
        (false, false) => bin(imp, &hl::AND, &pos, &neg)?,
    };
    Ok(vec![y])
}
