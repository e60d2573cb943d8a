//! The `builtin` dialect: the top-level `builtin.module`, and the conversion framework's
//! `builtin.unrealized_conversion_cast` (declared beside the framework in the IR core).

mod syntax;

use kiln_compiler::{Arity, AttrConstraint, AttrSpec, Dialect, OpDef, Trait};

kiln_compiler::op_def! {
    /// `builtin.module`: a top-level container of operations, with an optional symbol name.
    ///
    /// Its single region has a single block without terminator; it is isolated from above and
    /// holds a symbol table.
    ///
    /// Custom form:
    /// ```mlir
    /// module @name attributes {foo.bar} {
    ///   func.func @f() { return }
    /// }
    /// ```
    /// Generic form:
    /// ```mlir
    /// "builtin.module"() <{sym_name = "name"}> ({
    ///   ...
    /// }) {foo.bar} : () -> ()
    /// ```
    pub static MODULE: OpDef = OpDef {
        name: "builtin.module",
        summary: "a top level container operation",
        regions: Arity::Exactly(1),
        attrs: &[
            AttrSpec { name: "sym_name", constraint: AttrConstraint::String, optional: true },
            AttrSpec { name: "sym_visibility", constraint: AttrConstraint::String, optional: true },
        ],
        traits: &[Trait::IsolatedFromAbove, Trait::NoTerminator, Trait::SingleBlock, Trait::SymbolTable],
        syntax: Some(&syntax::MODULE_SYNTAX),
        ..OpDef::DEFAULT
    };
}

/// The `builtin` dialect.
pub static BUILTIN: Dialect = Dialect {
    name: "builtin",
    summary: "MLIR's builtin dialect",
    ops: &[&MODULE, &kiln_compiler::conversion::UNREALIZED_CONVERSION_CAST],
    attrs: &[],
    types: &[],
    materialize_constant: None,
    canonicalize: None,
    verify_op_attr: None,
};
