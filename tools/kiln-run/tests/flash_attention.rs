//! The flash-attention kernel (issue 42) on the VM against the interpreter on the unfused
//! program, the oracle: 200 programs of `generator::attention_program` (sequence lengths 1,
//! odd, even and past a tile, decoder steps, heads split or merged, grouped-query heads, batch,
//! head dims 1 to 64, masks: none, additive arguments of every broadcast shape, causal dense /
//! iota / trilu masks, boolean masks, fills -inf and finite, rows with every key masked, large
//! logits; f32, f16 and bf16), each on `tiny-npu` and `ascend910b` through `kiln-fuse`,
//! `kiln-codegen` (flash-attention on), the validating loader and the VM with the sync checker;
//! then handwritten programs for logits near 1e4, a boolean mask masking whole rows and the
//! NaN guard of `scaled_dot_product_attention` exports; and the examples holding an attention
//! (whole transformer blocks after it: within `kiln-run --check`'s tolerance).
//!
//! **Tolerance.** The kernel computes the interpreter's scores bit for bit (the same matmul
//! order, the score ops in their own types) unless a scale of Q moves onto the scores; it then
//! reorders the softmax: the probabilities are rounded to PV's type before they are normalized
//! instead of after, the sums are taken tile by tile and rescaled, and the softmax runs in f32
//! where the program has it in f16 / bf16. With `u` the unit roundoff of the type (f32 2^-24,
//! f16 2^-11, bf16 2^-8), `|V| <= 2` (the random arguments) and `r` the interpreter's value:
//! - the interpreter rounds `s - m`, `exp`, the sum and the division (`4u` relative on each
//!   probability), the kernel the probability once (`u`), both the result (`2u |r|`);
//! - rounding `s - m` in the type is an absolute error of `u |s - m|` in the exponent: summed
//!   over a row, `sum p |s - m| <= ln(Skv) + 1`;
//! - the f32 sums in another order: `Skv 2^-24` relative;
//! - a scale `c` of Q on the scores: `|ds| <= 3u |c| D max|q| max|k|` on every score.
//!
//! So `|vm - r| <= ((6 + ln Skv) u + Skv 2^-24 + 2 |ds|) (2 + |r|)`, a NaN matching a NaN (a
//! row with every key at -inf is NaN in both, as `torch.softmax` gives it; 0 under a NaN
//! guard). The check fails when fewer than half the programs become one attention kernel.

// Each test crate uses a part of the shared module.
#[allow(dead_code)]
mod common;

use common::{run_both, run_generated};
use kiln_dialects::hl::interp::generator::{attention_program, Attention, Scale};
use kiln_emit::compile::pipeline;
use kiln_run::check::first_difference;

/// Unit roundoff of an element type.
fn unit(dtype: &str) -> f64 {
    match dtype {
        "f16" => 2f64.powi(-11),
        "bf16" => 2f64.powi(-8),
        _ => 2f64.powi(-24),
    }
}

/// The bound of the module documentation for a program of `dtype` with `skv` keys, head dim
/// `d` and a scale `q_scale` of Q, at the interpreter's value `r`.
fn bound(dtype: &str, skv: usize, d: usize, q_scale: f64, r: f64) -> f64 {
    let u = unit(dtype);
    let ds = 3.0 * u * q_scale.abs() * d as f64 * 4.0;
    ((6.0 + (skv as f64).ln()) * u + skv as f64 * 2f64.powi(-24) + 2.0 * ds) * (2.0 + r.abs())
}

/// Runs `text` with flash-attention on `target`; `Err` for a failure or a value outside the
/// bound (`q_scale`: a scale of Q, 0 for none); `Ok(true)` when the program became one
/// attention kernel.
fn check_flash(
    text: &str,
    target: &str,
    seed: u64,
    mlir: bool,
    (dtype, skv, d, q_scale): (&str, usize, usize, f64),
) -> Result<bool, String> {
    let ran = run_both(text, target, &pipeline(target, 2), seed, mlir)?;
    for (i, (v, r)) in ran.pairs.iter().enumerate() {
        let (a, b) = (v.to_f64s(), r.to_f64s());
        for j in 0..a.len() {
            let ok = if b[j].is_nan() || a[j].is_nan() {
                a[j].is_nan() && b[j].is_nan()
            } else {
                (a[j] - b[j]).abs() <= bound(dtype, skv, d, q_scale, b[j])
            };
            if !ok {
                return Err(format!(
                    "result #{i} element {j}: vm {}, interpreter {} (bound {:e})",
                    a[j],
                    b[j],
                    bound(dtype, skv, d, q_scale, b[j])
                ));
            }
        }
    }
    Ok(ran.kinds.iter().any(|k| k == "attention"))
}

/// The facts of the bound for attention `a`.
fn facts(a: &Attention) -> (&'static str, usize, usize, f64) {
    let q_scale = if let Scale::Query(c) = a.scale { c } else { 0.0 };
    (a.dtype, a.kv_len, a.head_dim, q_scale)
}

#[test]
fn flash_attention_agrees_with_the_interpreter() {
    let first = std::env::var("KILN_FLASH_FIRST").ok().and_then(|s| s.parse().ok()).unwrap_or(0u64);
    let count = std::env::var("KILN_FLASH_PROGRAMS").ok().and_then(|s| s.parse().ok()).unwrap_or(200u64);
    let fused = std::sync::atomic::AtomicU64::new(0);
    let check = |text: &str, target: &str, _: u8, seed: u64, mlir: bool| {
        let one = check_flash(text, target, seed, mlir, facts(&Attention::draw(seed)))?;
        fused.fetch_add(u64::from(one), std::sync::atomic::Ordering::Relaxed);
        Ok(())
    };
    let combos = [("tiny-npu", 2), ("ascend910b", 2)];
    run_generated(
        "flash attention",
        first..first + count,
        2,
        |s| attention_program(s).text,
        |_| &combos[..],
        &check,
    );
    let fused = fused.into_inner();
    eprintln!("{fused} of {} runs lowered as one attention kernel", 2 * count);
    assert!(fused >= count, "only {fused} of {} runs became one attention kernel", 2 * count);
}

