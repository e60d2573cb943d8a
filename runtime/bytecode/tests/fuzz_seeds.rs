//! The fuzz seed corpus (`fuzz/corpus/bytecode_loader/`) holds the current encodings of the
//! sample modules and of a shape class's program; `KILN_BLESS=1` rewrites it.

mod common;

use std::path::Path;

use kiln_bytecode::module::Module;
use kiln_bytecode::{encode, encode_class};

#[test]
fn fuzz_seeds_are_current_encodings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/bytecode_loader");
    let seeds = [
        ("sample", encode(&common::sample())),
        ("every_variant", encode(&common::every_variant())),
        ("empty", encode(&Module::default())),
        ("class_sample", encode_class(&common::class_sample())),
    ];
    let bless = std::env::var_os("KILN_BLESS").is_some();
    for (name, bytes) in seeds {
        let path = dir.join(format!("{name}.kbc"));
        if bless {
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path).unwrap_or_default();
        assert!(on_disk == bytes, "{} is stale: rerun with KILN_BLESS=1", path.display());
    }
}
