//! Printing results: dtype, shape, a summary, and the first elements.
//!
//! Every element prints exactly: integers in full (an `i64` never passes through `f64`), floats
//! as the shortest decimal that reads back to the same value *of their own type* (an `f16`
//! 0.1 prints `0.1`, not the 11 digits of its `f32` widening). The minimum and maximum are
//! elements and print the same way; the mean is a statistic and prints with six decimals.

use std::fmt::Write;

use half::{bf16, f16};
use kiln_dialects::hl::interp::{Tensor, TensorData};

/// `result #0: tensor<2x3xf32> (6 elements, min -1.5, max 2, mean 0.250000)` and the elements.
pub fn describe(index: usize, t: &Tensor, limit: usize) -> String {
    let dims: Vec<String> = t.shape().iter().map(usize::to_string).collect();
    let ty = if dims.is_empty() {
        format!("tensor<{}>", t.dtype().name())
    } else {
        format!("tensor<{}x{}>", dims.join("x"), t.dtype().name())
    };
    let elements = Elements::of(t.data());
    let mut out = format!("result #{index}: {ty} ({} elements", t.numel());
    if let Some((min, max, mean)) = elements.summary() {
        let _ = write!(out, ", min {min}, max {max}, mean {mean:.6}");
    }
    out.push_str(")\n");
    if limit > 0 && t.numel() > 0 {
        let shown: Vec<String> = (0..t.numel().min(limit)).map(|i| elements.show(i)).collect();
        let more = if t.numel() > limit { ", ..." } else { "" };
        let _ = writeln!(out, "  [{}{more}]", shown.join(", "));
    }
    out
}

/// A tensor's elements seen as floats or as exact integers.
enum Elements<'a> {
    Float(&'a TensorData),
    Int(Vec<i64>),
}

impl<'a> Elements<'a> {
    fn of(data: &'a TensorData) -> Self {
        match data {
            TensorData::F16(_) | TensorData::BF16(_) | TensorData::F32(_) => Elements::Float(data),
            TensorData::I1(v) => Elements::Int(v.iter().map(|&b| i64::from(b)).collect()),
            TensorData::I8(v) => Elements::Int(v.iter().map(|&x| i64::from(x)).collect()),
            TensorData::I32(v) => Elements::Int(v.iter().map(|&x| i64::from(x)).collect()),
            TensorData::I64(v) => Elements::Int(v.clone()),
        }
    }

    /// Element `i`, exactly.
    fn show(&self, i: usize) -> String {
        match self {
            Elements::Int(v) => v[i].to_string(),
            Elements::Float(TensorData::F16(v)) => shortest(f64::from(v[i]), |x| f16::from_f64(x) == v[i]),
            Elements::Float(TensorData::BF16(v)) => shortest(f64::from(v[i]), |x| bf16::from_f64(x) == v[i]),
            Elements::Float(TensorData::F32(v)) => v[i].to_string(),
            Elements::Float(_) => unreachable!("Elements::of keeps only float data as Float"),
        }
    }

    /// `(min, max, mean)` with min and max printed exactly; `None` when empty.
    fn summary(&self) -> Option<(String, String, f64)> {
        match self {
            Elements::Int(v) => {
                let (min, max) = (v.iter().min()?, v.iter().max()?);
                let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
                Some((min.to_string(), max.to_string(), mean))
            }
            Elements::Float(data) => {
                let n = data.len();
                let value = |i: usize| match data {
                    TensorData::F16(v) => f64::from(v[i]),
                    TensorData::BF16(v) => f64::from(v[i]),
                    TensorData::F32(v) => f64::from(v[i]),
                    _ => unreachable!("Elements::of keeps only float data as Float"),
                };
                let (mut lo, mut hi, mut sum) = (None::<usize>, None::<usize>, 0.0);
                for i in 0..n {
                    let x = value(i);
                    sum += x;
                    // f64::min/max semantics: NaN is skipped unless every element is NaN.
                    if lo.is_none_or(|j| x < value(j) || value(j).is_nan()) {
                        lo = Some(i);
                    }
                    if hi.is_none_or(|j| x > value(j) || value(j).is_nan()) {
                        hi = Some(i);
                    }
                }
                Some((self.show(lo?), self.show(hi?), sum / n as f64))
            }
        }
    }
}

/// The shortest decimal form of `x` (widened from a narrow float) for which `same` holds when
/// read back: `{}` of f64 for the digits, trying 1..=17 significant digits.
fn shortest(x: f64, same: impl Fn(f64) -> bool) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x}");
    }
    for digits in 1..=17 {
        let text = format!("{x:.*e}", digits - 1);
        let Ok(back) = text.parse::<f64>() else { continue };
        if same(back) {
            return format!("{back}");
        }
    }
    format!("{x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_dialects::hl::interp::DType;

    #[test]
    fn integers_print_exactly() {
        let t = Tensor::new(vec![2], TensorData::I64(vec![18014398509481986, i64::MIN])).unwrap();
        let s = describe(0, &t, 4);
        assert!(s.contains("min -9223372036854775808, max 18014398509481986"), "{s}");
        assert!(s.contains("[18014398509481986, -9223372036854775808]"), "{s}");
    }

    #[test]
    fn floats_print_shortest_in_their_own_type() {
        let t = Tensor::from_f64s(DType::F16, vec![3], &[0.1, -2.5, 65504.0]).unwrap();
        assert!(describe(0, &t, 4).contains("[0.1, -2.5, 65500]"), "{}", describe(0, &t, 4));
        let t = Tensor::from_f64s(DType::BF16, vec![1], &[0.1]).unwrap();
        assert!(describe(0, &t, 4).contains("[0.1]"));
        let t = Tensor::from_f64s(DType::F32, vec![2], &[0.1, 1.0 / 3.0]).unwrap();
        let s = describe(0, &t, 4);
        assert!(s.contains("[0.1, 0.33333334]"), "{s}");
        assert!(s.contains("min 0.1, max 0.33333334"), "{s}");
    }

    #[test]
    fn nan_and_empty() {
        let t = Tensor::from_f64s(DType::F32, vec![2], &[f64::NAN, 1.0]).unwrap();
        assert!(describe(0, &t, 4).contains("min 1, max 1"));
        let t = Tensor::from_f64s(DType::F32, vec![0], &[]).unwrap();
        assert_eq!(describe(0, &t, 4), "result #0: tensor<0xf32> (0 elements)\n");
    }
}
