//! Declarative op definitions and the dialect registry.
//!
//! An op is declared once, as a `static OpDef`: its name, its documentation, its operands and
//! results (a bare count, or named groups with type constraints: single, optional, variadic,
//! with `operandSegmentSizes` when more than one group varies), how many regions and successors
//! it takes, its inherent attributes with their constraints, its traits, its interfaces
//! (memory [`effects`], and dialect-defined ones), and optional hooks (a verifier for what the
//! declaration cannot say, a folder, canonicalization patterns, a custom assembly format). The
//! generic verifier derives every check the declaration implies, so hooks never repeat them.
//! The hooks' interfaces are declared below this module, in [`crate::asm`] (custom syntax) and
//! [`crate::pattern`] (patterns), so op definitions depend on neither the text format nor the
//! rewrite drivers.
//!
//! ```text
//! pub static RETURN: OpDef = OpDef {
//!     name: "func.return",
//!     summary: "function return operation",
//!     operands: Arity::Named(&[ValueDef::variadic("operands", TypeConstraint::Any)]),
//!     traits: &[Trait::Pure, Trait::Terminator, Trait::ReturnLike],
//!     verify: Some(verify_return),
//!     ..OpDef::DEFAULT
//! };
//! ```

use std::any::Any;
use std::fmt;

use indexmap::IndexMap;

use crate::asm::CustomSyntax;
use crate::attributes::Attribute;
use crate::context::Context;
use crate::diagnostics::Diagnostic;
use crate::dialect_attrs::{AttrDef, TypeDef};
use crate::ir::{Ir, OpId};
use crate::pattern::PatternSet;
use crate::types::Type;

mod constraint;
pub mod effects;
mod signature;

pub use constraint::TypeConstraint;
pub use signature::{
    group_sizes, needs_segments, operand_group, result_group, SegmentError, ValueDef, ValueKind,
    OPERAND_SEGMENTS, RESULT_SEGMENTS,
};

/// How many of something an op takes: a bare count, or (for operands and results) named groups
/// with type constraints, from which the count follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly this many.
    Exactly(usize),
    /// At least this many.
    AtLeast(usize),
    /// Any number.
    Any,
    /// Named groups, in order (see [`ValueDef`]); for regions and successors only the group
    /// kinds count.
    Named(&'static [ValueDef]),
}

impl Arity {
    /// The least count, and the greatest when bounded.
    pub(crate) fn bounds(self) -> (usize, Option<usize>) {
        match self {
            Arity::Exactly(k) => (k, Some(k)),
            Arity::AtLeast(k) => (k, None),
            Arity::Any => (0, None),
            Arity::Named(defs) => {
                let singles = defs.iter().filter(|d| d.kind == ValueKind::Single).count();
                (singles, (singles == defs.len()).then_some(singles))
            }
        }
    }

    /// Whether `n` satisfies the arity (as a count; an optional group holding two values is
    /// reported by the group checks).
    pub fn accepts(self, n: usize) -> bool {
        let (min, max) = self.bounds();
        n >= min && max.is_none_or(|m| n <= m)
    }

    /// The named groups (empty for a bare count).
    pub fn defs(self) -> &'static [ValueDef] {
        match self {
            Arity::Named(defs) => defs,
            _ => &[],
        }
    }
}

/// Properties of an op that passes and the verifier rely on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trait {
    /// No memory effects (see [`effects`]) and speculatable: removable when unused,
    /// CSE-able.
    Pure,
    /// Ends a block.
    Terminator,
    /// Returns control to the parent op (`func.return`).
    ReturnLike,
    /// Its regions cannot use values defined outside.
    IsolatedFromAbove,
    /// Its regions have one block each.
    SingleBlock,
    /// Its region's blocks need no terminator (`builtin.module`).
    NoTerminator,
    /// Defines a symbol (`sym_name` attribute).
    Symbol,
    /// Its region holds a symbol table.
    SymbolTable,
    /// All operands and results have one type.
    SameOperandsAndResultType,
    /// `op(a, b) == op(b, a)`.
    Commutative,
    /// Acts elementwise on shaped operands.
    Elementwise,
    /// Produces a constant: no operands, one result, folds to its value attribute.
    ConstantLike,
}

