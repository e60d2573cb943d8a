//! The hand-written examples in the doc comments of the `hl` op declarations
//! (`src/hl/ops/*.rs`, a ```` ```mlir ```` block of a custom and a generic line) parse, verify
//! and mean the same op: each line is wrapped in a function whose arguments have the operand
//! types of the generic form, and both print the same generic text. (The family macros
//! generate their examples from one template each.)

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_source, print_module, PrintOptions};
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, SourceMgr};

/// The (custom, generic) example pairs of every doc comment under `src/hl/ops`.
fn examples() -> Vec<(String, String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/hl/ops");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for (i, line) in lines.iter().enumerate() {
            if *line == "/// ```mlir" {
                let doc =
                    |l: &str| l.strip_prefix("/// ").unwrap_or_else(|| panic!("{path:?}: `{l}`")).to_string();
                assert_eq!(lines[i + 3], "/// ```", "{path:?}: an example is a custom and a generic line");
                out.push((path.display().to_string(), doc(lines[i + 1]), doc(lines[i + 2])));
            }
        }
    }
    out
}

/// `line` as the body of a function taking `%0, %1, ...` of the generic form's operand types.
fn wrap(line: &str, generic: &str) -> String {
    let (_, signature) = generic.rsplit_once(" : (").expect("a generic form ends in its function type");
    let (operands, result) = signature.split_once(") -> ").expect("a function type");
    // Several results (`hl.split`) are parenthesised, and named `%1, %2` or `%1:2`.
    let results = result.strip_prefix('(').and_then(|r| r.strip_suffix(')')).unwrap_or(result);
    let args: Vec<String> = if operands.is_empty() {
        Vec::new()
    } else {
        operands.split(", ").enumerate().map(|(i, t)| format!("%{i}: {t}")).collect()
    };
    let (value, _) = line.split_once(" = ").expect("the example names its result");
    let values = match value.split_once(':') {
        Some((v, n)) => (0..n.parse().unwrap()).map(|i| format!("{v}#{i}")).collect::<Vec<_>>().join(", "),
        None => value.to_string(),
    };
    format!(
        "func.func @f({}) -> ({results}) {{\n  {line}\n  return {values} : {results}\n}}\n",
        args.join(", ")
    )
}

fn generic_print(text: &str) -> String {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut sm = SourceMgr::new();
    sm.add("example.mlir", text);
    let render = |d: &[kiln_compiler::Diagnostic<'_>]| d.iter().map(|d| sm.render(d)).collect::<String>();
    let module = parse_source(&ctx, text, "example.mlir").unwrap_or_else(|d| panic!("{}", render(&d)));
    verify(&ctx, &module.ir, module.top).unwrap_or_else(|d| panic!("{}", render(&d)));
    print_module(&ctx, &module, &PrintOptions { generic: true, ..PrintOptions::default() })
}

#[test]
fn hand_written_hl_examples_parse_verify_and_agree() {
    let examples = examples();
    assert!(examples.len() >= 20, "found only {} examples", examples.len());
    for (file, custom, generic) in &examples {
        let a = generic_print(&wrap(custom, generic));
        let b = generic_print(&wrap(generic, generic));
        assert_eq!(a, b, "{file}: `{custom}` and `{generic}` differ");
    }
}
