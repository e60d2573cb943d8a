//! Reading a model: protobuf decoding, the checks that need no IR (an ONNX model at all, the
//! opset, every op type and version supported) and external data, which is read into the initializers.

use std::path::Path;

use onnx_protobuf::{GraphProto, Message, ModelProto, TensorProto};

use crate::error::ImportError;
use crate::ops;

/// The newest default-domain opset imported: the newest whose schemas Kiln knows (a model of
/// a newer opset may use op versions nobody has reviewed).
pub const MAX_OPSET: i64 = crate::schema_versions::NEWEST_OPSET;

/// `TensorProto.DataLocation.EXTERNAL`.
const EXTERNAL: i32 = 1;

/// A decoded, checked model whose initializers all hold their data.
pub(crate) struct Model {
    /// The graph.
    pub graph: GraphProto,
    /// The default-domain opset.
    pub opset: i64,
}

/// Decodes and checks the model in `bytes` (file `path`).
pub(crate) fn load(bytes: &[u8], path: &Path) -> Result<Model, ImportError> {
    let shown = path.display();
    let mut model = ModelProto::parse_from_bytes(bytes)
        .map_err(|e| ImportError::new(format!("'{shown}' is not an ONNX model: {e}")))?;
    let Some(graph) = model.graph.take() else {
        return Err(ImportError::new(format!("'{shown}' is not an ONNX model: it has no graph")));
    };
    if model.ir_version < 3 {
        return Err(ImportError::new(format!(
            "'{shown}' is not an ONNX model: IR version {} (ONNX files have 3 or newer)",
            model.ir_version
        )));
    }
    let opset = model
        .opset_import
        .iter()
        .find(|o| o.domain.is_empty() || o.domain == "ai.onnx")
        .map(|o| o.version)
        .ok_or_else(|| {
            ImportError::new(format!("'{shown}' imports no opset of the default `ai.onnx` domain"))
        })?;
    if opset > MAX_OPSET {
        return Err(ImportError::new(format!(
            "'{shown}' uses opset {opset}, newer than the newest whose op schemas Kiln knows ({MAX_OPSET})"
        )));
    }
    ops::check_supported(&graph, opset)?;
    let mut graph = graph;
    let dir = path.parent().unwrap_or(Path::new("."));
    for t in &mut graph.initializer {
        load_external(t, dir)?;
    }
    Ok(Model { graph, opset })
}

/// Reads the external data of `t` (if it has any) from its file in `dir` into `raw_data`.
fn load_external(t: &mut TensorProto, dir: &Path) -> Result<(), ImportError> {
    if t.data_location.value() != EXTERNAL {
        return Ok(());
    }
    let entry = |key: &str| t.external_data.iter().find(|e| e.key == key).map(|e| e.value.as_str());
    let name = &t.name;
    let location = entry("location").ok_or_else(|| {
        ImportError::new(format!("initializer `{name}` has external data without a `location`"))
    })?;
    let number = |key: &str| -> Result<Option<u64>, ImportError> {
        entry(key)
            .map(|v| {
                v.parse::<u64>().map_err(|_| {
                    ImportError::new(format!("initializer `{name}` has an invalid external data {key} '{v}'"))
                })
            })
            .transpose()
    };
    let (offset, length) = (number("offset")?.unwrap_or(0), number("length")?);
    let file = dir.join(location);
    let data = std::fs::read(&file).map_err(|e| {
        ImportError::new(format!(
            "cannot read the external data file '{}' of initializer `{name}`: {e}",
            file.display()
        ))
    })?;
    let start = usize::try_from(offset).ok().filter(|&s| s <= data.len());
    let end = match length {
        Some(l) => start.and_then(|s| s.checked_add(usize::try_from(l).ok()?)).filter(|&e| e <= data.len()),
        None => Some(data.len()),
    };
    let (Some(start), Some(end)) = (start, end) else {
        return Err(ImportError::new(format!(
            "the external data of initializer `{name}` (offset {offset}, length {}) lies outside '{}' ({} bytes)",
            length.map_or("to the end".to_string(), |l| l.to_string()),
            file.display(),
            data.len()
        )));
    };
    t.raw_data = data[start..end].to_vec();
    t.external_data.clear();
    t.data_location = Default::default();
    Ok(())
}
