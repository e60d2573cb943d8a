//! The committed op schema table (`src/schema_versions.rs`) is what
//! `scripts/schema_versions.py` generates from the installed `onnx` package. Skips (with a
//! message) when python3 lacks `onnx`.

use std::path::Path;
use std::process::Command;

#[test]
fn the_schema_table_matches_the_installed_onnx() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let have_onnx =
        Command::new("python3").args(["-c", "import onnx"]).output().is_ok_and(|o| o.status.success());
    if !have_onnx {
        eprintln!("skipped: needs python3 with onnx (pip install onnx)");
        return;
    }
    let out = Command::new("python3")
        .arg(root.join("scripts/schema_versions.py"))
        .arg("--print")
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "schema_versions.py failed: {}", String::from_utf8_lossy(&out.stderr));
    let committed =
        std::fs::read_to_string(root.join("src/schema_versions.rs")).expect("the table is readable");
    assert!(
        committed == String::from_utf8_lossy(&out.stdout),
        "src/schema_versions.rs differs from what the installed onnx gives: run \
         `python3 frontends/onnx/scripts/schema_versions.py` and review the op versions in src/ops/mod.rs"
    );
}
