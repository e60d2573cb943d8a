//! Replays the fuzz targets' committed corpora (`fuzz/corpus/<target>/`: what earlier runs
//! found, plus a few seeds) and the example programs through the functions the targets call,
//! on the stable toolchain: every input must pass its check (no panic, no violated property).

use std::path::{Path, PathBuf};

use kiln_fuzz_checks::{bytecode_vm, fusion_pipeline, interpreter, parse_roundtrip};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files of `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    out.sort();
    out
}

/// Runs `check` on every committed input of `target` and every example program.
fn replay(target: &str, check: fn(&[u8])) {
    let corpus = files(&root().join("fuzz/corpus").join(target));
    assert!(!corpus.is_empty(), "fuzz/corpus/{target} is empty");
    let examples = files(&root().join("examples"));
    for path in corpus.iter().chain(&examples) {
        let bytes = std::fs::read(path).unwrap();
        if std::panic::catch_unwind(|| check(&bytes)).is_err() {
            panic!("{target}: {} fails its check", path.display());
        }
    }
}

#[test]
fn parse_roundtrip_corpus() {
    replay("parse_roundtrip", parse_roundtrip);
}

#[test]
fn fusion_pipeline_corpus() {
    replay("fusion_pipeline", fusion_pipeline);
}

#[test]
fn bytecode_vm_corpus() {
    replay("bytecode_vm", bytecode_vm);
}

#[test]
fn interpreter_corpus() {
    replay("interpreter", interpreter);
}

/// Generated programs of both profiles (the selector byte's parity) run and repeat exactly.
#[test]
fn interpreter_generated_programs() {
    for seed in 0u8..16 {
        interpreter(&[seed % 2, seed]);
    }
}
