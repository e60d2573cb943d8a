//! `kiln-onnx`: imports an ONNX model (a serialized `ModelProto`; each node at its op version,
//! [`op_version`]) as an `hl` module, built with the IR builder
//! ([`HlBuilder`](kiln_dialects::hl::builder::HlBuilder)), never through text.
//!
//! The module holds one `func.func @main`: its arguments are the graph's inputs in their order
//! (then, with [`ImportOptions::initializers_as_args`], the floating-point initializers in
//! the model's order), its results the graph's outputs in theirs.
//!
//! - **Shapes** follow from the inputs by `hl`'s type inference. A symbolic (or missing) dim
//!   of an input is a `?` unless [`ImportOptions::input_shapes`] fixes that input's shape
//!   (`--input-shape name=1x128`); the ops whose result dims follow from their operands carry
//!   it, the shape arithmetic of exporters (`Shape`, `Gather`, `Concat`, ... into `Reshape`)
//!   keeps its identity, and an op that needs a static dim is an error naming the graph input
//!   dim (see `dynamic.rs`).
//! - **Initializers** become `hl.constant`s: small ones (at most [`INLINE_ELEMENTS`]
//!   elements, or splats) as `dense<...>`, larger ones as `dense_resource<name>` whose blob
//!   lives in the module's `dialect_resources` section, as MLIR writes them (so the file stays
//!   small to read and quick to parse). With `initializers_as_args` the floating-point ones are
//!   trailing function arguments instead; integer initializers (shapes, axes, indices) stay
//!   constants, since the ops that read them need their values at import.
//! - **Constant folding.** An op whose operands are all constants is evaluated at import with
//!   the `hl` interpreter's own evaluation (so `Shape -> Gather -> Concat -> Reshape` chains
//!   disappear); `Shape`, `Range`, `ConstantOfShape` and `Trilu` of constants fold this way
//!   or directly. `BatchNormalization` after a `Conv` with constant weights, as its only user,
//!   is folded into the conv's weights and bias.
//! - **Locations**: every op gets `loc("node_name")` (a [`NameLoc`], as onnx-mlir names ops
//!   after their node), or `loc("first_output")` for a node without a name; a function argument
//!   gets `loc("input_name")`.
//! - **Element types** `hl` lacks are held in wider ones (uint8 in i32, double in f32, ...),
//!   annotated [`HELD_TYPE_ATTR`] at the function boundary; see [`wrap_to_declared`].
//! - **Errors** are reported before anything is built where they can be: every unsupported
//!   op (type or version) at once with the names of its nodes, an opset newer than
//!   [`MAX_OPSET`], a file that is not an ONNX model, a missing external data file. An error
//!   in a node names it.
//!
//! The op table (which ONNX op becomes which `hl` ops) is `docs/frontends/onnx.md`.
//!
//! [`NameLoc`]: kiln_compiler::AttrKind::NameLoc
#![deny(missing_docs)]

mod consts;
mod dynamic;
mod error;
mod graph;
mod model;
mod ops;
mod schema_versions;
mod versions;

use std::path::Path;

use kiln_compiler::{Context, Module};
use kiln_dialects::hl::interp::Tensor;

pub use consts::{wrap_to_declared, INLINE_ELEMENTS};
pub use error::ImportError;
pub use graph::HELD_TYPE_ATTR;
pub use model::MAX_OPSET;
pub use ops::supported_ops;
pub use versions::op_version;

/// How a model is imported.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// Shapes that replace the declared shape of the named graph inputs (symbolic dims
    /// included), in the order given.
    pub input_shapes: Vec<(String, Vec<i64>)>,
    /// Floating-point initializers become trailing function arguments instead of constants.
    pub initializers_as_args: bool,
    /// Graph inputs given a value at import (`--constant-input name=x.npy`): each becomes a
    /// constant instead of a function argument, so the shapes, axes or pads it carries are
    /// known. The tensor must have the `hl` element type that holds the input's ONNX type.
    pub constant_inputs: Vec<(String, Tensor)>,
    /// Every constant becomes a `dense<...>` attribute holding its bytes, large ones too, in
    /// place of a `dense_resource` blob in hex: for a consumer in the same process that reads
    /// the values (compiling, interpreting), which would otherwise decode the blobs again.
    /// Printed modules keep blobs (the text form MLIR's tools write).
    pub dense_weights: bool,
}

/// Parses `--input-shape` text: `name=1x128` (a `name` may itself hold `=`: the last one
/// splits); a rank-0 shape is written `name=`.
pub fn parse_input_shape(spec: &str) -> Result<(String, Vec<i64>), String> {
    let (name, dims) = spec
        .rsplit_once('=')
        .ok_or_else(|| format!("invalid --input-shape '{spec}': expected 'name=1x128'"))?;
    let dims: Result<Vec<i64>, _> = if dims.is_empty() {
        Ok(Vec::new())
    } else {
        dims.split('x').map(|d| d.parse::<i64>().ok().filter(|&d| d >= 0).ok_or(())).collect()
    };
    let dims = dims
        .map_err(|()| format!("invalid --input-shape '{spec}': dims must be integers >= 0 joined by 'x'"))?;
    Ok((name.to_string(), dims))
}

/// Imports the ONNX model serialized in `bytes`; `path` is the model file (its folder holds
/// external data files; it names the model in errors).
pub fn import_model<'c>(
    ctx: &Context<'c>,
    bytes: &[u8],
    path: &Path,
    options: &ImportOptions,
) -> Result<Module<'c>, ImportError> {
    let model = model::load(bytes, path)?;
    graph::import(ctx, &model, options)
}

#[cfg(test)]
mod tests {
    use super::parse_input_shape;

    #[test]
    fn input_shapes_parse_as_name_equals_dims() {
        assert_eq!(parse_input_shape("x=1x128"), Ok(("x".to_string(), vec![1, 128])));
        assert_eq!(parse_input_shape("a=b=2"), Ok(("a=b".to_string(), vec![2])));
        assert_eq!(parse_input_shape("scalar="), Ok(("scalar".to_string(), vec![])));
        assert!(parse_input_shape("x").unwrap_err().contains("expected 'name=1x128'"));
        assert!(parse_input_shape("x=1x-2").unwrap_err().contains("dims must be integers >= 0"));
        assert!(parse_input_shape("x=1xx2").is_err());
    }
}
