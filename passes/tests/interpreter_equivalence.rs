//! Differential tests with the `hl` interpreter as the oracle:
//! - `hl-decompose` computes what the composites compute (up to the rounding of intermediate
//!   primitives: tolerances by dtype), on every example program and on each composite in every
//!   float dtype with odd shapes;
//! - `hl-canonicalize`, `cse` and `dce` change no bit of any result.

mod common;

use common::{assert_bit_identical, examples, run};
use kiln_dialects::hl::interp::Tensor;

fn assert_close(a: &[Tensor], b: &[Tensor], rtol: f64, atol: f64, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: result counts differ");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.shape(), y.shape(), "{what}: result #{i} shapes differ");
        assert_eq!(x.dtype(), y.dtype(), "{what}: result #{i} dtypes differ");
        let (xs, ys) = (x.to_f64s(), y.to_f64s());
        let scale = xs.iter().fold(0f64, |m, v| m.max(v.abs()));
        for (j, (p, q)) in xs.iter().zip(&ys).enumerate() {
            let ok = (p.is_nan() && q.is_nan())
                || (p - q).abs() <= atol * scale.max(1.0) + rtol * p.abs().max(q.abs());
            assert!(ok, "{what}: result #{i}[{j}]: {p} vs {q} (rtol {rtol}, atol {atol})");
        }
    }
}

#[test]
fn decomposed_examples_match_the_composites() {
    for (name, text) in examples() {
        for seed in 0..2 {
            let reference = run(&text, "", seed).results;
            let decomposed = run(&text, "builtin.module(hl-decompose)", seed).results;
            assert_close(&reference, &decomposed, 1e-4, 1e-5, &name);
        }
    }
}

#[test]
fn cleanup_passes_change_no_bit() {
    for (name, text) in examples() {
        let reference = run(&text, "builtin.module(hl-decompose)", 3).results;
        let cleaned =
            run(&text, "builtin.module(hl-decompose, hl-canonicalize, cse, dce, canonicalize)", 3).results;
        assert_bit_identical(&reference, &cleaned, &name);
    }
}

/// One function applying `body` (which uses `%x`, plus `%g`/`%b` as 1-D params) to an input of
/// `shape` in `dtype`.
fn composite_program(dtype: &str, shape: &[usize], op: &str) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let t = format!("tensor<{}x{dtype}>", dims.join("x"));
    let last = shape[shape.len() - 1];
    let p = format!("tensor<{last}x{dtype}>");
    let half: Vec<String> = shape
        .iter()
        .enumerate()
        .map(|(i, d)| if i + 1 == shape.len() { (d / 2).to_string() } else { d.to_string() })
        .collect();
    let th = format!("tensor<{}x{dtype}>", half.join("x"));
    let (body, out) = match op {
        "softmax" | "log_softmax" => (format!("%y = hl.{op} %x {{axis = -1 : i64}} : {t}"), t.clone()),
        "layer_norm" => (format!("%y = hl.layer_norm %x, %g, %b : {t}, {p}, {p} -> {t}"), t.clone()),
        "rms_norm" => (format!("%y = hl.rms_norm %x, %g : {t}, {p} -> {t}"), t.clone()),
        "bias_add" => (format!("%y = hl.bias_add %x, %b : {t}, {p} -> {t}"), t.clone()),
        "swiglu" => (format!("%y = hl.swiglu %x : {t} -> {th}"), th.clone()),
        "gelu_tanh" => (format!("%y = hl.gelu %x {{approximate = #hl.approx<tanh>}} : {t}"), t.clone()),
        other => (format!("%y = hl.{other} %x : {t}"), t.clone()),
    };
    format!("func.func @f(%x: {t}, %g: {p}, %b: {p}) -> {out} {{\n  {body}\n  return %y : {out}\n}}\n")
}

#[test]
fn each_composite_decomposes_faithfully_in_every_float_dtype() {
    let ops = [
        "softmax",
        "log_softmax",
        "layer_norm",
        "rms_norm",
        "bias_add",
        "swiglu",
        "gelu",
        "gelu_tanh",
        "silu",
        "dropout",
    ];
    for (dtype, rtol, atol) in [("f32", 2e-5, 1e-6), ("f16", 2e-2, 4e-3), ("bf16", 1e-1, 3e-2)] {
        for shape in [&[3usize, 7, 10][..], &[13, 6], &[1, 34]] {
            for op in ops {
                let text = composite_program(dtype, shape, op);
                let reference = run(&text, "", 7).results;
                let decomposed = run(&text, "builtin.module(hl-decompose)", 7).results;
                assert_close(&reference, &decomposed, rtol, atol, &format!("{op} {dtype} {shape:?}\n{text}"));
            }
        }
    }
}
