//! The ONNX model corpus (`frontends/onnx/corpus/models/`, built by
//! `frontends/onnx/corpus/export.py`): real architectures exported by both `torch.onnx`
//! exporters, with seeded inputs and onnxruntime's outputs. Every model is imported
//! (in-process), run on the `hl` interpreter and compared with onnxruntime (f32: `rtol 1e-3`,
//! `atol 1e-4`; integers exactly), then compiled and run on the VM with `kiln-run --check`
//! (the VM against the interpreter, the sync checker on) and the VM's results compared with
//! onnxruntime too.
//!
//! A model exported with dynamic axes (its manifest entry lists `sizes`) imports without
//! `--input-shape` and runs at every size (`dynamic_models_run_at_every_size`).
//!
//! Every model must import and agree on the interpreter. The models that do not yet compile or
//! run on the VM are listed, with the reason, in `onnx_corpus/vm_failures.txt`: a failure that
//! is not listed fails the test, and so does a listed model that passes (the list only
//! shrinks). `KILN_CORPUS_BLESS=1` rewrites the list from the run; `KILN_CORPUS_ONLY=name,name`
//! runs only the named models (and checks no list). Needs no Python: the data is committed.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bumpalo::Bump;
use kiln_compiler::syntax::{print_module, PrintOptions};
use kiln_compiler::Context;
use kiln_dialects::hl::interp::{read_npy, Tensor};

const RTOL: f64 = 1e-3;
const ATOL: f64 = 1e-4;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../frontends/onnx/corpus/models")
}

fn list_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/onnx_corpus/vm_failures.txt")
}

/// `got` against onnxruntime's `want`: the same shape; floats within `ATOL + RTOL * |want|`
/// (NaN equal to NaN), anything else equal.
fn compare(got: &Tensor, want: &Tensor) -> Result<(), String> {
    if got.shape() != want.shape() {
        return Err(format!("shape {:?}, onnxruntime {:?}", got.shape(), want.shape()));
    }
    let float = got.dtype().is_float() && want.dtype().is_float();
    for (i, (a, b)) in got.to_f64s().into_iter().zip(want.to_f64s()).enumerate() {
        let ok =
            if float { (a.is_nan() && b.is_nan()) || (a - b).abs() <= ATOL + RTOL * b.abs() } else { a == b };
        if !ok {
            return Err(format!("element {i}: {a} vs onnxruntime {b}"));
        }
    }
    Ok(())
}

/// The results in `dir` (`result<i>.npy`) against the model's `out<i>.npy`; the largest
/// absolute difference.
fn check_results(model: &Path, dir: &Path, outputs: usize) -> Result<f64, String> {
    let mut worst = 0f64;
    for o in 0..outputs {
        let want = read_npy(&model.join(format!("out{o}.npy")), None).map_err(|e| e.message().to_string())?;
        let got = read_npy(&dir.join(format!("result{o}.npy")), None).map_err(|e| e.message().to_string())?;
        compare(&got, &want).map_err(|e| format!("result {o}: {e}"))?;
        let diffs = got.to_f64s().into_iter().zip(want.to_f64s()).map(|(a, b)| (a - b).abs());
        worst = diffs.filter(|d| !d.is_nan()).fold(worst, f64::max);
    }
    Ok(worst)
}

/// Imports `model/model.onnx` into `mlir` (the printed module).
fn import(model: &Path, mlir: &Path) -> Result<(), String> {
    let path = model.join("model.onnx");
    let bytes = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let module = kiln_onnx::import_model(&ctx, &bytes, &path, &kiln_onnx::ImportOptions::default())
        .map_err(|e| e.to_string())?;
    std::fs::write(mlir, print_module(&ctx, &module, &PrintOptions::default())).map_err(|e| e.to_string())
}

/// `kiln-run` (in-process) on `mlir` with the model's inputs, results into `out`; the first
/// line of what it reports when it fails.
fn kiln_run(mlir: &Path, model: &Path, inputs: usize, out: &Path, mode: &str) -> Result<(), String> {
    let mut args: Vec<OsString> =
        ["kiln-run", mode, "--print-limit", "0", "--output-dir"].map(OsString::from).to_vec();
    args.push(out.into());
    for i in 0..inputs {
        args.push("--input".into());
        args.push(model.join(format!("in{i}.npy")).into());
    }
    args.push(mlir.into());
    let (code, stdout, stderr) = kiln_run::run_captured(args);
    if code == ExitCode::SUCCESS {
        return Ok(());
    }
    let text = format!("{stderr}{stdout}");
    let line = text.lines().find(|l| l.contains("error") || l.contains("differ")).or(text.lines().next());
    Err(line.unwrap_or("kiln-run failed").trim().to_string())
}

/// Checks one model: `Err` for an import or interpreter failure (never allowed), `Ok(Some)`
/// with the reason when only the VM fails.
fn check_model(entry: &serde_json::Value, tmp: &Path) -> Result<Option<String>, String> {
    let name = entry["name"].as_str().unwrap_or("?");
    let model = corpus().join(name);
    let (inputs, outputs) =
        (entry["inputs"].as_u64().unwrap_or(0) as usize, entry["outputs"].as_u64().unwrap_or(0) as usize);
    let mlir = tmp.join(format!("{name}.mlir"));
    import(&model, &mlir).map_err(|e| format!("{name}: import: {e}"))?;
    let interp = tmp.join(format!("{name}.interpreter"));
    kiln_run(&mlir, &model, inputs, &interp, "--interpret")
        .map_err(|e| format!("{name}: interpreter: {e}"))?;
    check_results(&model, &interp, outputs).map_err(|e| format!("{name}: interpreter {e}"))?;
    let vm = tmp.join(format!("{name}.vm"));
    let outcome =
        kiln_run(&mlir, &model, inputs, &vm, "--check").and_then(|()| check_results(&model, &vm, outputs));
    Ok(outcome.err())
}