/// What an inherent attribute must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrConstraint {
    /// Anything.
    Any,
    /// A string attribute.
    String,
    /// A type attribute holding a function type.
    FunctionType,
    /// A type attribute.
    Type,
    /// An integer attribute.
    Integer,
    /// A flat symbol reference.
    FlatSymbolRef,
    /// An array attribute.
    Array,
    /// A dictionary attribute.
    Dictionary,
    /// A unit attribute.
    Unit,
    /// A boolean (`true` / `false`, an `i1` integer).
    Bool,
    /// A float attribute.
    Float,
    /// An attribute of a dialect-defined kind (an enum attribute such as `#hl.cmp<lt>`).
    DialectAttr(&'static AttrDef),
}

impl AttrConstraint {
    /// Whether `attr` satisfies the constraint.
    pub fn accepts(self, attr: Attribute<'_>) -> bool {
        use crate::attributes::AttrKind as K;
        use crate::types::TypeKind;
        match self {
            AttrConstraint::Any => true,
            AttrConstraint::String => matches!(attr.kind(), K::String { .. }),
            AttrConstraint::FunctionType => {
                matches!(attr.kind(), K::Type(t) if matches!(t.kind(), TypeKind::Function { .. }))
            }
            AttrConstraint::Type => matches!(attr.kind(), K::Type(_)),
            AttrConstraint::Integer => matches!(attr.kind(), K::Integer { .. }),
            AttrConstraint::FlatSymbolRef => matches!(attr.kind(), K::SymbolRef { nested: [], .. }),
            AttrConstraint::Array => matches!(attr.kind(), K::Array(_)),
            AttrConstraint::Dictionary => matches!(attr.kind(), K::Dictionary(_)),
            AttrConstraint::Unit => matches!(attr.kind(), K::Unit),
            AttrConstraint::Bool => {
                matches!(attr.kind(), K::Integer { ty, .. } if ty.bit_width() == Some(1) && ty.is_integer())
            }
            AttrConstraint::Float => matches!(attr.kind(), K::Float { .. }),
            AttrConstraint::DialectAttr(def) => attr.as_dialect().is_some_and(|(d, _)| d == def),
        }
    }

    /// The MLIR-style description used in messages.
    pub fn describe(self) -> String {
        let text = match self {
            AttrConstraint::Any => "any attribute",
            AttrConstraint::String => "string attribute",
            AttrConstraint::FunctionType => "type attribute of function type",
            AttrConstraint::Type => "any type attribute",
            AttrConstraint::Integer => "integer attribute",
            AttrConstraint::FlatSymbolRef => "flat symbol reference attribute",
            AttrConstraint::Array => "array attribute",
            AttrConstraint::Dictionary => "dictionary of named attribute values",
            AttrConstraint::Unit => "unit attribute",
            AttrConstraint::Bool => "bool attribute",
            AttrConstraint::Float => "float attribute",
            AttrConstraint::DialectAttr(def) => return def.describe(),
        };
        text.to_string()
    }
}

/// An inherent attribute of an op.
#[derive(Clone, Copy, Debug)]
pub struct AttrSpec {
    /// Its name.
    pub name: &'static str,
    /// What it must be.
    pub constraint: AttrConstraint,
    /// Whether it may be absent.
    pub optional: bool,
}

/// The result of folding one op result: an existing value or a constant.
#[derive(Clone, Copy, Debug)]
pub enum FoldResult<'c> {
    /// Replace by an existing value.
    Value(crate::ir::ValueId),
    /// Replace by a constant (materialized by the dialect).
    Constant(Attribute<'c>),
}

/// An op-specific verifier: on failure, a located diagnostic (usually
/// [`Diagnostic::op_error`], with notes pointing at related places).
pub type VerifyFn = for<'c> fn(&Context<'c>, &Ir<'c>, OpId) -> Result<(), Diagnostic<'c>>;

/// Verifies discardable attribute `name` = `attr` of a dialect on op `op` (see
/// [`Dialect::verify_op_attr`]).
pub type VerifyOpAttrFn =
    for<'c> fn(&Context<'c>, &Ir<'c>, OpId, &str, Attribute<'c>) -> Result<(), Diagnostic<'c>>;

