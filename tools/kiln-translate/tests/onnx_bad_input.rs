//! `kiln-translate --import-onnx` on bad models: every unsupported op type at once with its
//! nodes, an op version Kiln does not implement, an opset newer than the schemas Kiln knows, a
//! truncated or non-ONNX file, a missing external data file, a symbolic dim without
//! `--input-shape`. Each is one clear error, exit status 1, and no output
//! file (not even a temporary one). The models are built here with the protobuf messages, so
//! this test needs no Python.

use std::path::{Path, PathBuf};
use std::process::Command;

use onnx_protobuf::tensor_shape_proto::{dimension, Dimension};
use onnx_protobuf::{
    type_proto, GraphProto, Message, ModelProto, NodeProto, OperatorSetIdProto, StringStringEntryProto,
    TensorProto, TensorShapeProto, TypeProto, ValueInfoProto,
};
use protobuf::{EnumOrUnknown, MessageField};

const FLOAT: i32 = 1;

fn dim(d: &str) -> Dimension {
    let mut out = Dimension::new();
    out.value = Some(match d.parse::<i64>() {
        Ok(v) => dimension::Value::DimValue(v),
        Err(_) => dimension::Value::DimParam(d.to_string()),
    });
    out
}

fn value(name: &str, dims: &[&str]) -> ValueInfoProto {
    let mut shape = TensorShapeProto::new();
    shape.dim = dims.iter().map(|d| dim(d)).collect();
    let mut tensor = type_proto::Tensor::new();
    tensor.elem_type = FLOAT;
    tensor.shape = MessageField::some(shape);
    let mut ty = TypeProto::new();
    ty.value = Some(type_proto::Value::TensorType(tensor));
    let mut v = ValueInfoProto::new();
    v.name = name.to_string();
    v.type_ = MessageField::some(ty);
    v
}

fn node(op: &str, name: &str, inputs: &[&str], output: &str) -> NodeProto {
    let mut n = NodeProto::new();
    n.op_type = op.to_string();
    n.name = name.to_string();
    n.input = inputs.iter().map(|s| s.to_string()).collect();
    n.output = vec![output.to_string()];
    n
}

/// `x: tensor<dims>` through `nodes` to output `y`, at `opset`.
fn model(opset: i64, dims: &[&str], nodes: Vec<NodeProto>, initializers: Vec<TensorProto>) -> ModelProto {
    let mut g = GraphProto::new();
    g.name = "bad".into();
    g.node = nodes;
    g.input = vec![value("x", dims)];
    g.output = vec![value("y", dims)];
    g.initializer = initializers;
    let mut m = ModelProto::new();
    m.ir_version = 8;
    let mut o = OperatorSetIdProto::new();
    o.version = opset;
    m.opset_import = vec![o];
    m.graph = MessageField::some(g);
    m
}

fn relu() -> Vec<NodeProto> {
    vec![node("Relu", "relu", &["x"], "y")]
}

/// A fresh folder for one case.
fn folder(case: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("onnx_bad_input").join(case);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("the folder is created");
    d
}

/// Runs the import of `bytes` (written to `model.onnx` in `dir`) with `extra` arguments: it
/// must fail with status 1, print `expected` (every line) and leave no file but the model.
fn fails(dir: &Path, bytes: &[u8], extra: &[&str], expected: &[&str]) {
    let input = dir.join("model.onnx");
    std::fs::write(&input, bytes).expect("the model is written");
    let out = dir.join("model.mlir");
    let run = Command::new(env!("CARGO_BIN_EXE_kiln-translate"))
        .arg("--import-onnx")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .args(extra)
        .output()
        .expect("kiln-translate runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    for e in expected {
        assert!(stderr.contains(e), "expected `{e}` in:\n{stderr}");
    }
    assert!(stderr.starts_with("kiln-translate: error: "), "{stderr}");
    let left: Vec<String> = std::fs::read_dir(dir)
        .expect("the folder is listed")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n != "model.onnx")
        .collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn every_unsupported_op_type_is_reported_at_once_with_its_nodes() {
    let nodes = vec![
        node("NonMaxSuppression", "nms_a", &["x"], "a"),
        node("Relu", "fine", &["a"], "b"),
        node("Unique", "unique", &["b"], "c"),
        node("NonMaxSuppression", "nms_b", &["c"], "d"),
        node("Gelu", "gelu", &["d"], "y"),
    ];
    let m = model(17, &["2", "3"], nodes, vec![]);
    let bytes = m.write_to_bytes().expect("the model serializes");
    fails(
        &folder("unsupported"),
        &bytes,
        &[],
        &[
            "3 unsupported ONNX ops",
            "`NonMaxSuppression`: nodes `nms_a`, `nms_b`",
            "`Unique` (not supported: its result shape depends on the data",
            "`Gelu` (no version of it exists at opset 17): node `gelu`",
        ],
    );
}

