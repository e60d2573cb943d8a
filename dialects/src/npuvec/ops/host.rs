//! The host ops: `npuvec.launch` (run a kernel), `npuvec.reshape` (an alias of a GM buffer)
//! and `npuvec.constant` (a constant GM buffer).

use kiln_compiler::{Arity, AttrConstraint, AttrSpec, OpDef, Trait, TypeConstraint as C, ValueDef};

use crate::npuvec::{syntax, verify::host as v};

kiln_compiler::op_def! {
    /// `npuvec.launch`: runs kernel `callee` on `args`, the host's GM buffers (a `Launch` of
    /// the host program).
    ///
    /// `callee` is a `func.func` with the kernel attributes (`npuvec.core`,
    /// `npuvec.block_dim >= 1`, optionally `npuvec.ub_bytes >= 0`) that returns nothing; the
    /// operands have its GM argument types. A shape class's kernel also takes launch
    /// parameters (trailing `index` arguments, with `npuvec.param_ranges`), which the launch
    /// gives as expressions over the class's symbols in `npuvec.params`, not as operands.
    /// Launches run in program order. Its effects are the kernel's (unknown to the
    /// declaration, as a `func.call`'s).
    ///
    /// ```mlir
    /// npuvec.launch @kernel(%x, %y) : (memref<16x64xf32, #npuvec.space<gm>>, memref<16x64xf32, #npuvec.space<gm>>) -> ()
    /// "npuvec.launch"(%x, %y) <{callee = @kernel}> : (memref<16x64xf32, #npuvec.space<gm>>, memref<16x64xf32, #npuvec.space<gm>>) -> ()
    /// npuvec.launch @tiles(%x, %y) {npuvec.params = ["n", "ceil_div(n, 4)"]} : (memref<?x16xf32, #npuvec.space<gm>>, memref<?x16xf32, #npuvec.space<gm>>) -> ()
    /// ```
    pub static LAUNCH_OP: OpDef = OpDef {
        name: "npuvec.launch",
        summary: "kernel launch",
        operands: Arity::Named(&[ValueDef::variadic("args", C::AnyMemRef)]),
        attrs: &[AttrSpec { name: "callee", constraint: AttrConstraint::FlatSymbolRef, optional: false }],
        verify: Some(v::verify_launch),
        syntax: Some(&syntax::LAUNCH_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.reshape`: the GM buffer `source` under another static shape with as many
    /// elements (an alias: no copy).
    ///
    /// ```mlir
    /// %r = npuvec.reshape %x : memref<16x64xf32, #npuvec.space<gm>> -> memref<1024xf32, #npuvec.space<gm>>
    /// %r = "npuvec.reshape"(%x) : (memref<16x64xf32, #npuvec.space<gm>>) -> memref<1024xf32, #npuvec.space<gm>>
    /// ```
    pub static RESHAPE_OP: OpDef = OpDef {
        name: "npuvec.reshape",
        summary: "GM buffer alias of another shape",
        operands: Arity::Named(&[ValueDef::single("source", C::AnyMemRef)]),
        results: Arity::Named(&[ValueDef::single("result", C::AnyMemRef)]),
        traits: &[Trait::Pure],
        verify: Some(v::verify_reshape),
        syntax: Some(&syntax::RESHAPE_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `npuvec.constant`: a constant GM buffer holding `value` (a dense elements attribute of
    /// the result's shape and element type).
    ///
    /// ```mlir
    /// %c = npuvec.constant dense<1.000000e+00> : tensor<4xf32> -> memref<4xf32, #npuvec.space<gm>>
    /// %c = "npuvec.constant"() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> memref<4xf32, #npuvec.space<gm>>
    /// ```
    pub static CONSTANT_OP: OpDef = OpDef {
        name: "npuvec.constant",
        summary: "constant GM buffer",
        results: Arity::Named(&[ValueDef::single("result", C::AnyMemRef)]),
        attrs: &[AttrSpec { name: "value", constraint: AttrConstraint::Any, optional: false }],
        traits: &[Trait::Pure],
        verify: Some(v::verify_constant),
        syntax: Some(&syntax::CONSTANT_SYNTAX),
        ..OpDef::DEFAULT
    };
}
