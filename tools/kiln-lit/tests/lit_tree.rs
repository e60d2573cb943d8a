//! Runs the workspace's whole lit tree (`lit-tests/`) with kiln-lit, after
//! building every tool binary of the workspace into the target directory
//! and profile this test was built for, and reports each lit file as a
//! test of its own (`cargo test -p kiln-lit --test lit_tree -- dialects/`
//! runs the matching ones; `UNSUPPORTED` files show as ignored). Tests
//! for tools not built yet are skipped through features.

use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The suite name kiln-lit prints before ` :: ` (from lit-tests/kiln-lit.toml).
const SUITE: &str = "Kiln :: ";

fn main() {
    let args = Arguments::from_args();
    let kiln_lit = Path::new(env!("CARGO_BIN_EXE_kiln-lit"));
    let bin_dir = kiln_lit.parent().expect("kiln-lit lives in a directory");
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let trials = match build_tools(&workspace, bin_dir) {
        Ok(()) => lit_trials(kiln_lit, bin_dir, &workspace.join("lit-tests")),
        Err(e) => vec![Trial::test("build the workspace's tools", move || Err(e.into()))],
    };
    libtest_mimic::run(&args, trials).exit();
}

/// Runs the tree once with `-v` and turns each reported file into a trial
/// that passes, fails with the file's log, or is ignored (unsupported).
fn lit_trials(kiln_lit: &Path, bin_dir: &Path, tree: &Path) -> Vec<Trial> {
    let output = Command::new(kiln_lit)
        .args(["-v", "--order=lexical"])
        .arg("--bin-dir")
        .arg(bin_dir)
        .arg(tree)
        .env_remove("LIT_FILTER")
        .env_remove("LIT_FILTER_OUT")
        .env_remove("LIT_OPTS")
        .env_remove("LIT_XFAIL")
        .env_remove("LIT_XFAIL_NOT")
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => {
            return vec![Trial::test("run kiln-lit", move || Err(format!("cannot run kiln-lit: {e}").into()))]
        }
    };
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let results = parse_results(&stdout);
    if results.is_empty() {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        return vec![Trial::test("run kiln-lit", move || {
            Err(format!("no results:\n{stdout}\n{stderr}").into())
        })];
    }
    results
        .into_iter()
        .map(|(name, (status, log))| {
            let ignored = status == "UNSUPPORTED";
            let failed = matches!(status.as_str(), "FAIL" | "XPASS" | "UNRESOLVED" | "TIMEOUT");
            Trial::test(
                name,
                move || if failed { Err(Failed::from(format!("{status}\n{log}"))) } else { Ok(()) },
            )
            .with_ignored_flag(ignored)
        })
        .collect()
}

/// `name -> (status, log)` from kiln-lit's `-v` output: the result lines
/// (`PASS: Kiln :: a.mlir (1 of 9)`) and the logs of failed tests.
fn parse_results(stdout: &str) -> BTreeMap<String, (String, String)> {
    let mut results = BTreeMap::new();
    let mut lines = stdout.lines().peekable();
    while let Some(line) = lines.next() {
        let Some((status, rest)) = line.split_once(": ") else { continue };
        let Some(name) = rest.strip_prefix(SUITE).and_then(|r| r.rsplit_once(" (")).map(|(n, _)| n) else {
            continue;
        };
        if !status.chars().all(|c| c.is_ascii_uppercase()) {
            continue;
        }
        let mut log = String::new();
        if lines.next_if(|l| l.starts_with("******************** TEST ")).is_some() {
            while let Some(l) = lines.next_if(|l| *l != "********************") {
                log.push_str(l);
                log.push('\n');
            }
        }
        results.insert(name.to_string(), (status.to_string(), log));
    }
    results
}

/// Builds all binaries of the workspace with the profile whose output
/// directory is `bin_dir` (`<target>/debug` is the `dev` profile).
fn build_tools(workspace: &Path, bin_dir: &Path) -> Result<(), String> {
    let profile = match bin_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") | None => "dev",
        Some(other) => other,
    };
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| bin_dir.parent().map(Path::to_path_buf))
        .ok_or("no target directory")?;
    let status = Command::new(env!("CARGO"))
        .current_dir(workspace)
        .args(["build", "--workspace", "--bins", "--profile", profile])
        .env("CARGO_TARGET_DIR", target_dir)
        // Not the test harness's stdin: cargo's rustc probe reads stdin, and a failed probe
        // is cached in the target directory.
        .stdin(std::process::Stdio::null())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err("building the workspace's tools failed".to_string())
    }
}
