//! Imported ONNX models against onnxruntime. `frontends/onnx/tests/models.py` builds one
//! model per supported op (and attribute variant) and the five blocks (BERT, GPT-2, LLaMA,
//! ViT MLP, ResNet), runs onnxruntime on seeded inputs and saves inputs and results as `.npy`.
//! Each model is imported with `kiln-translate --import-onnx`, then run with `kiln-run
//! --interpret` and with `kiln-run` (compiled, on the VM) on the same inputs; both must match
//! onnxruntime within the model's tolerance (listed and justified in `models.py`).
//!
//! Skips (with a message) when python3 with `onnx`, `onnxruntime` and `numpy` is missing; CI
//! installs them. `KILN_ONNX_ONLY=name,name` runs only the named models.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use kiln_dialects::hl::interp::{read_npy, Tensor};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have_python() -> bool {
    Command::new("python3")
        .args(["-c", "import onnx, onnxruntime, numpy"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

/// `|got - want| <= atol + rtol * |want|` everywhere (NaN equal to NaN), with the same shape.
fn compare(got: &Tensor, want: &Tensor, rtol: f64, atol: f64) -> Result<(), String> {
    if got.shape() != want.shape() {
        return Err(format!("shape {:?}, expected {:?}", got.shape(), want.shape()));
    }
    let (g, w) = (got.to_f64s(), want.to_f64s());
    let mut worst: Option<(usize, f64)> = None;
    for (i, (&a, &b)) in g.iter().zip(&w).enumerate() {
        let err = (a - b).abs();
        let ok = (a.is_nan() && b.is_nan()) || err <= atol + rtol * b.abs();
        if !ok && worst.is_none_or(|(_, e)| err > e) {
            worst = Some((i, err));
        }
    }
    match worst {
        None => Ok(()),
        Some((i, err)) => Err(format!("element {i}: {} vs onnxruntime {} (error {err:e})", g[i], w[i])),
    }
}

/// Imports and runs one model both ways; the problems found.
fn check_model(dir: &Path, entry: &serde_json::Value, out: &Path) -> Vec<String> {
    let name = entry["name"].as_str().unwrap_or("?");
    let (rtol, atol) = (entry["rtol"].as_f64().unwrap_or(0.0), entry["atol"].as_f64().unwrap_or(0.0));
    let model_dir = dir.join(name);
    let mlir = out.join(format!("{name}.mlir"));
    let mut translate = vec!["kiln-translate".to_string(), "--import-onnx".into()];
    translate.push(model_dir.join("model.onnx").display().to_string());
    translate.extend(["-o".into(), mlir.display().to_string()]);
    let extra = entry["args"].as_array().cloned().unwrap_or_default();
    translate.extend(extra.iter().filter_map(|a| a.as_str().map(String::from)));
    let translate: Vec<OsString> = translate.into_iter().map(OsString::from).collect();
    if kiln_translate::translate_main(translate) != ExitCode::SUCCESS {
        return vec![format!("{name}: the import failed")];
    }
    let inputs = entry["inputs"].as_u64().unwrap_or(0);
    let outputs = entry["outputs"].as_u64().unwrap_or(0);
    let mut problems = Vec::new();
    let vm_skip = entry["vm_skip"].as_str();
    for (mode, flag) in [("interpreter", Some("--interpret")), ("VM", None)] {
        if mode == "VM" && vm_skip.is_some() {
            continue;
        }
        let results = out.join(format!("{name}.{mode}"));
        let mut run = args(&["kiln-run", "--print-limit", "0", "--output-dir"]);
        run.push(results.clone().into());
        run.extend(flag.map(OsString::from));
        for i in 0..inputs {
            run.push("--input".into());
            run.push(model_dir.join(format!("in{i}.npy")).into());
        }
        run.push(mlir.clone().into());
        if kiln_run::run_main(run) != ExitCode::SUCCESS {
            problems.push(format!("{name} ({mode}): kiln-run failed"));
            continue;
        }
        for o in 0..outputs {
            let want = read_npy(&model_dir.join(format!("out{o}.npy")), None);
            let got = read_npy(&results.join(format!("result{o}.npy")), None);
            match (got, want) {
                (Ok(g), Ok(w)) => {
                    if let Err(e) = compare(&g, &w, rtol, atol) {
                        problems.push(format!("{name} ({mode}) result {o}: {e}"));
                    }
                }
                (g, w) => problems.push(format!(
                    "{name} ({mode}) result {o}: cannot read: {:?} {:?}",
                    g.err(),
                    w.err()
                )),
            }
        }
    }
    problems
}

#[test]
fn imported_models_match_onnxruntime() {
    if !have_python() {
        eprintln!(
            "skipped: needs python3 with onnx, onnxruntime and numpy (pip install onnx onnxruntime numpy)"
        );
        return;
    }
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("onnx_models");
    let _ = std::fs::remove_dir_all(&tmp);
    let models = tmp.join("models");
    let script = workspace().join("frontends/onnx/tests/models.py");
    let status = Command::new("python3").arg(&script).arg(&models).status().expect("python3 runs");
    assert!(status.success(), "{} failed", script.display());
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(models.join("manifest.json")).expect("the manifest is written"),
    )
    .expect("the manifest is JSON");
    let only = std::env::var("KILN_ONNX_ONLY").ok();
    let entries: Vec<&serde_json::Value> = manifest
        .as_array()
        .expect("a list")
        .iter()
        .filter(|e| only.as_deref().is_none_or(|o| o.split(',').any(|n| Some(n) == e["name"].as_str())))
        .collect();
    let out = tmp.join("out");
    std::fs::create_dir_all(&out).expect("the output folder is created");
    // Two workers: the models are independent.
    let (left, right) = entries.split_at(entries.len() / 2);
    let problems: Vec<String> = std::thread::scope(|s| {
        let (models, out) = (&models, &out);
        let run = move |part: &[&serde_json::Value]| {
            part.iter().flat_map(|e| check_model(models, e, out)).collect::<Vec<_>>()
        };
        let a = s.spawn(move || run(left));
        let mut p = run(right);
        p.extend(a.join().expect("the worker finishes"));
        p
    });
    assert!(
        problems.is_empty(),
        "{} of {} models disagree:\n{}",
        problems.len(),
        entries.len(),
        problems.join("\n")
    );
    let skipped: Vec<String> = entries
        .iter()
        .filter_map(|e| Some(format!("{}: {}", e["name"].as_str()?, e["vm_skip"].as_str()?)))
        .collect();
    eprintln!(
        "{} models agree with onnxruntime on the interpreter, {} on the VM too; VM runs skipped:\n  {}",
        entries.len(),
        entries.len() - skipped.len(),
        skipped.join("\n  ")
    );
}
