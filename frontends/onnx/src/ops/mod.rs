//! The op table: each supported ONNX op type (default domain) and the function that imports
//! a node of it, plus typed access to node attributes. The functions live by concept:
//! `elementwise` (arithmetic, activations, comparisons, casts), `linalg` (MatMul, Gemm, Conv,
//! pooling, normalizations, Softmax), `reduce`, `layout` (shape and data movement) and
//! `source` (constants and the ops that fold to them).

mod elementwise;
mod layout;
mod linalg;
mod reduce;
mod source;

use std::collections::BTreeMap;

use onnx_protobuf::{AttributeProto, GraphProto, NodeProto, TensorProto};

use crate::error::ImportError;
use crate::graph::{Importer, Val};

/// Imports one node: returns the values of its outputs, in order.
type ImportFn = for<'r, 'a, 'c, 'm> fn(&mut Importer<'r, 'a, 'c, 'm>, usize) -> Result<Vec<Val>, String>;

/// Every supported op type with its import function, sorted by name.
const OPS: &[(&str, ImportFn)] = &[
    ("Abs", elementwise::unary),
    ("Add", elementwise::binary),
    ("And", elementwise::binary),
    ("AveragePool", linalg::pool),
    ("BatchNormalization", linalg::batch_norm),
    ("Cast", elementwise::cast),
    ("Ceil", elementwise::unary),
    ("Clip", elementwise::clip),
    ("Concat", layout::concat),
    ("Constant", source::constant),
    ("ConstantOfShape", source::constant_of_shape),
    ("Conv", linalg::conv),
    ("Div", elementwise::binary),
    ("Dropout", elementwise::identity),
    ("Equal", elementwise::compare),
    ("Erf", elementwise::unary),
    ("Exp", elementwise::unary),
    ("Expand", layout::expand),
    ("Flatten", layout::flatten),
    ("Floor", elementwise::unary),
    ("Gather", layout::gather),
    ("Gelu", elementwise::gelu),
    ("Gemm", linalg::gemm),
    ("GlobalAveragePool", linalg::global_average_pool),
    ("Greater", elementwise::compare),
    ("GreaterOrEqual", elementwise::compare),
    ("HardSigmoid", elementwise::hard_sigmoid),
    ("HardSwish", elementwise::hard_sigmoid),
    ("Identity", elementwise::identity),
    ("LayerNormalization", linalg::layer_norm),
    ("LeakyRelu", elementwise::leaky_relu),
    ("Less", elementwise::compare),
    ("LessOrEqual", elementwise::compare),
    ("Log", elementwise::unary),
    ("LogSoftmax", linalg::softmax),
    ("MatMul", linalg::matmul),
    ("Max", elementwise::variadic),
    ("MaxPool", linalg::pool),
    ("Min", elementwise::variadic),
    ("Mul", elementwise::binary),
    ("Neg", elementwise::unary),
    ("Not", elementwise::unary),
    ("Or", elementwise::binary),
    ("Pad", layout::pad),
    ("Pow", elementwise::binary),
    ("Range", source::range),
    ("Reciprocal", elementwise::unary),
    ("ReduceMax", reduce::reduce),
    ("ReduceMean", reduce::reduce),
    ("ReduceMin", reduce::reduce),
    ("ReduceProd", reduce::reduce),
    ("ReduceSum", reduce::reduce),
    ("Relu", elementwise::unary),
    ("Reshape", layout::reshape),
    ("Round", elementwise::unary),
    ("Shape", source::shape),
    ("Sigmoid", elementwise::unary),
    ("Sign", elementwise::unary),
    ("Slice", layout::slice),
    ("Softmax", linalg::softmax),
    ("Split", layout::split),
    ("Sqrt", elementwise::unary),
    ("Squeeze", layout::squeeze),
    ("Sub", elementwise::binary),
    ("Sum", elementwise::variadic),
    ("Tanh", elementwise::unary),
    ("Transpose", layout::transpose),
    ("Trilu", source::trilu),
    ("Unsqueeze", layout::unsqueeze),
    ("Where", elementwise::select),
];

/// The supported ONNX op types (default domain), sorted.
pub fn supported_ops() -> impl Iterator<Item = &'static str> {
    OPS.iter().map(|(name, _)| *name)
}

fn lookup(node: &NodeProto) -> Option<ImportFn> {
    if !(node.domain.is_empty() || node.domain == "ai.onnx") {
        return None;
    }
    OPS.binary_search_by(|(name, _)| (*name).cmp(node.op_type.as_str())).ok().map(|i| OPS[i].1)
}

