//! The bytecode loader on arbitrary bytes: `decode` never panics, what it accepts re-encodes
//! to the same bytes, and `validate` against the tiny target never panics.
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
});
