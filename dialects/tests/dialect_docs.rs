//! The checked-in dialect reference (`docs/dialects/`) is what the generator writes from the
//! current op declarations, and every op's page entry carries its documentation.

use std::path::Path;

use kiln_dialects::docs::{pages, REFRESH_COMMAND};

#[test]
fn checked_in_dialect_pages_are_up_to_date() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/dialects");
    let pages = pages(&kiln_dialects::all_dialects());
    let mut stale = Vec::new();
    for (name, text) in &pages {
        if std::fs::read_to_string(dir.join(name)).ok().as_deref() != Some(text.as_str()) {
            stale.push(name.clone());
        }
    }
    let mut extra: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    extra.retain(|f| !pages.iter().any(|(name, _)| name == f));
    extra.sort();
    assert!(
        stale.is_empty() && extra.is_empty(),
        "docs/dialects is out of date (stale: {stale:?}, not generated: {extra:?}); refresh it from the \
         workspace root with `{REFRESH_COMMAND}`"
    );
}

#[test]
fn every_op_is_documented_with_both_forms() {
    for dialect in kiln_dialects::all_dialects().dialects() {
        for op in dialect.ops {
            assert!(!op.summary.is_empty(), "'{}' has no summary", op.name);
            let generic = format!("\"{}\"(", op.name);
            assert!(
                op.description.contains(&generic),
                "'{}': no generic-form example in its doc comment",
                op.name
            );
            // `builtin` and `func` ops print without their namespace (`module`, `return`).
            let spelling = match dialect.name {
                "builtin" | "func" => op.name.split_once('.').map_or(op.name, |(_, short)| short),
                _ => op.name,
            };
            let custom = op.description.lines().skip(1).any(|l| {
                [' ', '('].iter().any(|c| l.contains(&format!("{spelling}{c}"))) && !l.contains(&generic)
            });
            assert!(custom, "'{}': no custom-form example in its doc comment", op.name);
        }
    }
}
