//! ONNX tensors as host tensors: element types, `TensorProto` decoding (raw little-endian
//! data or the typed fields), and the attribute an `hl.constant` holds.

use kiln_compiler::{AttrKind, Attribute, Context, FloatKind, Type};
use kiln_dialects::hl::interp::program::tensor_to_dense;
use kiln_dialects::hl::interp::{DType, Tensor, TensorData};
use onnx_protobuf::TensorProto;

/// Constants of at most this many elements (and splats) are written inline as
/// `dense<...>`; larger ones as `dense_resource` blobs.
pub const INLINE_ELEMENTS: usize = 64;

/// The element type of ONNX `TensorProto.DataType` code `code`.
pub(crate) fn dtype_of_onnx(code: i32) -> Result<DType, String> {
    Ok(match code {
        1 => DType::F32,
        3 => DType::I8,
        6 => DType::I32,
        7 => DType::I64,
        9 => DType::I1,
        10 => DType::F16,
        16 => DType::BF16,
        _ => {
            return Err(format!(
                "element type {} is not supported (hl has f16, bf16, f32, bool, int8, int32, int64)",
                onnx_type_name(code)
            ))
        }
    })
}

/// The ONNX spelling of a `TensorProto.DataType` code.
fn onnx_type_name(code: i32) -> String {
    const NAMES: [&str; 24] = [
        "UNDEFINED",
        "FLOAT",
        "UINT8",
        "INT8",
        "UINT16",
        "INT16",
        "INT32",
        "INT64",
        "STRING",
        "BOOL",
        "FLOAT16",
        "DOUBLE",
        "UINT32",
        "UINT64",
        "COMPLEX64",
        "COMPLEX128",
        "BFLOAT16",
        "FLOAT8E4M3FN",
        "FLOAT8E4M3FNUZ",
        "FLOAT8E5M2",
        "FLOAT8E5M2FNUZ",
        "UINT4",
        "INT4",
        "FLOAT4E2M1",
    ];
    usize::try_from(code)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or_else(|| format!("#{code}"), |n| format!("`{n}`"))
}

/// The MLIR element type of `dtype`.
pub(crate) fn elem_type<'c>(ctx: &Context<'c>, dtype: DType) -> Type<'c> {
    match dtype {
        DType::F16 => ctx.float_type(FloatKind::F16),
        DType::BF16 => ctx.float_type(FloatKind::BF16),
        DType::F32 => ctx.float_type(FloatKind::F32),
        DType::I1 => ctx.int_type(1),
        DType::I8 => ctx.int_type(8),
        DType::I32 => ctx.int_type(32),
        DType::I64 => ctx.int_type(64),
    }
}

/// The tensor type of `t`.
pub(crate) fn tensor_type<'c>(ctx: &Context<'c>, t: &Tensor) -> Type<'c> {
    let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
    ctx.tensor_type(&shape, elem_type(ctx, t.dtype()))
}

/// The host tensor of an initializer or a `Constant`'s value (external data already read).
pub(crate) fn decode_tensor(t: &TensorProto) -> Result<Tensor, String> {
    let dtype = dtype_of_onnx(t.data_type)?;
    let shape: Vec<usize> = t
        .dims
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("tensor `{}` has a negative dim {d}", t.name)))
        .collect::<Result<_, _>>()?;
    let numel = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    let numel = numel.ok_or_else(|| format!("tensor `{}` has too many elements", t.name))?;
    let data = if !t.raw_data.is_empty() || typed_len(t) == 0 {
        from_raw(dtype, &t.raw_data, numel).ok_or_else(|| {
            format!(
                "tensor `{}` holds {} bytes of data, but {numel} elements of {} need {}",
                t.name,
                t.raw_data.len(),
                dtype.name(),
                numel.saturating_mul(dtype.byte_size())
            )
        })?
    } else {
        from_typed(dtype, t)
    };
    Tensor::new(shape, data).map_err(|e| format!("tensor `{}`: {}", t.name, e.message()))
}

/// The number of elements held in the typed fields.
fn typed_len(t: &TensorProto) -> usize {
    t.float_data.len() + t.int32_data.len() + t.int64_data.len()
}

