//! The `kind` of a `fused.region`, shared by the builder, the verifier, the custom syntax and
//! the passes.

use kiln_compiler::{Ir, OpId};

/// The `kind` of a `fused.region`: which units of the NPU its kernel uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionKind {
    /// Vector unit only: elementwise, broadcast, reduce, layout ops and constants.
    Vector,
    /// Cube (matrix) unit only: matmul / conv, plus layout ops and constants.
    Cube,
    /// Cube work with vector epilogues or prologues (matmul + bias + activation).
    Mix,
}

impl RegionKind {
    /// The attribute spelling: `"vector"`, `"cube"`, `"mix"`.
    pub fn name(self) -> &'static str {
        match self {
            RegionKind::Vector => "vector",
            RegionKind::Cube => "cube",
            RegionKind::Mix => "mix",
        }
    }

    /// Parses the attribute spelling.
    pub fn parse(s: &[u8]) -> Option<RegionKind> {
        match s {
            b"vector" => Some(RegionKind::Vector),
            b"cube" => Some(RegionKind::Cube),
            b"mix" => Some(RegionKind::Mix),
            _ => None,
        }
    }

    /// The kind of a `fused.region` (or of anything with a valid `kind` attribute).
    pub fn of(ir: &Ir<'_>, region: OpId) -> Option<RegionKind> {
        RegionKind::parse(ir.attr(region, "kind")?.as_str()?)
    }
}
