//! The attention generator's own checks: programs verify, every feature is drawn, and what
//! the interpreter gives for rows with every key masked.

use super::{attention_program, Attention, Causal, Mask, ATTENTION_FEATURES};
use crate::all_dialects;
use crate::hl::interp::program::run_function;
use crate::hl::interp::{random_tensor, DType, Tensor};
use kiln_compiler::ir::WalkOrder;
use kiln_compiler::syntax::parse_bytes;
use kiln_compiler::Context;

#[test]
fn programs_parse_and_verify() {
    super::super::assert_programs_verify(0..300, |seed| attention_program(seed).text);
}

#[test]
fn every_feature_is_drawn() {
    super::super::assert_every_feature_drawn(ATTENTION_FEATURES, attention_program);
}

#[test]
#[ignore = "prints the feature histogram of the differential's 200 programs"]
fn attention_histogram() {
    for (f, n) in super::super::feature_histogram(ATTENTION_FEATURES, 200, attention_program) {
        println!("| {f} | {n} |");
    }
}

#[test]
fn programs_are_deterministic() {
    assert_eq!(attention_program(7).text, attention_program(7).text);
    assert_ne!(attention_program(7).text, attention_program(8).text);
}

/// The interpreter's result of `a` on seeded arguments, as f64s.
fn interpret(a: &Attention) -> Vec<f64> {
    let arena = bumpalo::Bump::new();
    let ctx = Context::new(&arena, all_dialects());
    let module = parse_bytes(&ctx, a.program().as_bytes(), "program").expect("parses");
    let func = module.ir.walk(module.top, WalkOrder::PreOrder).find(|&o| module.ir.op(o).name == "func.func");
    let func = func.expect("a function");
    let dims = |s: usize, heads: usize| vec![a.batch, heads, s, a.head_dim];
    let args: Vec<Tensor> = [dims(a.q_len, a.heads), dims(a.kv_len, a.kv_heads), dims(a.kv_len, a.kv_heads)]
        .into_iter()
        .enumerate()
        .map(|(i, shape)| random_tensor(DType::F32, shape, i as u64))
        .collect();
    run_function(&ctx, &module.ir, func, &args).expect("runs")[0].to_f64s()
}

/// A query row whose keys are all at -inf gives NaN (as `torch.softmax`: the row's max is
/// -inf and `-inf - -inf` is NaN), through the decomposed softmax and `hl.softmax` alike; under
/// a finite fill the row is uniform, its output the mean of V's rows. The other rows are
/// finite.
#[test]
fn fully_masked_rows_are_nan_under_minus_infinity() {
    let mut a = Attention::baseline(4, 1);
    for softmax in [super::Softmax::Decomposed, super::Softmax::Composite] {
        a.softmax = softmax;
        // Row 0 sees no key: j <= i - 1.
        a.mask = Mask::Causal { how: Causal::Iota, shift: 1, fill: f64::NEG_INFINITY };
        assert!(a.masks_whole_rows());
        let out = interpret(&a);
        let d = a.head_dim;
        assert!(out[..d].iter().all(|v| v.is_nan()), "{softmax:?}: {:?}", &out[..4]);
        assert!(out[d..].iter().all(|v| v.is_finite()));
        a.mask = Mask::Causal { how: Causal::Iota, shift: 1, fill: -1e9 };
        let out = interpret(&a);
        let v = random_tensor(DType::F32, vec![1, 1, 4, d], 2).to_f64s();
        for (j, &o) in out[..d].iter().enumerate() {
            let mean = (0..4).map(|k| v[k * d + j]).sum::<f64>() / 4.0;
            assert!((o - mean).abs() < 1e-6, "{softmax:?}: {o} vs {mean}");
        }
    }
}

#[test]
#[ignore = "prints the attention program of KILN_SEED"]
fn print_attention_program() {
    let seed = std::env::var("KILN_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    print!("{}", attention_program(seed).text);
}
