//! The direct path against the pipeline: random elementwise segments (odd sizes, tails, sizes
//! of many tiles, f32 / f16 / bf16, scalars on either side, several outputs, intermediates
//! dropped), on the default and the tiny target, recorded into a session that emits them
//! directly and into one with `--direct_emit=false`: the results are bit-identical, and only
//! the first compiled directly.

use kiln_bytecode::isa::DType;
use kiln_compiler::OpDef;
use kiln_dialects::hl;
use kiln_dialects::hl::interp::SplitMix64 as Rng;
use kiln_eager::{Arg, Flags, Session, Tensor};

const UNARY: &[&OpDef] = &[
    &hl::NEG,
    &hl::ABS,
    &hl::EXP,
    &hl::LOG,
    &hl::SQRT,
    &hl::RSQRT,
    &hl::RECIPROCAL,
    &hl::TANH,
    &hl::ERF,
    &hl::SIGMOID,
    &hl::RELU,
    &hl::FLOOR,
    &hl::CEIL,
    &hl::ROUND,
    &hl::SIGN,
];
const BINARY: &[&OpDef] = &[&hl::ADD, &hl::SUB, &hl::MUL, &hl::DIV, &hl::MAXIMUM, &hl::MINIMUM, &hl::POW];
const SIZES: &[&[usize]] = &[&[1], &[7], &[1000], &[3, 5, 7], &[33, 129], &[40_001], &[4, 16_321]];

fn session(target: &str, flags: &str) -> Session {
    Session::with_target(Flags::parse(flags).unwrap().flags, target, kiln_vm::VmConfig::default()).unwrap()
}

fn input(s: &Session, rng: &mut Rng, shape: &[usize], dtype: DType) -> Tensor {
    let n: usize = shape.iter().product();
    let values: Vec<f64> = (0..n).map(|_| (rng.range(-4000, 4000) as f64) / 1000.0).collect();
    let bytes: Vec<u8> = match dtype {
        DType::F32 => values.iter().flat_map(|&v| (v as f32).to_le_bytes()).collect(),
        DType::F16 => values.iter().flat_map(|&v| half::f16::from_f64(v).to_le_bytes()).collect(),
        _ => values.iter().flat_map(|&v| half::bf16::from_f64(v).to_le_bytes()).collect(),
    };
    s.tensor_from_bytes(bytes, shape, dtype).unwrap()
}

/// One random segment, recorded into both sessions in step; returns the kept results.
fn segment(rng: &mut Rng, sessions: &[Session; 2]) -> Vec<[Tensor; 2]> {
    let shape = SIZES[rng.below(SIZES.len())];
    let dtype = [DType::F32, DType::F16, DType::BF16][rng.below(3)];
    let seed = rng.next_u64();
    let mut pool: Vec<[Tensor; 2]> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let make = |s: &Session| input(s, &mut Rng(seed ^ pool.len() as u64), shape, dtype);
        pool.push([make(&sessions[0]), make(&sessions[1])]);
    }
    let mut kept = Vec::new();
    for _ in 0..1 + rng.below(10) {
        let pick = |rng: &mut Rng, pool: &[[Tensor; 2]]| rng.below(pool.len());
        let results: Vec<Tensor> = if rng.below(3) == 0 {
            let (def, a) = (UNARY[rng.below(UNARY.len())], pick(rng, &pool));
            (0..2).map(|k| sessions[k].record(def, &[Arg::Tensor(&pool[a][k])], &[], None).unwrap()).collect()
        } else {
            let def = BINARY[rng.below(BINARY.len())];
            let (a, b) = (pick(rng, &pool), pick(rng, &pool));
            let scalar = (rng.range(-3000, 3000) as f64) / 1000.0;
            let side = rng.below(4);
            (0..2)
                .map(|k| {
                    let (x, y) = (Arg::Tensor(&pool[a][k]), Arg::Tensor(&pool[b][k]));
                    let args = match side {
                        0 => [Arg::Scalar(scalar), y],
                        1 => [x, Arg::Scalar(scalar)],
                        _ => [x, y],
                    };
                    sessions[k].record(def, &args, &[], None).unwrap()
                })
                .collect()
        };
        let [r0, r1]: [Tensor; 2] = results.try_into().unwrap();
        if rng.below(4) == 0 {
            kept.push([r0.clone(), r1.clone()]);
        }
        pool.push([r0, r1]);
        if pool.len() > 3 && rng.below(3) == 0 {
            pool.remove(rng.below(pool.len() - 1));
        }
    }
    kept.push(pool.pop().unwrap());
    kept
}

#[test]
fn direct_segments_are_bit_identical_to_the_pipeline() {
    let mut rng = Rng(0xd12ec7);
    let default = kiln_targets::DEFAULT_TARGET;
    for (target, level) in
        [(default, "--opt_level=1"), (default, "--opt_level=2"), ("tiny-npu", "--opt_level=2")]
    {
        // Per exact shape on both sides (the pipeline's shape classes tile otherwise).
        let level = format!("{level} --dynamic_shape=false");
        let sessions = [session(target, &level), session(target, &format!("{level} --direct_emit=false"))];
        for case in 0..120 {
            let kept = segment(&mut rng, &sessions);
            sessions[0].sync().unwrap();
            sessions[1].sync().unwrap();
            for (i, [a, b]) in kept.iter().enumerate() {
                let (a, b) = (a.host().unwrap(), b.host().unwrap());
                assert_eq!(a.spec, b.spec);
                if let Some(e) = a.bytes.iter().zip(&b.bytes).position(|(x, y)| x != y) {
                    panic!("{target} {level}, case {case}, result {i} of {:?}: byte {e} differs", a.spec);
                }
            }
        }
        let (direct, pipeline) = (sessions[0].stats(), sessions[1].stats());
        assert_eq!(pipeline.direct_compiles, 0);
        let counts =
            format!("{level}: {} of {} compiled directly", direct.direct_compiles, direct.cache_misses);
        // Level 1 takes only single-output segments directly; level 2 takes every one here.
        let least = if level.contains("level=2") { direct.cache_misses } else { 30 };
        assert!(direct.direct_compiles >= least, "{counts}");
        assert_eq!(direct.cache_misses, pipeline.cache_misses);
    }
}
