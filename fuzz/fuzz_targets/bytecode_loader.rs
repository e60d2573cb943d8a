//! The bytecode loader on arbitrary bytes: `decode` and `decode_class` never panic, what they
//! accept re-encodes to the same bytes, and `validate` / `validate_class` against the tiny
//! target never panic.
#![no_main]

use std::sync::LazyLock;

use kiln_targets::Target;
use libfuzzer_sys::fuzz_target;

static TINY: LazyLock<Target> = LazyLock::new(|| {
    Target::parse(include_str!("../../targets/tiny-npu.toml"), "tiny-npu.toml").expect("tiny-npu.toml is valid")
});

fuzz_target!(|bytes: &[u8]| {
    if let Ok(module) = kiln_bytecode::decode(bytes) {
        assert!(kiln_bytecode::encode(&module) == bytes, "a decoded module re-encodes differently");
        let _ = kiln_bytecode::validate(&module, &TINY);
    }
    if let Ok(program) = kiln_bytecode::decode_class(bytes) {
        assert!(kiln_bytecode::encode_class(&program) == bytes, "a decoded class re-encodes differently");
        let _ = kiln_bytecode::validate_class(&program, &TINY);
    }
});
