//! The `fused` ops: `fused.region` and its terminator `fused.yield`.

use kiln_compiler::{Arity, AttrConstraint, AttrSpec, OpDef, Trait};

use super::{syntax, verify, REGION_KIND};

kiln_compiler::op_def! {
    /// `fused.region`: a kernel made of fusable `hl` ops.
    ///
    /// Its operands are the kernel's inputs; its single-block region takes one argument per input
    /// (same types) and is isolated from above, so the body sees the inputs only through its
    /// arguments. The body holds `hl` ops (no composites: run `hl-decompose` first) and ends in
    /// `fused.yield`, whose operands become the region's results (one or more). Semantically the
    /// op runs its body on its operands, exactly as the ops would run unfused.
    ///
    /// The inherent attribute `kind` (`#fused.kind<...>`) says which units the kernel uses and must
    /// agree with the body: `vector` (no cube op), `cube` (only cube ops, plus layout ops and
    /// constants), `mix` (at least one cube op and at least one elementwise, broadcast or reduce
    /// op) or `attention`: one attention (QK^T, an optional scale, mask and casts, a softmax
    /// over the key axis, an optional NaN guard, PV and the head merge, with the views,
    /// transposes, broadcasts and scales feeding Q, K and V and the ops building its masks)
    /// and nothing else, as `kiln-fuse` recognizes it (see `kiln_dialects::fused::attention`).
    ///
    /// The optional inherent attribute `parts` (an array of integers, `attention` regions only)
    /// says how the back end lowers the region until a flash-attention kernel exists: one
    /// number per body op (the yield excepted), the ops of one number forming one of the
    /// kernels `kiln-fuse` would have formed without the attention region, -1 for an op of no
    /// kernel (a view). Without it each op is a kernel of its own.
    ///
    /// The optional inherent attribute `id` (an `i64`) is the region's number in `kiln-fuse`'s
    /// remarks, JSON report and DOT graph, so that "region 3" of a report can be found in the
    /// IR (`attributes {id = 3 : i64}` in the custom form).
    ///
    /// Custom form (the entry arguments are bound to the inputs with `=`):
    /// ```mlir
    /// %0:2 = fused.region vector (%arg2 = %a, %arg3 = %b) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    ///   %1 = hl.add %arg2, %arg3 : tensor<4xf32>
    ///   %2 = hl.exp %1 : tensor<4xf32>
    ///   fused.yield %1, %2 : tensor<4xf32>, tensor<4xf32>
    /// }
    /// ```
    /// An attention region (K transposed by a layout op, a scale, a key-padding mask, the
    /// softmax, PV), lowered as 4 kernels until a flash-attention kernel exists: the transpose,
    /// QK^T with its scale and mask (a `mix` kernel), the softmax, PV:
    /// ```mlir
    /// %1 = fused.region attention (%arg4 = %k, %arg5 = %q, %arg6 = %c, %arg7 = %mask, %arg8 = %v) : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<f32>, tensor<1x1x1x8xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> attributes {id = 0 : i64, parts = [0, 1, 1, 1, 2, 2, 2, 2, 2, 3]} {
    ///   %2 = hl.transpose %arg4 {perm = [0, 1, 3, 2]} : tensor<1x2x8x16xf32> -> tensor<1x2x16x8xf32>
    ///   %3 = hl.batch_matmul %arg5, %2 : tensor<1x2x8x16xf32>, tensor<1x2x16x8xf32> -> tensor<1x2x8x8xf32>
    ///   %4 = hl.div %3, %arg6 : tensor<1x2x8x8xf32>, tensor<f32> -> tensor<1x2x8x8xf32>
    ///   %5 = hl.add %4, %arg7 : tensor<1x2x8x8xf32>, tensor<1x1x1x8xf32> -> tensor<1x2x8x8xf32>
    ///   %6 = hl.reduce_max %5 {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
    ///   %7 = hl.sub %5, %6 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
    ///   %8 = hl.exp %7 : tensor<1x2x8x8xf32>
    ///   %9 = hl.reduce_sum %8 {axes = [3], keep_dims = true} : tensor<1x2x8x8xf32> -> tensor<1x2x8x1xf32>
    ///   %10 = hl.div %8, %9 : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32> -> tensor<1x2x8x8xf32>
    ///   %11 = hl.batch_matmul %10, %arg8 : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32> -> tensor<1x2x8x16xf32>
    ///   fused.yield %11 : tensor<1x2x8x16xf32>
    /// }
    /// ```
    /// Generic form:
    /// ```mlir
    /// %0:2 = "fused.region"(%a, %b) <{kind = #fused.kind<vector>}> ({
    /// ^bb0(%arg2: tensor<4xf32>, %arg3: tensor<4xf32>):
    ///   %1 = "hl.add"(%arg2, %arg3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ///   %2 = "hl.exp"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    ///   "fused.yield"(%1, %2) : (tensor<4xf32>, tensor<4xf32>) -> ()
    /// }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    /// ```
    pub static REGION_OP: OpDef = OpDef {
        name: "fused.region",
        summary: "a fused kernel of hl ops",
        operands: Arity::Any,
        results: Arity::AtLeast(1),
        regions: Arity::Exactly(1),
        attrs: &[
            AttrSpec { name: "id", constraint: AttrConstraint::Integer, optional: true },
            AttrSpec { name: "kind", constraint: AttrConstraint::DialectAttr(&REGION_KIND), optional: false },
            AttrSpec { name: "parts", constraint: AttrConstraint::Array, optional: true },
        ],
        traits: &[Trait::IsolatedFromAbove, Trait::SingleBlock],
        verify: Some(verify::verify_region),
        syntax: Some(&syntax::REGION_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `fused.yield`: ends a `fused.region`'s body; its operands are the region's results (the
    /// region's verifier checks their number and types).
    ///
    /// Custom form: `fused.yield %1, %2 : tensor<4xf32>, tensor<4xf32>`.
    /// Generic form: `"fused.yield"(%1, %2) : (tensor<4xf32>, tensor<4xf32>) -> ()`.
    pub static YIELD_OP: OpDef = OpDef {
        name: "fused.yield",
        summary: "fused region terminator",
        operands: Arity::Any,
        traits: &[Trait::Pure, Trait::Terminator, Trait::ReturnLike],
        parent: Some("fused.region"),
        syntax: Some(&syntax::YIELD_SYNTAX),
        ..OpDef::DEFAULT
    };
}
