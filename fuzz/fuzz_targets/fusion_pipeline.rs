//! The fusion pipeline (hl-decompose, canonicalize, cse, kiln-fuse at several option sets) on
//! arbitrary bytes parsed as MLIR (`kiln_fuzz_checks::fusion_pipeline`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| kiln_fuzz_checks::fusion_pipeline(bytes));
