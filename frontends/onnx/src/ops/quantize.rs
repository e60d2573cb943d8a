//! `QuantizeLinear` and `DequantizeLinear`, per tensor or per axis (a 1-D scale along `axis`),
//! decomposed: `y = saturate(round(x / scale) + zero_point)` (rounding half to even) and
//! `y = (x - zero_point) * scale`. The quantized type is the zero point's ONNX type (uint8 when
//! there is none, or `output_dtype`); blocked quantization (`block_size`) is not supported.

use kiln_dialects::hl;

use super::arith::{bin, un};
use super::elementwise::cast_to;
use super::{attr_int, norm_axis};
use crate::consts::{dtype_of_onnx, elem_type};
use crate::graph::{Importer, Val};

/// The saturation bounds of ONNX integer type `code`.
fn bounds(code: i32) -> Result<(f64, f64), String> {
    Ok(match code {
        2 => (0.0, 255.0),
        3 => (-128.0, 127.0),
        4 => (0.0, 65535.0),
        5 => (-32768.0, 32767.0),
        6 => (f64::from(i32::MIN), f64::from(i32::MAX)),
        _ => return Err(format!("quantizing to ONNX element type #{code} is not supported")),
    })
}

/// `v` (a per-axis scale or zero point of `n` elements) shaped to broadcast along `axis` of
/// a rank-`rank` input; a scalar stays as it is.
fn along(imp: &mut Importer<'_, '_, '_, '_>, v: &Val, axis: usize, rank: usize) -> Result<Val, String> {
    let shape = imp.shape(v)?;
    if shape.iter().product::<i64>() == 1 && shape.len() <= 1 {
        return imp.reshape(v, &[]);
    }
    let mut to = vec![1; rank];
    to[axis] = shape.iter().product();
    imp.reshape(v, &to)
}

/// Imports `QuantizeLinear` / `DequantizeLinear`.
pub(super) fn quantize(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    if attr_int(node, "block_size", 0)? != 0 {
        return Err("blocked quantization (`block_size`) is not supported".into());
    }
    let x = imp.input(node, 0)?;
    let rank = imp.rank(&x);
    let axis = if rank == 0 { 0 } else { norm_axis(attr_int(node, "axis", 1)?, rank)? };
    let scale = imp.input(node, 1)?;
    let scale = along(imp, &scale, axis, rank)?;
    let zp = match imp.opt_input(node, 2)? {
        Some(z) => Some(along(imp, &z, axis, rank)?),
        None => None,
    };
    let float = imp.elem(&scale);
    if node.op_type == "DequantizeLinear" {
        let mut y = cast_to(imp, &x, float)?;
        if let Some(z) = &zp {
            let zf = cast_to(imp, z, float)?;
            y = bin(imp, &hl::SUB, &y, &zf)?;
        }
        return Ok(vec![bin(imp, &hl::MUL, &y, &scale)?]);
    }
    let zp_name = node.input.get(2).map(String::as_str).unwrap_or("");
    let code = match attr_int(node, "output_dtype", 0)? {
        0 => match imp.onnx_codes.get(zp_name) {
            Some(&c) => c,
            None if zp.as_ref().is_some_and(|z| imp.dtype(z).is_ok_and(|d| d.name() == "i8")) => 3,
            None => 2,
        },
        c => c as i32,
    };
    let (lo, hi) = bounds(code)?;
    let xs = bin(imp, &hl::DIV, &x, &scale)?;
    let mut y = un(imp, &hl::ROUND, &xs)?;
    if let Some(z) = &zp {
        let zf = cast_to(imp, z, float)?;
        y = bin(imp, &hl::ADD, &y, &zf)?;
    }
    let b = [("min", imp.f32_attr(lo)), ("max", imp.f32_attr(hi))];
    y = imp.op(&hl::CLAMP, &[&y], &b, None)?;
    let to = elem_type(imp.ctx(), dtype_of_onnx(code)?);
    Ok(vec![cast_to(imp, &y, to)?])
}