fn read_list() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(list_path()).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(": ") {
            Some((n, r)) => (n.to_string(), r.to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

#[test]
fn corpus_models_match_onnxruntime_and_compile() {
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(corpus().join("manifest.json")).expect("the corpus manifest is committed"),
    )
    .expect("the manifest is JSON");
    let only = std::env::var("KILN_CORPUS_ONLY").ok();
    let entries: Vec<&serde_json::Value> = manifest["models"]
        .as_array()
        .expect("a list of models")
        .iter()
        .filter(|e| only.as_deref().is_none_or(|o| o.split(',').any(|n| Some(n) == e["name"].as_str())))
        .collect();
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("onnx_corpus");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("the output folder is created");
    // Two workers: the models are independent.
    let (left, right) = entries.split_at(entries.len() / 2);
    let results: Vec<(String, Result<Option<String>, String>)> = std::thread::scope(|s| {
        let tmp = &tmp;
        let run = move |part: &[&serde_json::Value]| {
            part.iter()
                .map(|e| (e["name"].as_str().unwrap_or("?").to_string(), check_model(e, tmp)))
                .collect::<Vec<_>>()
        };
        let a = s.spawn(move || run(left));
        let mut r = a.join().expect("the worker finishes");
        r.extend(run(right));
        r
    });
    let mut problems: Vec<String> = results.iter().filter_map(|(_, r)| r.as_ref().err().cloned()).collect();
    let vm_failing: BTreeMap<String, String> =
        results.iter().filter_map(|(n, r)| Some((n.clone(), r.as_ref().ok()?.clone()?))).collect();
    eprintln!(
        "ONNX corpus: {} models; {} agree with onnxruntime on the interpreter, {} pass on the VM",
        results.len(),
        results.iter().filter(|(_, r)| r.is_ok()).count(),
        results.iter().filter(|(_, r)| matches!(r, Ok(None))).count()
    );
    for (n, why) in &vm_failing {
        eprintln!("  VM: {n}: {why}");
    }
    if only.is_none() {
        if std::env::var_os("KILN_CORPUS_BLESS").is_some() {
            let mut text = String::from(
                "# Corpus models that do not yet compile or run on the VM, with the reason\n\
                 # (tools/kiln-translate/tests/onnx_corpus.rs). This list may only shrink.\n",
            );
            for (n, why) in &vm_failing {
                text.push_str(&format!("{n}: {why}\n"));
            }
            std::fs::write(list_path(), text).expect("the list is written");
        } else {
            let listed = read_list();
            problems.extend(
                vm_failing
                    .iter()
                    .filter(|(n, _)| !listed.contains_key(*n))
                    .map(|(n, why)| format!("{n}: fails on the VM and is not listed: {why}")),
            );
            let names: Vec<&str> = results.iter().map(|(n, _)| n.as_str()).collect();
            problems.extend(
                listed
                    .keys()
                    .filter(|n| names.contains(&n.as_str()) && !vm_failing.contains_key(*n))
                    .map(|n| format!("{n}: listed in vm_failures.txt but passes on the VM: remove it")),
            );
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// The models exported with dynamic axes (a manifest entry with `sizes`) import without
/// `--input-shape`, keeping their symbolic dims as `?`, and run at each size (the model's
/// inputs and outputs for the first, `size<k>/` for the others) with `kiln-run --check`: the
/// module is specialized to the inputs' shapes, the VM agrees with the interpreter, and the
/// VM's results with onnxruntime's.
#[test]
fn dynamic_models_run_at_every_size() {
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(corpus().join("manifest.json")).expect("the corpus manifest is committed"),
    )
    .expect("the manifest is JSON");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("onnx_dynamic");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("the output folder is created");
    let dynamic: Vec<&serde_json::Value> = manifest["models"]
        .as_array()
        .expect("a list of models")
        .iter()
        .filter(|e| e["sizes"].is_array())
        .collect();
    assert!(!dynamic.is_empty(), "the corpus has a model with dynamic axes");
    for entry in dynamic {
        let name = entry["name"].as_str().unwrap_or("?");
        let (inputs, outputs) =
            (entry["inputs"].as_u64().unwrap_or(0) as usize, entry["outputs"].as_u64().unwrap_or(0) as usize);
        let model = corpus().join(name);
        let mlir = tmp.join(format!("{name}.mlir"));
        import(&model, &mlir).unwrap_or_else(|e| panic!("{name}: import: {e}"));
        let text = std::fs::read_to_string(&mlir).expect("the module is written");
        let signature = text.lines().find(|l| l.contains("func.func @main")).unwrap_or_default();
        assert!(signature.contains("tensor<?x?x"), "{name}: the symbolic dims are kept: {signature}");
        let sizes = entry["sizes"].as_array().expect("a list of sizes");
        for (k, size) in sizes.iter().enumerate() {
            let dir = if k == 0 { model.clone() } else { model.join(format!("size{k}")) };
            let out = tmp.join(format!("{name}.size{k}"));
            kiln_run(&mlir, &dir, inputs, &out, "--check")
                .unwrap_or_else(|e| panic!("{name} at {size}: {e}"));
            let worst =
                check_results(&dir, &out, outputs).unwrap_or_else(|e| panic!("{name} at {size}: {e}"));
            eprintln!("{name} at (batch, seq) = {size}: the VM agrees with the interpreter; max |vm - onnxruntime| = {worst:e}");
        }
    }
}
