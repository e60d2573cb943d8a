//! Reading the lowered IR: attributes by name (properties or discardable, as [`Ir::attr`]
//! looks them up), `npuvec` enum keywords (registered or opaque, compared by their printed
//! keyword), element types, memref shapes and memory spaces.

use kiln_bytecode::isa::{DType, Space};
use kiln_compiler::{AttrKind, Attribute, Diagnostic, FloatKind, Ir, OpId, Signedness, Type, TypeKind};

/// The result of reading IR: a located diagnostic on failure.
pub type Res<'c, T> = Result<T, Diagnostic<'c>>;

/// The keyword of an `npuvec` enum attribute `#npuvec.<family><keyword>` (`ub` of
/// `#npuvec.space<ub>`), whether the dialect is registered or the attribute is opaque.
pub fn enum_keyword(attr: Attribute<'_>, family: &str) -> Option<String> {
    let text = attr.to_string();
    let body = text.strip_prefix("#npuvec.")?.strip_prefix(family)?;
    let keyword = body.strip_prefix('<')?.strip_suffix('>')?;
    Some(keyword.trim().to_string())
}

/// The integer attribute `name` of `op`, if present.
pub fn int_attr(ir: &Ir<'_>, op: OpId, name: &str) -> Option<i128> {
    ir.attr(op, name).and_then(|a| a.as_int())
}

/// Whether `op` carries the (unit) attribute `name`.
pub fn has_attr(ir: &Ir<'_>, op: OpId, name: &str) -> bool {
    ir.attr(op, name).is_some()
}

/// The required integer attribute `name` of `op`, in `lo..=hi`.
pub fn bounded_attr<'c>(
    ir: &Ir<'c>,
    op: OpId,
    name: &str,
    lo: i128,
    hi: i128,
    missing: &str,
) -> Res<'c, i128> {
    let Some(attr) = ir.attr(op, name) else {
        return Err(Diagnostic::op_error(ir, op, format!("has no `{name}` attribute{missing}")));
    };
    match attr.as_int() {
        Some(v) if (lo..=hi).contains(&v) => Ok(v),
        _ => Err(Diagnostic::op_error(
            ir,
            op,
            format!("attribute `{name}` ({attr}) must be an integer in {lo}..={hi}"),
        )),
    }
}

/// The keyword of the required enum attribute `name` (`#npuvec.<family><..>`) of `op`.
pub fn enum_attr<'c>(ir: &Ir<'c>, op: OpId, name: &str, family: &str) -> Res<'c, String> {
    let attr = ir.attr(op, name);
    attr.and_then(|a| enum_keyword(a, family)).ok_or_else(|| {
        Diagnostic::op_error(ir, op, format!("needs attribute `{name}` = #npuvec.{family}<...>"))
    })
}

/// The values of an `array<i64: ...>` attribute.
pub fn i64_array(attr: Attribute<'_>) -> Option<Vec<i64>> {
    match *attr.kind() {
        AttrKind::DenseArray { elem, bytes, .. } if elem.bit_width() == Some(64) => {
            Some(bytes.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect())
        }
        _ => None,
    }
}

/// The required `array<i64: ...>` attribute `name` of `op`.
pub fn array_attr<'c>(ir: &Ir<'c>, op: OpId, name: &str) -> Res<'c, Vec<i64>> {
    ir.attr(op, name)
        .and_then(i64_array)
        .ok_or_else(|| Diagnostic::op_error(ir, op, format!("needs attribute `{name}` = array<i64: ...>")))
}

/// The bytecode element type of an MLIR element type.
pub fn dtype(ty: Type<'_>) -> Option<DType> {
    match *ty.kind() {
        TypeKind::Float(FloatKind::F32) => Some(DType::F32),
        TypeKind::Float(FloatKind::F16) => Some(DType::F16),
        TypeKind::Float(FloatKind::BF16) => Some(DType::BF16),
        TypeKind::Integer { width: 32, signedness: Signedness::Signless } => Some(DType::I32),
        TypeKind::Integer { width: 8, signedness: Signedness::Signless } => Some(DType::I8),
        TypeKind::Integer { width: 1, signedness: Signedness::Signless } => Some(DType::I1),
        TypeKind::Integer { width: 64, signedness: Signedness::Signless } => Some(DType::I64),
        _ => None,
    }
}

/// A memref's parts: static shape, element type and memory space (`None`: no space given).
pub struct MemRef {
    /// The dims (0 where the type has `?`).
    pub shape: Vec<u64>,
    /// Per dim, whether the type has `?` there.
    pub dynamic: Vec<bool>,
    /// The element type.
    pub dtype: DType,
    /// The memory space.
    pub space: Option<Space>,
}

/// The parts of memref type `ty` of the value that `op` reads or defines, or a located error
/// (a `?` dim among them).
pub fn memref<'c>(ir: &Ir<'c>, op: OpId, ty: Type<'c>) -> Res<'c, MemRef> {
    let m = memref_dynamic(ir, op, ty)?;
    if m.dynamic.contains(&true) {
        return Err(Diagnostic::op_error(ir, op, format!("needs a static shape, but got '{ty}'")));
    }
    Ok(m)
}

/// [`memref`] where a dim may be `?` (a shape class's GM buffer): it reads as 0, marked in
/// [`MemRef::dynamic`].
pub fn memref_dynamic<'c>(ir: &Ir<'c>, op: OpId, ty: Type<'c>) -> Res<'c, MemRef> {
    let TypeKind::MemRef { shape, elem, memory_space, .. } = *ty.kind() else {
        return Err(Diagnostic::op_error(ir, op, format!("expects a memref, but got '{ty}'")));
    };
    let dtype = dtype(elem)
        .ok_or_else(|| Diagnostic::op_error(ir, op, format!("has unsupported element type '{elem}'")))?;
    let dynamic: Vec<bool> = shape.iter().map(|&d| d < 0).collect();
    let shape: Vec<u64> = shape.iter().map(|&d| u64::try_from(d).unwrap_or(0)).collect();
    let space =
        match memory_space {
            None => None,
            Some(attr) => {
                let keyword = enum_keyword(attr, "space");
                let space = keyword.and_then(|k| Space::ALL.into_iter().find(|s| s.name() == k));
                Some(space.ok_or_else(|| {
                    Diagnostic::op_error(ir, op, format!("has unknown memory space {attr}"))
                })?)
            }
        };
    Ok(MemRef { shape, dynamic, dtype, space })
}

/// The scalar an `arith.constant` of a float or integer type holds, as an immediate.
pub fn scalar(attr: Attribute<'_>) -> Option<kiln_bytecode::isa::Scalar> {
    use kiln_bytecode::isa::Scalar;
    match *attr.kind() {
        AttrKind::Integer { value, ty } if ty.bit_width() == Some(1) => Some(Scalar::Int((value & 1) as i64)),
        AttrKind::Integer { value, ty } if !matches!(ty.kind(), TypeKind::Index) => {
            i64::try_from(value).ok().map(Scalar::Int)
        }
        AttrKind::Float { bits, ty } => {
            let TypeKind::Float(kind) = *ty.kind() else { return None };
            let v = match kind {
                FloatKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
                FloatKind::BF16 => half::bf16::from_bits(bits as u16).to_f64(),
                FloatKind::F32 => f32::from_bits(bits as u32) as f64,
                FloatKind::F64 => f64::from_bits(bits as u64),
                _ => return None,
            };
            Some(Scalar::Float(v))
        }
        _ => None,
    }
}
