//! Printing results: dtype, shape, a summary, and the first elements.

use std::fmt::Write;

use kiln_dialects::hl::interp::Tensor;

/// `result #0: tensor<2x3xf32> (6 elements, min -1.5, max 2, mean 0.25)` and the elements.
pub fn describe(index: usize, t: &Tensor, limit: usize) -> String {
    let values = t.to_f64s();
    let dims: Vec<String> = t.shape().iter().map(usize::to_string).collect();
    let ty = if dims.is_empty() {
        format!("tensor<{}>", t.dtype().name())
    } else {
        format!("tensor<{}x{}>", dims.join("x"), t.dtype().name())
    };
    let mut out = format!("result #{index}: {ty} ({} elements", values.len());
    if !values.is_empty() {
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let _ = write!(out, ", min {min}, max {max}, mean {mean:.6}");
    }
    out.push_str(")\n");
    if limit > 0 && !values.is_empty() {
        let shown: Vec<String> = values.iter().take(limit).map(|v| format!("{v}")).collect();
        let more = if values.len() > limit { ", ..." } else { "" };
        let _ = writeln!(out, "  [{}{more}]", shown.join(", "));
    }
    out
}
