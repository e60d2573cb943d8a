//! Seeded random tensors for tests: a SplitMix64 generator and value ranges that every
//! element type represents exactly.

use super::lanes::Lanes;
use super::tensor::Tensor;
use super::DType;

/// SplitMix64 (Steele, Lea and Flood): a tiny generator with good statistical quality, for
/// deterministic test data and programs (seed it with `SplitMix64(seed)`).
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `lo..hi` (`lo < hi`; the modulo bias is negligible for test data).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo) as u64) as i64
    }

    /// A uniform index below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A tensor of `shape` with deterministic pseudo-random elements derived from `seed`.
///
/// Floats are uniform in `[-2, 2)` on a grid the type represents exactly (steps of 2^-10 for
/// `f16`, 2^-7 for `bf16`, 2^-22 for `f32`), so no rounding is involved; `i8` is uniform in
/// `[-10, 10]`, `i32` and `i64` in `[-100, 100]`, `i1` is a fair coin.
pub fn random_tensor(dtype: DType, shape: Vec<usize>, seed: u64) -> Tensor {
    let mut rng = SplitMix64(seed);
    let count: usize = shape.iter().product();
    let lanes = match dtype {
        DType::F16 | DType::BF16 | DType::F32 => {
            let step_bits = match dtype {
                DType::F16 => 10,
                DType::BF16 => 7,
                _ => 22,
            };
            let half = 2i64 << step_bits;
            let scale = 2f32.powi(-step_bits);
            Lanes::Float((0..count).map(|_| rng.range(-half, half) as f32 * scale).collect())
        }
        DType::I1 => Lanes::Bool((0..count).map(|_| rng.next_u64() >> 63 == 1).collect()),
        DType::I8 => Lanes::Int((0..count).map(|_| rng.range(-10, 11)).collect()),
        DType::I32 | DType::I64 => Lanes::Int((0..count).map(|_| rng.range(-100, 101)).collect()),
    };
    Tensor::from_parts(shape, lanes.pack(dtype))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hl::interp::cast;

    #[test]
    fn deterministic_exact_and_in_range() {
        for dtype in DType::ALL {
            let a = random_tensor(dtype, vec![7, 13], 42);
            assert_eq!(a, random_tensor(dtype, vec![7, 13], 42));
            assert_ne!(a, random_tensor(dtype, vec![7, 13], 43), "{dtype}");
            let values = a.to_f64s();
            assert!(values.iter().all(|&v| (-100.0..=100.0).contains(&v)));
            if dtype.is_float() {
                assert!(values.iter().all(|&v| (-2.0..2.0).contains(&v)));
                let round_trip = cast(&cast(&a, DType::F32), dtype);
                assert_eq!(round_trip, a);
            }
        }
    }
}
