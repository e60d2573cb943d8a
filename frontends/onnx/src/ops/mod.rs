//! The op table: each supported ONNX op type (default domain) and the function that imports
//! a node of it, plus typed access to node attributes. The functions live by concept:
//! `elementwise` (arithmetic, activations, comparisons, casts), `linalg` (MatMul, Gemm,
//! normalizations, Softmax), `window` (convolutions and pooling), `reduce`, `layout` (shape
//! and data movement) and `source` (constants and the ops that fold to them), and further
//! files per family.

mod activation;
mod arith;
mod attention;
mod bits;
mod conv;
mod einsum;
mod elementwise;
mod index;
mod layout;
mod linalg;
mod loss;
mod normalize;
mod quantize;
mod reduce;
mod refused;
mod resize;
mod rnn;
mod source;
mod window;

use std::collections::BTreeMap;

use onnx_protobuf::{AttributeProto, GraphProto, NodeProto, TensorProto};

use crate::error::ImportError;
use crate::graph::{Importer, Val};
use crate::versions::op_version;

/// Imports one node: returns the values of its outputs, in order.
type ImportFn = for<'r, 'a, 'c, 'm> fn(&mut Importer<'r, 'a, 'c, 'm>, usize) -> Result<Vec<Val>, String>;

/// Every supported op type, the op versions (schema `since_version`s, see
/// [`op_version`](crate::versions::op_version)) whose semantics its import function
/// implements, and that function; sorted by name.
const OPS: &[(&str, &[i64], ImportFn)] = &[
    ("Abs", &[13], elementwise::unary),
    ("Acos", &[7, 22], elementwise::unary),
    ("Acosh", &[9, 22], elementwise::unary),
    ("Add", &[13, 14], elementwise::binary),
    ("And", &[7], elementwise::binary),
    ("ArgMax", &[13], reduce::arg),
    ("ArgMin", &[13], reduce::arg),
    ("Asin", &[7, 22], elementwise::unary),
    ("Asinh", &[9, 22], elementwise::unary),
    ("Atan", &[7, 22], elementwise::unary),
    ("Atanh", &[9, 22], elementwise::unary),
    ("Attention", &[23, 24, 25], attention::attention),
    ("AveragePool", &[11, 19, 22], window::pool),
    ("BatchNormalization", &[9, 14, 15], linalg::batch_norm),
    ("BitShift", &[11, 28], bits::bitwise),
    ("BitwiseAnd", &[18], bits::bitwise),
    ("BitwiseNot", &[18], bits::bitwise),
    ("BitwiseOr", &[18], bits::bitwise),
    ("BitwiseXor", &[18], bits::bitwise),
    ("BlackmanWindow", &[17], source::window),
    ("Cast", &[9, 13, 19, 21, 23, 24, 25, 28], elementwise::cast),
    ("CastLike", &[15, 19, 21, 23, 24, 25], elementwise::cast),
    ("CausalConvWithState", &[27], conv::causal_conv),
    ("Ceil", &[13], elementwise::unary),
    ("Celu", &[12, 28], activation::activation),
    ("CenterCropPad", &[18], layout::center_crop_pad),
    ("Clip", &[11, 12, 13], elementwise::clip),
    ("Concat", &[13], layout::concat),
    ("Constant", &[13, 19, 21, 23, 24, 25], source::constant),
    ("ConstantOfShape", &[9, 20, 21, 23, 24, 25], source::constant_of_shape),
    ("Conv", &[11, 22], conv::conv),
    ("ConvTranspose", &[11, 22], conv::conv_transpose),
    ("Cos", &[7, 22], elementwise::unary),
    ("Cosh", &[9, 22], elementwise::unary),
    ("CumProd", &[26], index::cumulative),
    ("CumSum", &[11, 14], index::cumulative),
    ("DepthToSpace", &[13, 28], layout::depth_space),
    ("DequantizeLinear", &[13, 19, 21, 23, 24, 25, 28], quantize::quantize),
    ("Div", &[13, 14], elementwise::binary),
    ("Dropout", &[10, 12, 13, 22], elementwise::identity),
    ("Einsum", &[12, 28], einsum::einsum),
    ("Elu", &[6, 22], activation::activation),
    ("Equal", &[13, 19], elementwise::compare),
    ("Erf", &[13], elementwise::unary),
    ("Exp", &[13], elementwise::unary),
    ("Expand", &[13], layout::expand),
    ("EyeLike", &[9, 22], source::eye_like),
    ("Flatten", &[13, 21, 23, 24, 25], layout::flatten),
    ("Floor", &[13], elementwise::unary),
    ("GRU", &[14, 22], rnn::recurrent),
    ("Gather", &[13], layout::gather),
    ("GatherElements", &[13], index::indexing),
    ("GatherND", &[13], index::indexing),
    ("Gelu", &[20], elementwise::gelu),
    ("Gemm", &[13], linalg::gemm),
    ("GlobalAveragePool", &[1, 22], window::global_pool),
    ("GlobalLpPool", &[2, 22], window::global_pool),
    ("GlobalMaxPool", &[1, 22], window::global_pool),
    ("Greater", &[13], elementwise::compare),
    ("GreaterOrEqual", &[12, 16], elementwise::compare),
    ("GroupNormalization", &[18, 21], normalize::instance_group_norm),
    ("HammingWindow", &[17], source::window),
    ("HannWindow", &[17], source::window),
    ("HardSigmoid", &[6, 22], elementwise::hard_sigmoid),
    ("HardSwish", &[14, 22], elementwise::hard_sigmoid),
    ("Hardmax", &[13], index::hardmax),
    ("Identity", &[13, 14, 16, 19, 21, 23, 24, 25], elementwise::identity),
    ("InstanceNormalization", &[6, 22], normalize::instance_group_norm),
    ("IsInf", &[10, 20], bits::is_special),
    ("IsNaN", &[13, 20], bits::is_special),
    ("LRN", &[13], normalize::lrn),
    ("LSTM", &[14, 22], rnn::recurrent),
    ("LayerNormalization", &[17], linalg::layer_norm),
    ("LeakyRelu", &[6, 16], elementwise::leaky_relu),
    ("Less", &[13], elementwise::compare),
    ("LessOrEqual", &[12, 16], elementwise::compare),
    ("Log", &[13], elementwise::unary),
    ("LogSoftmax", &[13], linalg::softmax),
    ("LpNormalization", &[1, 22], normalize::lp_norm),
    ("LpPool", &[11, 18, 22], window::lp_pool),
    ("MatMul", &[13], linalg::matmul),
    ("Max", &[13], elementwise::variadic),
    ("MaxPool", &[12, 22], window::pool),
    ("Mean", &[13], elementwise::variadic),
    ("MeanVarianceNormalization", &[13], normalize::mvn),
    ("Min", &[13], elementwise::variadic),
    ("Mish", &[18, 22], activation::activation),
    ("Mod", &[13, 28], bits::modulo),
    ("Mul", &[13, 14], elementwise::binary),
    ("Neg", &[13], elementwise::unary),
    ("NegativeLogLikelihoodLoss", &[13, 22], loss::loss),
    ("Not", &[1], elementwise::unary),
    ("OneHot", &[11, 28], index::one_hot),
    ("Or", &[7], elementwise::binary),
    ("PRelu", &[9, 16], activation::activation),
    ("Pad", &[13, 18, 19, 21, 23, 24, 25], layout::pad),
    ("Pow", &[13, 15], elementwise::binary),
    ("QuantizeLinear", &[13, 19, 21, 23, 24, 25, 28], quantize::quantize),
    ("RMSNormalization", &[23], normalize::rms_norm),
    ("RNN", &[14, 22], rnn::recurrent),
    ("Range", &[11, 27], source::range),
    ("Reciprocal", &[13], elementwise::unary),
    ("ReduceL1", &[13, 18], reduce::reduce),
    ("ReduceL2", &[13, 18], reduce::reduce),
    ("ReduceLogSum", &[13, 18, 28], reduce::reduce),
    ("ReduceLogSumExp", &[13, 18, 28], reduce::reduce),
    ("ReduceMax", &[13, 18, 20], reduce::reduce),
    ("ReduceMean", &[13, 18], reduce::reduce),
    ("ReduceMin", &[13, 18, 20], reduce::reduce),
    ("ReduceProd", &[13, 18], reduce::reduce),
    ("ReduceSum", &[13], reduce::reduce),
    ("ReduceSumSquare", &[13, 18], reduce::reduce),
    ("Relu", &[13, 14], elementwise::unary),
    ("Reshape", &[13, 14, 19, 21, 23, 24, 25], layout::reshape),
    ("Resize", &[11, 13, 18, 19], resize::resize),
    ("RotaryEmbedding", &[23], attention::rotary),
    ("Round", &[11, 22], elementwise::unary),
    ("Scatter", &[9, 11], index::indexing),
    ("ScatterElements", &[13, 16, 18], index::indexing),
    ("ScatterND", &[13, 16, 18], index::indexing),
    ("Selu", &[6, 22], activation::activation),
    ("Shape", &[13, 15, 19, 21, 23, 24, 25], source::shape),
    ("Shrink", &[9], activation::activation),
    ("Sigmoid", &[13], elementwise::unary),
    ("Sign", &[13], elementwise::unary),
    ("Sin", &[7, 22], elementwise::unary),
    ("Sinh", &[9, 22], elementwise::unary),
    ("Size", &[13, 19, 21, 23, 24, 25], source::size),
    ("Slice", &[13], layout::slice),
    ("Softmax", &[13], linalg::softmax),
    ("SoftmaxCrossEntropyLoss", &[13], loss::loss),
    ("Softplus", &[1, 22], activation::activation),
    ("Softsign", &[1, 22], activation::activation),
    ("SpaceToDepth", &[13, 28], layout::depth_space),
    ("Split", &[13, 18], layout::split),
    ("Sqrt", &[13], elementwise::unary),
    ("Squeeze", &[13, 21, 23, 24, 25], layout::squeeze),
    ("Sub", &[13, 14], elementwise::binary),
    ("Sum", &[13], elementwise::variadic),
    ("Swish", &[24], activation::activation),
    ("Tan", &[7, 22], elementwise::unary),
    ("Tanh", &[13], elementwise::unary),
    ("ThresholdedRelu", &[10, 22], activation::activation),
    ("Tile", &[13], layout::tile),
    ("TopK", &[11, 24], index::topk),
    ("Transpose", &[13, 21, 23, 24, 25], layout::transpose),
    ("Trilu", &[14], source::trilu),
    ("Unsqueeze", &[13, 21, 23, 24, 25], layout::unsqueeze),
    ("Upsample", &[9], resize::resize),
    ("Where", &[9, 16], elementwise::select),
    ("Xor", &[7], bits::bitwise),
];

