//! The fusion pipeline on parsed `hl`: `hl-decompose`, `canonicalize`, `cse`, then
//! `kiln-fuse` under several option sets. A pass may refuse the input with an error; what
//! it must not do is panic or leave IR that does not verify. When the first function takes
//! small static tensors and the cleaned-up program runs in the interpreter, every fused
//! program must give the same bits.

use bumpalo::Bump;
use kiln_compiler::pass::{parse_pipeline, Instrumentation};
use kiln_compiler::syntax::{parse_bytes, print_module, PrintOptions};
use kiln_compiler::verifier::verify;
use kiln_compiler::Context;
use kiln_dialects::hl::interp::program::run_function_within;
use kiln_dialects::hl::interp::{Budget, Tensor};

use crate::support::{arguments, functions, render, FILE};

/// The passes before fusion, each run and verified on its own.
const CLEANUP: &[&str] = &["hl-decompose", "canonicalize", "cse"];

/// The `kiln-fuse` option sets.
const VARIANTS: &[&str] = &[
    "opt-level=1",
    "opt-level=2",
    "opt-level=2 strategy=aggressive max-ops=3",
    "opt-level=2 strategy=conservative ub-budget=1",
    "opt-level=1 enable-ops=MatMul max-depth=2",
];

/// Elements of all arguments together, above which the program is not interpreted.
const MAX_ARG_ELEMENTS: usize = 1 << 12;

/// The interpreter's budget for the comparison (bytes of live tensors).
const BUDGET: u64 = 16 << 20;

/// Checks the fusion pipeline on `bytes` (see the module docs).
pub fn fusion_pipeline(bytes: &[u8]) {
    let Some(expected) = run(bytes, CLEANUP) else { return };
    for variant in VARIANTS {
        let fuse = format!("kiln-fuse{{{variant}}}");
        let passes: Vec<&str> = CLEANUP.iter().copied().chain([fuse.as_str()]).collect();
        // `None`: kiln-fuse refused (the cleanup passes accepted this input before).
        let Some(fused) = run(bytes, &passes) else { continue };
        if let Some(Ok(want)) = &expected {
            match fused {
                Some(Ok(got)) => assert_same_bits(want, &got, variant),
                Some(Err(e)) => panic!("[{variant}] the fused program fails where the original runs:\n{e}"),
                None => panic!("[{variant}] fusion changed the first function's arguments"),
            }
        }
    }
}

/// What interpreting the first function gave: `None` when there is none or its arguments
/// are not small static tensors.
type Outcome = Option<Result<Vec<Tensor>, String>>;

/// Parses and verifies `bytes`, runs `passes` one at a time (verifying after each) and
/// interprets the first function; `None` when the input or a pass is refused with an error.
/// Panics when a pass leaves IR that does not verify.
fn run(bytes: &[u8], passes: &[&str]) -> Option<Outcome> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(true);
    let mut m = parse_bytes(&ctx, bytes, FILE).ok()?;
    verify(&ctx, &m.ir, m.top).ok()?;
    let registry = kiln_passes::registry();
    for pass in passes {
        let mut pm = parse_pipeline(&format!("builtin.module({pass})"), &registry)
            .unwrap_or_else(|e| panic!("bad pipeline {pass}: {e}"));
        let mut diags = Vec::new();
        if pm.run(&ctx, &mut m.ir, m.top, &mut Instrumentation::default(), &mut diags).is_err() {
            return None;
        }
        if let Err(d) = verify(&ctx, &m.ir, m.top) {
            let printed = print_module(&ctx, &m, &PrintOptions { generic: true, ..PrintOptions::default() });
            panic!("{pass} left IR that does not verify:\n{}\n{printed}", render(&printed, &d));
        }
    }
    let Some(&func) = functions(&m).first() else { return Some(None) };
    let Some(args) = arguments(&m.ir, func, 1, MAX_ARG_ELEMENTS) else { return Some(None) };
    let mut budget = Budget::new(BUDGET);
    let source = String::from_utf8_lossy(bytes);
    Some(Some(run_function_within(&ctx, &m.ir, func, &args, &mut budget).map_err(|d| render(&source, &[d]))))
}

/// Bitwise equality of results (a NaN must stay the same NaN).
fn assert_same_bits(want: &[Tensor], got: &[Tensor], variant: &str) {
    assert_eq!(want.len(), got.len(), "[{variant}] result counts differ");
    for (i, (a, b)) in want.iter().zip(got).enumerate() {
        assert_eq!(a.shape(), b.shape(), "[{variant}] result #{i}: shapes differ");
        assert_eq!(a.dtype(), b.dtype(), "[{variant}] result #{i}: dtypes differ");
        let bits = |t: &Tensor| t.to_f64s().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert!(bits(a) == bits(b), "[{variant}] result #{i} differs bitwise");
    }
}
