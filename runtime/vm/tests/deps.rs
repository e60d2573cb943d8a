//! The VM is a leaf of the runtime: `cargo tree -p kiln-vm -e normal,dev` lists no IR crate
//! (kiln-compiler, kiln-dialects, kiln-passes), not even for tests, only the bytecode, target
//! and numerics crates.

use std::process::Command;

#[test]
fn cargo_tree_shows_no_ir_crate() {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-p",
            "kiln-vm",
            "-e",
            "normal,dev",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8(out.stdout).expect("cargo tree prints UTF-8");
    let packages: Vec<&str> = tree.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(packages.first(), Some(&"kiln-vm"), "{tree}");
    assert!(
        packages.contains(&"kiln-bytecode") && packages.contains(&"half"),
        "the tree lists the dependencies: {tree}"
    );
    for ir in ["kiln-compiler", "kiln-dialects", "kiln-passes"] {
        assert!(!packages.contains(&ir), "kiln-vm depends on {ir}:\n{tree}");
    }
}
