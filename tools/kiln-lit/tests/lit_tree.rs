//! Runs the workspace's whole lit tree (`lit-tests/`) with kiln-lit, after
//! building every tool binary of the workspace into the target directory
//! and profile this test was built for, so `cargo test` covers the lit
//! tests too. Tests for tools not built yet are skipped through features.

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn lit_tree_passes() {
    let kiln_lit = Path::new(env!("CARGO_BIN_EXE_kiln-lit"));
    let bin_dir = kiln_lit.parent().expect("kiln-lit lives in a directory");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    build_tools(&workspace, bin_dir);

    let output = Command::new(kiln_lit)
        .arg("-v")
        .arg("--bin-dir")
        .arg(bin_dir)
        .arg(workspace.join("lit-tests"))
        .env_remove("LIT_FILTER")
        .env_remove("LIT_FILTER_OUT")
        .output()
        .expect("kiln-lit runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "lit tests failed:\n{stdout}\n{stderr}");
}

/// Builds all binaries of the workspace with the profile whose output
/// directory is `bin_dir` (`<target>/debug` is the `dev` profile).
fn build_tools(workspace: &Path, bin_dir: &Path) {
    let profile = match bin_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev",
        Some(other) => other,
    };
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| bin_dir.parent().map(Path::to_path_buf))
        .expect("a target directory");
    let status = Command::new(env!("CARGO"))
        .current_dir(workspace)
        .args(["build", "--workspace", "--bins", "--profile", profile])
        .env("CARGO_TARGET_DIR", target_dir)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building the workspace's tools failed");
}