/// The default value of an op's inherent attribute `name`, if it has one.
pub type DefaultAttrFn = for<'c> fn(&Context<'c>, &str) -> Option<Attribute<'c>>;

/// A folder: given the op and its operands' constant values (when known), the replacement of
/// each result, or `None` when it does not fold.
pub type FoldFn =
    for<'c> fn(&Context<'c>, &Ir<'c>, OpId, &[Option<Attribute<'c>>]) -> Option<Vec<FoldResult<'c>>>;

/// Adds an op's canonicalization patterns to a set.
pub type PopulateFn = fn(&mut PatternSet);

/// Builds the op that produces constant `value` of type `ty` (a dialect's constant
/// materializer), returning the detached op.
pub type MaterializeFn =
    for<'c> fn(&Context<'c>, &mut Ir<'c>, Attribute<'c>, Type<'c>, Attribute<'c>) -> Option<OpId>;

/// The declaration of an operation.
pub struct OpDef {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    /// One-line summary.
    pub summary: &'static str,
    /// The op's documentation: its doc comment, filled by [`op_def!`](crate::op_def) so that
    /// rustdoc and the generated dialect reference share one text (lines keep rustdoc's
    /// leading space).
    pub description: &'static str,
    /// Operand count.
    pub operands: Arity,
    /// Result count.
    pub results: Arity,
    /// Region count.
    pub regions: Arity,
    /// Successor count.
    pub successors: Arity,
    /// Inherent attributes (stored as properties).
    pub attrs: &'static [AttrSpec],
    /// Traits.
    pub traits: &'static [Trait],
    /// The op that must directly enclose this one, if any.
    pub parent: Option<&'static str>,
    /// Extra verification.
    pub verify: Option<VerifyFn>,
    /// Folder.
    pub fold: Option<FoldFn>,
    /// Canonicalization patterns.
    pub canonicalize: Option<PopulateFn>,
    /// Custom assembly format.
    pub syntax: Option<&'static CustomSyntax>,
    /// The default value of an inherent attribute that has one (MLIR's `DefaultValuedAttr`),
    /// by name: the generic form shows it when the op does not carry it, as MLIR's properties
    /// always hold it.
    pub default_attr: Option<DefaultAttrFn>,
    /// Dialect-defined interfaces (fusion category, cost, shape inference, ...), found by type
    /// with [`OpDef::interface`], as MLIR finds op interfaces by type id.
    pub interfaces: &'static [&'static (dyn Any + Sync)],
}

/// Declares a `static` [`OpDef`] whose `description` is its doc comment, so that the text is
/// written once for rustdoc and for the generated dialect reference:
///
/// ```text
/// kiln_compiler::op_def! {
///     /// `func.return`: returns control and values from the enclosing `func.func`.
///     pub static RETURN_OP: OpDef = OpDef { name: "func.return", ..OpDef::DEFAULT };
/// }
/// ```
#[macro_export]
macro_rules! op_def {
    (
        $(#[doc = $doc:expr])*
        $vis:vis static $ident:ident: $ty:ty = $($ctor:ident)::+ { $($field:tt)* };
    ) => {
        $(#[doc = $doc])*
        $vis static $ident: $ty = $($ctor)::+ { description: concat!($($doc, "\n"),*), $($field)* };
    };
}

impl fmt::Debug for OpDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpDef").field("name", &self.name).finish_non_exhaustive()
    }
}

/// A definition is its identity (a `static`): two are equal when they are the same one, as
/// [`Ir::is`] compares them, so `&'static OpDef` serves as a key (in sets, maps and cache keys).
impl PartialEq for OpDef {
    fn eq(&self, other: &OpDef) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for OpDef {}

/// Hashes the name, which equal definitions share.
impl std::hash::Hash for OpDef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl OpDef {
    /// Defaults for `..OpDef::DEFAULT`: no operands, results, regions, successors, attributes,
    /// traits or hooks.
    pub const DEFAULT: OpDef = OpDef {
        name: "",
        summary: "",
        description: "",
        operands: Arity::Exactly(0),
        results: Arity::Exactly(0),
        regions: Arity::Exactly(0),
        successors: Arity::Exactly(0),
        attrs: &[],
        traits: &[],
        parent: None,
        verify: None,
        fold: None,
        canonicalize: None,
        syntax: None,
        default_attr: None,
        interfaces: &[],
    };