/// The supported ONNX op types (default domain), sorted, each with the op versions implemented.
pub fn supported_ops() -> impl Iterator<Item = (&'static str, &'static [i64])> {
    OPS.iter().map(|(name, versions, _)| (*name, *versions))
}

/// The table entry of `node`'s op type (default domain only).
fn lookup(node: &NodeProto) -> Option<&'static (&'static str, &'static [i64], ImportFn)> {
    if !(node.domain.is_empty() || node.domain == "ai.onnx") {
        return None;
    }
    OPS.binary_search_by(|(name, _, _)| (*name).cmp(node.op_type.as_str())).ok().map(|i| &OPS[i])
}

/// Fails with every op of `graph` that cannot be imported at `opset`, with the nodes that use
/// it: op types Kiln does not have (or refuses, with the reason), and op versions it does not
/// implement.
pub(crate) fn check_supported(graph: &GraphProto, opset: i64) -> Result<(), ImportError> {
    let mut missing: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for node in &graph.node {
        let name = crate::graph::node_name(node);
        let problem = match lookup(node) {
            _ if !(node.domain.is_empty() || node.domain == "ai.onnx") => {
                format!("`{}.{}` (only the default domain is supported)", node.domain, node.op_type)
            }
            None => match refused::reason(&node.op_type) {
                Some(why) => format!("`{}` (not supported: {why})", node.op_type),
                None => format!("`{}`", node.op_type),
            },
            Some((_, versions, _)) => match op_version(&node.op_type, opset) {
                Some(v) if versions.contains(&v) => continue,
                Some(v) => format!(
                    "`{}` version {v} (opset {opset}; Kiln implements version{} {})",
                    node.op_type,
                    if versions.len() == 1 { "" } else { "s" },
                    versions.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                ),
                None => format!("`{}` (no version of it exists at opset {opset})", node.op_type),
            },
        };
        missing.entry(problem).or_default().push(name);
    }
    if missing.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = missing
        .iter()
        .map(|(ty, nodes)| {
            let names: Vec<String> = nodes.iter().map(|n| format!("`{n}`")).collect();
            let word = if nodes.len() == 1 { "node" } else { "nodes" };
            format!("  {ty}: {word} {}", names.join(", "))
        })
        .collect();
    Err(ImportError::new(format!(
        "the model uses {} unsupported ONNX op{}:\n{}",
        missing.len(),
        if missing.len() == 1 { "" } else { "s" },
        lines.join("\n")
    )))
}

