//! Tensors between the interpreter and the VM: the interpreter's [`Tensor`] and the VM's
//! [`HostTensor`] (little-endian bytes), element for element.

use half::{bf16, f16};
use kiln_bytecode::isa::DType as VmType;
use kiln_bytecode::module::TensorSpec;
use kiln_dialects::hl::interp::{DType, Tensor, TensorData};
use kiln_vm::HostTensor;

/// The VM's element type of an interpreter dtype.
pub fn vm_type(d: DType) -> VmType {
    match d {
        DType::F32 => VmType::F32,
        DType::F16 => VmType::F16,
        DType::BF16 => VmType::BF16,
        DType::I32 => VmType::I32,
        DType::I8 => VmType::I8,
        DType::I1 => VmType::I1,
        DType::I64 => VmType::I64,
    }
}

/// The interpreter's dtype of a VM element type.
pub fn interp_type(d: VmType) -> DType {
    match d {
        VmType::F32 => DType::F32,
        VmType::F16 => DType::F16,
        VmType::BF16 => DType::BF16,
        VmType::I32 => DType::I32,
        VmType::I8 => DType::I8,
        VmType::I1 => DType::I1,
        VmType::I64 => DType::I64,
    }
}

/// `t` as VM input bytes.
pub fn to_host(t: &Tensor) -> Result<HostTensor, String> {
    let dtype = vm_type(t.dtype());
    let bytes: Vec<u8> = match t.data() {
        TensorData::F32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::F16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::BF16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::I32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::I8(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
        TensorData::I1(v) => v.iter().map(|&b| u8::from(b)).collect(),
        TensorData::I64(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
    };
    let shape = t.shape().iter().map(|&d| d as u64).collect();
    Ok(HostTensor { spec: TensorSpec { dtype, shape }, bytes })
}

/// A VM result as an interpreter tensor.
pub fn from_host(h: &HostTensor) -> Result<Tensor, String> {
    let b = &h.bytes;
    let data = match h.spec.dtype {
        VmType::F32 => {
            TensorData::F32(b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
        }
        VmType::F16 => TensorData::F16(b.chunks_exact(2).map(|c| f16::from_le_bytes([c[0], c[1]])).collect()),
        VmType::BF16 => {
            TensorData::BF16(b.chunks_exact(2).map(|c| bf16::from_le_bytes([c[0], c[1]])).collect())
        }
        VmType::I32 => {
            TensorData::I32(b.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
        }
        VmType::I8 => TensorData::I8(b.iter().map(|&x| x as i8).collect()),
        VmType::I1 => TensorData::I1(b.iter().map(|&x| x != 0).collect()),
        VmType::I64 => TensorData::I64(
            b.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect(),
        ),
    };
    let shape = h.spec.shape.iter().map(|&d| d as usize).collect();
    Tensor::new(shape, data).map_err(|e| e.message().to_string())
}
