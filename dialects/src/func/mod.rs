//! The `func` dialect: functions, returns and calls.

pub mod conversion;
pub(crate) mod syntax;
pub(crate) mod verify;

use kiln_compiler::{Arity, AttrConstraint, AttrSpec, Dialect, OpDef, Trait, TypeConstraint, ValueDef};

kiln_compiler::op_def! {
    /// `func.func`: a function with a name, a signature and (unless a declaration) a body.
    ///
    /// The entry block's arguments are the function's arguments; the body ends in `func.return`.
    /// A function without body is an external declaration and must not be public.
    ///
    /// Custom form:
    /// ```mlir
    /// func.func @add(%arg0: i32, %arg1: i32) -> i32 {
    ///   ...
    /// }
    /// func.func private @decl(f32) -> f32
    /// ```
    /// Generic form:
    /// ```mlir
    /// "func.func"() <{function_type = (i32, i32) -> i32, sym_name = "add"}> ({
    /// ^bb0(%arg0: i32, %arg1: i32):
    ///   ...
    /// }) : () -> ()
    /// ```
    pub static FUNC_OP: OpDef = OpDef {
        name: "func.func",
        summary: "an operation with a name containing a single `SSACFG` region",
        regions: Arity::Exactly(1),
        attrs: &[
            AttrSpec { name: "sym_name", constraint: AttrConstraint::String, optional: false },
            AttrSpec { name: "function_type", constraint: AttrConstraint::FunctionType, optional: false },
            AttrSpec { name: "sym_visibility", constraint: AttrConstraint::String, optional: true },
            AttrSpec { name: "arg_attrs", constraint: AttrConstraint::Array, optional: true },
            AttrSpec { name: "res_attrs", constraint: AttrConstraint::Array, optional: true },
            AttrSpec { name: "no_inline", constraint: AttrConstraint::Unit, optional: true },
        ],
        traits: &[Trait::IsolatedFromAbove, Trait::Symbol],
        verify: Some(verify::verify_func),
        syntax: Some(&syntax::FUNC_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `func.return`: returns control and values from the enclosing `func.func`.
    ///
    /// Its operands must match the function's result types in number and type.
    ///
    /// Custom form: `return %0, %1 : i32, f32` (and `return` with no values).
    /// Generic form: `"func.return"(%0, %1) : (i32, f32) -> ()`.
    pub static RETURN_OP: OpDef = OpDef {
        name: "func.return",
        summary: "function return operation",
        operands: Arity::Named(&[ValueDef::variadic("operands", TypeConstraint::Any)]),
        traits: &[Trait::Pure, Trait::Terminator, Trait::ReturnLike],
        parent: Some("func.func"),
        verify: Some(verify::verify_return),
        syntax: Some(&syntax::RETURN_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `func.call`: calls a function by symbol; operand and result types must match the callee's
    /// signature.
    ///
    /// It declares no memory effects, so passes assume it may have any (`dce` and `cse` keep it).
    ///
    /// Custom form: `%0 = call @f(%a, %b) : (i32, i32) -> i32`.
    /// Generic form: `%0 = "func.call"(%a, %b) <{callee = @f}> : (i32, i32) -> i32`.
    pub static CALL_OP: OpDef = OpDef {
        name: "func.call",
        summary: "call operation",
        operands: Arity::Named(&[ValueDef::variadic("operands", TypeConstraint::Any)]),
        results: Arity::Named(&[ValueDef::variadic("results", TypeConstraint::Any)]),
        attrs: &[
            AttrSpec { name: "callee", constraint: AttrConstraint::FlatSymbolRef, optional: false },
            AttrSpec { name: "arg_attrs", constraint: AttrConstraint::Array, optional: true },
            AttrSpec { name: "res_attrs", constraint: AttrConstraint::Array, optional: true },
            AttrSpec { name: "no_inline", constraint: AttrConstraint::Unit, optional: true },
        ],
        verify: Some(verify::verify_call),
        syntax: Some(&syntax::CALL_SYNTAX),
        ..OpDef::DEFAULT
    };
}

/// The `func` dialect.
pub static FUNC: Dialect = Dialect {
    name: "func",
    summary: "functions, calls and returns",
    ops: &[&FUNC_OP, &RETURN_OP, &CALL_OP],
    attrs: &[],
    types: &[],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
};
