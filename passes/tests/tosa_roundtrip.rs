//! `hl -> tosa -> hl` round trips (`hl-to-tosa` then `tosa-to-hl`) with the `hl` interpreter
//! as the oracle: every example program and random generator programs (both profiles: f32,
//! f16, bf16, i32, matmuls, convolutions), decomposed first, must give bit-identical results
//! after the round trip. TOSA has no float division: `hl.div` and `hl.reduce_mean` go through
//! a multiplication by the reciprocal, so programs that contain them are only held to a
//! tolerance when they compute in f32 (1e-3 of the result's largest finite magnitude; elements
//! that are not finite on either side, which a reciprocal that overflows gives, are skipped);
//! in f16 and bf16 a later subtraction can cancel all the digits that differ, so those are
//! only run. The exactly checked programs are counted, so that the exact check cannot dwindle.

mod common;

use common::{assert_bit_identical, examples, run};
use kiln_dialects::hl::interp::generator::{random_program, BACKEND, FUSION};
use kiln_dialects::hl::interp::Tensor;

const DECOMPOSE: &str = "builtin.module(hl-decompose, hl-canonicalize, cse, dce)";
const ROUND_TRIP: &str =
    "builtin.module(hl-decompose, hl-canonicalize, cse, dce, hl-to-tosa, tosa-to-hl, dce)";

/// Whether the decomposed program `text` divides (after `hl-decompose`, softmax and the
/// normalizations divide or take means).
fn divides(text: &str) -> bool {
    ["hl.div", "hl.reduce_mean", "softmax", "layer_norm", "rms_norm"].iter().any(|op| text.contains(op))
}

/// Results equal within `rel` relative error (plus a small absolute floor), NaN where NaN.
fn assert_close(a: &[Tensor], b: &[Tensor], rel: f64, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: result counts differ");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.shape(), y.shape(), "{what}: result #{i} shapes differ");
        for (p, q) in x.to_f64s().iter().zip(y.to_f64s()) {
            let ok =
                (p.is_nan() && q.is_nan()) || p == &q || (p - q).abs() <= rel * p.abs().max(q.abs()) + 1e-6;
            assert!(ok, "{what}: result #{i}: {p} vs {q}");
        }
    }
}

/// Checks one program; returns whether it was checked bit-exactly.
fn check(text: &str, what: &str, seed: u64) -> bool {
    let reference = run(text, DECOMPOSE, seed).results;
    let back = run(text, ROUND_TRIP, seed).results;
    if divides(text) {
        if !text.contains("xf16>") && !text.contains("xbf16>") {
            assert_close(&reference, &back, 1e-3, what);
        }
        false
    } else {
        assert_bit_identical(&reference, &back, what);
        true
    }
}

#[test]
fn examples_round_trip_through_tosa() {
    let exact: Vec<String> =
        examples().into_iter().filter(|(name, text)| check(text, name, 1)).map(|(name, _)| name).collect();
    eprintln!("checked bit-exactly: {exact:?}");
    assert!(!exact.is_empty(), "no example was checked bit-exactly");
}

#[test]
fn random_programs_round_trip_bit_identically() {
    let mut exact = 0;
    let mut total = 0;
    for (profile, seeds) in [(&FUSION, 0..400u64), (&BACKEND, 0..200u64)] {
        for seed in seeds {
            let text = random_program(seed, profile);
            exact += usize::from(check(&text, &format!("seed {seed}\n{text}"), seed));
            total += 1;
        }
    }
    eprintln!("{exact} of {total} random programs checked bit-exactly (the others divide)");
    // About a quarter of the generator's programs divide nowhere (it draws `div` and
    // `reduce_mean` often): at least 100 must be checked exactly.
    assert!(exact >= 100, "too few random programs checked bit-exactly ({exact} of {total})");
}
