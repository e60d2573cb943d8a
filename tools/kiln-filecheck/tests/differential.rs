//! Differential test against LLVM FileCheck: every case under
//! `tests/cases/<name>/` (a `check.txt`, an `input.txt` and optional
//! whitespace-separated extra arguments in `args`) must give the same exit
//! code with both implementations. Skipped when LLVM's FileCheck is absent.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const LLVM_FILECHECK: &str = "/usr/lib/llvm-22/bin/FileCheck";

fn exit_code(program: &Path, case: &Path) -> i32 {
    let args = std::fs::read_to_string(case.join("args")).unwrap_or_default();
    let status = Command::new(program)
        .arg(case.join("check.txt"))
        .arg("--input-file")
        .arg(case.join("input.txt"))
        .args(args.split_whitespace())
        .env_remove("FILECHECK_OPTS")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    status.code().expect("terminated by a signal")
}

#[test]
fn exit_codes_match_llvm_filecheck() {
    let llvm = Path::new(LLVM_FILECHECK);
    if !llvm.exists() {
        println!("note: {LLVM_FILECHECK} not found; skipping the differential test");
        return;
    }
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_kiln-filecheck"));
    let cases_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&cases_dir)
        .expect("tests/cases exists")
        .map(|e| e.expect("readable entry").path())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no differential cases found");
    let mismatches: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let (theirs, mine) = (exit_code(llvm, case), exit_code(&ours, case));
            (theirs != mine).then(|| format!("{}: llvm {theirs}, kiln {mine}", case.display()))
        })
        .collect();
    assert!(mismatches.is_empty(), "exit codes differ:\n{}", mismatches.join("\n"));
}
