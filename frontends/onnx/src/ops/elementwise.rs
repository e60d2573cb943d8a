//! Elementwise ONNX ops: arithmetic (numpy broadcasting as `hl`'s), activations (composite
//! ones as short `hl` sequences), comparisons, `Where`, `Cast`, `Clip`, `Identity`.

use kiln_compiler::OpDef;
use kiln_dialects::hl;
use kiln_dialects::hl::attrs::{CmpPredicate, GeluApproximation};

use super::{attr_float, attr_int, attr_str};
use kiln_dialects::hl::interp::{Tensor, TensorData};

use crate::consts::{dtype_of_onnx, elem_type};
use crate::graph::{Importer, Val};

fn unary_def(op: &str) -> Option<&'static OpDef> {
    Some(match op {
        "Abs" => &hl::ABS,
        "Ceil" => &hl::CEIL,
        "Erf" => &hl::ERF,
        "Exp" => &hl::EXP,
        "Floor" => &hl::FLOOR,
        "Log" => &hl::LOG,
        "Neg" => &hl::NEG,
        "Not" => &hl::NOT,
        "Reciprocal" => &hl::RECIPROCAL,
        "Relu" => &hl::RELU,
        "Round" => &hl::ROUND,
        "Sigmoid" => &hl::SIGMOID,
        "Sign" => &hl::SIGN,
        "Sqrt" => &hl::SQRT,
        "Tanh" => &hl::TANH,
        "Sin" => &hl::SIN,
        "Cos" => &hl::COS,
        "Tan" => &hl::TAN,
        "Asin" => &hl::ASIN,
        "Acos" => &hl::ACOS,
        "Atan" => &hl::ATAN,
        "Sinh" => &hl::SINH,
        "Cosh" => &hl::COSH,
        "Asinh" => &hl::ASINH,
        "Acosh" => &hl::ACOSH,
        "Atanh" => &hl::ATANH,
        _ => return None,
    })
}

fn binary_def(op: &str) -> Option<&'static OpDef> {
    Some(match op {
        "Add" | "Sum" | "Mean" => &hl::ADD,
        "And" => &hl::AND,
        "Div" => &hl::DIV,
        "Max" => &hl::MAXIMUM,
        "Min" => &hl::MINIMUM,
        "Mul" => &hl::MUL,
        "Or" => &hl::OR,
        "Pow" => &hl::POW,
        "Sub" => &hl::SUB,
        _ => return None,
    })
}

/// `Abs`, `Exp`, `Relu`, ...: one `hl` op.
pub(super) fn unary(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let def = unary_def(&node.op_type).ok_or("not a unary op")?;
    let x = imp.input(node, 0)?;
    Ok(vec![imp.op(def, &[&x], &[], None)?])
}

/// `Add`, `Mul`, `Pow`, ...: one `hl` op (`Pow`'s exponent is cast to the base's type).
pub(super) fn binary(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let def = binary_def(&node.op_type).ok_or("not a binary op")?;
    let a = imp.input(node, 0)?;
    let mut b = imp.input(node, 1)?;
    if node.op_type == "Pow" && imp.elem(&b) != imp.elem(&a) {
        b = cast_to(imp, &b, imp.elem(&a))?;
    }
    Ok(vec![imp.op(def, &[&a, &b], &[], None)?])
}

/// `Max`, `Min`, `Sum`, `Mean` of one or more inputs: a chain of binary ops (`Mean`: the sum
/// divided by the count).
pub(super) fn variadic(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let def = binary_def(&node.op_type).ok_or("not a variadic op")?;
    let mut acc = imp.input(node, 0)?;
    for i in 1..node.input.len() {
        let x = imp.input(node, i)?;
        acc = imp.op(def, &[&acc, &x], &[], None)?;
    }
    if node.op_type == "Mean" && node.input.len() > 1 {
        let n = imp.scalar_like(&acc, node.input.len() as f64)?;
        acc = imp.op(&hl::DIV, &[&acc, &n], &[], None)?;
    }
    Ok(vec![acc])
}

/// `Equal`, `Less`, ...: `hl.cmp`.
pub(super) fn compare(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let predicate = match node.op_type.as_str() {
        "Equal" => CmpPredicate::Eq,
        "Less" => CmpPredicate::Lt,
        "LessOrEqual" => CmpPredicate::Le,
        "Greater" => CmpPredicate::Gt,
        "GreaterOrEqual" => CmpPredicate::Ge,
        _ => return Err("not a comparison".into()),
    };
    let (a, b) = (imp.input(node, 0)?, imp.input(node, 1)?);
    Ok(vec![cmp(imp, &a, &b, predicate)?])
}

/// `hl.cmp` of `a` and `b`.
fn cmp(imp: &mut Importer<'_, '_, '_, '_>, a: &Val, b: &Val, p: CmpPredicate) -> Result<Val, String> {
    let attr = p.attr(imp.ctx());
    imp.op(&hl::CMP, &[a, b], &[("predicate", attr)], None)
}

/// `Where(cond, a, b)`: `hl.select`.
pub(super) fn select(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (c, a, b) = (imp.input(node, 0)?, imp.input(node, 1)?, imp.input(node, 2)?);
    Ok(vec![imp.op(&hl::SELECT, &[&c, &a, &b], &[], None)?])
}

/// `hl.cast` of `v` to element type `elem` (`v` itself when it has that type).
pub(super) fn cast_to<'c>(
    imp: &mut Importer<'_, '_, 'c, '_>,
    v: &Val,
    elem: kiln_compiler::Type<'c>,
) -> Result<Val, String> {
    if imp.elem(v) == elem {
        return Ok(v.clone());
    }
    let ty = imp.ctx().tensor_type(&imp.dims(v), elem);
    imp.op(&hl::CAST, &[v], &[], Some(ty))
}