/// Elements from little-endian bytes (`None` when the length does not fit `numel`).
fn from_raw(dtype: DType, raw: &[u8], numel: usize) -> Option<TensorData> {
    if raw.len() != numel.checked_mul(dtype.byte_size())? {
        return None;
    }
    let w = dtype.byte_size();
    let words = raw.chunks_exact(w);
    Some(match dtype {
        DType::F32 => TensorData::F32(words.map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()),
        DType::F16 => TensorData::F16(words.map(|c| half::f16::from_le_bytes([c[0], c[1]])).collect()),
        DType::BF16 => TensorData::BF16(words.map(|c| half::bf16::from_le_bytes([c[0], c[1]])).collect()),
        DType::I1 => TensorData::I1(raw.iter().map(|&b| b != 0).collect()),
        DType::I8 => TensorData::I8(raw.iter().map(|&b| b as i8).collect()),
        DType::I32 => TensorData::I32(words.map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()),
        DType::I64 => TensorData::I64(
            words.map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])).collect(),
        ),
    })
}

/// Elements from the typed fields: `float_data` (f32), `int64_data` (int64) and `int32_data`
/// (int32, int8, bool, and the bits of f16 / bf16).
fn from_typed(dtype: DType, t: &TensorProto) -> TensorData {
    let i32s = &t.int32_data;
    match dtype {
        DType::F32 => TensorData::F32(t.float_data.clone()),
        DType::I64 => TensorData::I64(t.int64_data.clone()),
        DType::I32 => TensorData::I32(i32s.clone()),
        DType::I8 => TensorData::I8(i32s.iter().map(|&v| v as i8).collect()),
        DType::I1 => TensorData::I1(i32s.iter().map(|&v| v != 0).collect()),
        DType::F16 => TensorData::F16(i32s.iter().map(|&v| half::f16::from_bits(v as u16)).collect()),
        DType::BF16 => TensorData::BF16(i32s.iter().map(|&v| half::bf16::from_bits(v as u16)).collect()),
    }
}

/// The integer elements of `t` (shapes, axes, indices): `None` for a float tensor.
pub(crate) fn ints(t: &Tensor) -> Option<Vec<i64>> {
    Some(match t.data() {
        TensorData::I64(v) => v.clone(),
        TensorData::I32(v) => v.iter().map(|&x| i64::from(x)).collect(),
        TensorData::I8(v) => v.iter().map(|&x| i64::from(x)).collect(),
        TensorData::I1(v) => v.iter().map(|&x| i64::from(x)).collect(),
        _ => return None,
    })
}

/// The attribute of an `hl.constant` holding `t`: `dense<...>` when small or a splat, else
/// `dense_resource<handle>` with the blob (MLIR's hex form: alignment, then the bytes) added to
/// `blobs`.
pub(crate) fn constant_attr<'c>(
    ctx: &Context<'c>,
    t: &Tensor,
    handle: &str,
    blobs: &mut indexmap::IndexMap<String, String>,
) -> Attribute<'c> {
    let ty = tensor_type(ctx, t);
    let dense = tensor_to_dense(ctx, ty, t);
    let AttrKind::DenseElements { data: kiln_compiler::DenseData::Raw { bytes, splat }, .. } = *dense.kind()
    else {
        return dense;
    };
    if splat || t.numel() <= INLINE_ELEMENTS {
        return dense;
    }
    let mut key = handle.to_string();
    let mut n = 0;
    while blobs.contains_key(&key) {
        n += 1;
        key = format!("{handle}_{n}");
    }
    let align = t.dtype().byte_size().max(1) as u32;
    let mut hex = String::with_capacity(2 + 2 * (4 + bytes.len()));
    hex.push_str("\"0x");
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    for &b in align.to_le_bytes().iter().chain(bytes) {
        hex.push(DIGITS[usize::from(b >> 4)] as char);
        hex.push(DIGITS[usize::from(b & 15)] as char);
    }
    hex.push('"');
    blobs.insert(key.clone(), hex);
    ctx.attr(AttrKind::DenseResource { handle: ctx.intern_str(&key), ty })
}
