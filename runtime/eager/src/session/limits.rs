//! What the back end refuses although the `hl` verifier accepts it, checked when an op is
//! recorded: a segment is compiled long after its ops were recorded, and an error there would
//! reach the program at a read, far from the op that caused it. Each rule names the op and
//! its types, as the verifier's messages do.
//!
//! - No value may be larger than the VM's GM limit (`VmConfig::max_gm_bytes`): it could never
//!   run ([`ErrorKind::Memory`]).
//! - `hl.matmul` / `hl.batch_matmul` run on the cube, which multiplies `f32`, `f16` and `bf16`
//!   only.
//! - `hl.layer_norm` / `hl.rms_norm` normalize over the last dim, which a rank-0 operand lacks.

use kiln_compiler::OpDef;
use kiln_dialects::hl::{BATCH_MATMUL, LAYER_NORM, MATMUL, RMS_NORM};

use crate::error::{EagerError, ErrorKind, Result};
use crate::node::TensorType;

/// The bytes of `ty`, if they fit in a `u64`.
pub(crate) fn bytes_of(ty: &TensorType) -> Option<u64> {
    ty.shape.iter().try_fold(u64::from(ty.dtype.bytes()), |acc, &d| acc.checked_mul(u64::try_from(d).ok()?))
}

/// An error unless a value of type `ty` fits in `max_bytes` (`what` names it).
pub(crate) fn check_size(what: &str, ty: &TensorType, max_bytes: u64) -> Result<()> {
    match bytes_of(ty) {
        Some(b) if b <= max_bytes => Ok(()),
        b => Err(EagerError::new(
            ErrorKind::Memory,
            format!(
                "{what}'{ty}' needs {}, more than the session's memory limit of {max_bytes} bytes",
                b.map_or("more than 2^64 bytes".to_string(), |b| format!("{b} bytes"))
            ),
        )),
    }
}

/// An error if the back end cannot compile `def` on `operands` giving `result` (the types
/// the verifier's checks accepted).
pub(super) fn check(
    def: &'static OpDef,
    operands: &[TensorType],
    result: &TensorType,
    max_bytes: u64,
) -> Result<()> {
    let at = |kind, m: String| Err(EagerError::new(kind, format!("'{}' op {m}", def.name)));
    check_size(&format!("'{}' op result ", def.name), result, max_bytes)?;
    let is = |d: &OpDef| std::ptr::eq(def, d);
    if is(&MATMUL) || is(&BATCH_MATMUL) {
        if !result.dtype.is_float() {
            return at(
                ErrorKind::DType,
                format!(
                    "operands of element type '{}' have no cube lowering (f32, f16, bf16)",
                    result.dtype.name()
                ),
            );
        }
    } else if (is(&LAYER_NORM) || is(&RMS_NORM)) && operands[0].shape.is_empty() {
        return at(
            ErrorKind::Shape,
            format!("normalizes over the last dim, which '{}' has not (rank 0)", operands[0]),
        );
    }
    Ok(())
}
