//! Deterministic mutation test of the loader: tens of thousands of corrupted encodings of the
//! sample modules (every byte flipped, every truncation, random words from a fixed-seed
//! SplitMix64) each load as `Ok` or `Err`, never panic; and every mutant that decodes is the
//! canonical encoding of what it decodes to (`encode(decode(b)) == b`).

mod common;

use common::SplitMix64;
use kiln_bytecode::{decode, encode, load, validate};
use kiln_targets::Target;

#[derive(Default, Debug)]
struct Tally {
    mutants: usize,
    decoded: usize,
    loaded: usize,
}

/// Loads one mutant; checks the canonical-encoding property of what decodes.
fn check(bytes: &[u8], target: &Target, tally: &mut Tally) {
    tally.mutants += 1;
    // `load` is `decode` then `validate`; one decode serves both checks.
    if let Ok(m) = decode(bytes) {
        tally.decoded += 1;
        assert!(encode(&m) == bytes, "a mutant decodes to a module that encodes differently");
        if validate(&m, target).is_ok() {
            tally.loaded += 1;
        }
    }
}

/// Values that hit boundaries of the format's fields.
const INTERESTING: [u64; 10] = [0, 1, 2, 7, 8, 0xff, 0xffff, 0xffff_ffff, 1 << 32, u64::MAX];

fn mutate(original: &[u8], target: &Target, rng: &mut SplitMix64, random_mutants: usize) -> Tally {
    let mut tally = Tally::default();
    let mut b = original.to_vec();
    for i in 0..b.len() {
        for mask in [0x01, 0x10, 0x80, 0xff] {
            b[i] ^= mask;
            check(&b, target, &mut tally);
            b[i] ^= mask;
        }
    }
    for len in 0..original.len() {
        check(&original[..len], target, &mut tally);
    }
    for _ in 0..random_mutants {
        b.copy_from_slice(original);
        for _ in 0..1 + rng.below(3) {
            let word = if rng.below(2) == 0 { rng.next() } else { INTERESTING[rng.below(INTERESTING.len())] };
            let size = [1, 2, 4, 8][rng.below(4)];
            let at = rng.below(b.len() - size + 1);
            b[at..at + size].copy_from_slice(&word.to_le_bytes()[..size]);
        }
        check(&b, target, &mut tally);
    }
    tally
}

#[test]
fn corrupted_bytecode_loads_or_fails_cleanly() {
    let tiny = Target::load("tiny-npu").unwrap();
    let mut rng = SplitMix64(0x6b69_6c6e_2d6b_6263);
    let sample = encode(&common::sample());
    load(&sample, &tiny).expect("the unmutated sample loads");
    let t = mutate(&sample, &tiny, &mut rng, 20_000);
    eprintln!("sample: {t:?}");
    assert!(t.mutants > 30_000, "{t:?}");
    // Mutants that change an address, a register or a constant's data still decode, and some
    // still load; the others are rejected.
    assert!(t.decoded > 1000 && t.loaded > 100 && t.mutants - t.decoded > 10_000, "{t:?}");
    let t = mutate(&encode(&common::every_variant()), &tiny, &mut rng, 10_000);
    eprintln!("every_variant: {t:?}");
    assert!(t.decoded > 1000 && t.loaded == 0, "every_variant is not for tiny-npu: {t:?}");
}