/// `Cast(to)`: `hl.cast` to the `hl` type that holds `to`; `CastLike(x, like)`: to the type of
/// `like`.
pub(super) fn cast(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let elem = if node.op_type == "CastLike" {
        let like = imp.input(node, 1)?;
        imp.elem(&like)
    } else {
        elem_type(imp.ctx(), dtype_of_onnx(attr_int(node, "to", 0)? as i32)?)
    };
    Ok(vec![cast_to(imp, &x, elem)?])
}

/// `Identity`, and `Dropout` at inference: the input, and for `Dropout`'s mask an all-true
/// `i1` constant of its shape (`training_mode`, when given, must be a constant false, or the
/// `ratio` a constant 0, which drops nothing).
pub(super) fn identity(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    if node.op_type != "Dropout" || node.output.get(1).is_none_or(|m| m.is_empty()) {
        return Ok(vec![x]);
    }
    if let Some(t) = imp.opt_input(node, 2)? {
        let ratio = match imp.opt_input(node, 1)? {
            Some(r) => imp.const_f64s(&r, "input `ratio`")?.first().copied().unwrap_or(0.5),
            None => 0.5,
        };
        if imp.const_f64s(&t, "input `training_mode`")?.iter().any(|&v| v != 0.0) && ratio != 0.0 {
            return Err("only inference (`training_mode` false, or a `ratio` of 0) is supported".into());
        }
    }
    let shape: Vec<usize> = imp.shape(&x)?.iter().map(|&d| d as usize).collect();
    let n = shape.iter().product();
    let mask = Tensor::new(shape, TensorData::I1(vec![true; n])).map_err(|e| e.message().to_string())?;
    let mask = imp.constant(mask, "dropout_mask")?;
    Ok(vec![x, mask])
}

/// `Clip(x, min?, max?)` (bounds as inputs, opset 11+): `hl.clamp` when the bounds are
/// constants, else `hl.maximum` / `hl.minimum`.
pub(super) fn clip(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let (lo, hi) = (imp.opt_input(node, 1)?, imp.opt_input(node, 2)?);
    let is_float = imp.dtype(&x)?.is_float();
    let bound = |v: &Option<Val>| -> Option<Option<f64>> {
        match v {
            None => Some(None),
            Some(v) => v.konst.as_ref().filter(|t| t.numel() == 1).map(|t| Some(t.to_f64s()[0])),
        }
    };
    if let (Some(lo_c), Some(hi_c), true) = (bound(&lo), bound(&hi), is_float) {
        let mut attrs = Vec::new();
        if let Some(l) = lo_c {
            attrs.push(("min", imp.f32_attr(l)));
        }
        if let Some(h) = hi_c {
            attrs.push(("max", imp.f32_attr(h)));
        }
        return Ok(vec![imp.op(&hl::CLAMP, &[&x], &attrs, None)?]);
    }
    let mut y = x;
    if let Some(l) = lo {
        y = imp.op(&hl::MAXIMUM, &[&y, &l], &[], None)?;
    }
    if let Some(h) = hi {
        y = imp.op(&hl::MINIMUM, &[&y, &h], &[], None)?;
    }
    Ok(vec![y])
}

/// `Gelu(approximate = none | tanh)` (opset 20): `hl.gelu`.
pub(super) fn gelu(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let approx = match attr_str(node, "approximate", "none")?.as_str() {
        "none" => GeluApproximation::None,
        "tanh" => GeluApproximation::Tanh,
        other => return Err(format!("unknown `approximate` '{other}'")),
    };
    let x = imp.input(node, 0)?;
    let attr = approx.attr(imp.ctx());
    Ok(vec![imp.op(&hl::GELU, &[&x], &[("approximate", attr)], None)?])
}

/// `HardSigmoid(alpha, beta)`: `clamp(alpha * x + beta, 0, 1)`; `HardSwish`: `x` times
/// that with `alpha = 1/6`, `beta = 1/2`.
pub(super) fn hard_sigmoid(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let swish = node.op_type == "HardSwish";
    let (alpha, beta) = if swish {
        (1.0 / 6.0, 0.5)
    } else {
        (attr_float(node, "alpha", 0.2)?, attr_float(node, "beta", 0.5)?)
    };
    let x = imp.input(node, 0)?;
    let a = imp.scalar_like(&x, alpha)?;
    let b = imp.scalar_like(&x, beta)?;
    let ax = imp.op(&hl::MUL, &[&x, &a], &[], None)?;
    let axb = imp.op(&hl::ADD, &[&ax, &b], &[], None)?;
    let bounds = [("min", imp.f32_attr(0.0)), ("max", imp.f32_attr(1.0))];
    let h = imp.op(&hl::CLAMP, &[&axb], &bounds, None)?;
    Ok(vec![if swish { imp.op(&hl::MUL, &[&x, &h], &[], None)? } else { h }])
}

/// `LeakyRelu(alpha)`: `select(x < 0, alpha * x, x)`.
pub(super) fn leaky_relu(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let alpha = attr_float(node, "alpha", 0.01)?;
    let x = imp.input(node, 0)?;
    if !imp.dtype(&x)?.is_float() {
        return Err("`LeakyRelu` needs a float input".into());
    }
    let zero = imp.scalar_like(&x, 0.0)?;
    let a = imp.scalar_like(&x, alpha)?;
    let neg = cmp(imp, &x, &zero, CmpPredicate::Lt)?;
    let scaled = imp.op(&hl::MUL, &[&x, &a], &[], None)?;
    Ok(vec![imp.op(&hl::SELECT, &[&neg, &scaled, &x], &[], None)?])
}
