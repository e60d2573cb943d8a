//! The `scf` dialect (the subset Kiln needs): `scf.for` loops with loop-carried values,
//! `scf.if` and their terminator `scf.yield`, with the custom forms and verifier messages of
//! mlir-opt 22.
//!
//! The ops declare no memory effects of their own: as MLIR's (`RecursiveMemoryEffects`), what
//! they touch is what their bodies touch, so passes that need effects look inside.

mod syntax;
mod verify;

use kiln_compiler::{Arity, AttrConstraint, AttrSpec, Dialect, OpDef, Trait, TypeConstraint as C, ValueDef};

/// The unit property of an `scf.for` that compares its bounds unsigned.
pub(crate) const UNSIGNED_CMP: &str = "unsignedCmp";

/// The type of loop bounds and steps.
const BOUND: C = C::AnyOf(&[C::SignlessInteger, C::Index]);

kiln_compiler::op_def! {
    /// `scf.for`: for operation.
    ///
    /// Runs its body for `%iv` from `lowerBound` while below `upperBound` (signed comparison,
    /// unsigned with `unsigned` / `unsignedCmp`), adding `step` (positive) each time. Bounds,
    /// step and `%iv` have one integer or `index` type. `iter_args` carry values from one
    /// iteration to the next: the body's arguments after `%iv`, initialized by `initArgs`,
    /// replaced by what `scf.yield` gives; the results are their final values (the inits when
    /// the loop runs zero times). Without `iter_args` the body's `scf.yield` is implicit.
    ///
    /// Custom form:
    /// ```mlir
    /// %0 = scf.for %arg3 = %c0 to %c4 step %c1 iter_args(%arg4 = %cst) -> (f32) {
    ///   %1 = arith.addf %arg4, %cst : f32
    ///   scf.yield %1 : f32
    /// }
    /// ```
    /// Generic form:
    /// ```mlir
    /// %0 = "scf.for"(%c0, %c4, %c1, %cst) ({
    /// ^bb0(%arg3: index, %arg4: f32):
    ///   ...
    ///   "scf.yield"(%1) : (f32) -> ()
    /// }) : (index, index, index, f32) -> f32
    /// ```
    pub static FOR_OP: OpDef = OpDef {
        name: "scf.for",
        summary: "for operation",
        operands: Arity::Named(&[
            ValueDef::single("lowerBound", BOUND),
            ValueDef::single("upperBound", BOUND),
            ValueDef::single("step", BOUND),
            ValueDef::variadic("initArgs", C::Any),
        ]),
        results: Arity::Named(&[ValueDef::variadic("results", C::Any)]),
        regions: Arity::Exactly(1),
        attrs: &[AttrSpec { name: UNSIGNED_CMP, constraint: AttrConstraint::Unit, optional: true }],
        traits: &[Trait::SingleBlock],
        verify: Some(verify::verify_for),
        syntax: Some(&syntax::FOR_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `scf.if`: if-then-else operation.
    ///
    /// Runs the then region when `condition` (`i1`) is true, else the else region, which may
    /// be empty when the op has no results. With results, both regions end in an `scf.yield`
    /// of the result types; without, the `scf.yield` is implicit and an empty else is left out.
    ///
    /// Custom form:
    /// ```mlir
    /// %0 = scf.if %cond -> (f32) {
    ///   scf.yield %a : f32
    /// } else {
    ///   scf.yield %b : f32
    /// }
    /// ```
    /// Generic form:
    /// ```mlir
    /// %0 = "scf.if"(%cond) ({
    ///   "scf.yield"(%a) : (f32) -> ()
    /// }, {
    ///   "scf.yield"(%b) : (f32) -> ()
    /// }) : (i1) -> f32
    /// ```
    pub static IF_OP: OpDef = OpDef {
        name: "scf.if",
        summary: "if-then-else operation",
        operands: Arity::Named(&[ValueDef::single("condition", C::I1)]),
        results: Arity::Named(&[ValueDef::variadic("results", C::Any)]),
        regions: Arity::Exactly(2),
        traits: &[Trait::SingleBlock],
        verify: Some(verify::verify_if),
        syntax: Some(&syntax::IF_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `scf.yield`: loop yield and termination operation.
    ///
    /// Ends the body of an `scf.for` (giving the next values of its iter args) or a branch of
    /// an `scf.if` (giving its results).
    ///
    /// Custom form: `scf.yield %0, %1 : f32, index` (and `scf.yield`, usually left implicit).
    /// Generic form: `"scf.yield"(%0, %1) : (f32, index) -> ()`.
    pub static YIELD_OP: OpDef = OpDef {
        name: "scf.yield",
        summary: "loop yield and termination operation",
        operands: Arity::Named(&[ValueDef::variadic("results", C::Any)]),
        traits: &[Trait::Pure, Trait::Terminator, Trait::ReturnLike],
        verify: Some(verify::verify_yield),
        syntax: Some(&syntax::YIELD_SYNTAX),
        ..OpDef::DEFAULT
    };
}

/// The `scf` dialect.
pub static SCF: Dialect = Dialect {
    name: "scf",
    summary: "structured control flow: loops and conditionals",
    ops: &[&FOR_OP, &IF_OP, &YIELD_OP],
    attrs: &[],
    types: &[],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
};
