//! Reading `hl` types and attributes: the shape and element type of a ranked tensor, integer
//! lists (`axes`, `perm`), axis normalization, float and bool values. Shared by verification,
//! inference, the interpreter and the passes.

use kiln_compiler::{AttrKind, Attribute, FloatKind, Type, TypeKind};

/// Shape and element type of a ranked tensor.
pub fn tensor_parts(t: Type<'_>) -> Option<(&[i64], Type<'_>)> {
    match *t.kind() {
        TypeKind::RankedTensor { shape, elem, .. } => Some((shape, elem)),
        _ => None,
    }
}

/// Integer list attribute (array of integers), e.g. `axes = [0, 1]`.
pub fn int_list(a: Option<Attribute<'_>>) -> Result<Vec<i64>, String> {
    let Some(a) = a else { return Ok(Vec::new()) };
    let items = a.as_array().ok_or_else(|| format!("expected an array of integers, but got {a}"))?;
    items
        .iter()
        .map(|i| i.as_int().map(|v| v as i64).ok_or_else(|| format!("expected an integer, but got {i}")))
        .collect()
}

/// Normalizes an axis (negative counts from the end) against `rank`.
pub fn normalize_axis(axis: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if (0..r).contains(&a) {
        Ok(a as usize)
    } else {
        Err(format!("axis {axis} is out of range for rank {rank}"))
    }
}

/// The value of a float (or integer) attribute as f64.
pub fn float_value(a: Attribute<'_>) -> Option<f64> {
    match *a.kind() {
        AttrKind::Float { bits, ty } => match *ty.kind() {
            TypeKind::Float(FloatKind::F64) => Some(f64::from_bits(bits as u64)),
            TypeKind::Float(FloatKind::F32) => Some(f64::from(f32::from_bits(bits as u32))),
            TypeKind::Float(FloatKind::F16) => Some(half::f16::from_bits(bits as u16).to_f64()),
            TypeKind::Float(FloatKind::BF16) => Some(half::bf16::from_bits(bits as u16).to_f64()),
            _ => None,
        },
        AttrKind::Integer { value, .. } => Some(value as f64),
        _ => None,
    }
}

/// The type of a float or integer attribute (`0.0 : f16` has type `f16`).
pub fn number_type(a: Attribute<'_>) -> Option<Type<'_>> {
    match *a.kind() {
        AttrKind::Float { ty, .. } | AttrKind::Integer { ty, .. } => Some(ty),
        _ => None,
    }
}

/// Reads an optional bool attribute (absent = false).
pub fn bool_attr(a: Option<Attribute<'_>>) -> bool {
    a.and_then(|a| a.as_int()).is_some_and(|v| v != 0)
}

/// The element count of a shape, or `None` when it is not representable: a negative (dynamic)
/// dim, or a product past `u64`. Every element count and byte size computed from a type goes
/// through this (or [`checked_bytes`]), so a huge type is an error, never a wrapped small size.
pub fn checked_numel<D: Copy + TryInto<u64>>(dims: &[D]) -> Option<u64> {
    dims.iter().try_fold(1u64, |n, &d| n.checked_mul(d.try_into().ok()?))
}

/// The byte size of a shape of `elem_bytes`-byte elements (see [`checked_numel`]).
pub fn checked_bytes<D: Copy + TryInto<u64>>(dims: &[D], elem_bytes: u64) -> Option<u64> {
    checked_numel(dims)?.checked_mul(elem_bytes)
}