#[test]
fn an_op_version_kiln_does_not_implement_is_named() {
    let nodes = vec![node("Softmax", "soft", &["x"], "y")];
    let bytes = model(12, &["2", "3"], nodes, vec![]).write_to_bytes().expect("the model serializes");
    fails(
        &folder("old_softmax"),
        &bytes,
        &[],
        &["`Softmax` version 11 (opset 12; Kiln implements version 13): node `soft`"],
    );
}

#[test]
fn a_truncated_model_is_not_an_onnx_model() {
    let bytes = model(17, &["2", "3"], relu(), vec![]).write_to_bytes().expect("the model serializes");
    fails(&folder("truncated"), &bytes[..bytes.len() - 7], &[], &["is not an ONNX model"]);
}

#[test]
fn a_text_file_is_not_an_onnx_model() {
    fails(&folder("text"), b"module {\n}\n", &[], &["is not an ONNX model"]);
}

#[test]
fn a_missing_external_data_file_is_named() {
    let mut w = TensorProto::new();
    w.name = "w".into();
    w.dims = vec![3];
    w.data_type = FLOAT;
    w.data_location = EnumOrUnknown::from_i32(1);
    let mut location = StringStringEntryProto::new();
    location.key = "location".into();
    location.value = "weights.bin".into();
    w.external_data = vec![location];
    let nodes = vec![node("Add", "add", &["x", "w"], "y")];
    let bytes = model(17, &["2", "3"], nodes, vec![w]).write_to_bytes().expect("the model serializes");
    fails(&folder("external"), &bytes, &[], &["external data file", "weights.bin", "initializer `w`"]);
}

#[test]
fn an_opset_newer_than_the_known_schemas_is_refused() {
    let opset = kiln_onnx::MAX_OPSET + 1;
    let bytes = model(opset, &["2", "3"], relu(), vec![]).write_to_bytes().expect("the model serializes");
    let msg = format!("uses opset {opset}, newer than the newest whose op schemas Kiln knows");
    fails(&folder("opset_new"), &bytes, &[], &[&msg]);
}

#[test]
fn a_symbolic_dim_needs_an_input_shape() {
    let bytes = model(17, &["batch", "3"], relu(), vec![]).write_to_bytes().expect("the model serializes");
    fails(
        &folder("symbolic"),
        &bytes,
        &[],
        &["graph input `x` has a symbolic dim `batch` (dim #0)", "--input-shape x="],
    );
    fails(&folder("symbolic_rank"), &bytes, &["--input-shape", "x=2x3x4"], &["rank 3", "declares rank 2"]);
    fails(
        &folder("symbolic_name"),
        &bytes,
        &["--input-shape", "z=2x3"],
        &["`z`, which is not a graph input"],
    );
    fails(&folder("symbolic_spec"), &bytes, &["--input-shape", "x=2xq"], &["invalid --input-shape 'x=2xq'"]);
}

#[test]
fn an_input_shape_fixes_a_symbolic_dim() {
    let dir = folder("fixed");
    let bytes = model(17, &["batch", "3"], relu(), vec![]).write_to_bytes().expect("the model serializes");
    let input = dir.join("model.onnx");
    std::fs::write(&input, bytes).expect("the model is written");
    let run = Command::new(env!("CARGO_BIN_EXE_kiln-translate"))
        .args(["--import-onnx", "--input-shape", "x=4x3"])
        .arg(&input)
        .output()
        .expect("kiln-translate runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(text.contains("func.func @main(%arg0: tensor<4x3xf32> loc(\"x\")) -> tensor<4x3xf32>"), "{text}");
    assert!(text.contains("hl.relu %arg0 : tensor<4x3xf32> loc(#loc"), "{text}");
    assert!(text.contains("loc(\"relu\")"), "{text}");
}

#[test]
fn a_shape_input_that_depends_on_the_data_is_named() {
    let nodes = vec![node("Reshape", "reshape", &["x", "x"], "y")];
    let bytes = model(17, &["2", "3"], nodes, vec![]).write_to_bytes().expect("the model serializes");
    fails(
        &folder("data_shape"),
        &bytes,
        &[],
        &[
            "node `reshape` (`Reshape`): input `shape` must be a constant, but it is graph input `x`",
            "--constant-input x=",
        ],
    );
}

#[test]
fn a_dangling_input_and_a_cycle_name_their_node() {
    let dangling = vec![node("Relu", "relu", &["nowhere"], "y")];
    let bytes = model(17, &["2", "3"], dangling, vec![]).write_to_bytes().expect("the model serializes");
    fails(
        &folder("dangling"),
        &bytes,
        &[],
        &["node `relu` (`Relu`): value `nowhere` is not defined before its use"],
    );
    let cycle = vec![
        node("Relu", "first", &["b"], "a"),
        node("Neg", "second", &["a"], "b"),
        node("Abs", "out", &["x"], "y"),
    ];
    let bytes = model(17, &["2", "3"], cycle, vec![]).write_to_bytes().expect("the model serializes");
    fails(&folder("cycle"), &bytes, &[], &["node `first` (`Relu`): value `b` is not defined before its use"]);
}
