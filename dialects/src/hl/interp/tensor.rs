//! Host tensors: an element type, a shape and row-major data.

use half::{bf16, f16};

use super::error::{bail, Result};
use super::lanes::Lanes;
use super::DType;
use crate::hl::accessors::checked_numel;

/// The elements of a tensor, in row-major (C) order, stored in their own type.
#[derive(Debug, Clone, PartialEq)]
pub enum TensorData {
    /// `f16` elements.
    F16(Vec<f16>),
    /// `bf16` elements.
    BF16(Vec<bf16>),
    /// `f32` elements.
    F32(Vec<f32>),
    /// `i1` elements.
    I1(Vec<bool>),
    /// `i8` elements.
    I8(Vec<i8>),
    /// `i32` elements.
    I32(Vec<i32>),
    /// `i64` elements.
    I64(Vec<i64>),
}

/// Applies `$body` (an expression over the vector bound to `$v`) to whichever variant `$data`
/// holds, rebuilding the same variant.
macro_rules! map_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            TensorData::F16($v) => TensorData::F16($body),
            TensorData::BF16($v) => TensorData::BF16($body),
            TensorData::F32($v) => TensorData::F32($body),
            TensorData::I1($v) => TensorData::I1($body),
            TensorData::I8($v) => TensorData::I8($body),
            TensorData::I32($v) => TensorData::I32($body),
            TensorData::I64($v) => TensorData::I64($body),
        }
    };
}

impl TensorData {
    /// The element type of the stored vector.
    pub fn dtype(&self) -> DType {
        match self {
            TensorData::F16(_) => DType::F16,
            TensorData::BF16(_) => DType::BF16,
            TensorData::F32(_) => DType::F32,
            TensorData::I1(_) => DType::I1,
            TensorData::I8(_) => DType::I8,
            TensorData::I32(_) => DType::I32,
            TensorData::I64(_) => DType::I64,
        }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        match self {
            TensorData::F16(v) => v.len(),
            TensorData::BF16(v) => v.len(),
            TensorData::F32(v) => v.len(),
            TensorData::I1(v) => v.len(),
            TensorData::I8(v) => v.len(),
            TensorData::I32(v) => v.len(),
            TensorData::I64(v) => v.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements at `indices`, in that order (every index must be in bounds).
    pub(crate) fn gather(&self, indices: &[usize]) -> TensorData {
        map_data!(self, v => indices.iter().map(|&i| v[i]).collect())
    }

    /// The elements of `parts` one after another; all parts must hold the same element type.
    pub(crate) fn concat(parts: &[&TensorData]) -> Result<TensorData> {
        let Some(first) = parts.first() else { bail!("cannot concatenate zero tensors") };
        let mut out = (*first).clone();
        for part in &parts[1..] {
            match (&mut out, part) {
                (TensorData::F16(a), TensorData::F16(b)) => a.extend_from_slice(b),
                (TensorData::BF16(a), TensorData::BF16(b)) => a.extend_from_slice(b),
                (TensorData::F32(a), TensorData::F32(b)) => a.extend_from_slice(b),
                (TensorData::I1(a), TensorData::I1(b)) => a.extend_from_slice(b),
                (TensorData::I8(a), TensorData::I8(b)) => a.extend_from_slice(b),
                (TensorData::I32(a), TensorData::I32(b)) => a.extend_from_slice(b),
                (TensorData::I64(a), TensorData::I64(b)) => a.extend_from_slice(b),
                (a, b) => bail!("element type mismatch: {} vs {}", a.dtype(), b.dtype()),
            }
        }
        Ok(out)
    }
}

/// A dense host tensor: shape plus row-major data whose length is the product of the shape.
///
/// A rank-0 tensor (shape `[]`) holds one element.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    shape: Vec<usize>,
    data: TensorData,
}

impl Tensor {
    /// A tensor of `shape` holding `data`; errors when the element count does not match.
    pub fn new(shape: Vec<usize>, data: TensorData) -> Result<Tensor> {
        let Some(numel) = checked_numel(&shape) else {
            bail!("shape {:?} has more elements than fit in 64 bits", shape);
        };
        if numel != data.len() as u64 {
            bail!("shape {:?} needs {} elements, got {}", shape, numel, data.len());
        }
        Ok(Tensor { shape, data })
    }

    /// Builds a tensor whose data length is known to match `shape` (kernels only).
    pub(crate) fn from_parts(shape: Vec<usize>, data: TensorData) -> Tensor {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Tensor { shape, data }
    }

