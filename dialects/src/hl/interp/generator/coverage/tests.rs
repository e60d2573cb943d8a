//! The coverage generator's own checks: programs verify, every feature is drawn.

use super::{coverage_program, FEATURES};

#[test]
fn programs_parse_and_verify() {
    super::super::assert_programs_verify(0..300, |seed| coverage_program(seed).text);
}

#[test]
fn every_feature_is_drawn() {
    super::super::assert_every_feature_drawn(FEATURES, coverage_program);
}

#[test]
fn programs_are_deterministic() {
    assert_eq!(coverage_program(7).text, coverage_program(7).text);
    assert_ne!(coverage_program(7).text, coverage_program(8).text);
}

#[test]
#[ignore = "prints the feature histogram over 10,000 programs"]
fn coverage_histogram() {
    for (f, n) in super::super::feature_histogram(FEATURES, 10_000, coverage_program) {
        println!("| {f} | {n} | {:.1}% |", n as f64 / 100.0);
    }
}

#[test]
#[ignore = "prints the program of KILN_SEED"]
fn print_program() {
    let seed = std::env::var("KILN_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    print!("{}", coverage_program(seed).text);
}
