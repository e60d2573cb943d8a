//! The `arith` dialect (the subset Kiln needs): constants and scalar integer arithmetic on
//! signless integers and `index`, comparisons, `select` and `index_cast`, with the custom forms
//! and verifier messages of mlir-opt 22. Every op is pure, so `cse` and `dce` handle them.
//!
//! Integer ops are declared by family (`int_binary!`), as MLIR's `Arith_IntBinaryOp`: operands
//! and result signless-integer-like of one type (`SameOperandsAndResultType`). `addi`, `subi`
//! and `muli` carry the `overflowFlags` property (`#arith.overflow<nsw, nuw>`; the custom form
//! leaves out `none`, the generic form always shows it, as mlir-opt does); `divui` and `divsi`
//! carry the unit property `isExact`. Integer ops and `cmpi` on scalar constants fold (see
//! `fold`), so `canonicalize` computes constant index arithmetic.

mod attrs;
mod fold;
mod syntax;
mod verify;

pub use attrs::{CMPI_PREDICATES, OVERFLOW_FLAGS};

use kiln_compiler::{Arity, AttrConstraint, AttrSpec, Dialect, OpDef, Trait, TypeConstraint as C, ValueDef};

/// The operands and result of the integer binary ops.
const INT_BINARY: Arity = Arity::Named(&[
    ValueDef::single("lhs", C::SignlessIntegerLike),
    ValueDef::single("rhs", C::SignlessIntegerLike),
]);
/// Their result.
const INT_RESULT: Arity = Arity::Named(&[ValueDef::single("result", C::SignlessIntegerLike)]);
/// The `overflowFlags` property of `addi`, `subi`, `muli`.
const OVERFLOW_ATTR: &[AttrSpec] = &[AttrSpec {
    name: "overflowFlags",
    constraint: AttrConstraint::DialectAttr(&OVERFLOW_FLAGS),
    optional: true,
}];
/// The `isExact` property of `divui`, `divsi`.
const EXACT_ATTR: &[AttrSpec] =
    &[AttrSpec { name: "isExact", constraint: AttrConstraint::Unit, optional: true }];

/// Declares an integer binary op: `$ident` named `arith.$op`, with `$summary`, a semantics
/// line, its syntax (`plain`, `overflow` or `exact`) and extra traits.
macro_rules! int_binary {
    ($ident:ident = $op:literal, $summary:literal, $semantics:literal, $kind:ident $(, $extra:ident)*) => {
        int_binary!(@kind $kind, $ident, $op, $summary, $semantics, [$($extra),*]);
    };
    (@kind plain, $($rest:tt)*) => { int_binary!(@def BINARY_SYNTAX, &[], None, "", $($rest)*); };
    (@kind overflow, $($rest:tt)*) => {
        int_binary!(@def OVERFLOW_BINARY_SYNTAX, OVERFLOW_ATTR, Some(attrs::default_overflow),
                    " <{overflowFlags = #arith.overflow<none>}>", $($rest)*);
    };
    (@kind exact, $($rest:tt)*) => { int_binary!(@def EXACT_BINARY_SYNTAX, EXACT_ATTR, None, "", $($rest)*); };
    (@def $syntax:ident, $attrs:expr, $default:expr, $props:literal, $ident:ident, $op:literal, $summary:literal, $semantics:literal, [$($extra:ident),*]) => {
        kiln_compiler::op_def! {
            #[doc = concat!("`", $op, "`: ", $summary, ".")]
            #[doc = ""]
            #[doc = $semantics]
            #[doc = ""]
            #[doc = "```mlir"]
            #[doc = concat!("%2 = ", $op, " %0, %1 : index")]
            #[doc = concat!("%2 = \"", $op, "\"(%0, %1)", $props, " : (index, index) -> index")]
            #[doc = "```"]
            // One line, so that the registry test reads the name from the invocation.
            pub static $ident: OpDef = OpDef { name: $op,
                summary: $summary,
                operands: INT_BINARY,
                results: INT_RESULT,
                attrs: $attrs,
                traits: &[Trait::Pure, Trait::SameOperandsAndResultType $(, Trait::$extra)*],
                fold: Some(fold::fold_arith),
                syntax: Some(&syntax::$syntax),
                default_attr: $default,
                ..OpDef::DEFAULT
            };
        }
    };
}

int_binary!(
    ADDI_OP = "arith.addi", "integer addition operation",
    "Wrapping two's complement addition; `overflow<nsw>` / `overflow<nuw>` promise that no signed / unsigned overflow happens (poison otherwise).",
    overflow, Commutative);
int_binary!(
    SUBI_OP = "arith.subi",
    "Integer subtraction operation",
    "Wrapping two's complement subtraction, with the overflow flags of `arith.addi`.",
    overflow
);
int_binary!(
    MULI_OP = "arith.muli", "Integer multiplication operation",
    "Wrapping two's complement multiplication (the low bits of the product), with the overflow flags of `arith.addi`.",
    overflow, Commutative);
int_binary!(
    DIVUI_OP = "arith.divui", "unsigned integer division operation",
    "Unsigned division rounding toward zero; division by zero is undefined behavior. `exact` promises a zero remainder.",
    exact);
int_binary!(
    DIVSI_OP = "arith.divsi", "signed integer division operation",
    "Signed division rounding toward zero; division by zero and `MIN / -1` are undefined behavior. `exact` promises a zero remainder.",
    exact);
