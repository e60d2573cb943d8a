//! The `hl` interpreter under a small memory budget, on two kinds of input:
//! - a first byte below 0x10 selects a program of the tests' random-program generator
//!   (`kiln_dialects::hl::interp::generator`): the byte's parity picks the profile (fusion
//!   or back end), the next eight bytes the seed. Such a program must parse, verify and run,
//!   and running it twice must give the same bits;
//! - any other input is MLIR text: every function of the module that verifies and takes small
//!   static tensors is run on seeded arguments and must give results or a located error.

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_bytes, parse_source};
use kiln_compiler::verifier::verify;
use kiln_compiler::Context;
use kiln_dialects::hl::interp::generator::{random_program, BACKEND, FUSION};
use kiln_dialects::hl::interp::program::run_function_within;
use kiln_dialects::hl::interp::{Budget, Tensor};

use crate::support::{arguments, functions, render, FILE};

/// Live-tensor bytes a run may hold (small: work grows with size, and a fuzz input must
/// run in well under a second).
const BUDGET: u64 = 1 << 20;

/// Elements of all arguments of one function together, above which it is not run.
const MAX_ARG_ELEMENTS: usize = 1 << 12;

/// Functions of a parsed module that are run.
const MAX_FUNCTIONS: usize = 4;

/// Checks the interpreter on `bytes` (see the module docs).
pub fn interpreter(bytes: &[u8]) {
    match bytes.first() {
        Some(&b) if b < 0x10 => generated(b, &bytes[1..]),
        _ => parsed(bytes),
    }
}

fn generated(selector: u8, seed_bytes: &[u8]) {
    let mut seed = [0u8; 8];
    let n = seed_bytes.len().min(8);
    seed[..n].copy_from_slice(&seed_bytes[..n]);
    let seed = u64::from_le_bytes(seed);
    let profile = if selector.is_multiple_of(2) { &FUSION } else { &BACKEND };
    let text = random_program(seed, profile);
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let m = parse_source(&ctx, &text, FILE)
        .unwrap_or_else(|d| panic!("a generated program does not parse:\n{}\n{text}", render(&text, &d)));
    if let Err(d) = verify(&ctx, &m.ir, m.top) {
        panic!("a generated program does not verify:\n{}\n{text}", render(&text, &d));
    }
    let func = functions(&m)[0];
    let args = arguments(&m.ir, func, seed, usize::MAX).expect("generated arguments are static tensors");
    let run = || {
        let mut budget = Budget::new(Budget::DEFAULT_LIMIT);
        run_function_within(&ctx, &m.ir, func, &args, &mut budget)
            .unwrap_or_else(|d| panic!("a generated program fails:\n{}\n{text}", render(&text, &[d])))
    };
    let bits = |r: Vec<Tensor>| r.iter().map(|t| t.to_f64s().iter().map(|v| v.to_bits()).collect()).collect();
    let (first, second): (Vec<Vec<u64>>, Vec<Vec<u64>>) = (bits(run()), bits(run()));
    assert!(first == second, "two runs of a generated program differ:\n{text}");
}

fn parsed(bytes: &[u8]) {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(true);
    let Ok(m) = parse_bytes(&ctx, bytes, FILE) else { return };
    if verify(&ctx, &m.ir, m.top).is_err() {
        return;
    }
    for (i, func) in functions(&m).into_iter().take(MAX_FUNCTIONS).enumerate() {
        if let Some(args) = arguments(&m.ir, func, i as u64, MAX_ARG_ELEMENTS) {
            let _ = run_function_within(&ctx, &m.ir, func, &args, &mut Budget::new(BUDGET));
        }
    }
}