/// Imports node `index` of the graph.
pub(crate) fn import_node(imp: &mut Importer<'_, '_, '_, '_>, index: usize) -> Result<Vec<Val>, String> {
    let node = &imp.nodes[index];
    let (_, _, f) = lookup(node).ok_or_else(|| format!("unsupported op type `{}`", node.op_type))?;
    f(imp, index)
}

/// `AttributeProto.AttributeType` codes.
const FLOAT: i32 = 1;
const INT: i32 = 2;
const STRING: i32 = 3;
const TENSOR: i32 = 4;
const FLOATS: i32 = 6;
const INTS: i32 = 7;
const STRINGS: i32 = 8;

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

/// Integer attribute `name`, if present.
pub(crate) fn attr_opt_int(node: &NodeProto, name: &str) -> Result<Option<i64>, String> {
    Ok(attr(node, name, INT, "an integer")?.map(|a| a.i))
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

/// String list attribute `name`, if present.
pub(crate) fn attr_strs(node: &NodeProto, name: &str) -> Result<Option<Vec<String>>, String> {
    Ok(attr(node, name, STRINGS, "a list of strings")?
        .map(|a| a.strings.iter().map(|s| String::from_utf8_lossy(s).into_owned()).collect()))
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
        let names: Vec<&str> = OPS.iter().map(|(n, _, _)| *n).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
    }

    #[test]
    fn implemented_versions_are_schema_versions() {
        for (name, versions, _) in OPS {
            let known =
                crate::versions::schema_versions(name).unwrap_or_else(|| panic!("{name} has no schema"));
            assert!(!versions.is_empty(), "{name} implements no version");
            for v in *versions {
                assert!(known.contains(v), "{name} version {v} is not a schema version ({known:?})");
            }
            assert!(super::refused::reason(name).is_none(), "{name} is both supported and refused");
        }
    }
}
