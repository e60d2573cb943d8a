//! Seeded mutation fuzzing of the parser (generic and custom forms), the verifiers and the
//! printer: every round-trip corpus file, example program and `hl`/`fused` round-trip test,
//! cut, spliced and sprinkled with MLIR punctuation, must give a clean result or located
//! errors — never a panic. (Inputs that break it are printed, to become lit tests.)

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_bytes, print_module, PrintOptions};
use kiln_compiler::verifier::verify;
use kiln_compiler::Context;

/// Mutations per corpus file.
const ROUNDS: usize = 200;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

const SPLINTERS: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"<",
    b">",
    b"[",
    b"]",
    b"\"",
    b"%",
    b"^bb9",
    b"#",
    b"!",
    b"@",
    b":",
    b"->",
    b",",
    b"=",
    b"loc(",
    b"dense<",
    b"0x",
    b"-",
    b"1e309",
    b"\\",
    b"\xff",
    b"{-#",
    b"#-}",
    b"// -----",
    b"tensor<?x",
    b"affine_map<(d0) ->",
    b"distinct[",
    b"%0#7",
];

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(out.len() + 1);
        match rng.below(5) {
            0 => out.truncate(at),
            1 => {
                let end = (at + rng.below(64)).min(out.len());
                out.drain(at..end);
            }
            2 => {
                let end = (at + rng.below(128)).min(out.len());
                let piece = out[at..end].to_vec();
                let to = rng.below(out.len() + 1);
                out.splice(to..to, piece);
            }
            _ => {
                let s = SPLINTERS[rng.below(SPLINTERS.len())];
                out.splice(at..at, s.iter().copied());
            }
        }
    }
    out
}

fn exercise(input: &[u8], allow_unregistered: bool) {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(allow_unregistered);
    if let Ok(module) = parse_bytes(&ctx, input, "fuzz.mlir") {
        let _ = verify(&ctx, &module.ir, module.top);
        for generic in [true, false] {
            let _ = print_module(&ctx, &module, &PrintOptions { generic, ..PrintOptions::default() });
        }
    }
}

#[test]
fn mutated_corpus_files_never_panic() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut files = Vec::new();
    for dir in ["lit-tests/ir/roundtrip/corpus", "examples"] {
        let entries = std::fs::read_dir(format!("{root}/{dir}")).unwrap();
        files.extend(
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "mlir")),
        );
    }
    files.push(format!("{root}/lit-tests/dialects/hl/ops.mlir").into());
    files.push(format!("{root}/lit-tests/dialects/fused/ops.mlir").into());
    files.sort();
    assert!(files.len() > 30);
    let mut rng = Rng(0x6b696c6e);
    let mut failures = Vec::new();
    for path in &files {
        let original = std::fs::read(path).unwrap();
        for round in 0..ROUNDS {
            let input = mutate(&mut rng, &original);
            let unregistered = round % 2 == 0;
            if std::panic::catch_unwind(|| exercise(&input, unregistered)).is_err() {
                failures.push(format!(
                    "{} round {round}:\n{}",
                    path.display(),
                    String::from_utf8_lossy(&input)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} mutated inputs panicked; first:\n{}", failures.len(), failures[0]);
}