/// Fails with every unsupported op type of `graph` and the nodes that use it.
pub(crate) fn check_supported(graph: &GraphProto) -> Result<(), ImportError> {
    let mut missing: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for node in &graph.node {
        if lookup(node).is_none() {
            let ty = if node.domain.is_empty() {
                node.op_type.clone()
            } else {
                format!("{}.{}", node.domain, node.op_type)
            };
            let name = if node.name.is_empty() {
                node.output.first().map_or("", String::as_str)
            } else {
                &node.name
            };
            missing.entry(ty).or_default().push(name);
        }
    }
    if missing.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = missing
        .iter()
        .map(|(ty, nodes)| {
            let names: Vec<String> = nodes.iter().map(|n| format!("`{n}`")).collect();
            let word = if nodes.len() == 1 { "node" } else { "nodes" };
            format!("  `{ty}`: {word} {}", names.join(", "))
        })
        .collect();
    Err(ImportError::new(format!(
        "the model uses {} unsupported ONNX op type{}:\n{}",
        missing.len(),
        if missing.len() == 1 { "" } else { "s" },
        lines.join("\n")
    )))
}

/// Imports node `index` of the graph.
pub(crate) fn import_node(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let f = lookup(node).ok_or_else(|| format!("unsupported op type `{}`", node.op_type))?;
    f(imp, index)
}

/// `AttributeProto.AttributeType` codes.
const FLOAT: i32 = 1;
const INT: i32 = 2;
const STRING: i32 = 3;
const TENSOR: i32 = 4;
const FLOATS: i32 = 6;
const INTS: i32 = 7;

fn attr<'n>(
    node: &'n NodeProto,
    name: &str,
    code: i32,
    what: &str,
) -> Result<Option<&'n AttributeProto>, String> {
    match node.attribute.iter().find(|a| a.name == name) {
        None => Ok(None),
        Some(a) if a.type_.value() == code => Ok(Some(a)),
        Some(_) => Err(format!("attribute `{name}` must be {what}")),
    }
}

/// Integer attribute `name`, or `default`.
pub(crate) fn attr_int(node: &NodeProto, name: &str, default: i64) -> Result<i64, String> {
    Ok(attr(node, name, INT, "an integer")?.map_or(default, |a| a.i))
}

/// Float attribute `name`, or `default`.
pub(crate) fn attr_float(node: &NodeProto, name: &str, default: f64) -> Result<f64, String> {
    Ok(attr(node, name, FLOAT, "a float")?.map_or(default, |a| f64::from(a.f)))
}

/// Integer list attribute `name`, if present.
pub(crate) fn attr_ints(node: &NodeProto, name: &str) -> Result<Option<Vec<i64>>, String> {
    Ok(attr(node, name, INTS, "a list of integers")?.map(|a| a.ints.clone()))
}

/// Float list attribute `name`, if present.
pub(crate) fn attr_floats(node: &NodeProto, name: &str) -> Result<Option<Vec<f32>>, String> {
    Ok(attr(node, name, FLOATS, "a list of floats")?.map(|a| a.floats.clone()))
}

/// String attribute `name`, or `default`.
pub(crate) fn attr_str(node: &NodeProto, name: &str, default: &str) -> Result<String, String> {
    Ok(attr(node, name, STRING, "a string")?
        .map_or(default.to_string(), |a| String::from_utf8_lossy(&a.s).into_owned()))
}

/// Tensor attribute `name`, if present.
pub(crate) fn attr_tensor<'n>(node: &'n NodeProto, name: &str) -> Result<Option<&'n TensorProto>, String> {
    match attr(node, name, TENSOR, "a tensor")? {
        Some(a) => a.t.as_ref().map(Some).ok_or_else(|| format!("attribute `{name}` holds no tensor")),
        None => Ok(None),
    }
}

/// Axes given as input `input` (newer opsets) or as attribute `name` (older ones).
pub(crate) fn axes_of(
    imp: &Importer<'_, '_, '_, '_>,
    node: &NodeProto,
    input: usize,
    name: &str,
) -> Result<Option<Vec<i64>>, String> {
    match imp.opt_input(node, input)? {
        Some(v) => imp.const_ints(&v, &format!("input `{name}`")).map(Some),
        None => attr_ints(node, name),
    }
}

/// `axis` in `0..rank` (negative counts from the end).
pub(crate) fn norm_axis(axis: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    if (0..r).contains(&a) {
        Ok(a as usize)
    } else {
        Err(format!("axis {axis} is out of range for rank {rank}"))
    }
}

#[cfg(test)]
mod tests {
    use super::OPS;

    #[test]
    fn the_op_table_is_sorted_for_binary_search() {
        let names: Vec<&str> = OPS.iter().map(|(n, _)| *n).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
    }
}
