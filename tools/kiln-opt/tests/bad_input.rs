//! Pathological inputs too big for the lit tree: whatever the input, kiln-opt ends with status
//! 0, or with status 1 and a located error; never a panic, a signal or an unbounded report.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn kiln_opt(args: &[&str], input: &[u8], name: &str) -> (Output, PathBuf) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, input).expect("write the generated input");
    let out =
        Command::new(env!("CARGO_BIN_EXE_kiln-opt")).args(args).arg(&path).output().expect("run kiln-opt");
    (out, path)
}

/// Status 0, or status 1 with `file:line:col: error:` on stderr; no panic; a bounded report.
fn assert_clean(out: &Output, path: &Path) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let head: String = stderr.chars().take(2000).collect();
    assert!(!stderr.contains("panicked"), "kiln-opt panicked:\n{head}");
    match out.status.code() {
        Some(0) => {}
        Some(1) => {
            let located = format!("{}:", path.display());
            let has_location = stderr.lines().any(|l| {
                l.strip_prefix(&located).is_some_and(|rest| {
                    let mut parts = rest.splitn(3, ':');
                    let line_ok = parts.next().is_some_and(|n| n.parse::<u32>().is_ok());
                    let col_ok = parts.next().is_some_and(|n| n.parse::<u32>().is_ok());
                    line_ok && col_ok && parts.next().is_some_and(|m| m.starts_with(" error: "))
                })
            });
            assert!(has_location, "no located error:\n{head}");
        }
        other => panic!("kiln-opt ended with {other:?} (signal?):\n{head}"),
    }
    assert!(stderr.len() < 64 * 1024, "unbounded report ({} bytes):\n{head}", stderr.len());
}

#[test]
fn one_hundred_megabyte_string_attribute_on_one_line() {
    let mut input = b"\"test.op\"() {big = \"".to_vec();
    input.resize(input.len() + (100 << 20), b'x');
    input.extend_from_slice(b"\"} : () -> ()\n");
    let (out, path) =
        kiln_opt(&["--allow-unregistered-dialect", "-o", "/dev/null"], &input, "huge-line.mlir");
    assert_clean(&out, &path);
}

#[test]
fn one_hundred_megabyte_line_with_an_error_at_its_end() {
    let mut input = b"\"test.op\"() {big = \"".to_vec();
    input.resize(input.len() + (100 << 20), b'x');
    // Unterminated string: the error points somewhere into the line; the report stays small.
    let (out, path) = kiln_opt(&["--allow-unregistered-dialect"], &input, "huge-line-error.mlir");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_clean(&out, &path);
}

#[test]
fn ten_thousand_nested_regions() {
    const DEPTH: usize = 10_000;
    let mut input = String::new();
    for _ in 0..DEPTH {
        input.push_str("\"test.nest\"() ({\n");
    }
    input.push_str("\"test.leaf\"() : () -> ()\n");
    for _ in 0..DEPTH {
        input.push_str("}) : () -> ()\n");
    }
    let (out, path) =
        kiln_opt(&["--allow-unregistered-dialect", "-o", "/dev/null"], input.as_bytes(), "deep-regions.mlir");
    assert_clean(&out, &path);
}

#[test]
fn ten_thousand_nested_regions_left_open() {
    let input = "\"test.nest\"() ({\n".repeat(10_000);
    let (out, path) = kiln_opt(&["--allow-unregistered-dialect"], input.as_bytes(), "deep-open.mlir");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert_clean(&out, &path);
}

#[test]
fn hundred_thousand_nested_array_attributes() {
    const DEPTH: usize = 100_000;
    let input = format!("\"test.op\"() {{a = {}{}}} : () -> ()\n", "[".repeat(DEPTH), "]".repeat(DEPTH));
    let (out, path) =
        kiln_opt(&["--allow-unregistered-dialect", "-o", "/dev/null"], input.as_bytes(), "deep-attr.mlir");
    assert_clean(&out, &path);
}

#[test]
fn hundred_thousand_nested_tensor_types() {
    const DEPTH: usize = 100_000;
    let ty = format!("{}f32{}", "tensor<".repeat(DEPTH), ">".repeat(DEPTH));
    let input = format!("\"test.op\"() : () -> {ty}\n");
    let (out, path) =
        kiln_opt(&["--allow-unregistered-dialect", "-o", "/dev/null"], input.as_bytes(), "deep-type.mlir");
    assert_clean(&out, &path);
}

#[test]
fn random_bytes_never_crash() {
    // A fixed pseudo-random stream (xorshift) of MLIR-ish punctuation and garbage.
    let alphabet = b"{}()[]<>\"%^@#!:=,.-+0123456789xe_\n \t\\\xff\xc3";
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..20 {
        let input: Vec<u8> = (0..2000)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                alphabet[(state % alphabet.len() as u64) as usize]
            })
            .collect();
        let name = format!("random-{round}.mlir");
        let (out, path) = kiln_opt(&["--allow-unregistered-dialect", "-o", "/dev/null"], &input, &name);
        assert_clean(&out, &path);
    }
}
