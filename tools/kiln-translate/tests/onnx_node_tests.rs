//! ONNX's backend node tests through Kiln. `frontends/onnx/tests/node_tests.py` generates every
//! plain-tensor case of the installed `onnx` package that onnxruntime passes (model, inputs,
//! expected outputs) into `target/tmp/onnx_node_tests` (regenerated only when `onnx`,
//! onnxruntime or the script change). Each case is imported in-process and run on the `hl`
//! interpreter; a case that imports is also compiled and run on the VM (`kiln-run`, in-process).
//! Both are compared with the expected outputs:
//!
//! - integer and bool results must be equal (a result whose ONNX type `hl` holds in a wider type,
//!   such as `uint8` in `i32`, is first wrapped to that type, as documented in
//!   docs/frontends/onnx.md);
//! - float results within `|got - want| <= atol + rtol * |want|` with the case's own `rtol`
//!   (ONNX's runner's: 1e-3 unless the case says otherwise) and `atol` raised to at least 1e-6:
//!   the expected values are computed by numpy, often in float64, while Kiln computes in f32
//!   (float64 models included), and a decomposed op (Selu's `exp(x) - 1`, Softplus's
//!   `log(1 + exp(x))`) loses a few f32 ulps of 1 (1.2e-7 each) near zero.
//!
//! The failures must be exactly the cases listed in `onnx_node_tests/interpreter_failures.txt`
//! and `onnx_node_tests/vm_failures.txt`: a failing case that is not listed fails the test, and
//! so does a listed case that passes (remove it: the lists only shrink). `KILN_NODE_TESTS_BLESS=1`
//! rewrites both lists from the run; `KILN_NODE_TESTS_REPORT=file.md` writes the pass counts per
//! op type; `KILN_NODE_TESTS_ONLY=name,name` runs only the named cases (and checks no lists);
//! `KILN_NODE_TESTS_VERBOSE=1` prints every failure's reason. Skips (with a message) when
//! python3 lacks `onnx`, `onnxruntime` or `numpy`.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use bumpalo::Bump;
use kiln_compiler::syntax::{print_module, PrintOptions};
use kiln_compiler::{Context, Ir, OpId};
use kiln_dialects::hl::accessors::tensor_parts;
use kiln_dialects::hl::interp::program::{dtype_of, run_function};
use kiln_dialects::hl::interp::{read_npy, DType, Tensor};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn lists_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/onnx_node_tests")
}

