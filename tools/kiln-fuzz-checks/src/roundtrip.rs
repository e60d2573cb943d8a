//! Parse, verify, print, reparse, print: the second print equals the first, in the generic
//! and the custom form, with unregistered ops allowed.

use bumpalo::Bump;
use kiln_compiler::syntax::{parse_bytes, parse_source, print_module, PrintOptions};
use kiln_compiler::verifier::verify;
use kiln_compiler::Context;

use crate::support::{render, FILE};

/// Checks the round trip of `bytes` (see the module docs); inputs that do not parse or do
/// not verify are rejected cleanly and end the check.
pub fn parse_roundtrip(bytes: &[u8]) {
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    ctx.set_allow_unregistered(true);
    let Ok(module) = parse_bytes(&ctx, bytes, FILE) else { return };
    if verify(&ctx, &module.ir, module.top).is_err() {
        return;
    }
    for generic in [true, false] {
        let form = if generic { "generic" } else { "custom" };
        let opts = PrintOptions { generic, ..PrintOptions::default() };
        let first = print_module(&ctx, &module, &opts);
        let again = parse_source(&ctx, &first, FILE).unwrap_or_else(|d| {
            panic!("the {form} form does not parse back:\n{}\n{first}", render(&first, &d))
        });
        if let Err(d) = verify(&ctx, &again.ir, again.top) {
            panic!("the {form} form does not verify once reparsed:\n{}\n{first}", render(&first, &d));
        }
        let second = print_module(&ctx, &again, &opts);
        assert!(
            first == second,
            "the {form} form is not a fixed point:\n--- first\n{first}\n--- second\n{second}"
        );
    }
}
