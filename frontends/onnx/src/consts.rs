//! ONNX tensors as host tensors: element types, `TensorProto` decoding (raw little-endian
//! data or the typed fields), and the attribute an `hl.constant` holds.

use kiln_compiler::{AttrKind, Attribute, Context, FloatKind, Type};
use kiln_dialects::hl::interp::program::tensor_to_dense;
use kiln_dialects::hl::interp::{DType, Tensor, TensorData};
use onnx_protobuf::TensorProto;

/// Constants of at most this many elements (and splats) are written inline as
/// `dense<...>`; larger ones as `dense_resource` blobs.
pub const INLINE_ELEMENTS: usize = 64;

/// `TensorProto.DataType` codes of the element types `hl` lacks but the importer holds in a
/// wider (or, for `DOUBLE`, narrower) `hl` type.
const UINT8: i32 = 2;
const UINT16: i32 = 4;
const INT16: i32 = 5;
const DOUBLE: i32 = 11;
const UINT32: i32 = 12;
const UINT64: i32 = 13;

/// The `hl` element type that holds ONNX element type `code`: its own for float, float16,
/// bfloat16, bool, int8, int32 and int64; f32 for double (rounded); i32 for uint8, int16 and
/// uint16 and i64 for uint32 (exactly); i64 for uint64 (the same bits).
pub(crate) fn dtype_of_onnx(code: i32) -> Result<DType, String> {
    Ok(match code {
        1 | DOUBLE => DType::F32,
        3 => DType::I8,
        6 | UINT8 | UINT16 | INT16 => DType::I32,
        7 | UINT32 | UINT64 => DType::I64,
        9 => DType::I1,
        10 => DType::F16,
        16 => DType::BF16,
        _ => {
            return Err(format!(
                "element type {} is not supported (hl holds float, double, float16, bfloat16, bool, \
                 int8, int16, int32, int64, uint8, uint16, uint32, uint64)",
                onnx_type_name(code)
            ))
        }
    })
}

/// The ONNX name of element type `code` when `hl` holds it in another type (`"uint8"`, ...):
/// what a function argument or result of that type is annotated with.
pub(crate) fn held_type_name(code: i32) -> Option<&'static str> {
    Some(match code {
        UINT8 => "uint8",
        UINT16 => "uint16",
        INT16 => "int16",
        DOUBLE => "float64",
        UINT32 => "uint32",
        UINT64 => "uint64",
        _ => return None,
    })
}

/// Wraps an integer result held in a wider `hl` type to the ONNX type `name` it stands for
/// (the `onnx.type` of a function result): `uint8` keeps the low 8 bits, `int16` the low 16 sign-extended,
/// ... Float and other results are returned as they are. Integer addition, subtraction and
/// multiplication computed in the wider type and wrapped at the end give the narrow type's
/// result.
pub fn wrap_to_declared(t: &Tensor, name: &str) -> Tensor {
    let wrap: fn(i64) -> i64 = match name {
        "uint8" => |x| x & 0xff,
        "uint16" => |x| x & 0xffff,
        "int16" => |x| i64::from(x as i16),
        "uint32" => |x| x & 0xffff_ffff,
        _ => return t.clone(),
    };
    let Some(values) = ints(t) else { return t.clone() };
    let wrapped: Vec<i64> = values.into_iter().map(wrap).collect();
    Tensor::from_i64s(t.dtype(), t.shape().to_vec(), &wrapped).unwrap_or_else(|_| t.clone())
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
        let size = onnx_byte_size(t.data_type).unwrap_or(dtype.byte_size());
        from_raw(t.data_type, dtype, &t.raw_data, numel).ok_or_else(|| {
            format!(
                "tensor `{}` holds {} bytes of data, but {numel} elements of {} need {}",
                t.name,
                t.raw_data.len(),
                onnx_type_name(t.data_type),
                numel.saturating_mul(size)
            )
        })?
    } else {
        from_typed(t.data_type, dtype, t)
    };
    Tensor::new(shape, data).map_err(|e| format!("tensor `{}`: {}", t.name, e.message()))
}

/// The number of elements held in the typed fields.
fn typed_len(t: &TensorProto) -> usize {
    t.float_data.len() + t.int32_data.len() + t.int64_data.len() + t.double_data.len() + t.uint64_data.len()
}

/// The size in bytes of one element of the ONNX types `hl` holds in another type.
fn onnx_byte_size(code: i32) -> Option<usize> {
    Some(match code {
        UINT8 => 1,
        UINT16 | INT16 => 2,
        UINT32 => 4,
        DOUBLE | UINT64 => 8,
        _ => return None,
    })
}

/// Elements of ONNX type `code` from little-endian bytes, as `dtype` (`None` when the length
/// does not fit `numel`).
fn from_raw(code: i32, dtype: DType, raw: &[u8], numel: usize) -> Option<TensorData> {
    if let Some(size) = onnx_byte_size(code) {
        if raw.len() != numel.checked_mul(size)? {
            return None;
        }
        let w = |c: &[u8], n: usize| {
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(c);
            u64::from_le_bytes(b)
        };
        let words = raw.chunks_exact(size).map(|c| w(c, size));
        return Some(match code {
            DOUBLE => TensorData::F32(words.map(|x| f64::from_bits(x) as f32).collect()),
            INT16 => TensorData::I32(words.map(|x| i32::from(x as u16 as i16)).collect()),
            UINT8 | UINT16 => TensorData::I32(words.map(|x| x as i32).collect()),
            _ => TensorData::I64(words.map(|x| x as i64).collect()),
        });
    }
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

/// Elements of ONNX type `code` from the typed fields, as `dtype`: `float_data` (f32),
/// `double_data`, `int64_data` (int64), `uint64_data` (uint32, uint64) and `int32_data`
/// (int32, int16, int8, uint16, uint8, bool, and the bits of f16 / bf16).
fn from_typed(code: i32, dtype: DType, t: &TensorProto) -> TensorData {
    let i32s = &t.int32_data;
    match code {
        DOUBLE => return TensorData::F32(t.double_data.iter().map(|&x| x as f32).collect()),
        UINT32 | UINT64 => return TensorData::I64(t.uint64_data.iter().map(|&x| x as i64).collect()),
        _ => {}
    }
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

/// The attribute of an `hl.constant` holding `t`: `dense<...>` when small, a splat or there
/// are no `blobs`, else `dense_resource<handle>` with the blob (MLIR's hex form: alignment,
/// then the bytes) added to `blobs`.
pub(crate) fn constant_attr<'c>(
    ctx: &Context<'c>,
    t: &Tensor,
    handle: &str,
    blobs: Option<&mut indexmap::IndexMap<String, String>>,
) -> Attribute<'c> {
    let ty = tensor_type(ctx, t);
    let dense = tensor_to_dense(ctx, ty, t);
    let AttrKind::DenseElements { data: kiln_compiler::DenseData::Raw { bytes, splat }, .. } = *dense.kind()
    else {
        return dense;
    };
    let Some(blobs) = blobs.filter(|_| !splat && t.numel() > INLINE_ELEMENTS) else {
        return dense;
    };
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
