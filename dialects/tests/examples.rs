//! Every program in `examples/` parses, verifies, and prints back to text that parses to the
//! same printout (custom and generic forms).

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_source, print_module, PrintOptions};
use kiln_compiler::verifier::verify;
use kiln_compiler::{Context, SourceMgr};

fn examples() -> Vec<std::path::PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("examples/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "expected the four example programs, found {files:?}");
    files
}

fn round_trip(text: &str, name: &str, generic: bool) -> String {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut sm = SourceMgr::new();
    sm.add(name, text);
    let module = parse_source(&ctx, text, name).unwrap_or_else(|diags| {
        panic!("{}", diags.iter().map(|d| sm.render(d)).collect::<String>());
    });
    if let Err(diags) = verify(&ctx, &module.ir, module.top) {
        panic!("{}", diags.iter().map(|d| sm.render(d)).collect::<String>());
    }
    let opts = PrintOptions { generic, ..PrintOptions::default() };
    print_module(&ctx, &module, &opts)
}

#[test]
fn examples_parse_verify_and_round_trip() {
    for path in examples() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        for generic in [false, true] {
            let once = round_trip(&text, &name, generic);
            let twice = round_trip(&once, &name, generic);
            assert_eq!(once, twice, "{name}: printing is not a fixpoint (generic = {generic})");
        }
        // custom -> generic -> custom gives the custom form back.
        let custom = round_trip(&text, &name, false);
        let generic = round_trip(&custom, &name, true);
        assert_eq!(round_trip(&generic, &name, false), custom, "{name}: generic -> custom differs");
    }
}
