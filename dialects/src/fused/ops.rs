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
    /// constants) or `mix` (at least one cube op and at least one elementwise, broadcast or reduce
    /// op).
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
