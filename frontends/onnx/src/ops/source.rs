//! Ops whose values are known at import: `Constant`, `ConstantOfShape`, `Shape`, `Size`,
//! `Range`, `EyeLike`, the window functions (`HannWindow`, `HammingWindow`, `BlackmanWindow`),
//! and `Trilu` (`hl.trilu`, folded when its input is a constant).

use kiln_dialects::hl;
use kiln_dialects::hl::interp::{DType, Tensor, TensorData};

use super::{attr_float, attr_floats, attr_int, attr_ints, attr_tensor};
use crate::consts::decode_tensor;
use crate::graph::{Importer, Val};

/// The largest constant `ConstantOfShape` and `Range` make (2^28 elements, 1 GiB of f32).
const MAX_ELEMENTS: usize = 1 << 28;

/// `Constant(value | value_float | value_floats | value_int | value_ints)`.
pub(super) fn constant(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let name = node.output.first().map_or("constant", String::as_str);
    let has = |n: &str| node.attribute.iter().any(|a| a.name == n);
    let t = if let Some(t) = attr_tensor(node, "value")? {
        decode_tensor(t)?
    } else if has("value_float") {
        Tensor::scalar(DType::F32, attr_float(node, "value_float", 0.0)?)
    } else if let Some(v) = attr_floats(node, "value_floats")? {
        Tensor::new(vec![v.len()], TensorData::F32(v)).map_err(|e| e.message().to_string())?
    } else if has("value_int") {
        Tensor::new(vec![], TensorData::I64(vec![attr_int(node, "value_int", 0)?]))
            .map_err(|e| e.message().to_string())?
    } else if let Some(v) = attr_ints(node, "value_ints")? {
        Tensor::new(vec![v.len()], TensorData::I64(v)).map_err(|e| e.message().to_string())?
    } else {
        return Err("only the `value`, `value_float(s)` and `value_int(s)` forms are supported".into());
    };
    Ok(vec![imp.constant(t, name)?])
}

/// `ConstantOfShape(shape, value)`: a splat (default a float 0).
pub(super) fn constant_of_shape(
    imp: &mut Importer<'_, '_, '_, '_>,
    index: usize,
) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let shape = imp.const_ints(&imp.input(node, 0)?, "input `input` (the shape)")?;
    let shape: Vec<usize> = shape
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("shape {shape:?} has a negative dim")))
        .collect::<Result<_, _>>()?;
    let fill = match attr_tensor(node, "value")? {
        Some(t) => decode_tensor(t)?,
        None => Tensor::scalar(DType::F32, 0.0),
    };
    if fill.numel() != 1 {
        return Err("attribute `value` must hold one element".into());
    }
    let numel =
        shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d)).ok_or("the shape has too many elements")?;
    let v = fill.to_f64s()[0];
    let t = match fill.data() {
        TensorData::I64(x) => Tensor::new(shape, TensorData::I64(vec![x[0]; numel])),
        _ => Tensor::from_f64s(fill.dtype(), shape, &vec![v; numel]),
    }
    .map_err(|e| e.message().to_string())?;
    Ok(vec![imp.constant(t, "constant_of_shape")?])
}

/// `Shape(start, end)`: the static shape as an `i64` constant.
pub(super) fn shape(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let dims = imp.shape(&imp.input(node, 0)?)?;
    let rank = dims.len() as i64;
    let clampi = |v: i64| (if v < 0 { v + rank } else { v }).clamp(0, rank) as usize;
    let start = clampi(attr_int(node, "start", 0)?);
    let end = clampi(attr_int(node, "end", rank)?).max(start);
    let part = dims[start..end].to_vec();
    let t = Tensor::new(vec![part.len()], TensorData::I64(part)).map_err(|e| e.message().to_string())?;
    Ok(vec![imp.constant(t, "shape")?])
}

