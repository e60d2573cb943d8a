//! The loader and the VM on arbitrary bytes, observed and not
//! (`kiln_fuzz_checks::bytecode_vm`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| kiln_fuzz_checks::bytecode_vm(bytes));
