//! Command-line messages and coloured diagnostics compared byte for byte
//! with LLVM 22's FileCheck:
//! both run with the same `argv[0]` (LLVM's path), so program names in
//! messages must agree too. Skipped when LLVM's FileCheck is absent.

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

const LLVM_FILECHECK: &str = "/usr/lib/llvm-22/bin/FileCheck";

/// Exit code, stdout and stderr of `program` run as `LLVM_FILECHECK`.
fn run(program: &str, dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(program)
        .arg0(LLVM_FILECHECK)
        .args(args)
        .current_dir(dir)
        .env_remove("FILECHECK_OPTS")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn usage_messages_match_llvm_filecheck() {
    if !Path::new(LLVM_FILECHECK).exists() {
        println!("note: {LLVM_FILECHECK} not found; skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("kiln-filecheck-messages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("c.txt"), "CHECK: x\n").expect("check file");
    std::fs::write(dir.join("empty.txt"), "").expect("empty input");
    std::fs::write(dir.join("in.txt"), "a\n\tx y\n").expect("input");
    std::fs::write(dir.join("a.txt"), "CHECK: a\nCHECK-NEXT: {{x}} y\n").expect("check file");
    std::fs::write(dir.join("d.txt"), "CHECK: foo\nCHECK-NEXT: bar\nCHECK-NOT: baz\nCHECK: qux\n")
        .expect("check");
    std::fs::write(dir.join("din.txt"), "foo\nxbar\nbar\nbaz\nzzz\n").expect("input");
    std::fs::write(dir.join("e.txt"), "CHECK: a\nCHECK-DAG: b\nCHECK-DAG: b\nCHECK: c\nCHECK: q\n")
        .expect("check");
    let lines: String = (1..=30).map(|i| format!("line {i} a b\n")).collect();
    std::fs::write(dir.join("ein.txt"), lines + "c\nz\n").expect("input");
    let cases: &[&[&str]] = &[
        &["-D", "c.txt"],
        &["c.txt", "-D", "X=1"],
        &["c.txt", "-D"],
        &["-DX", "c.txt"],
        &["c.txt", "--input-file"],
        &["c.txt", "c.txt"],
        &["--check-prefix=A,A", "c.txt"],
        &["--check-prefixes=A,A", "c.txt"],
        &["--check-prefixes=", "c.txt"],
        &["--check-prefixes=COM", "c.txt"],
        &["--comment-prefixes=COM,RUN", "--check-prefixes=COM", "c.txt"],
        &["--comment-prefixes=CHECK", "c.txt"],
        &["--check-prefixes=A", "--comment-prefixes=A", "c.txt"],
        &["-v=2", "c.txt"],
        &["--dump-input=foo", "c.txt"],
        &["--dump-input-context=x", "c.txt"],
        &["--dump-input=help"],
        &["c.txt", "--input-file", "empty.txt"],
        // Unknown options, with the nearest known one suggested (LLVM also knows options of
        // its support library, such as --stats, so only near misses of FileCheck's own agree).
        &["--chek-prefix=X", "c.txt"],
        &["--strict-whitespac", "c.txt"],
        // Colours: diagnostics, the dump help, and the annotated input dump (markers of
        // every colour, -v highlighting of unmatched input, elided lines).
        &["d.txt", "--input-file", "din.txt", "--color", "--dump-input=always"],
        &["d.txt", "--input-file", "din.txt", "--color", "-v", "--dump-input=always"],
        &["d.txt", "--input-file", "din.txt", "--color", "-vv"],
        &["e.txt", "--input-file", "ein.txt", "--color", "-vv"],
        &["e.txt", "--input-file", "ein.txt", "--color", "--dump-input-context=1"],
        &["e.txt", "--input-file", "ein.txt", "--color", "--dump-input-filter=all", "-v"],
        &["--dump-input=help", "--color"],
        &["--dump-input=help", "--color=false"],
        &["c.txt", "--input-file", "in.txt", "--color", "--dump-input=never"],
        &["a.txt", "--input-file", "in.txt", "-vv", "--color", "--dump-input=never"],
        &["a.txt", "--input-file", "in.txt", "--check-prefix=A", "--color", "--dump-input=never"],
    ];
    let ours = env!("CARGO_BIN_EXE_kiln-filecheck");
    let mismatches: Vec<String> = cases
        .iter()
        .filter_map(|args| {
            let (theirs, mine) = (run(LLVM_FILECHECK, &dir, args), run(ours, &dir, args));
            (theirs != mine).then(|| format!("{args:?}:\n  llvm {theirs:?}\n  kiln {mine:?}"))
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(mismatches.is_empty(), "messages differ:\n{}", mismatches.join("\n"));
}

/// Errors in check patterns and `-D` definitions, as LLVM prints them: those LLVM logs as
/// `ErrorDiagInfo` (numeric blocks, variable names, `-D` definitions) are followed by an empty
/// line, the others are not.
#[test]
fn pattern_errors_match_llvm_filecheck() {
    if !Path::new(LLVM_FILECHECK).exists() {
        println!("note: {LLVM_FILECHECK} not found; skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("kiln-filecheck-pattern-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("in.txt"), "line 1 a b\n").expect("input");
    std::fs::write(dir.join("c.txt"), "CHECK: line\n").expect("check file");
    let patterns = [
        "[[#N:]] [[#N]]x",
        "[[#%q,N:]]",
        "[[#N+]]",
        "[[#foo(1)]]",
        "[[#1X]]",
        "[[#N==1]]",
        "[[#-N]]",
        "[[#N:]] [[#N*N]]",
        "[[]]",
        "[[1X]]",
        "[[@FOO]]",
        "[[#add(1)]]",
        "[[#0x]]",
        "[[#,N:]]",
        "[[X Y]]",
        "[[#X:]] [[X:b]]",
        "[[X:a]] [[#X]]",
        "{{[0-9]{2}}}",
    ];
    let mut cases: Vec<Vec<String>> = Vec::new();
    for (i, p) in patterns.iter().enumerate() {
        let name = format!("p{i}.txt");
        std::fs::write(dir.join(&name), format!("CHECK: {p}\n")).expect("check file");
        cases.push(vec![name, "--input-file".into(), "in.txt".into()]);
    }
    for d in ["-D1X=a", "-D#%q,N=1", "-D#N", "-D=1", "-DX", "-D@X=1", "-D#N=1+"] {
        cases.push(vec!["c.txt".into(), "--input-file".into(), "in.txt".into(), d.into()]);
    }
    let ours = env!("CARGO_BIN_EXE_kiln-filecheck");
    let mismatches: Vec<String> = cases
        .iter()
        .filter_map(|args| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (theirs, mine) = (run(LLVM_FILECHECK, &dir, &args), run(ours, &dir, &args));
            (theirs != mine).then(|| format!("{args:?}:\n  llvm {theirs:?}\n  kiln {mine:?}"))
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(mismatches.is_empty(), "messages differ:\n{}", mismatches.join("\n"));
}
