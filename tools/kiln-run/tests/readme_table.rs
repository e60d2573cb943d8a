//! The README's table of the examples, fused against unfused, is what `kiln-run --stats` and
//! `kiln-run --stats --no-fuse` print for them today: kernels, HBM bytes and simulated time
//! (the cost model is deterministic). A change to the back end that moves a figure fails here
//! with the row to write, so the table cannot go stale; every example has exactly one row.

use std::path::Path;
use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// The header line of the table in README.md.
const HEADER: &str = "| example | kernels (fused / unfused) | HBM bytes (fused / unfused) | simulated time (fused / unfused) |";

/// Kernels, HBM bytes and simulated microseconds of one `kiln-run --stats` run (with `args`).
fn stats(example: &Path, args: &[&str]) -> (u64, u64, f64) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kiln-run"));
    cmd.arg(example).args(["--stats", "--print-limit", "0"]).args(args);
    let out = cmd.output().expect("kiln-run runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "kiln-run {} failed:\n{text}{}",
        example.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let field = |line: &str, key: &str| -> Option<String> {
        line.split_whitespace().find_map(|w| w.strip_prefix(key)).map(str::to_string)
    };
    let totals = text.lines().find(|l| l.starts_with("stats: total ")).expect("a `stats: total` line");
    let kernels = field(totals, "kernels=").and_then(|v| v.parse().ok()).expect("kernels=");
    let bytes = field(totals, "hbm-bytes=").and_then(|v| v.parse().ok()).expect("hbm-bytes=");
    // `total: <n> launches, <t> ns; busy cycles: ...`
    let time = text.lines().find_map(|l| l.strip_prefix("total: ")).expect("a `total:` line");
    let ns: f64 = time
        .split(", ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .expect("the simulated time in ns");
    (kernels, bytes, ns / 1e3)
}

/// `1149952` as `1,149,952`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn the_readme_examples_table_is_what_kiln_run_stats_prints() {
    let readme = std::fs::read_to_string(format!("{ROOT}/README.md")).expect("README.md");
    let mut lines = readme.lines().skip_while(|l| *l != HEADER);
    assert_eq!(lines.next(), Some(HEADER), "README.md has no examples table headed {HEADER:?}");
    let rows: Vec<&str> = lines.skip(1).take_while(|l| l.starts_with('|')).collect();
    let mut examples: Vec<String> = std::fs::read_dir(format!("{ROOT}/examples"))
        .expect("examples/")
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".mlir").map(str::to_string))
        .collect();
    examples.sort();
    let mut named: Vec<String> =
        rows.iter().map(|r| r.split('|').nth(1).unwrap_or("").trim().to_string()).collect();
    named.sort();
    assert_eq!(named, examples, "the table's rows against examples/*.mlir");
    let mut stale = Vec::new();
    for row in rows {
        let name = row.split('|').nth(1).unwrap_or("").trim();
        let path = Path::new(ROOT).join("examples").join(format!("{name}.mlir"));
        let (fk, fb, ft) = stats(&path, &[]);
        let (uk, ub, ut) = stats(&path, &["--no-fuse"]);
        let want =
            format!("| {name} | {fk} / {uk} | {} / {} | {ft:.1} us / {ut:.1} us |", grouped(fb), grouped(ub));
        if row != want {
            stale.push(format!("  README: {row}\n  now:    {want}"));
        }
    }
    assert!(
        stale.is_empty(),
        "README.md's examples table is stale; write the rows as now:\n{}",
        stale.join("\n")
    );
}

#[test]
fn grouping_of_digits() {
    assert_eq!(grouped(0), "0");
    assert_eq!(grouped(999), "999");
    assert_eq!(grouped(1000), "1,000");
    assert_eq!(grouped(1_149_952), "1,149,952");
}

/// The largest GM temporary (in elements of 4 bytes) of `text` compiled for `target` at
/// opt-level 2, as `kiln-run` compiles it.
fn largest_temp(text: &str, target: &str) -> u64 {
    let arena = bumpalo::Bump::new();
    let ctx = kiln_compiler::Context::new(&arena, kiln_dialects::all_dialects());
    let mut module = kiln_compiler::syntax::parse_bytes(&ctx, text.as_bytes(), "attention").expect("parses");
    kiln_emit::compile::cleanup(&ctx, &mut module.ir, module.top).expect("cleans up");
    let t = kiln_targets::Target::load(target).expect("a target");
    let program =
        kiln_emit::compile::compile(&ctx, &mut module.ir, module.top, &t, target, 2).expect("compiles");
    program.host.temps.iter().max().copied().unwrap_or(0) / 4
}

/// The baseline of issue 42's table: attention (`Attention::baseline`: one head of 64, f32, a
/// key padding mask, the decomposed softmax) at S = 128, 512, 2048 and 8192 with today's
/// kernels on ascend910b: kernels, HBM bytes, simulated time, and whether a GM buffer of S x S
/// elements exists. Prints only (`KILN_ATTENTION_LENGTHS`, comma-separated, picks others).
#[test]
#[ignore = "prints the attention baseline of issue 42 (about 10 s in a debug build)"]
fn attention_baseline() {
    use kiln_dialects::hl::interp::generator::Attention;
    let lengths = std::env::var("KILN_ATTENTION_LENGTHS").unwrap_or_else(|_| "128,512,2048,8192".into());
    let dir = std::env::temp_dir().join(format!("kiln-attention-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    println!("| S | kernels | HBM bytes | simulated time | largest GM temporary (elements) | S x S in GM |");
    println!("|---|---|---|---|---|---|");
    for s in lengths.split(',').map(|s| s.trim().parse::<u64>().expect("a length")) {
        let text = Attention::baseline(s as usize, 1).program();
        let path = dir.join(format!("attention_{s}.mlir"));
        std::fs::write(&path, &text).expect("writes");
        let (kernels, bytes, us) = stats(&path, &["--max-steps", "1000000000000"]);
        let temp = largest_temp(&text, "ascend910b");
        println!(
            "| {s} | {kernels} | {} | {us:.1} us | {} | {} |",
            grouped(bytes),
            grouped(temp),
            if temp >= s * s { "yes" } else { "no" }
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
