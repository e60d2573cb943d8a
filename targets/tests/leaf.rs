//! The targets crate is a leaf: `cargo tree -p kiln-targets` lists no IR crate (no other
//! `kiln-*` package), so the VM and the runtime can read a target without the compiler.

use std::process::Command;

#[test]
fn cargo_tree_shows_no_ir_crate() {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "-p", "kiln-targets", "--prefix", "none", "--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8(out.stdout).expect("cargo tree prints UTF-8");
    let packages: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(packages.first(), Some(&"kiln-targets"), "{tree}");
    assert!(packages.contains(&"toml"), "the tree lists the dependencies: {tree}");
    let kiln: Vec<&&str> = packages[1..].iter().filter(|p| p.starts_with("kiln-")).collect();
    assert!(kiln.is_empty(), "kiln-targets depends on {kiln:?}:\n{tree}");
}