    /// A tensor of zeros (`false` for `i1`).
    pub fn zeros(dtype: DType, shape: Vec<usize>) -> Tensor {
        let numel = shape.iter().product();
        Tensor { shape, data: Lanes::Int(vec![0; numel]).pack(dtype) }
    }

    /// A tensor of `shape` whose elements are `values` converted to `dtype` as [`cast`] would
    /// convert an `f64`: floats round to nearest even (through `f32`), integers truncate toward
    /// zero and saturate, NaN becomes 0, `i1` is `value != 0`.
    ///
    /// [`cast`]: super::cast
    pub fn from_f64s(dtype: DType, shape: Vec<usize>, values: &[f64]) -> Result<Tensor> {
        Tensor::new(shape, convert_f64s(dtype, values))
    }

    /// A tensor of `shape` whose elements are `values` converted to `dtype` as [`cast`] would
    /// convert an `i64` (integers wrap, floats round to nearest even, `i1` is `value != 0`).
    ///
    /// [`cast`]: super::cast
    pub fn from_i64s(dtype: DType, shape: Vec<usize>, values: &[i64]) -> Result<Tensor> {
        Tensor::new(shape, Lanes::Int(values.to_vec()).pack(dtype))
    }

    /// A rank-0 tensor holding `value` converted as in [`Tensor::from_f64s`].
    pub fn scalar(dtype: DType, value: f64) -> Tensor {
        Tensor::from_parts(vec![], convert_f64s(dtype, &[value]))
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }

    /// The shape (empty for a scalar).
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        self.data.len()
    }

    /// The elements.
    pub fn data(&self) -> &TensorData {
        &self.data
    }

    /// The elements, consuming the tensor.
    pub fn into_data(self) -> TensorData {
        self.data
    }

    /// Every element widened to `f64` (exact except for `i64` beyond 2^53; `true` is 1).
    pub fn to_f64s(&self) -> Vec<f64> {
        match self.lanes() {
            Lanes::Float(v) => v.into_iter().map(f64::from).collect(),
            Lanes::Int(v) => v.into_iter().map(|x| x as f64).collect(),
            Lanes::Bool(v) => v.into_iter().map(|x| if x { 1.0 } else { 0.0 }).collect(),
        }
    }

    /// The elements widened to their arithmetic domain.
    pub(crate) fn lanes(&self) -> Lanes {
        Lanes::of(&self.data)
    }
}

/// `values` converted to `dtype` with the rules of [`Tensor::from_f64s`].
fn convert_f64s(dtype: DType, values: &[f64]) -> TensorData {
    match dtype {
        DType::F16 | DType::BF16 | DType::F32 => {
            Lanes::Float(values.iter().map(|&v| v as f32).collect()).pack(dtype)
        }
        DType::I1 => TensorData::I1(values.iter().map(|&v| v != 0.0).collect()),
        DType::I8 => TensorData::I8(values.iter().map(|&v| v as i8).collect()),
        DType::I32 => TensorData::I32(values.iter().map(|&v| v as i32).collect()),
        DType::I64 => TensorData::I64(values.iter().map(|&v| v as i64).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_check_and_convert() {
        let err = Tensor::new(vec![2, 3], TensorData::F32(vec![0.0; 5])).unwrap_err();
        assert_eq!(err.message(), "shape [2, 3] needs 6 elements, got 5");
        assert!(Tensor::from_f64s(DType::I8, vec![2], &[1.0]).is_err());
        let wraps = Tensor::new(vec![1 << 32, 1 << 32], TensorData::F32(vec![])).unwrap_err();
        assert_eq!(wraps.message(), "shape [4294967296, 4294967296] has more elements than fit in 64 bits");
        let t = Tensor::from_f64s(DType::I8, vec![4], &[300.0, -2.9, f64::NAN, 5.5]).unwrap();
        assert_eq!(t.to_f64s(), vec![127., -2., 0., 5.]);
        assert_eq!(Tensor::scalar(DType::BF16, 1.0 + 1.0 / 256.0).to_f64s(), vec![1.0]);
        assert_eq!(Tensor::zeros(DType::I1, vec![2, 0]).numel(), 0);
        assert_eq!(Tensor::scalar(DType::I1, 0.5).data(), &TensorData::I1(vec![true]));
        for dtype in DType::ALL {
            assert_eq!(DType::from_name(dtype.name()), Some(dtype));
            assert_eq!(Tensor::zeros(dtype, vec![3]).dtype(), dtype);
        }
        assert_eq!(DType::from_name("f64"), None);
    }
}
