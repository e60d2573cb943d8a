//! The `fused` dialect: one `fused.region` is one kernel. It holds a body of fusable `hl` ops
//! that `kiln-fuse` grouped, isolated from above (its inputs enter as block arguments, its
//! outputs leave through `fused.yield`), and a `kind` saying which units the kernel uses
//! (`#fused.kind<vector|cube|mix|attention>`).
//!
//! ```mlir
//! %0:2 = fused.region vector (%arg2 = %a, %arg3 = %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
//!   %1 = hl.add %arg2, %arg3 : tensor<4xf32>
//!   %2 = hl.exp %1 : tensor<4xf32>
//!   fused.yield %1, %2 : tensor<4xf32>, tensor<4xf32>
//! }
//! ```
//!
//! [`builder::build_region`] wraps a convex set of `hl` ops into a region; the
//! `fused-outline` / `fused-inline` passes move regions into kernel functions and back; the
//! `hl` interpreter runs regions, so fused and unfused programs compute bit-identical results.

pub mod attention;
pub mod builder;
mod kind;
mod ops;
mod syntax;
pub mod verify;

pub use builder::{build_region, region_id, region_inputs_outputs, set_region_id, set_region_parts};
pub use kind::{RegionKind, REGION_KIND};
pub use ops::*;

use kiln_compiler::Dialect;

/// The discardable attributes `fused-outline` puts on a kernel function and `fused-inline`
/// reads back to rebuild its region: the unit marker, the region kind, its `id`, and an
/// attention region's `parts`.
pub mod kernel_attrs {
    /// The unit attribute marking a kernel function.
    pub const KERNEL: &str = "fused.kernel";
    /// The region kind (`#fused.kind<..>`).
    pub const KIND: &str = "fused.kind";
    /// The region's `id`.
    pub const ID: &str = "fused.id";
    /// An attention region's `parts`.
    pub const PARTS: &str = "fused.parts";
}

/// The `fused` dialect.
pub static FUSED: Dialect = Dialect {
    name: "fused",
    summary: "fused regions of hl ops, one kernel each",
    ops: &[&REGION_OP, &YIELD_OP],
    attrs: &[&REGION_KIND],
    types: &[],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
};