    /// The op's interface of type `T`, if it declares one.
    pub fn interface<T: Any>(&self) -> Option<&'static T> {
        self.interfaces.iter().find_map(|i| (*i as &dyn Any).downcast_ref::<T>())
    }

    /// Whether the op has trait `t`.
    pub fn has_trait(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    /// The dialect namespace (the part before the first dot).
    pub fn dialect(&self) -> &'static str {
        self.name.split_once('.').map_or(self.name, |(d, _)| d)
    }

    /// The name within its dialect (the part after the first dot: `matmul` of `hl.matmul`).
    pub fn short_name(&self) -> &'static str {
        self.name.split_once('.').map_or(self.name, |(_, s)| s)
    }

    /// Whether the op stores properties: inherent attributes, or segment sizes of operand or
    /// result groups.
    pub fn has_properties(&self) -> bool {
        !self.attrs.is_empty() || needs_segments(self.operands.defs()) || needs_segments(self.results.defs())
    }

    /// The spec of inherent attribute `name`.
    pub fn attr_spec(&self, name: &str) -> Option<&'static AttrSpec> {
        self.attrs.iter().find(|a| a.name == name)
    }
}

/// A dialect: a namespace, its ops and the attribute and type kinds it defines.
#[derive(Debug)]
pub struct Dialect {
    /// The namespace (`func`, `hl`).
    pub name: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Its ops.
    pub ops: &'static [&'static OpDef],
    /// The attribute kinds it defines (`#hl.cmp<...>`).
    pub attrs: &'static [&'static AttrDef],
    /// The type kinds it defines.
    pub types: &'static [&'static TypeDef],
    /// Builds constants for folding.
    pub materialize_constant: Option<MaterializeFn>,
    /// Canonicalization patterns that concern the dialect as a whole (not one op).
    pub canonicalize: Option<PopulateFn>,
    /// Verifies a discardable attribute of the dialect (`<dialect>.<name>`) on any op, MLIR's
    /// `Dialect::verifyOperationAttribute`.
    pub verify_op_attr: Option<VerifyOpAttrFn>,
}

/// The known dialects and ops, in registration order.
#[derive(Debug, Default, Clone)]
pub struct DialectRegistry {
    dialects: IndexMap<&'static str, &'static Dialect>,
    ops: IndexMap<&'static str, &'static OpDef>,
}

impl Dialect {
    /// The dialect's op named `<dialect>.<short>`.
    pub fn op_named(&self, short: &str) -> Option<&'static OpDef> {
        self.ops.iter().copied().find(|d| d.short_name() == short)
    }

    /// Whether `def` is one of the dialect's ops.
    pub fn owns(&self, def: Option<&'static OpDef>) -> bool {
        def.is_some_and(|def| self.ops.iter().any(|&d| std::ptr::eq(d, def)))
    }

    /// The attribute kind named `name` (`cmp` for `#hl.cmp<...>`).
    pub fn attr_def(&self, name: &str) -> Option<&'static AttrDef> {
        self.attrs.iter().copied().find(|d| d.name == name)
    }

    /// The type kind named `name`.
    pub fn type_def(&self, name: &str) -> Option<&'static TypeDef> {
        self.types.iter().copied().find(|d| d.name == name)
    }
}

impl DialectRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a dialect and its ops (registering twice is harmless).
    pub fn register(&mut self, dialect: &'static Dialect) {
        self.dialects.insert(dialect.name, dialect);
        for op in dialect.ops {
            self.ops.insert(op.name, op);
        }
    }

    /// Looks a dialect up by namespace.
    pub fn dialect(&self, name: &str) -> Option<&'static Dialect> {
        self.dialects.get(name).copied()
    }

    /// Looks an op up by full name.
    pub fn op(&self, name: &str) -> Option<&'static OpDef> {
        self.ops.get(name).copied()
    }

    /// The registered dialects, in registration order.
    pub fn dialects(&self) -> impl Iterator<Item = &'static Dialect> + '_ {
        self.dialects.values().copied()
    }
}
