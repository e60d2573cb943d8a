//! Verifier diagnostics against mlir-opt 22, byte for byte: which errors are reported (the
//! first of each function, nested functions on their own, dominance after structure), their
//! words, and their notes (`see current operation: ...` with the op in the generic form, local
//! scope, large elements elided; `operand defined here ...`; no source line under a note at the
//! location just shown). The inputs are `inputs/verifier_errors.mlir`, one case per split.
//! Parser diagnostics likewise: `inputs/parser_errors.mlir`, and inputs with control characters
//! (carriage returns, `\v`, `\f`, NUL) written at test time. Skipped when mlir-opt 22 is not
//! installed (`.ci/run` installs it).

use std::path::{Path, PathBuf};
use std::process::Command;

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

fn inputs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs")
}

/// The stderr of `tool` on `file` (run from its directory so both name it alike), and whether
/// it failed.
fn stderr_of(tool: &str, args: &[&str], file: &str) -> (String, bool) {
    stderr_in(&inputs(), tool, args, file)
}

/// [`stderr_of`] for a file in `dir`.
fn stderr_in(dir: &Path, tool: &str, args: &[&str], file: &str) -> (String, bool) {
    let out = Command::new(tool)
        .args(args)
        .arg(file)
        .args(["-o", "-"])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("run {tool}: {e}"));
    (String::from_utf8_lossy(&out.stderr).into_owned(), !out.status.success())
}

/// Both tools on `file` with `args`: the same stderr, byte for byte; at least `min_errors`
/// errors. Returns mlir-opt's stderr.
fn assert_same_diagnostics(args: &[&str], file: &str, min_errors: usize) -> Option<String> {
    assert_same_diagnostics_in(&inputs(), args, file, min_errors)
}

/// [`assert_same_diagnostics`] for a file in `dir`.
fn assert_same_diagnostics_in(dir: &Path, args: &[&str], file: &str, min_errors: usize) -> Option<String> {
    if !Path::new(MLIR_OPT).exists() {
        eprintln!("skipped: {MLIR_OPT} is not installed");
        return None;
    }
    let (theirs, their_failure) = stderr_in(dir, MLIR_OPT, args, file);
    let (ours, our_failure) = stderr_in(dir, env!("CARGO_BIN_EXE_kiln-opt"), args, file);
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

/// The parser's errors, one per split: lexer errors (suffix-ids, `@` identifiers, `.`,
/// strings), location numbers, element types, dialect namespaces and bodies, and which of two
/// errors comes first.
#[test]
fn parser_errors_are_mlir_opts() {
    let file = "parser_errors.mlir";
    assert_same_diagnostics(&["--split-input-file", "--allow-unregistered-dialect"], file, splits(file));
}

/// Control characters as MLIR's lexer takes them: `\v` and `\f` end a string with an error and
/// are unexpected between tokens; a `\r` ends a comment (and the source line a diagnostic
/// shows); NUL is whitespace, but not in a dialect body.
#[test]
fn control_characters_are_lexed_as_mlir_opt_does() {
    let cases = [
        "\"x.a\"() {a = \"x\u{b}y\"} : () -> ()",
        "\"x.a\"() {a = \"x\u{c}y\"} : () -> ()",
        "\"x.a\"()\u{b} : () -> ()",
        "\"x.a\"() {a = [1,\u{c}2]} : () -> ()",
        "\"x.a\"() : () -> ()\r// c\r\"x.b\"() : () -> (i32",
        "\"x.a\"() : () -> ()\r// c\r\"x.b\"() : (i32) -> (\r",
        "\"x.a\"() : () -> !foo<a\0>",
        "\"x.a\"() : () -> !foo.bar<a\0b>",
        "\"x.a\"() {a = #foo<{\"s\" \0}>} : () -> ()",
        "\"x.a\"() {a = [1,\0 2]}\0 : () -> (tensor<4x\0f32>, i1\0\0",
    ];
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("control_characters");
    std::fs::create_dir_all(&dir).unwrap();
    let file = "control_characters.mlir";
    std::fs::write(dir.join(file), cases.join("\n// -----\n") + "\n").unwrap();
    let args = ["--split-input-file", "--allow-unregistered-dialect"];
    assert_same_diagnostics_in(&dir, &args, file, cases.len());
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
