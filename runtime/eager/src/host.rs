//! Host data: the element types a session takes and gives back, as the VM's little-endian
//! bytes.

use half::{bf16, f16};
use kiln_bytecode::isa::DType;

/// A host element type of a tensor.
pub trait Element: Copy {
    /// Its VM element type.
    const DTYPE: DType;
    /// Appends its little-endian bytes to `out`.
    fn put(self, out: &mut Vec<u8>);
    /// Reads one from its little-endian bytes (`bytes` has exactly `DTYPE.bytes()` of them).
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! le_element {
    ($ty:ty, $dtype:ident, $n:literal) => {
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut b = [0u8; $n];
                b.copy_from_slice(bytes);
                <$ty>::from_le_bytes(b)
            }
        }
    };
}

le_element!(f32, F32, 4);
le_element!(f16, F16, 2);
le_element!(bf16, BF16, 2);
le_element!(i32, I32, 4);
le_element!(i8, I8, 1);

impl Element for bool {
    const DTYPE: DType = DType::I1;
    fn put(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
    fn get(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
}

/// `data` as little-endian bytes.
pub fn to_bytes<T: Element>(data: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() * T::DTYPE.bytes() as usize);
    for &x in data {
        x.put(&mut out);
    }
    out
}

/// Little-endian bytes as elements.
pub fn from_bytes<T: Element>(bytes: &[u8]) -> Vec<T> {
    bytes.chunks_exact(T::DTYPE.bytes() as usize).map(T::get).collect()
}
