//! `hl -> tosa -> hl` round trips (`hl-to-tosa` then `tosa-to-hl`) with the `hl` interpreter
//! as the oracle: every example program and random generator programs (both profiles: f32,
//! f16, bf16, i32, matmuls, convolutions), decomposed first, must give bit-identical results
//! after the round trip. TOSA has no float division: `hl.div` and `hl.reduce_mean` go through
//! `arith.divf` on tensors, so programs that divide are held to the same bits as the rest.

mod common;

use common::{assert_bit_identical, examples, run};
use kiln_dialects::hl::interp::generator::{random_program, BACKEND, FUSION};

const DECOMPOSE: &str = "builtin.module(hl-decompose, hl-canonicalize, cse, dce)";
const ROUND_TRIP: &str =
    "builtin.module(hl-decompose, hl-canonicalize, cse, dce, hl-to-tosa, tosa-to-hl, dce)";

/// Checks one program: the round trip gives the interpreter's bits.
fn check(text: &str, what: &str, seed: u64) {
    let reference = run(text, DECOMPOSE, seed).results;
    let back = run(text, ROUND_TRIP, seed).results;
    assert_bit_identical(&reference, &back, what);
}

#[test]
fn examples_round_trip_through_tosa() {
    let examples = examples();
    assert!(!examples.is_empty(), "no examples found");
    for (name, text) in examples {
        check(&text, &name, 1);
    }
}

#[test]
fn random_programs_round_trip_bit_identically() {
    for (profile, seeds) in [(&FUSION, 0..400u64), (&BACKEND, 0..200u64)] {
        for seed in seeds {
            let text = random_program(seed, profile);
            check(&text, &format!("seed {seed}\n{text}"), seed);
        }
    }
}
