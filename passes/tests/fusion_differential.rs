//! Differential tests of `kiln-fuse` with the `hl` interpreter as the oracle: fusion moves ops
//! into `fused.region`s and changes no arithmetic, so the fused program must give bit-identical
//! results to the unfused one, and must verify (the verifier's dominance check catches any
//! cycle a region could form). Inputs: every example program (after `hl-decompose`) and
//! random `hl` programs from a small seeded generator (elementwise chains, diamonds,
//! broadcasts, reductions, matmul epilogues, multi-consumer values), under several option
//! sets.

mod common;

use common::{assert_bit_identical, examples, run};
use kiln_dialects::hl::interp::generator::{attention_program, random_program, FUSION};

const CLEANUP: &str = "hl-decompose, hl-canonicalize, cse, dce";

/// The option sets every program is fused with.
const VARIANTS: &[&str] = &[
    "opt-level=1",
    "opt-level=2",
    "opt-level=1 strategy=aggressive",
    "opt-level=2 strategy=conservative",
    "opt-level=2 max-ops=3",
    "opt-level=2 ub-budget=1",
    "opt-level=1 enable-ops=MatMul max-depth=2",
];

/// Checks one program under every variant; returns the region count per variant.
fn check_program(text: &str, what: &str) -> Vec<usize> {
    let reference = run(text, &format!("builtin.module({CLEANUP})"), 1).results;
    VARIANTS
        .iter()
        .map(|v| {
            let fused = run(text, &format!("builtin.module({CLEANUP}, kiln-fuse{{{v}}})"), 1);
            assert_bit_identical(&reference, &fused.results, &format!("{what} [{v}]"));
            fused.regions
        })
        .collect()
}

#[test]
fn fused_examples_are_bit_identical() {
    for (name, text) in examples() {
        let regions = check_program(&text, &name);
        assert!(regions[1] > 0, "{name}: opt-level=2 formed no region");
    }
}

#[test]
fn random_programs_fuse_bit_identically() {
    let mut formed = 0;
    for seed in 0..400 {
        let text = random_program(seed, &FUSION);
        formed += check_program(&text, &format!("seed {seed}")).iter().sum::<usize>();
    }
    eprintln!("random programs: {formed} regions formed in total");
    assert!(formed > 400, "the generator should give fusion something to do ({formed} regions)");
}

/// One region each at opt-level 2: softmax, log_softmax, layer_norm and rms_norm, decomposed.
#[test]
fn normalizations_become_one_region_at_opt_level_2() {
    for (op, extra) in [
        ("softmax", " {axis = -1 : i64}"),
        ("log_softmax", " {axis = -1 : i64}"),
        ("layer_norm", ""),
        ("rms_norm", ""),
    ] {
        let t = "tensor<16x64xf32>";
        let p = "tensor<64xf32>";
        let call = match op {
            "layer_norm" => format!("%y = hl.layer_norm %x, %g, %b : {t}, {p}, {p} -> {t}"),
            "rms_norm" => format!("%y = hl.rms_norm %x, %g : {t}, {p} -> {t}"),
            _ => format!("%y = hl.{op} %x{extra} : {t}"),
        };
        let text =
            format!("func.func @f(%x: {t}, %g: {p}, %b: {p}) -> {t} {{\n  {call}\n  return %y : {t}\n}}\n");
        let reference = run(&text, "builtin.module(hl-decompose)", 2).results;
        let fused = run(&text, "builtin.module(hl-decompose, cse, kiln-fuse{opt-level=2})", 2);
        assert_bit_identical(&reference, &fused.results, op);
        assert_eq!(fused.regions, 1, "{op}: expected one region");
    }
}

/// The attention programs of issue 42 (`generator::attention_program`: exporters' QK^T, scale,
/// masks, softmax, PV, grouped-query heads, f32 / f16 / bf16): fused at opt-level 2 they stay
/// bit-identical, and `kiln-fuse` recognizes their attention. The count fails the test when
/// recognition stops working: every program whose softmax is over one row of scores forms its
/// attention region unless that would cost kernels (see `fusion/attention.rs`).
#[test]
fn attention_programs_form_attention_regions() {
    let programs = 200;
    let mut formed = 0;
    for seed in 0..programs {
        let text = attention_program(seed).text;
        let reference = run(&text, &format!("builtin.module({CLEANUP})"), seed).results;
        let fused = run(&text, &format!("builtin.module({CLEANUP}, kiln-fuse{{opt-level=2}})"), seed);
        assert_bit_identical(&reference, &fused.results, &format!("attention seed {seed}"));
        assert!(fused.attention <= 1, "seed {seed}: {} attention regions", fused.attention);
        formed += fused.attention;
        let off =
            run(&text, &format!("builtin.module({CLEANUP}, kiln-fuse{{opt-level=2 attention=false}})"), seed);
        assert_eq!(off.attention, 0, "seed {seed}: attention=false formed an attention region");
    }
    eprintln!("attention programs: {formed} of {programs} formed an attention region");
    assert_eq!(formed as u64, programs, "attention programs that formed an attention region");
}
