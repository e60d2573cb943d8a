//! Random `hl` programs for differential tests: fusion against the unfused program, the
//! compiled program on the VM against the interpreter.
//!
//! A program is a function over `[r, c]` tensors: values are full `[r, c]`, rows `[r, 1]`
//! (from reductions) or the `[c]` parameter; ops pick operands anywhere in the pool, so values
//! get several consumers and diamonds form; it returns the last value and one or two earlier
//! ones. A [`Profile`] fixes the shapes, element types and ops drawn from ([`ROW_CLASS`]: a
//! `?` row count, for the row shape class of the back end).
//!
//! Two more generators: [`coverage_program`] draws over the back end's space case by case,
//! [`attention_program`] draws attention as exporters write it.

mod attention;
mod coverage;

pub use attention::{
    attention_program, Attention, Causal, Heads, KeyT, Mask, MaskShape, Scale, Softmax, ATTENTION_FEATURES,
};
pub use coverage::{coverage_program, Program, FEATURES};

use super::random::SplitMix64;

/// What a generator draws from.
#[derive(Clone, Copy, Debug)]
pub struct Profile {
    /// Row counts.
    pub rows: &'static [usize],
    /// Column counts.
    pub cols: &'static [usize],
    /// Element types (repeat one to weight it).
    pub dtypes: &'static [&'static str],
    /// Column counts up to which a matmul by `[c, c]` may appear.
    pub matmul_cols: usize,
    /// Whether a float program may convolve a value, seen as a `[1, 1, r, c]` image, with a
    /// 3x3 kernel (padding 1, or dilation 2 and padding 2: the shape stays).
    pub conv: bool,
    /// Whether a program may reassemble values from parts: a concat of a slice of one value
    /// and a slice of another, or a pad of a slice (with the value 0, or 1 on floats), along
    /// either axis (the shape stays).
    pub layout: bool,
    /// Whether the row count is `?` in the program (a row shape class, compiled once for every
    /// row count): then `rows` is unused, and `matmul_cols` must be 0 and `conv` and `layout`
    /// off (they are not row-wise).
    pub dynamic_rows: bool,
}

/// The fusion tests' profile: small shapes, f32 and f16.
pub const FUSION: Profile = Profile {
    rows: &[1, 3, 5, 8, 13],
    cols: &[1, 7, 16, 33, 64],
    dtypes: &["f16", "f32", "f32", "f32"],
    matmul_cols: usize::MAX,
    conv: false,
    layout: false,
    dynamic_rows: false,
};

/// The back end's profile: odd shapes, size-1 dims, rows longer than a small target's UB,
/// f32 / f16 / bf16 / i32, convolutions, concats and pads.
pub const BACKEND: Profile = Profile {
    rows: &[1, 3, 5, 8, 13, 31],
    cols: &[1, 7, 16, 33, 64, 130, 1500, 4099],
    dtypes: &["f32", "f32", "f16", "bf16", "i32"],
    matmul_cols: 64,
    conv: true,
    layout: true,
    dynamic_rows: false,
};

/// The row shape class profile: the back end's element types and columns a row of which fits
/// a small target's UB, a `?` row count, only row-wise ops (elementwise, row reductions,
/// broadcasts of rows and of the `[c]` parameter).
pub const ROW_CLASS: Profile = Profile {
    rows: &[],
    cols: &[1, 7, 16, 33, 64, 130, 257],
    dtypes: &["f32", "f32", "f16", "bf16", "i32"],
    matmul_cols: 0,
    conv: false,
    layout: false,
    dynamic_rows: true,
};