int_binary!(
    REMUI_OP = "arith.remui",
    "unsigned integer division remainder operation",
    "The unsigned remainder; remainder by zero is undefined behavior.",
    plain
);
int_binary!(
    REMSI_OP = "arith.remsi",
    "signed integer division remainder operation",
    "The signed remainder, with the sign of the dividend; remainder by zero is undefined behavior.",
    plain
);
int_binary!(
    MINSI_OP = "arith.minsi",
    "signed integer minimum operation",
    "The smaller operand, both read as signed.",
    plain,
    Commutative
);
int_binary!(
    MAXSI_OP = "arith.maxsi",
    "signed integer maximum operation",
    "The larger operand, both read as signed.",
    plain,
    Commutative
);
int_binary!(
    MINUI_OP = "arith.minui",
    "unsigned integer minimum operation",
    "The smaller operand, both read as unsigned.",
    plain,
    Commutative
);
int_binary!(
    MAXUI_OP = "arith.maxui",
    "unsigned integer maximum operation",
    "The larger operand, both read as unsigned.",
    plain,
    Commutative
);

kiln_compiler::op_def! {
    /// `arith.constant`: integer or floating point constant.
    ///
    /// The result has the type of the `value` attribute: an integer (signless, or `index`), a
    /// float, or an elements attribute. Integer results must be signless.
    ///
    /// ```mlir
    /// %c0 = arith.constant 0 : index
    /// %true = arith.constant true
    /// %cst = arith.constant 1.000000e+00 : f32
    /// %0 = "arith.constant"() <{value = 0 : index}> : () -> index
    /// ```
    pub static CONSTANT_OP: OpDef = OpDef {
        name: "arith.constant",
        summary: "integer or floating point constant",
        results: Arity::Named(&[ValueDef::single("result", C::Any)]),
        attrs: &[AttrSpec { name: "value", constraint: AttrConstraint::Any, optional: false }],
        traits: &[Trait::Pure, Trait::ConstantLike],
        verify: Some(verify::verify_constant),
        fold: Some(fold::fold_arith),
        syntax: Some(&syntax::CONSTANT_SYNTAX),
        interfaces: &[&kiln_compiler::syntax::custom::AsmResultName(syntax::constant_name)],
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `arith.cmpi`: integer comparison operation.
    ///
    /// Compares two signless-integer-like operands of one type with `predicate` (`eq`, `ne`,
    /// `slt`, `sle`, `sgt`, `sge`, `ult`, `ule`, `ugt`, `uge`; stored as the `i64` 0 ... 9) and
    /// gives `i1` (a vector or tensor of `i1` for shaped operands).
    ///
    /// ```mlir
    /// %2 = arith.cmpi slt, %0, %1 : index
    /// %2 = "arith.cmpi"(%0, %1) <{predicate = 2 : i64}> : (index, index) -> i1
    /// ```
    pub static CMPI_OP: OpDef = OpDef {
        name: "arith.cmpi",
        summary: "integer comparison operation",
        operands: INT_BINARY,
        results: Arity::Named(&[ValueDef::single("result", C::BoolLike)]),
        attrs: &[AttrSpec { name: "predicate", constraint: AttrConstraint::Integer, optional: false }],
        traits: &[Trait::Pure],
        verify: Some(verify::verify_cmpi),
        fold: Some(fold::fold_arith),
        syntax: Some(&syntax::CMPI_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `arith.select`: select operation.
    ///
    /// `true_value` where `condition` is true, `false_value` elsewhere; the condition is `i1`
    /// (or a shape of `i1`, written before the result type: `: vector<4xi1>, vector<4xf32>`).
    ///
    /// ```mlir
    /// %3 = arith.select %2, %0, %1 : index
    /// %3 = "arith.select"(%2, %0, %1) : (i1, index, index) -> index
    /// ```
    pub static SELECT_OP: OpDef = OpDef {
        name: "arith.select",
        summary: "select operation",
        operands: Arity::Named(&[
            ValueDef::single("condition", C::BoolLike),
            ValueDef::single("true_value", C::Any),
            ValueDef::single("false_value", C::Any),
        ]),
        results: Arity::Named(&[ValueDef::single("result", C::Any)]),
        traits: &[Trait::Pure],
        verify: Some(verify::verify_select),
        syntax: Some(&syntax::SELECT_SYNTAX),
        ..OpDef::DEFAULT
    };
}

kiln_compiler::op_def! {
    /// `arith.index_cast`: cast between index and integer types.
    ///
    /// Sign-extends or truncates between `index` and a signless integer (or shapes of them);
    /// exactly one side is `index`.
    ///
    /// ```mlir
    /// %1 = arith.index_cast %0 : index to i32
    /// %1 = "arith.index_cast"(%0) : (index) -> i32
    /// ```
    pub static INDEX_CAST_OP: OpDef = OpDef {
        name: "arith.index_cast",
        summary: "cast between index and integer types",
        operands: Arity::Named(&[ValueDef::single("in", C::SignlessIntegerLike)]),
        results: Arity::Named(&[ValueDef::single("out", C::SignlessIntegerLike)]),
        traits: &[Trait::Pure],
        verify: Some(verify::verify_index_cast),
        syntax: Some(&syntax::CAST_SYNTAX),
        ..OpDef::DEFAULT
    };
}

/// The `arith` dialect.
pub static ARITH: Dialect = Dialect {
    name: "arith",
    summary: "integer and index arithmetic, comparisons and constants",
    ops: &[
        &CONSTANT_OP,
        &ADDI_OP,
        &SUBI_OP,
        &MULI_OP,
        &DIVUI_OP,
        &DIVSI_OP,
        &REMUI_OP,
        &REMSI_OP,
        &MINSI_OP,
        &MAXSI_OP,
        &MINUI_OP,
        &MAXUI_OP,
        &CMPI_OP,
        &SELECT_OP,
        &INDEX_CAST_OP,
    ],
    attrs: &[&OVERFLOW_FLAGS],
    types: &[],
    materialize_constant: Some(fold::materialize),
    canonicalize: None,
    verify_op_attr: None,
};