fn have_python() -> bool {
    Command::new("python3")
        .args(["-c", "import onnx, onnxruntime, numpy"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// One generated case.
struct Case {
    name: String,
    ops: Vec<String>,
    rtol: f64,
    atol: f64,
    /// The graph inputs' names, in order.
    inputs: Vec<String>,
    outputs: usize,
}

/// The outcome of one case on both sides (`None`: passed).
struct Outcome {
    interpreter: Option<String>,
    vm: Option<String>,
}

/// `got` against `want` (see the module docs for the rule).
fn compare(got: &Tensor, want: &Tensor, rtol: f64, atol: f64) -> Result<(), String> {
    if got.shape() != want.shape() {
        return Err(format!("shape {:?}, expected {:?}", got.shape(), want.shape()));
    }
    let exact = !got.dtype().is_float() || !want.dtype().is_float();
    if exact && got.dtype() != want.dtype() {
        return Err(format!("element type {}, expected {}", got.dtype(), want.dtype()));
    }
    let atol = atol.max(1e-6);
    for (i, (a, b)) in got.to_f64s().into_iter().zip(want.to_f64s()).enumerate() {
        let ok = if exact {
            a == b
        } else {
            (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= atol + rtol * b.abs()
        };
        if !ok {
            return Err(format!("element {i}: {a} vs expected {b}"));
        }
    }
    Ok(())
}

/// The ONNX type names the function's results stand for (`onnx.type`), `None` where the `hl`
/// type is the ONNX type.
fn held_result_types(ir: &Ir<'_>, func: OpId) -> Vec<Option<String>> {
    let Some(list) = ir.attr(func, "res_attrs").and_then(|a| a.as_array()) else { return Vec::new() };
    list.iter()
        .map(|d| {
            let entries = d.as_dict()?;
            let held = entries.iter().find(|e| e.name == kiln_onnx::HELD_TYPE_ATTR)?;
            held.value.as_str().map(|s| String::from_utf8_lossy(s).into_owned())
        })
        .collect()
}

/// The results (wrapped to their ONNX types) against the expected outputs of `case`.
fn check_results(dir: &Path, case: &Case, got: &[Tensor], held: &[Option<String>]) -> Option<String> {
    if got.len() != case.outputs {
        return Some(format!("{} results, expected {}", got.len(), case.outputs));
    }
    for (o, g) in got.iter().enumerate() {
        let g = match held.get(o).and_then(Option::as_deref) {
            Some(name) => kiln_onnx::wrap_to_declared(g, name),
            None => g.clone(),
        };
        let want = match read_npy(&dir.join(format!("out{o}.npy")), None) {
            Ok(w) => w,
            Err(e) => return Some(format!("expected output {o}: {}", e.message())),
        };
        if let Err(e) = compare(&g, &want, case.rtol, case.atol) {
            return Some(format!("result {o}: {e}"));
        }
    }
    None
}

/// A module imported from a case, and which of its graph inputs became constants.
struct Imported {
    text: String,
    /// The indices of the graph inputs that remain function arguments.
    args: Vec<usize>,
}

/// Imports `case` and runs it on the interpreter; also returns the import when it succeeded.
///
/// The node tests feed shapes, axes, pads and the like as graph inputs; where the import
/// needs one as a constant (it names the input), it is imported again with that input's value
/// fixed (`ImportOptions::constant_inputs`), as onnx-mlir's backend test marks such inputs
/// constant.
fn interpret(dir: &Path, case: &Case) -> (Option<String>, Option<Imported>) {
    let path = dir.join("model.onnx");
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => return (Some(format!("cannot read the model: {e}")), None),
    };
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let mut options = kiln_onnx::ImportOptions::default();
    let mut module = loop {
        match kiln_onnx::import_model(&ctx, &bytes, &path, &options) {
            Ok(m) => break m,
            Err(e) => {
                let known = |n: &str| options.constant_inputs.iter().any(|(c, _)| c == n);
                let at = e
                    .constant_input()
                    .filter(|n| !known(n))
                    .and_then(|n| case.inputs.iter().position(|i| i == n));
                let Some(at) = at else { return (Some(format!("import: {e}")), None) };
                match read_npy(&dir.join(format!("in{at}.npy")), None) {
                    Ok(t) => options.constant_inputs.push((case.inputs[at].clone(), t)),
                    Err(e) => return (Some(format!("input {at}: {}", e.message())), None),
                }
            }
        }
    };
    let args: Vec<usize> = (0..case.inputs.len())
        .filter(|&i| !options.constant_inputs.iter().any(|(c, _)| *c == case.inputs[i]))
        .collect();
    let imported = Imported { text: print_module(&ctx, &module, &PrintOptions::default()), args };
    if let Err(e) = module.inline_dense_resources(&ctx) {
        return (Some(format!("resources: {e}")), Some(imported));
    }
    let Some(func) = first_func(&module.ir, module.top) else {
        return (Some("no function".into()), Some(imported));
    };
    let entry = module.ir.regions(func)[0];
    let block = module.ir.entry_block(entry).expect("the function has a body");
    let params = module.ir.block_args(block);
    if params.len() != imported.args.len() {
        let n = imported.args.len();
        return (Some(format!("{} arguments, {n} inputs", params.len())), Some(imported));
    }
    let mut values = Vec::new();
    for (&i, &p) in imported.args.iter().zip(params) {
        let dtype: Option<DType> = tensor_parts(module.ir.value_type(p)).and_then(|(_, e)| dtype_of(e));
        match read_npy(&dir.join(format!("in{i}.npy")), dtype) {
            Ok(t) => values.push(t),
            Err(e) => return (Some(format!("input {i}: {}", e.message())), Some(imported)),
        }
    }
    let held = held_result_types(&module.ir, func);
    let outcome = match run_function(&ctx, &module.ir, func, &values) {
        Ok(results) => check_results(dir, case, &results, &held),
        Err(d) => Some(format!("interpreter: {}", d.message)),
    };
    (outcome, Some(imported))
}

fn first_func(ir: &Ir<'_>, top: OpId) -> Option<OpId> {
    let body = ir.regions(top).first()?;
    ir.region_blocks(*body).flat_map(|b| ir.block_ops(b)).find(|&op| ir.op(op).name == "func.func")
}

/// Compiles the imported module and runs it on the VM with `kiln-run` (in-process).
fn run_vm(dir: &Path, case: &Case, imported: &Imported, out: &Path) -> Option<String> {
    let text = &imported.text;
    let mlir = out.join(format!("{}.mlir", case.name));
    let results = out.join(format!("{}.vm", case.name));
    if let Err(e) = std::fs::write(&mlir, text) {
        return Some(format!("cannot write the module: {e}"));
    }
    let mut args: Vec<OsString> =
        ["kiln-run", "--print-limit", "0", "--output-dir"].map(OsString::from).to_vec();
    args.push(results.clone().into());
    for i in &imported.args {
        args.push("--input".into());
        args.push(dir.join(format!("in{i}.npy")).into());
    }
    args.push(mlir.into());
    let (code, stdout, stderr) = kiln_run::run_captured(args);
    if code != ExitCode::SUCCESS {
        let text = format!("{stderr}{stdout}");
        let line = text.lines().find(|l| l.contains("error")).or(text.lines().next());
        return Some(format!("kiln-run: {}", line.unwrap_or("failed").trim()));
    }
    let arena = Bump::new();
    let ctx = Context::new(&arena, kiln_dialects::all_dialects());
    let parsed = kiln_compiler::syntax::parse_bytes(&ctx, text.as_bytes(), "case");
    let held = parsed.ok().and_then(|m| first_func(&m.ir, m.top).map(|f| held_result_types(&m.ir, f)));
    let mut got = Vec::new();
    for o in 0..case.outputs {
        match read_npy(&results.join(format!("result{o}.npy")), None) {
            Ok(t) => got.push(t),
            Err(e) => return Some(format!("result {o}: {}", e.message())),
        }
    }
    check_results(dir, case, &got, &held.unwrap_or_default())
}

fn run_case(cases: &Path, case: &Case, out: &Path) -> Outcome {
    let dir = cases.join(&case.name);
    let (interpreter, imported) = interpret(&dir, case);
    let vm = match &imported {
        Some(imported) => run_vm(&dir, case, imported, out),
        None => Some("not imported".into()),
    };
    Outcome { interpreter, vm }
}

fn read_list(name: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(lists_dir().join(name)).unwrap_or_default();
    text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect()
}

fn write_list(name: &str, header: &str, failing: &BTreeSet<String>) {
    let mut text = header.to_string();
    for n in failing {
        text.push_str(n);
        text.push('\n');
    }
    std::fs::create_dir_all(lists_dir()).expect("the list folder is created");
    std::fs::write(lists_dir().join(name), text).expect("the list is written");
}

/// The differences between `failing` and the list `name`, as lines. A listed case the installed
/// `onnx` does not generate is not checked.
fn list_problems(
    name: &str,
    generated: &BTreeSet<&str>,
    failing: &BTreeSet<String>,
    reasons: &BTreeMap<String, String>,
) -> Vec<String> {
    let listed = read_list(name);
    let mut problems: Vec<String> = failing
        .difference(&listed)
        .map(|n| {
            format!("{name}: `{n}` fails and is not listed: {}", reasons.get(n).map_or("", String::as_str))
        })
        .collect();
    problems.extend(
        listed
            .difference(failing)
            .filter(|n| generated.contains(n.as_str()))
            .map(|n| format!("{name}: `{n}` is listed but passes: remove it")),
    );
    problems
}

fn report(cases: &[Case], outcomes: &[Outcome]) -> String {
    let mut per_op: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    for (c, o) in cases.iter().zip(outcomes) {
        for op in &c.ops {
            let e = per_op.entry(op.as_str()).or_default();
            e[0] += 1;
            e[1] += usize::from(o.interpreter.is_none());
            e[2] += usize::from(o.vm.is_none());
        }
    }
    let mut text = String::from("| op type | cases | interpreter | VM |\n| --- | ---: | ---: | ---: |\n");
    for (op, [n, i, v]) in per_op {
        text.push_str(&format!("| `{op}` | {n} | {i} | {v} |\n"));
    }
    text
}

#[test]
fn onnx_node_tests_match_the_expected_failures() {
    if !have_python() {
        eprintln!(
            "skipped: needs python3 with onnx, onnxruntime and numpy (pip install onnx onnxruntime numpy)"
        );
        return;
    }
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("onnx_node_tests");
    let cases_dir = root.join("cases");
    let script = workspace().join("frontends/onnx/tests/node_tests.py");
    let status = Command::new("python3").arg(&script).arg(&cases_dir).status().expect("python3 runs");
    assert!(status.success(), "{} failed", script.display());
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(cases_dir.join("manifest.json")).expect("the manifest is written"),
    )
    .expect("the manifest is JSON");
    let only = std::env::var("KILN_NODE_TESTS_ONLY").ok();
    let cases: Vec<Case> = manifest["cases"]
        .as_array()
        .expect("a list of cases")
        .iter()
        .map(|c| Case {
            name: c["name"].as_str().unwrap_or("?").to_string(),
            ops: c["ops"]
                .as_array()
                .map(|a| a.iter().filter_map(|o| o.as_str().map(String::from)).collect())
                .unwrap_or_default(),
            rtol: c["rtol"].as_f64().unwrap_or(1e-3),
            atol: c["atol"].as_f64().unwrap_or(1e-7),
            inputs: c["inputs"]
                .as_array()
                .map(|a| a.iter().filter_map(|o| o.as_str().map(String::from)).collect())
                .unwrap_or_default(),
            outputs: c["outputs"].as_u64().unwrap_or(0) as usize,
        })
        .filter(|c| only.as_deref().is_none_or(|o| o.split(',').any(|n| n == c.name)))
        .collect();
    let out = root.join("out");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("the output folder is created");
    // Two workers: the cases are independent.
    let outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let (cases_dir, out) = (&cases_dir, &out);
        let half = cases.len() / 2;
        let (left, right) = cases.split_at(half);
        let worker = s.spawn(move || left.iter().map(|c| run_case(cases_dir, c, out)).collect::<Vec<_>>());
        let mut rest: Vec<Outcome> = right.iter().map(|c| run_case(cases_dir, c, out)).collect();
        let mut all = worker.join().expect("the worker finishes");
        all.append(&mut rest);
        all
    });
    let mut reasons = [BTreeMap::new(), BTreeMap::new()];
    for (c, o) in cases.iter().zip(&outcomes) {
        for (side, r) in [&o.interpreter, &o.vm].into_iter().enumerate() {
            if let Some(r) = r {
                reasons[side].insert(c.name.clone(), r.clone());
            }
        }
    }
    let failing: [BTreeSet<String>; 2] = reasons.clone().map(|r| r.into_keys().collect());
    let passed = [cases.len() - failing[0].len(), cases.len() - failing[1].len()];
    eprintln!(
        "ONNX node tests: {} plain-tensor cases onnxruntime passes; {} pass on the interpreter, {} on the VM",
        cases.len(),
        passed[0],
        passed[1]
    );
    if std::env::var_os("KILN_NODE_TESTS_VERBOSE").is_some() {
        for (side, r) in ["interpreter", "VM"].iter().zip(&reasons) {
            for (n, why) in r {
                eprintln!("{side}: {n}: {why}");
            }
        }
    }
    if let Some(path) = std::env::var_os("KILN_NODE_TESTS_REPORT") {
        std::fs::write(path, report(&cases, &outcomes)).expect("the report is written");
    }
    if only.is_some() {
        return;
    }
    let names = ["interpreter_failures.txt", "vm_failures.txt"];
    if std::env::var_os("KILN_NODE_TESTS_BLESS").is_some() {
        let header =
            "# ONNX node test cases expected to fail (tools/kiln-translate/tests/onnx_node_tests.rs).\n\
                      # This list may only shrink: a listed case that passes fails the test.\n";
        for (name, f) in names.iter().zip(&failing) {
            write_list(name, header, f);
        }
        return;
    }
    let generated: BTreeSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    let problems: Vec<String> = (0..2)
        .flat_map(|side| list_problems(names[side], &generated, &failing[side], &reasons[side]))
        .collect();
    assert!(
        problems.is_empty(),
        "{} differences from the expected failures:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
