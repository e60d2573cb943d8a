//! The coverage generator's own checks: programs verify, every feature is drawn.

use super::{coverage_program, FEATURES};

/// How many of `programs` programs exercise each feature.
fn histogram(programs: u64) -> Vec<(&'static str, usize)> {
    let mut counts = vec![0usize; FEATURES.len()];
    for seed in 0..programs {
        let p = coverage_program(seed);
        for f in &p.features {
            let i = FEATURES.iter().position(|x| x == f).unwrap_or_else(|| panic!("unlisted feature {f}"));
            counts[i] += 1;
        }
    }
    FEATURES.iter().copied().zip(counts).collect()
}

#[test]
fn programs_parse_and_verify() {
    super::super::assert_programs_verify(0..300, |seed| coverage_program(seed).text);
}

#[test]
fn every_feature_is_drawn() {
    let rare: Vec<String> =
        histogram(2000).into_iter().filter(|&(_, n)| n < 20).map(|(f, n)| format!("{f}: {n}")).collect();
    assert!(rare.is_empty(), "features in fewer than 1% of 2000 programs: {rare:?}");
}

#[test]
fn programs_are_deterministic() {
    assert_eq!(coverage_program(7).text, coverage_program(7).text);
    assert_ne!(coverage_program(7).text, coverage_program(8).text);
}

#[test]
#[ignore = "prints the feature histogram over 10,000 programs"]
fn coverage_histogram() {
    for (f, n) in histogram(10_000) {
        println!("| {f} | {n} | {:.1}% |", n as f64 / 100.0);
    }
}

#[test]
#[ignore = "prints the program of KILN_SEED"]
fn print_program() {
    let seed = std::env::var("KILN_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    print!("{}", coverage_program(seed).text);
}
