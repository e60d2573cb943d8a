//! Activations ONNX defines as formulas, decomposed into `hl` arithmetic: `Elu`, `Selu`,
//! `Celu`, `ThresholdedRelu`, `Softplus`, `Softsign`, `Mish`, `PRelu`, `Swish`, `Shrink`.
//! Each is the formula of ONNX's reference in the input's element type, one rounding per
//! `hl` op.

use kiln_dialects::hl;
use kiln_dialects::hl::attrs::CmpPredicate;

use super::arith::{bin, bin_c, cmp_c, require_float, select, un};
use super::attr_float;
use crate::graph::{Importer, Val};

/// `exp(x) - 1`.
fn expm1(imp: &mut Importer<'_, '_, '_, '_>, x: &Val) -> Result<Val, String> {
    let e = un(imp, &hl::EXP, x)?;
    bin_c(imp, &hl::SUB, &e, 1.0)
}

/// `log(exp(x) + 1)`.
fn softplus_of(imp: &mut Importer<'_, '_, '_, '_>, x: &Val) -> Result<Val, String> {
    let e = un(imp, &hl::EXP, x)?;
    let e1 = bin_c(imp, &hl::ADD, &e, 1.0)?;
    un(imp, &hl::LOG, &e1)
}

/// Imports one of the activations of this module.
pub(super) fn activation(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let op = node.op_type.as_str();
    let x = imp.input(node, 0)?;
    if !matches!(op, "PRelu" | "Shrink" | "ThresholdedRelu") {
        require_float(imp, &x, op)?;
    }
    let zero = imp.scalar_like(&x, 0.0)?;
    let y = match op {
        "Elu" | "Selu" => {
            let (alpha, gamma) = if op == "Elu" {
                (attr_float(node, "alpha", 1.0)?, 1.0)
            } else {
                (
                    attr_float(node, "alpha", 1.673_263_192_176_818_8)?,
                    attr_float(node, "gamma", 1.050_700_950_622_558_6)?,
                )
            };
            let neg = cmp_c(imp, &x, 0.0, CmpPredicate::Le)?;
            let e = expm1(imp, &x)?;
            let scaled = bin_c(imp, &hl::MUL, &e, alpha)?;
            let y = select(imp, &neg, &scaled, &x)?;
            if gamma == 1.0 {
                y
            } else {
                bin_c(imp, &hl::MUL, &y, gamma)?
            }
        }
        "Celu" => {
            let alpha = attr_float(node, "alpha", 1.0)?;
            let xa = bin_c(imp, &hl::DIV, &x, alpha)?;
            let e = expm1(imp, &xa)?;
            let scaled = bin_c(imp, &hl::MUL, &e, alpha)?;
            let lo = bin(imp, &hl::MINIMUM, &scaled, &zero)?;
            let hi = bin(imp, &hl::MAXIMUM, &x, &zero)?;
            bin(imp, &hl::ADD, &hi, &lo)?
        }
        "ThresholdedRelu" => {
            let above = cmp_c(imp, &x, attr_float(node, "alpha", 1.0)?, CmpPredicate::Gt)?;
            select(imp, &above, &x, &zero)?
        }
        "Softplus" => softplus_of(imp, &x)?,
        "Softsign" => {
            let a = un(imp, &hl::ABS, &x)?;
            let d = bin_c(imp, &hl::ADD, &a, 1.0)?;
            bin(imp, &hl::DIV, &x, &d)?
        }
        "Mish" => {
            let sp = softplus_of(imp, &x)?;
            let t = un(imp, &hl::TANH, &sp)?;
            bin(imp, &hl::MUL, &x, &t)?
        }
        "PRelu" => {
            let slope = imp.input(node, 1)?;
            let neg = cmp_c(imp, &x, 0.0, CmpPredicate::Lt)?;
            let scaled = bin(imp, &hl::MUL, &x, &slope)?;
            select(imp, &neg, &scaled, &x)?
        }
        "Swish" => {
            let ax = bin_c(imp, &hl::MUL, &x, attr_float(node, "alpha", 1.0)?)?;
            let s = un(imp, &hl::SIGMOID, &ax)?;
            bin(imp, &hl::MUL, &x, &s)?
        }
        "Shrink" => {
            let (lambd, bias) = (attr_float(node, "lambd", 0.5)?, attr_float(node, "bias", 0.0)?);
            let below = cmp_c(imp, &x, -lambd, CmpPredicate::Lt)?;
            let above = cmp_c(imp, &x, lambd, CmpPredicate::Gt)?;
            let up = bin_c(imp, &hl::ADD, &x, bias)?;
            let down = bin_c(imp, &hl::SUB, &x, bias)?;
            let y = select(imp, &above, &down, &zero)?;
            select(imp, &below, &up, &y)?
        }
        _ => return Err("not an activation".into()),
    };
    Ok(vec![y])
}
