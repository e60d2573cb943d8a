//! Differential tests of `kiln-fuse` with the `hl` interpreter as the oracle: fusion moves ops
//! into `fused.region`s and changes no arithmetic, so the fused program must give bit-identical
//! results to the unfused one, and must verify (the verifier's dominance check catches any
//! cycle a region could form). Inputs: every example program (after `hl-decompose`) and
//! random `hl` programs from a small seeded generator (elementwise chains, diamonds,
//! broadcasts, reductions, matmul epilogues, multi-consumer values), under several option
//! sets.

mod common;

use common::{assert_bit_identical, examples, run};

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

/// A tiny deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random function over `[r, c]` tensors: values are full `[r, c]`, rows `[r, 1]` (from
/// reductions) or the `[c]` parameter; ops pick operands anywhere in the pool, so values get
/// several consumers and diamonds form.
fn random_program(seed: u64) -> String {
    let mut rng = Rng(seed);
    let (r, c) = ([1, 3, 5, 8, 13][rng.below(5)], [1, 7, 16, 33, 64][rng.below(5)]);
    let dt = if rng.below(4) == 0 { "f16" } else { "f32" };
    let full = format!("tensor<{r}x{c}x{dt}>");
    let row = format!("tensor<{r}x1x{dt}>");
    let par = format!("tensor<{c}x{dt}>");
    let w = format!("tensor<{c}x{c}x{dt}>");
    // (name, kind): 0 full, 1 row, 2 param.
    let mut pool: Vec<(String, u8)> = vec![("%x".into(), 0), ("%y".into(), 0), ("%p".into(), 2)];
    let ty = |k: u8| [&full, &row, &par][k as usize].clone();
    let mut body = String::new();
    let n = 4 + rng.below(14);
    for i in 0..n {
        let name = format!("%v{i}");
        let pick_full = |rng: &mut Rng, pool: &[(String, u8)]| {
            let fulls: Vec<&(String, u8)> = pool.iter().filter(|(_, k)| *k == 0).collect();
            // Prefer recent values: chains and diamonds.
            let j = fulls.len() - 1 - rng.below(fulls.len().min(3));
            fulls[j].0.clone()
        };
        let line = match rng.below(10) {
            0..=2 => {
                let op = ["exp", "neg", "abs", "tanh", "sigmoid", "relu"][rng.below(6)];
                let (a, k) = pool[pool.len() - 1 - rng.below(pool.len().min(4))].clone();
                pool.push((name.clone(), k));
                format!("{name} = hl.{op} {a} : {}", ty(k))
            }
            3..=6 => {
                let op = ["add", "mul", "sub", "maximum", "div"][rng.below(5)];
                let a = pick_full(&mut rng, &pool);
                let (b, k) = pool[rng.below(pool.len())].clone();
                pool.push((name.clone(), 0));
                format!("{name} = hl.{op} {a}, {b} : {full}, {} -> {full}", ty(k))
            }
            7 | 8 => {
                let op = ["reduce_sum", "reduce_max", "reduce_mean"][rng.below(3)];
                let a = pick_full(&mut rng, &pool);
                pool.push((name.clone(), 1));
                format!("{name} = hl.{op} {a} {{axes = [1], keep_dims = true}} : {full} -> {row}")
            }
            _ => {
                let a = pick_full(&mut rng, &pool);
                pool.push((name.clone(), 0));
                format!("{name} = hl.matmul {a}, %w : {full}, {w} -> {full}")
            }
        };
        body.push_str("  ");
        body.push_str(&line);
        body.push('\n');
    }
    // Return the last value and one or two earlier ones (values needed outside regions).
    let mut rets = vec![pool.len() - 1];
    for _ in 0..rng.below(3) {
        let j = 3 + rng.below(pool.len() - 3);
        if !rets.contains(&j) {
            rets.push(j);
        }
    }
    let names: Vec<String> = rets.iter().map(|&j| pool[j].0.clone()).collect();
    let types: Vec<String> = rets.iter().map(|&j| ty(pool[j].1)).collect();
    format!(
        "func.func @f(%x: {full}, %y: {full}, %p: {par}, %w: {w}) -> ({}) {{\n{body}  return {} : {}\n}}\n",
        types.join(", "),
        names.join(", "),
        types.join(", ")
    )
}

#[test]
fn random_programs_fuse_bit_identically() {
    let mut formed = 0;
    for seed in 0..400 {
        let text = random_program(seed);
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
