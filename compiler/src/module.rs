//! A parsed file: the IR, its top-level op, and the resource blobs that came with it.

use indexmap::IndexMap;

use crate::attributes::{AttrKind, Attribute, DenseData, NamedAttr};
use crate::context::Context;
use crate::ir::{Ir, OpId, WalkOrder};

/// The `{-# ... #-}` file metadata: section (`dialect_resources`, `external_resources`) ->
/// dialect or group -> key -> value, each value kept exactly as written (`"0x0400..."`,
/// `true`, ...), in file order.
pub type Resources = IndexMap<String, IndexMap<String, IndexMap<String, String>>>;

/// A top-level op (normally `builtin.module`) with the IR that holds it.
#[derive(Clone, Debug)]
pub struct Module<'c> {
    /// The IR store.
    pub ir: Ir<'c>,
    /// The top-level op.
    pub top: OpId,
    /// File metadata resources.
    pub resources: Resources,
    /// Whether `top` is a `builtin.module` the parser created around the file's top-level ops
    /// (mlir-opt's implicit module), not one the file wrote.
    pub implicit: bool,
}

impl Module<'_> {
    /// Undoes the implicit module (mlir-opt's `--no-implicit-module`): the file's single
    /// top-level op becomes the top. Fails with the number of top-level ops when there is not
    /// exactly one; a module the file wrote itself is kept.
    pub fn unwrap_implicit(&mut self) -> Result<(), usize> {
        if !self.implicit {
            return Ok(());
        }
        let block = self.ir.regions(self.top).first().and_then(|&r| self.ir.entry_block(r));
        let ops: Vec<OpId> = block.map(|b| self.ir.block_ops(b).collect()).unwrap_or_default();
        let [only] = ops[..] else { return Err(ops.len()) };
        self.ir.detach_op(only);
        self.ir.erase_op(self.top);
        self.top = only;
        self.implicit = false;
        Ok(())
    }
}

impl<'c> Module<'c> {
    /// Replaces every op attribute `dense_resource<h> : T` whose blob `h` is in the
    /// `dialect_resources.builtin` section by the `dense<...> : T` it holds, for consumers
    /// that read element values (the interpreter, the emitter). A blob is MLIR's hex string:
    /// a 4-byte little-endian alignment, then the elements' little-endian bytes. Returns how
    /// many attributes were replaced; a malformed blob is an error naming its handle.
    pub fn inline_dense_resources(&mut self, ctx: &Context<'c>) -> Result<usize, String> {
        let Some(blobs) = self.resources.get("dialect_resources").and_then(|d| d.get("builtin")) else {
            return Ok(0);
        };
        let mut decoded: IndexMap<&str, Attribute<'c>> = IndexMap::new();
        let ops: Vec<OpId> = self.ir.walk(self.top, WalkOrder::PreOrder).collect();
        let mut count = 0;
        for op in ops {
            let data = self.ir.op(op);
            let uses_resource = |a: &Attribute<'c>| matches!(a.kind(), AttrKind::DenseResource { .. });
            let in_props = data
                .properties
                .and_then(|p| p.as_dict())
                .is_some_and(|d| d.iter().any(|n| uses_resource(&n.value)));
            if !in_props && !data.attrs.values().any(uses_resource) {
                continue;
            }
            let mut inline = |a: Attribute<'c>| -> Result<Attribute<'c>, String> {
                let AttrKind::DenseResource { handle, ty } = *a.kind() else { return Ok(a) };
                let Some(blob) = blobs.get(handle) else { return Ok(a) };
                if let Some(&d) = decoded.get(handle) {
                    return Ok(d);
                }
                let bytes = decode_blob(blob)
                    .ok_or_else(|| format!("resource blob `{handle}` is not a valid hex blob"))?;
                let bytes = ctx.alloc_bytes(&bytes);
                let d =
                    ctx.attr(AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat: false } });
                decoded.insert(handle, d);
                count += 1;
                Ok(d)
            };
            let props = match data.properties.and_then(|p| p.as_dict()) {
                Some(entries) if in_props => {
                    let mut out = Vec::with_capacity(entries.len());
                    for n in entries {
                        out.push(NamedAttr { name: n.name, value: inline(n.value)? });
                    }
                    Some(ctx.dict_attr(&out))
                }
                _ => data.properties,
            };
            let mut attrs = data.attrs.clone();
            for v in attrs.values_mut() {
                *v = inline(*v)?;
            }
            let data = self.ir.op_mut(op);
            data.properties = props;
            data.attrs = attrs;
        }
        Ok(count)
    }
}

/// The bytes of a blob written `"0x<alignment><data>"` (quotes optional), without the
/// alignment.
fn decode_blob(text: &str) -> Option<Vec<u8>> {
    let hex = text.trim_matches('"').strip_prefix("0x")?;
    if hex.len() % 2 != 0 || hex.len() < 8 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let bytes: Option<Vec<u8>> =
        hex.as_bytes().chunks(2).map(|p| Some(digit(p[0])? << 4 | digit(p[1])?)).collect();
    bytes.map(|b| b[4..].to_vec())
}
