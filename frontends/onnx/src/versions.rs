//! Op versions: which schema of an op a node of a model at a given opset means. As onnxruntime
//! keys its kernels, a node's op version is the newest `since_version` of its op type's schemas
//! at or below the model's default-domain opset ([`op_version`]). The schema versions come from
//! the generated table [`schema_versions`](crate::schema_versions).

use crate::schema_versions::SCHEMA_VERSIONS;

/// Every `since_version` of `op`'s schemas (default domain), ascending; `None` for an op type
/// ONNX does not define.
pub(crate) fn schema_versions(op: &str) -> Option<&'static [i64]> {
    SCHEMA_VERSIONS.binary_search_by(|(name, _)| (*name).cmp(op)).ok().map(|i| SCHEMA_VERSIONS[i].1)
}

/// The version of `op` a model at `opset` uses: the newest schema `since_version` at or below
/// `opset` (`None` when the op is unknown or younger than the opset).
pub fn op_version(op: &str, opset: i64) -> Option<i64> {
    schema_versions(op)?.iter().rev().copied().find(|&v| v <= opset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_uses_the_newest_schema_at_or_below_the_opset() {
        assert_eq!(op_version("Add", 13), Some(13));
        assert_eq!(op_version("Add", 21), Some(14));
        assert_eq!(op_version("ReduceMean", 17), Some(13));
        assert_eq!(op_version("ReduceMean", 18), Some(18));
        assert_eq!(op_version("Gelu", 19), None);
        assert_eq!(op_version("NoSuchOp", 19), None);
    }

    #[test]
    fn the_generated_table_is_sorted() {
        assert!(SCHEMA_VERSIONS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(SCHEMA_VERSIONS.iter().all(|(_, v)| !v.is_empty() && v.windows(2).all(|w| w[0] < w[1])));
    }
}
