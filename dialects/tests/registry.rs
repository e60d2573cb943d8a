//! Every op declared in `dialects/src` (and in the IR core, `compiler/src`, which declares the
//! builtin ops the conversion framework builds) is registered by `all_dialects()` (once, under
//! its own dialect), and every `hl` op declares its semantics: an `HlOp` interface, whose evaluation
//! and cost entry are required fields.

use std::collections::BTreeSet;
use std::path::Path;

use kiln_dialects::hl::interfaces::HlOp;

/// The op names declared in the Rust files under `dir`: `pub static X: OpDef = OpDef { name:
/// "d.op", ...`, the `X = "d.op", ...` line of an `hl_op!`-style macro, and the
/// `Member, X_OP, "d.op", ...` line of the ISA's instruction lists (`unary_instructions!`).
fn declared_ops(dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            declared_ops(&path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut in_static = false;
        for line in text.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
            let quoted =
                |rest: &str| rest.strip_prefix('"').and_then(|r| r.split('"').next()).map(str::to_string);
            if line.starts_with("pub static ") && line.ends_with(": OpDef = OpDef {") {
                in_static = true;
            } else if let (true, Some(rest)) = (in_static, line.strip_prefix("name: ")) {
                out.push((path.display().to_string(), quoted(rest).unwrap()));
                in_static = false;
            } else if let Some((ident, rest)) = line.split_once(" = \"").or_else(|| {
                let (head, rest) = line.split_once(", \"")?;
                head.split_once(", ").map(|(_, ident)| (ident, rest))
            }) {
                let is_ident = !ident.is_empty()
                    && ident.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                if let (true, Some(name)) = (is_ident, quoted(&format!("\"{rest}"))) {
                    if name.contains('.') {
                        out.push((path.display().to_string(), name));
                    }
                }
            }
        }
    }
}

#[test]
fn every_declared_op_is_registered_once_under_its_dialect() {
    let registry = kiln_dialects::all_dialects();
    let mut registered = BTreeSet::new();
    for dialect in registry.dialects() {
        for def in dialect.ops {
            assert_eq!(
                def.dialect(),
                dialect.name,
                "'{}' is registered by dialect '{}'",
                def.name,
                dialect.name
            );
            assert!(registered.insert(def.name), "'{}' is registered twice", def.name);
            let found =
                registry.op(def.name).unwrap_or_else(|| panic!("'{}' is not found by name", def.name));
            assert!(std::ptr::eq(found, *def), "'{}' names another definition", def.name);
        }
    }
    let mut declared = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    declared_ops(&root.join("src"), &mut declared);
    declared_ops(&root.join("../compiler/src"), &mut declared);
    declared_ops(&root.join("../runtime/bytecode/src"), &mut declared);
    for (file, name) in &declared {
        assert!(registered.contains(name.as_str()), "'{name}' is declared in {file} but not registered");
    }
    let declared: BTreeSet<&str> = declared.iter().map(|(_, n)| n.as_str()).collect();
    let undeclared: Vec<_> = registered.difference(&declared).collect();
    assert!(undeclared.is_empty(), "the declaration scan missed {undeclared:?}");
}

#[test]
fn every_hl_op_declares_its_evaluation_and_cost() {
    for def in kiln_dialects::hl::HL.ops {
        assert!(def.interface::<HlOp>().is_some(), "'{}' has no HlOp interface (evaluation, cost)", def.name);
    }
    let registry = kiln_dialects::all_dialects();
    for dialect in registry.dialects().filter(|d| d.name != "hl") {
        for def in dialect.ops {
            assert!(def.interface::<HlOp>().is_none(), "'{}' outside `hl` declares an HlOp", def.name);
        }
    }
}
