//! The `kind` of a `fused.region`, an enum attribute (`#fused.kind<vector>`) shared by the
//! builder, the verifier, the custom syntax and the passes.

use kiln_compiler::{Ir, OpId};

kiln_compiler::enum_attr! {
    /// The `kind` of a `fused.region`: which units of the NPU its kernel uses.
    pub enum RegionKind, REGION_KIND = ("fused", "kind", "fused region kind") {
        /// Vector unit only: elementwise, broadcast, reduce, layout ops and constants.
        Vector = "vector",
        /// Cube (matrix) unit only: matmul / conv, plus layout ops and constants.
        Cube = "cube",
        /// Cube work with vector epilogues or prologues (matmul + bias + activation).
        Mix = "mix",
        /// Attention (QK^T, scale, mask, softmax, PV) as the matcher of `fused/attention.rs`
        /// recognizes it; lowered as the kernels of its `parts` until a flash-attention kernel
        /// exists.
        Attention = "attention",
    }
}

impl RegionKind {
    /// The kind of a `fused.region` (or of anything with a valid `kind` attribute).
    pub fn of_region(ir: &Ir<'_>, region: OpId) -> Option<RegionKind> {
        RegionKind::of(ir.attr(region, "kind")?)
    }
}