/// `Range(start, limit, delta)` of constant scalars.
pub(super) fn range(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (s, l, d) = (imp.input(node, 0)?, imp.input(node, 1)?, imp.input(node, 2)?);
    let dtype = imp.dtype(&s)?;
    let scalar = |v: &Val, what: &str| -> Result<f64, String> {
        let x = imp.const_f64s(v, what)?;
        x.first().copied().filter(|_| x.len() == 1).ok_or_else(|| format!("{what} must be a scalar"))
    };
    let (start, limit, delta) = (scalar(&s, "`start`")?, scalar(&l, "`limit`")?, scalar(&d, "`delta`")?);
    if delta == 0.0 {
        return Err("`delta` must not be 0".into());
    }
    let n = ((limit - start) / delta).ceil().max(0.0);
    if n > MAX_ELEMENTS as f64 {
        return Err(format!("the range has {n} elements"));
    }
    let n = n as usize;
    let t = if dtype.is_float() {
        let values: Vec<f64> = (0..n).map(|i| start + i as f64 * delta).collect();
        Tensor::from_f64s(dtype, vec![n], &values)
    } else {
        let (start, delta) = (start as i64, delta as i64);
        let values: Vec<i64> = (0..n as i64).map(|i| start + i * delta).collect();
        Tensor::from_i64s(dtype, vec![n], &values)
    }
    .map_err(|e| e.message().to_string())?;
    Ok(vec![imp.constant(t, "range")?])
}

/// `Trilu(x, k?, upper)`: `hl.trilu` (folded when `x` is a constant).
pub(super) fn trilu(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let k = match imp.opt_input(node, 1)? {
        Some(k) => *imp.const_ints(&k, "input `k`")?.first().ok_or("input `k` must be a scalar")?,
        None => 0,
    };
    let upper = attr_int(node, "upper", 1)? != 0;
    let attrs = [("upper", imp.bool_attr(upper)), ("k", imp.int_attr(k))];
    Ok(vec![imp.op(&hl::TRILU, &[&x], &attrs, None)?])
}

/// `Size(x)`: the element count as an `i64` scalar.
pub(super) fn size(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let n: i64 = imp.shape(&imp.input(node, 0)?)?.iter().product();
    let t = Tensor::new(vec![], TensorData::I64(vec![n])).map_err(|e| e.message().to_string())?;
    Ok(vec![imp.constant(t, "size")?])
}

/// `EyeLike(x, k, dtype)`: ones on diagonal `k` of a matrix of `x`'s shape.
pub(super) fn eye_like(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let x = imp.input(node, 0)?;
    let dims = imp.shape(&x)?;
    let [rows, cols] = dims[..] else { return Err("the input must be a matrix".into()) };
    let dtype = match node.attribute.iter().find(|a| a.name == "dtype") {
        Some(_) => crate::consts::dtype_of_onnx(attr_int(node, "dtype", 1)? as i32)?,
        None => imp.dtype(&x)?,
    };
    let k = attr_int(node, "k", 0)?;
    let values: Vec<i64> = (0..rows).flat_map(|i| (0..cols).map(move |j| i64::from(j - i == k))).collect();
    let t = Tensor::from_i64s(dtype, vec![rows as usize, cols as usize], &values)
        .map_err(|e| e.message().to_string())?;
    Ok(vec![imp.constant(t, "eye")?])
}

/// `HannWindow` / `HammingWindow` / `BlackmanWindow(size const, output_datatype, periodic)`:
/// the window's `size` values, computed in f64 and rounded to the output type, with
/// `N = size` (periodic, the default) or `size - 1`: Hann `sin^2(pi n / N)`, Hamming
/// `25/46 - 21/46 cos(2 pi n / N)`, Blackman `0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)`.
pub(super) fn window(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let size = imp.const_ints(&imp.input(node, 0)?, "input `size`")?;
    let size = *size.first().filter(|_| size.len() == 1).ok_or("input `size` must be a scalar")?;
    if !(0..=MAX_ELEMENTS as i64).contains(&size) {
        return Err(format!("a window of {size} elements"));
    }
    let dtype = crate::consts::dtype_of_onnx(attr_int(node, "output_datatype", 1)? as i32)?;
    let n = if attr_int(node, "periodic", 1)? != 0 { size } else { size - 1 } as f64;
    let pi = std::f64::consts::PI;
    let f = |i: f64| match node.op_type.as_str() {
        "HannWindow" => (pi * i / n).sin().powi(2),
        "HammingWindow" => 25.0 / 46.0 - 21.0 / 46.0 * (2.0 * pi * i / n).cos(),
        _ => 0.42 - 0.5 * (2.0 * pi * i / n).cos() + 0.08 * (4.0 * pi * i / n).cos(),
    };
    let values: Vec<f64> = (0..size).map(|i| f(i as f64)).collect();
    let t = Tensor::from_f64s(dtype, vec![size as usize], &values).map_err(|e| e.message().to_string())?;
    Ok(vec![imp.constant(t, "window")?])
}
