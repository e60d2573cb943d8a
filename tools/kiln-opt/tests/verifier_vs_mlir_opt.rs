//! Verifier diagnostics against mlir-opt 22, byte for byte: which errors are reported (the
//! first of each function, nested functions on their own, dominance after structure), their
//! words, and their notes (`see current operation: ...` with the op in the generic form, local
//! scope, large elements elided; `operand defined here ...`; no source line under a note at the
//! location just shown). The inputs are `inputs/verifier_errors.mlir`, one case per split.
//! Skipped when mlir-opt 22 is not installed (`.ci/run` installs it).

use std::path::{Path, PathBuf};
use std::process::Command;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

fn inputs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs")
}

/// The stderr of `tool` on `file` (run from its directory so both name it alike), and whether
/// it failed.
fn stderr_of(tool: &str, args: &[&str], file: &str) -> (String, bool) {
    let out = Command::new(tool)
        .args(args)
        .arg(file)
        .args(["-o", "-"])
        .current_dir(inputs())
        .output()
        .unwrap_or_else(|e| panic!("run {tool}: {e}"));
    (String::from_utf8_lossy(&out.stderr).into_owned(), !out.status.success())
}

/// Both tools on `file` with `args`: the same stderr, byte for byte; at least `min_errors`
/// errors. Returns mlir-opt's stderr.
fn assert_same_diagnostics(args: &[&str], file: &str, min_errors: usize) -> Option<String> {
    if !Path::new(MLIR_OPT).exists() {
        eprintln!("skipped: {MLIR_OPT} is not installed");
        return None;
    }
    let (theirs, their_failure) = stderr_of(MLIR_OPT, args, file);
    let (ours, our_failure) = stderr_of(env!("CARGO_BIN_EXE_kiln-opt"), args, file);
    assert!(their_failure && our_failure, "both tools reject {file}");
    assert!(theirs.matches(": error: ").count() >= min_errors, "mlir-opt reports each split:\n{theirs}");
    if ours != theirs {
        let first = ours.lines().zip(theirs.lines()).position(|(a, b)| a != b).unwrap_or(0);
        let window = |s: &str| s.lines().skip(first.saturating_sub(3)).take(8).collect::<Vec<_>>().join("\n");
        panic!(
            "kiln-opt's diagnostics on {file} differ from mlir-opt's at line {}:\n--- kiln-opt\n{}\n--- mlir-opt\n{}",
            first + 1,
            window(&ours),
            window(&theirs)
        );
    }
    Some(theirs)
}

fn splits(file: &str) -> usize {
    std::fs::read_to_string(inputs().join(file)).unwrap().matches("\n// -----\n").count() + 1
}

#[test]
fn verifier_errors_and_notes_are_mlir_opts() {
    let file = "verifier_errors.mlir";
    let args = ["--split-input-file", "--allow-unregistered-dialect"];
    let Some(theirs) = assert_same_diagnostics(&args, file, splits(file)) else { return };
    for note in ["note: see current operation: \n", "note: operand defined here", "<<UNKNOWN SSA VALUE>>"] {
        assert!(theirs.contains(note), "the inputs exercise {note:?}");
    }
}

/// Without `--allow-unregistered-dialect`, an unknown op of a known dialect is a verifier
/// error (with the op note), found in the walk's order.
#[test]
fn unknown_ops_of_known_dialects_are_refused_as_mlir_opt_does() {
    let file = "unknown_ops.mlir";
    assert_same_diagnostics(&["--split-input-file"], file, splits(file));
}

/// As mlir-opt's: `--verify-diagnostics` and `--mlir-print-op-on-diagnostic=false` leave the op
/// out.
#[test]
fn the_op_note_can_be_turned_off() {
    let kiln_opt = env!("CARGO_BIN_EXE_kiln-opt");
    let args = ["--split-input-file", "--allow-unregistered-dialect", "--mlir-print-op-on-diagnostic=false"];
    let (without, failed) = stderr_of(kiln_opt, &args, "verifier_errors.mlir");
    assert!(failed);
    assert!(without.contains("error: 'arith.addi' op operand #1 must be signless-integer-like"));
    assert!(!without.contains("see current operation"), "{without}");
    assert!(without.contains("note: operand defined here"), "other notes stay:\n{without}");
    let (with, _) = stderr_of(kiln_opt, &args[..2], "verifier_errors.mlir");
    assert!(with.contains("note: see current operation: %3 = \"arith.addi\"(%2, %arg1)"), "{with}");
}