/// The program of `seed` under `profile` (MLIR text of one `func.func @f`).
pub fn random_program(seed: u64, profile: &Profile) -> String {
    let mut rng = SplitMix64(seed);
    let r = if profile.dynamic_rows { 0 } else { profile.rows[rng.below(profile.rows.len())] };
    let c = profile.cols[rng.below(profile.cols.len())];
    let dt = profile.dtypes[rng.below(profile.dtypes.len())];
    let int = dt.starts_with('i');
    let rows = if profile.dynamic_rows { "?".to_string() } else { r.to_string() };
    let full = format!("tensor<{rows}x{c}x{dt}>");
    let row = format!("tensor<{rows}x1x{dt}>");
    let par = format!("tensor<{c}x{dt}>");
    let w = format!("tensor<{c}x{c}x{dt}>");
    let matmul = c <= profile.matmul_cols && !int;
    let conv = profile.conv && !int;
    let (image, kernel) = (format!("tensor<1x1x{r}x{c}x{dt}>"), format!("tensor<1x1x3x3x{dt}>"));
    // (name, kind): 0 full, 1 row, 2 param.
    let mut pool: Vec<(String, u8)> = vec![("%x".into(), 0), ("%y".into(), 0), ("%p".into(), 2)];
    let ty = |k: u8| [&full, &row, &par][k as usize].clone();
    let mut body = String::new();
    let n = 4 + rng.below(14);
    for i in 0..n {
        let name = format!("%v{i}");
        let pick_full = |rng: &mut SplitMix64, pool: &[(String, u8)]| {
            let fulls: Vec<&(String, u8)> = pool.iter().filter(|(_, k)| *k == 0).collect();
            // Prefer recent values: chains and diamonds.
            let j = fulls.len() - 1 - rng.below(fulls.len().min(3));
            fulls[j].0.clone()
        };
        let choice = match rng.below(10) {
            9 if !matmul => 3,
            8 if conv && rng.below(2) == 0 => 10,
            7 if profile.layout && (r > 1 || c > 1) && rng.below(2) == 0 => 11,
            x => x,
        };
        let line = match choice {
            0..=2 => {
                let ops: &[&str] = if int {
                    &["neg", "abs", "neg", "abs", "abs", "neg"]
                } else {
                    &["exp", "neg", "abs", "tanh", "sigmoid", "relu"]
                };
                let op = ops[rng.below(6)];
                let (a, k) = pool[pool.len() - 1 - rng.below(pool.len().min(4))].clone();
                pool.push((name.clone(), k));
                format!("{name} = hl.{op} {a} : {}", ty(k))
            }
            3..=6 => {
                let ops: &[&str] = if int {
                    &["add", "mul", "sub", "maximum", "add"]
                } else {
                    &["add", "mul", "sub", "maximum", "div"]
                };
                let op = ops[rng.below(5)];
                let a = pick_full(&mut rng, &pool);
                let (b, k) = pool[rng.below(pool.len())].clone();
                pool.push((name.clone(), 0));
                format!("{name} = hl.{op} {a}, {b} : {full}, {} -> {full}", ty(k))
            }
            7 | 8 => {
                let ops: &[&str] = if int {
                    &["reduce_sum", "reduce_max", "reduce_max"]
                } else {
                    &["reduce_sum", "reduce_max", "reduce_mean"]
                };
                let op = ops[rng.below(3)];
                let a = pick_full(&mut rng, &pool);
                pool.push((name.clone(), 1));
                format!("{name} = hl.{op} {a} {{axes = [1], keep_dims = true}} : {full} -> {row}")
            }
            9 => {
                let a = pick_full(&mut rng, &pool);
                pool.push((name.clone(), 0));
                format!("{name} = hl.matmul {a}, %w : {full}, {w} -> {full}")
            }
            11 => {
                let a = pick_full(&mut rng, &pool);
                let b = pick_full(&mut rng, &pool);
                pool.push((name.clone(), 0));
                // Along rows or cols (one longer than 1), cut at `k` in 1..len.
                let axis = if c == 1 || (r > 1 && rng.below(2) == 0) { 0 } else { 1 };
                let len = [r, c][axis];
                let k = 1 + rng.below(len - 1);
                let dims = |n: usize| if axis == 0 { [n, c] } else { [r, n] };
                let part = |n: usize| format!("tensor<{}x{}x{dt}>", dims(n)[0], dims(n)[1]);
                let (lo, hi) = (part(k), part(len - k));
                if rng.below(2) == 0 {
                    format!(
                        "{name}a = hl.slice {a} {{limits = {:?}, starts = [0, 0]}} : {full} -> {lo}\n  \
                         {name}b = hl.slice {b} {{limits = [{r}, {c}], starts = {:?}}} : {full} -> {hi}\n  \
                         {name} = hl.concat {name}a, {name}b {{axis = {axis} : i64}} : {lo}, {hi} -> {full}",
                        dims(k),
                        if axis == 0 { [k, 0] } else { [0, k] },
                    )
                } else {
                    let value = if int { "0 : i32".to_string() } else { format!("1.0 : {dt}") };
                    let pads = |n: usize| if axis == 0 { [n, 0] } else { [0, n] };
                    format!(
                        "{name}a = hl.slice {a} {{limits = {:?}, starts = [0, 0]}} : {full} -> {hi}\n  \
                         {name} = hl.pad {name}a {{low = {:?}, high = {:?}, value = {value}}} : {hi} -> {full}",
                        dims(len - k),
                        pads(k - k / 2),
                        pads(k / 2),
                    )
                }
            }
            _ => {
                let a = pick_full(&mut rng, &pool);
                pool.push((name.clone(), 0));
                let attrs = if rng.below(2) == 0 {
                    "padding = [1, 1, 1, 1]"
                } else {
                    "padding = [2, 2, 2, 2], dilation = [2, 2]"
                };
                format!(
                    "{name}i = hl.reshape {a} : {full} -> {image}\n  \
                     {name}c = hl.conv2d {name}i, %k {{{attrs}}} : {image}, {kernel} -> {image}\n  \
                     {name} = hl.reshape {name}c : {image} -> {full}"
                )
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
    let mut w_arg =
        if matmul || profile.matmul_cols == usize::MAX { format!(", %w: {w}") } else { String::new() };
    if conv {
        w_arg.push_str(&format!(", %k: {kernel}"));
    }
    format!(
        "func.func @f(%x: {full}, %y: {full}, %p: {par}{w_arg}) -> ({}) {{\n{body}  return {} : {}\n}}\n",
        types.join(", "),
        names.join(", "),
        types.join(", ")
    )
}

/// Panics with the seed and text of the first `program(seed)`, `seed` in `seeds`, that does
/// not parse and verify.
#[cfg(test)]
fn assert_programs_verify(seeds: std::ops::Range<u64>, program: impl Fn(u64) -> String) {
    use kiln_compiler::syntax::parse_bytes;
    use kiln_compiler::verifier::verify;
    let arena = bumpalo::Bump::new();
    let ctx = kiln_compiler::Context::new(&arena, crate::all_dialects());
    for seed in seeds {
        let text = program(seed);
        let module = parse_bytes(&ctx, text.as_bytes(), "program")
            .unwrap_or_else(|d| panic!("seed {seed}: {d:?}\n{text}"));
        verify(&ctx, &module.ir, module.top).unwrap_or_else(|d| panic!("seed {seed}: {d:?}\n{text}"));
    }
}

/// How many of `program(seed)`, `seed` in `0..programs`, exercise each of `features`.
#[cfg(test)]
fn feature_histogram(
    features: &[&'static str],
    programs: u64,
    program: impl Fn(u64) -> Program,
) -> Vec<(&'static str, usize)> {
    let mut counts = vec![0usize; features.len()];
    for seed in 0..programs {
        for f in program(seed).features {
            let i = features.iter().position(|x| *x == f).unwrap_or_else(|| panic!("unlisted feature {f}"));
            counts[i] += 1;
        }
    }
    features.iter().copied().zip(counts).collect()
}

/// Panics unless every one of `features` is in at least 1% of 2,000 programs.
#[cfg(test)]
fn assert_every_feature_drawn(features: &[&'static str], program: impl Fn(u64) -> Program) {
    let rare: Vec<String> = feature_histogram(features, 2000, program)
        .into_iter()
        .filter(|&(_, n)| n < 20)
        .map(|(f, n)| format!("{f}: {n}"))
        .collect();
    assert!(rare.is_empty(), "features in fewer than 1% of 2000 programs: {rare:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_backend_profile_draws_convolutions_and_only_on_floats() {
        let convs: Vec<String> =
            (0..100).map(|s| random_program(s, &BACKEND)).filter(|p| p.contains("hl.conv2d")).collect();
        assert!(convs.len() >= 10, "only {} of 100 back-end programs convolve", convs.len());
        assert!(convs.iter().all(|p| !p.contains("xi32>") && p.contains("%k: tensor<1x1x3x3x")));
        assert!(convs.iter().any(|p| p.contains("dilation = [2, 2]")));
        assert!((0..100).all(|s| !random_program(s, &FUSION).contains("hl.conv2d")));
    }

    #[test]
    fn only_the_backend_profile_draws_concats_and_pads() {
        let programs: Vec<String> = (0..100).map(|s| random_program(s, &BACKEND)).collect();
        let count = |what: &str| programs.iter().filter(|p| p.contains(what)).count();
        assert!(
            count("hl.concat") >= 5 && count("hl.pad") >= 5,
            "{} concats, {} pads",
            count("hl.concat"),
            count("hl.pad")
        );
        assert!((0..100).all(|s| !random_program(s, &FUSION).contains("hl.slice")));
    }

    #[test]
    fn row_class_programs_verify_with_a_dynamic_row_count_and_only_row_wise_ops() {
        assert_programs_verify(0..200, |s| random_program(s, &ROW_CLASS));
        let programs: Vec<String> = (0..200).map(|s| random_program(s, &ROW_CLASS)).collect();
        assert!(programs.iter().all(|p| p.contains("%x: tensor<?x") && !p.contains("hl.matmul")));
        assert!(programs.iter().filter(|p| p.contains("hl.reduce_")).count() >= 100);
    }
}
