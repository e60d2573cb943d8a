//! `kiln-translate --import-onnx` on bad models: every unsupported op type at once with its
//! nodes, an op version Kiln does not implement, an opset newer than the schemas Kiln knows, a
//! truncated or non-ONNX file, a missing external data file, a bad `--input-shape`, an op
//! that needs a static dim where a symbolic one (kept as `?` without `--input-shape`) is, a
//! run-time size used as data. Each is one clear error, exit status 1, and no output
//! file (not even a temporary one). The models are built here with the protobuf messages, so
//! this test needs no Python.

use std::path::{Path, PathBuf};
use std::process::Command;

use onnx_protobuf::tensor_shape_proto::{dimension, Dimension};
use onnx_protobuf::{
    attribute_proto, type_proto, AttributeProto, GraphProto, Message, ModelProto, NodeProto,
    OperatorSetIdProto, StringStringEntryProto, TensorProto, TensorShapeProto, TypeProto, ValueInfoProto,
};
use protobuf::{EnumOrUnknown, MessageField};

const FLOAT: i32 = 1;
const INT64: i32 = 7;

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

/// Imports `bytes` (written to `model.onnx` in `dir`) with `extra` arguments, which must
/// succeed; the printed module.
fn imports(dir: &Path, bytes: &[u8], extra: &[&str]) -> String {
    let input = dir.join("model.onnx");
    std::fs::write(&input, bytes).expect("the model is written");
    let run = Command::new(env!("CARGO_BIN_EXE_kiln-translate"))
        .arg("--import-onnx")
        .args(extra)
        .arg(&input)
        .output()
        .expect("kiln-translate runs");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8_lossy(&run.stdout).into_owned()
}

#[test]
fn a_symbolic_dim_without_an_input_shape_is_dynamic() {
    let bytes = model(17, &["batch", "3"], relu(), vec![]).write_to_bytes().expect("the model serializes");
    let text = imports(&folder("symbolic"), &bytes, &[]);
    assert!(text.contains("func.func @main(%arg0: tensor<?x3xf32> loc(\"x\")) -> tensor<?x3xf32>"), "{text}");
    assert!(text.contains("hl.relu %arg0 : tensor<?x3xf32> loc(#loc"), "{text}");
}

#[test]
fn a_bad_input_shape_is_named() {
    let bytes = model(17, &["batch", "3"], relu(), vec![]).write_to_bytes().expect("the model serializes");
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
    let bytes = model(17, &["batch", "3"], relu(), vec![]).write_to_bytes().expect("the model serializes");
    let text = imports(&folder("fixed"), &bytes, &["--input-shape", "x=4x3"]);
    assert!(text.contains("func.func @main(%arg0: tensor<4x3xf32> loc(\"x\")) -> tensor<4x3xf32>"), "{text}");
    assert!(text.contains("hl.relu %arg0 : tensor<4x3xf32> loc(#loc"), "{text}");
    assert!(text.contains("loc(\"relu\")"), "{text}");
}

/// An `int64` initializer.
fn ints(name: &str, dims: &[i64], values: &[i64]) -> TensorProto {
    let mut t = TensorProto::new();
    t.name = name.to_string();
    t.data_type = INT64;
    t.dims = dims.to_vec();
    t.int64_data = values.to_vec();
    t
}

/// `node` with an integer attribute.
fn with_int(mut n: NodeProto, name: &str, value: i64) -> NodeProto {
    let mut a = AttributeProto::new();
    a.name = name.to_string();
    a.type_ = EnumOrUnknown::new(attribute_proto::AttributeType::INT);
    a.i = value;
    n.attribute.push(a);
    n
}

/// The sizes a torch export computes for a reshape: `Shape(x)`, an entry picked, scaled by
/// `scale` and made a vector, then the vector `[that, -1]` (with `scale` 1, `[batch, -1]`).
fn sized_reshape(scale: i64) -> (Vec<NodeProto>, Vec<TensorProto>) {
    let nodes = vec![
        node("Shape", "shape", &["x"], "s"),
        node("Gather", "pick", &["s", "zero"], "b"),
        node("Mul", "scale", &["b", "k"], "bk"),
        node("Unsqueeze", "vector", &["bk", "axes"], "bv"),
        with_int(node("Concat", "spec", &["bv", "rest"], "spec"), "axis", 0),
        node("Reshape", "reshape", &["x", "spec"], "y"),
    ];
    let inits = vec![
        ints("zero", &[], &[0]),
        ints("k", &[], &[scale]),
        ints("axes", &[1], &[0]),
        ints("rest", &[1], &[-1]),
    ];
    (nodes, inits)
}

#[test]
fn sizes_computed_from_a_symbolic_dim_reshape_with_it() {
    // `[batch, -1]` of a `batch x 6` input: the batch dim is the input's, the rest follows from
    // the count; the same shape, so no reshape at all.
    let (nodes, inits) = sized_reshape(1);
    let bytes = model(17, &["batch", "6"], nodes, inits).write_to_bytes().expect("the model serializes");
    let text = imports(&folder("sized_reshape"), &bytes, &[]);
    assert!(text.contains("return %arg0 : tensor<?x6xf32>") && !text.contains("hl.reshape"), "{text}");
    // A second dynamic input dim makes two `?` dims: the reshape ties the batch dim and leaves
    // the other to the count.
    let (mut nodes, inits) = sized_reshape(1);
    nodes.insert(0, node("Relu", "relu", &["x"], "r"));
    nodes.last_mut().expect("a reshape").input[0] = "r".into();
    let bytes =
        model(17, &["batch", "seq", "4"], nodes, inits).write_to_bytes().expect("the model serializes");
    let text = imports(&folder("sized_reshape_two"), &bytes, &[]);
    assert!(
        text.contains("hl.reshape %0 {source_dims = [0, -1]} : tensor<?x?x4xf32> -> tensor<?x?xf32>"),
        "{text}"
    );
}

#[test]
fn an_op_that_needs_a_static_dim_names_the_graph_input_dim() {
    let nodes = vec![node("Split", "split", &["x"], "y")];
    let bytes = model(17, &["batch", "4"], nodes, vec![]).write_to_bytes().expect("the model serializes");
    fails(
        &folder("static_dim"),
        &bytes,
        &[],
        &["node `split` (`Split`): needs a static dim, but dim #0 of its input `x` is dynamic: the size of dim \
           #0 (`batch`) of graph input `x`; fix it with --input-shape x=..."],
    );
    // `[2 * batch, -1]`: two dims only the run-time sizes give.
    let (nodes, inits) = sized_reshape(2);
    let bytes = model(17, &["batch", "6"], nodes, inits).write_to_bytes().expect("the model serializes");
    fails(
        &folder("two_untied"),
        &bytes,
        &[],
        &["node `reshape` (`Reshape`): cannot reshape `x` to dims #0 and #1 that are both dynamic and not dims \
           of the input (only one can follow from the element count): fix the dynamic dims with --input-shape x=..."],
    );
    // A run-time size as data.
    let nodes =
        vec![node("Shape", "shape", &["x"], "s"), with_int(node("Cast", "cast", &["s"], "y"), "to", 1)];
    let bytes = model(17, &["batch", "4"], nodes, vec![]).write_to_bytes().expect("the model serializes");
    fails(
        &folder("size_as_data"),
        &bytes,
        &[],
        &["node `cast` (`Cast`): an input must be known at import, but it holds the run-time size of dim #0 \
           (`batch`) of graph input `x` (fix it with --input-shape x=...)"],
    );
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