/// An attention of Q, K, V `[1, 2, S, 16]` with the scores scaled by `c`, then `mask` applied
/// (text using `%s`, giving `%m`), in `dt`.
fn handwritten(s: usize, dt: &str, c: &str, mask: &str, extra_args: &str) -> String {
    let t = |shape: &str| format!("tensor<{shape}x{dt}>");
    let (qkv, sc, red) = (t(&format!("1x2x{s}x16")), t(&format!("1x2x{s}x{s}")), t(&format!("1x2x{s}x1")));
    format!(
        "func.func @main(%q: {qkv}, %k: {qkv}, %v: {qkv}{extra_args}) -> {qkv} {{
  %s0 = hl.batch_matmul %q, %k {{transpose_b = true}} : {qkv}, {qkv} -> {sc}
  %c = hl.constant dense<{c}> : tensor<{dt}>
  %s = hl.mul %s0, %c : {sc}, tensor<{dt}> -> {sc}
{mask}
  %mx = hl.reduce_max %m {{axes = [3], keep_dims = true}} : {sc} -> {red}
  %x = hl.sub %m, %mx : {sc}, {red} -> {sc}
  %e = hl.exp %x : {sc}
  %z = hl.reduce_sum %e {{axes = [3], keep_dims = true}} : {sc} -> {red}
  %p = hl.div %e, %z : {sc}, {red} -> {sc}
  %o = hl.batch_matmul %p, %v : {sc}, {qkv} -> {qkv}
  return %o : {qkv}
}}"
    )
}

/// Logits near 1e4 (the running max keeps `exp` finite), a boolean mask that masks whole rows
/// (`select` of -inf: NaN rows, as the interpreter and `torch.softmax` give them), and the NaN
/// guard of `scaled_dot_product_attention` exports (those rows 0): each one attention kernel on
/// both targets, within the bound.
#[test]
fn large_logits_and_masked_rows() {
    let select = |s: usize| {
        let (b, sc) = (format!("tensor<1x1x{s}x{s}xi1>"), format!("tensor<1x2x{s}x{s}xf32>"));
        format!(
            "  %f = hl.constant dense<0xFF800000> : tensor<f32>
  %m = hl.select %b, %s, %f : {b}, {sc}, tensor<f32> -> {sc}"
        )
    };
    let guarded = |text: String, s: usize| {
        let sc = format!("tensor<1x2x{s}x{s}xf32>");
        text.replace(
            "  %o = hl.batch_matmul %p, %v",
            &format!(
                "  %n = hl.cmp %p, %p {{predicate = #hl.cmp<ne>}} : {sc}, {sc} -> tensor<1x2x{s}x{s}xi1>
  %zero = hl.constant dense<0.0> : tensor<f32>
  %g = hl.select %n, %zero, %p : tensor<1x2x{s}x{s}xi1>, tensor<f32>, {sc} -> {sc}
  %o = hl.batch_matmul %g, %v"
            ),
        )
    };
    let cases = [
        (handwritten(40, "f32", "2.5e3", "  %m = hl.add %s, %s : tensor<1x2x40x40xf32>, tensor<1x2x40x40xf32> -> tensor<1x2x40x40xf32>", ""), "f32", 40),
        (handwritten(33, "f16", "4.0e2", "  %m = hl.add %s, %s : tensor<1x2x33x33xf16>, tensor<1x2x33x33xf16> -> tensor<1x2x33x33xf16>", ""), "f16", 33),
        (handwritten(24, "f32", "0.25", &select(24), ", %b: tensor<1x1x24x24xi1>"), "f32", 24),
        (guarded(handwritten(24, "f32", "0.25", &select(24), ", %b: tensor<1x1x24x24xi1>"), 24), "f32", 24),
    ];
    for (i, (text, dt, s)) in cases.iter().enumerate() {
        for target in ["tiny-npu", "ascend910b"] {
            match check_flash(text, target, i as u64, true, (dt, *s, 16, 0.0)) {
                Ok(true) => {}
                Ok(false) => panic!("case #{i} on {target}: not one attention kernel\n{text}"),
                Err(e) => panic!("case #{i} on {target}: {e}\n{text}"),
            }
        }
    }
}

/// The examples with an attention (a LLaMA block, a transformer encoder layer): each one
/// attention kernel on both targets, the block's results within `kiln-run --check`'s tolerance
/// (the layers after the attention carry its reordering on; f32 `rtol 1e-4, atol 1e-5`).
#[test]
fn examples_with_attention_agree_within_the_check_tolerance() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    for name in ["llama_block.mlir", "transformer_encoder.mlir"] {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).expect("the example");
        for (i, target) in ["tiny-npu", "ascend910b"].into_iter().enumerate() {
            let ran = run_both(&text, target, &pipeline(target, 2), i as u64, true)
                .unwrap_or_else(|e| panic!("{name} on {target}: {e}"));
            assert!(ran.kinds.iter().any(|k| k == "attention"), "{name} on {target}: no attention kernel");
            for (j, (v, r)) in ran.pairs.iter().enumerate() {
                if let Some(d) = first_difference(j, v, r) {
                    panic!("{name} on {target}: {d}");
                }
            }
        }
    }
}
