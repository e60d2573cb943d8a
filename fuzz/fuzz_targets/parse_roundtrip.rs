//! Parse, verify, print, reparse, print on arbitrary bytes: the two prints agree, generic and
//! custom (`kiln_fuzz_checks::parse_roundtrip`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| kiln_fuzz_checks::parse_roundtrip(bytes));
