//! Round trip of the generic form against the mlir-opt corpus, and bad-input robustness.
//!
//! Every file in `lit-tests/ir/roundtrip/corpus/` is mlir-opt 22's generic output; parsing
//! and printing it must give the same bytes. When `mlir-opt` is installed, our output must
//! also be accepted by it.

use std::path::{Path, PathBuf};
use std::process::Command;

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_bytes, parse_source, print_module, PrintOptions};
use kiln_compiler::{Context, DialectRegistry, SourceMgr};

const MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../lit-tests/ir/roundtrip/corpus")
}

/// Parses `src` with unregistered dialects allowed and prints it generically (plus the
/// trailing newline mlir-opt adds), or returns the rendered diagnostics.
fn roundtrip(src: &str, name: &str, debug_info: bool) -> Result<String, String> {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    ctx.set_allow_unregistered(true);
    let opts = PrintOptions { generic: true, debug_info, ..Default::default() };
    match parse_source(&ctx, src, name) {
        Ok(m) => Ok(print_module(&ctx, &m, &opts) + "\n"),
        Err(diags) => Err(render(src, name, &diags)),
    }
}

fn render(src: &str, name: &str, diags: &[kiln_compiler::Diagnostic<'_>]) -> String {
    let mut sm = SourceMgr::new();
    sm.add(name, src);
    diags.iter().map(|d| sm.render(d)).collect()
}

/// The first error of parsing `src` (all dialects unregistered and allowed).
fn first_error(src: &[u8]) -> String {
    let arena = Bump::new();
    let ctx = Context::new(&arena, DialectRegistry::new());
    ctx.set_allow_unregistered(true);
    match parse_bytes(&ctx, src, "in.mlir") {
        Ok(_) => String::new(),
        Err(d) => render(&String::from_utf8_lossy(src), "in.mlir", &d[..1]),
    }
}

#[test]
fn corpus_round_trips_byte_for_byte() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("corpus directory")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(path).expect("corpus file");
        match roundtrip(&src, &name, name.contains("debuginfo")) {
            Ok(out) if out == src => {}
            Ok(out) => {
                let line = src.lines().zip(out.lines()).position(|(a, b)| a != b).unwrap_or(0);
                let want = src.lines().nth(line).unwrap_or("<eof>");
                let got = out.lines().nth(line).unwrap_or("<eof>");
                failures.push(format!("{name}:{}: differs\n  want: {want}\n  got:  {got}", line + 1));
            }
            Err(e) => failures.push(format!("{name}: parse error\n{e}")),
        }
    }
    eprintln!("{} of {} corpus files round-trip byte for byte", files.len() - failures.len(), files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mlir_opt_accepts_our_output() {
    if !Path::new(MLIR_OPT).exists() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("kiln-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(corpus_dir()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok(out) = roundtrip(&src, &name, name.contains("debuginfo")) else { continue };
        let file = dir.join(&name);
        std::fs::write(&file, out).unwrap();
        let status = Command::new(MLIR_OPT)
            .args(["--allow-unregistered-dialect", "--mlir-print-op-generic", "-o", "/dev/null"])
            .arg(&file)
            .status()
            .unwrap();
        assert!(status.success(), "mlir-opt rejects our output for {name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ssa_and_block_errors_are_located_like_mlir() {
    let cases: &[(&str, &str)] = &[
        ("\"foo.a\"(%x, %y) : (i32, i32) -> ()\n", "in.mlir:1:9: error: use of undeclared SSA value name"),
        (
            "%x = \"foo.b\"() : () -> i32\n%x = \"foo.c\"() : () -> i32\n",
            "in.mlir:2:1: error: redefinition of SSA value '%x'",
        ),
        (
            "\"foo.a\"() ({\n \"foo.b\"()[^bb3] : () -> ()\n}) : () -> ()",
            "in.mlir:2:12: error: reference to an undefined block",
        ),
        (
            "\"foo.a\"() ({\n^bb1:\n \"foo.b\"() : () -> ()\n^bb1:\n}) : () -> ()",
            "in.mlir:4:1: error: redefinition of block '^bb1'",
        ),
        (
            "%0:2 = \"foo.a\"() : () -> i32\n",
            "in.mlir:1:1: error: operation defines 1 results but was provided 2 to bind",
        ),
        (
            "\"foo.a\"() ({\n  \"foo.b\"() : () -> ()\n",
            "in.mlir:2:23: error: expected operation name in quotes",
        ),
        ("\"foo.a\"() : () -> ()\n}", "in.mlir:1:21: error: expected operation name in quotes"),
        ("\"foo.a\"() : () -> ()\n\u{1}", "in.mlir:2:1: error: unexpected character"),
        ("\"foo.a\"() {x = \"open} : () -> ()\n", "in.mlir:1:"),
    ];
    for (src, want) in cases {
        let got = first_error(src.as_bytes());
        assert!(got.starts_with(want), "for {src:?}\n want: {want}\n got:  {got}");
    }
}

#[test]
fn type_mismatch_between_use_and_definition() {
    let src = "%x = \"foo.b\"() : () -> i32\n\"foo.a\"(%x) : (f32) -> ()\n";
    let got = first_error(src.as_bytes());
    assert!(
        got.starts_with(
            "in.mlir:2:9: error: use of value '%x' expects different type than prior uses: 'f32' vs 'i32'"
        ),
        "{got}"
    );
    assert!(got.contains("in.mlir:1:1: note: prior use here"), "{got}");
}

#[test]
fn invalid_utf8_is_located_or_kept_in_strings() {
    let bad = b"\"foo.a\"() : () -> ()\n\xff \"foo.b\"() : () -> ()\n";
    assert!(first_error(bad).starts_with("in.mlir:2:1: error: unexpected character"));
    let in_comment = b"// \xff\n\"foo.a\"() : () -> ()\n";
    assert_eq!(first_error(in_comment), "");
}

#[test]
fn truncated_inputs_never_panic() {
    let src = std::fs::read_to_string(corpus_dir().join("cf_branches.mlir")).unwrap();
    for cut in (0..src.len()).step_by(7) {
        if src.is_char_boundary(cut) {
            let _ = first_error(&src.as_bytes()[..cut]);
        }
    }
}

/// Runs `f` on a thread with a small stack, so recursion over nesting would overflow.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(256 * 1024).spawn(f).unwrap().join().unwrap();
}

#[test]
fn deeply_nested_regions_parse_and_print_iteratively() {
    on_small_stack(|| {
        const DEPTH: usize = 10_000;
        let mut src = String::new();
        for _ in 0..DEPTH {
            src.push_str("\"foo.r\"() ({\n");
        }
        for _ in 0..DEPTH {
            src.push_str("}) : () -> ()\n");
        }
        let out = roundtrip(&src, "deep.mlir", false).expect("deep nesting parses");
        assert_eq!(out.matches("\"foo.r\"").count(), DEPTH);
        // Unclosed: a clean error, no overflow.
        let opened = DEPTH * "\"foo.r\"() ({\n".len();
        let err = first_error(&src.as_bytes()[..opened]);
        assert!(err.contains("error: expected operation name in quotes"), "{err}");
    });
}

#[test]
fn huge_single_line_is_linear() {
    // 200k ops on one line (a few MB): quadratic behaviour would take minutes.
    let mut src = String::from("\"foo.r\"() ({");
    for _ in 0..200_000 {
        src.push_str("\"foo.a\"() : () -> () ");
    }
    src.push_str("}) : () -> ()");
    let start = std::time::Instant::now();
    let out = roundtrip(&src, "line.mlir", true).expect("long line parses");
    assert!(out.contains("loc(\"line.mlir\":1:"));
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}
