//! The `hl` interpreter under a memory budget on generated programs and parsed modules
//! (`kiln_fuzz_checks::interpreter`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| kiln_fuzz_checks::interpreter(bytes));
