//! Attributes and types that dialects define, after MLIR's `AttrDef` / `TypeDef`.
//!
//! A dialect declares each kind once, as a `static` [`AttrDef`] or [`TypeDef`] listed in its
//! [`Dialect`](crate::Dialect): the mnemonic, a summary, how its parameters are written and an
//! optional verifier. Values are interned in the [`Context`] like builtin ones
//! ([`AttrKind::Dialect`], [`TypeKind::Dialect`]) and compared by identity; parameters are
//! attributes (a type parameter is a type attribute).
//!
//! When the dialect is registered, the parser builds these kinds from MLIR's pretty dialect
//! syntax (`#hl.cmp<lt>`, `!test.pair<i32, f32>`) and the printer writes that syntax back, in the
//! generic form too (MLIR has no other form for dialect attributes), so `mlir-opt
//! --allow-unregistered-dialect` reads our output as opaque attributes and prints it back
//! byte-identical. Attributes of dialects that are not registered stay
//! [`AttrKind::Opaque`] / [`TypeKind::Opaque`], kept verbatim.
//!
//! **Enum attributes** are a declared family ([`enum_attr!`](crate::enum_attr)): one declaration
//! gives the Rust enum, the spelling of each case, the parse and print of `#d.name<case>`, and
//! typed accessors (`CmpPredicate::of(attr)`, `CmpPredicate::Lt.attr(ctx)`), as xDSL's
//! `EnumAttribute` and MLIR's `EnumAttr`.
//!
//! Parse hooks are written against the [`DialectAsmParser`] trait and print hooks against
//! [`DialectAsmPrinter`], so a dialect depends on neither the concrete text parser nor its
//! grammar.

use std::fmt;
use std::hash::{Hash, Hasher};

pub use crate::asm::DialectAsmPrinter;
use crate::asm::{DialectAsmParser, PResult};
use crate::attributes::{AttrKind, Attribute};
use crate::context::Context;
use crate::types::{Type, TypeKind};

/// Parses the parameters of a dialect attribute or type: everything between `<` and `>`
/// (nothing when the value was written without brackets).
pub type ParseParamsFn = for<'c> fn(&mut dyn DialectAsmParser<'c>) -> PResult<Vec<Attribute<'c>>>;

/// Prints the parameters (without the surrounding `<` `>`, which are left out when the hook
/// prints nothing).
pub type PrintParamsFn = for<'p, 'c> fn(&mut DialectAsmPrinter<'p, 'c>, &[Attribute<'c>]);

/// Checks parameters built by a parser or a builder: the message on failure.
pub type VerifyParamsFn = for<'c> fn(&[Attribute<'c>]) -> Result<(), String>;

/// How the parameters of a dialect attribute or type are written.
#[derive(Clone, Copy)]
pub enum ParamSyntax {
    /// One bare keyword out of a list of cases (an enum attribute); the value holds one
    /// parameter, the index of the case as an `i32` integer attribute.
    Enum(&'static [&'static str]),
    /// Parameters parsed and printed by the dialect's hooks.
    Custom {
        /// Parses the parameters.
        parse: ParseParamsFn,
        /// Prints them.
        print: PrintParamsFn,
    },
}

macro_rules! def_struct {
    ($(#[doc = $doc:literal])* $name:ident, $what:literal, $sigil:literal) => {
        $(#[doc = $doc])*
        pub struct $name {
            /// The dialect namespace (`hl`).
            pub dialect: &'static str,
            /// The mnemonic after the namespace (`cmp` in `#hl.cmp<lt>`).
            pub name: &'static str,
            /// One-line summary, used in messages ("comparison predicate").
            pub summary: &'static str,
            /// How the parameters are written.
            pub syntax: ParamSyntax,
            /// Extra checks of the parameters.
            pub verify: Option<VerifyParamsFn>,
        }

        impl $name {
            #[doc = concat!("`", $sigil, "dialect.name` as written before the parameters.")]
            pub fn full_name(&self) -> String {
                format!(concat!($sigil, "{}.{}"), self.dialect, self.name)
            }

            /// The parameters' checks: an enum's case index, then the verify hook.
            pub fn check(&self, params: &[Attribute<'_>]) -> Result<(), String> {
                check_params(&self.syntax, self.verify, params)
                    .map_err(|m| format!(concat!("invalid ", $what, " {}: {}"), self.full_name(), m))
            }
        }

        // Definitions are statics: identity is the address.
        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                std::ptr::eq(self, other)
            }
        }
        impl Eq for $name {}
        impl Hash for $name {
            fn hash<H: Hasher>(&self, state: &mut H) {
                std::ptr::hash(self, state)
            }
        }
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.full_name())
            }
        }
    };
}

def_struct! {
    /// The declaration of a dialect attribute kind, `#dialect.name<params>`.
    AttrDef, "attribute", "#"
}

def_struct! {
    /// The declaration of a dialect type kind, `!dialect.name<params>`.
    TypeDef, "type", "!"
}

impl AttrDef {
    /// The cases of an enum attribute (empty for other kinds).
    pub fn cases(&self) -> &'static [&'static str] {
        match self.syntax {
            ParamSyntax::Enum(cases) => cases,
            ParamSyntax::Custom { .. } => &[],
        }
    }

    /// How an op verifier names the expected value: `comparison predicate #hl.cmp<eq|ne>`.
    pub fn describe(&self) -> String {
        match self.syntax {
            ParamSyntax::Enum(cases) => {
                format!("{} `{}<{}>`", self.summary, self.full_name(), cases.join("|"))
            }
            ParamSyntax::Custom { .. } => format!("{} `{}<...>`", self.summary, self.full_name()),
        }
    }
}

fn check_params(
    syntax: &ParamSyntax,
    verify: Option<VerifyParamsFn>,
    params: &[Attribute<'_>],
) -> Result<(), String> {
    if let ParamSyntax::Enum(cases) = syntax {
        let ok = matches!(params, [p] if p.as_int().is_some_and(|i| (0..cases.len() as i128).contains(&i)));
        if !ok {
            return Err(format!("expected one case index below {}", cases.len()));
        }
    }
    verify.map_or(Ok(()), |v| v(params))
}

impl<'c> Context<'c> {
    /// The dialect attribute `def<params>`, after its checks.
    pub fn dialect_attr(
        &self,
        def: &'static AttrDef,
        params: &[Attribute<'c>],
    ) -> Result<Attribute<'c>, String> {
        def.check(params)?;
        let params = self.alloc_slice(params);
        Ok(self.attr(AttrKind::Dialect { def, params }))
    }

    /// The dialect type `def<params>`, after its checks.
    pub fn dialect_type(&self, def: &'static TypeDef, params: &[Attribute<'c>]) -> Result<Type<'c>, String> {
        def.check(params)?;
        let params = self.alloc_slice(params);
        Ok(self.ty(TypeKind::Dialect { def, params }))
    }

    /// Case `case` of enum attribute `def` (`def.cases()[case]`).
    ///
    /// Panics when `case` is out of range: callers pass the index of a declared case (the
    /// accessors that [`enum_attr!`](crate::enum_attr) generates do).
    pub fn enum_attr(&self, def: &'static AttrDef, case: usize) -> Attribute<'c> {
        assert!(case < def.cases().len(), "{def:?} has no case {case}");
        let index = self.int_attr(case as i128, self.int_type(32));
        let params = self.alloc_slice(&[index]);
        self.attr(AttrKind::Dialect { def, params })
    }
}

impl<'c> Attribute<'c> {
    /// The definition and parameters of a dialect attribute.
    pub fn as_dialect(self) -> Option<(&'static AttrDef, &'c [Attribute<'c>])> {
        match *self.kind() {
            AttrKind::Dialect { def, params } => Some((def, params)),
            _ => None,
        }
    }

    /// The case index of an attribute of enum kind `def`.
    pub fn enum_case(self, def: &'static AttrDef) -> Option<usize> {
        match self.as_dialect()? {
            (d, [index]) if d == def => index.as_int().map(|i| i as usize),
            _ => None,
        }
    }
}

impl<'c> Type<'c> {
    /// The definition and parameters of a dialect type.
    pub fn as_dialect(self) -> Option<(&'static TypeDef, &'c [Attribute<'c>])> {
        match *self.kind() {
            TypeKind::Dialect { def, params } => Some((def, params)),
            _ => None,
        }
    }
}

/// Declares an enum attribute: a Rust enum, its `static` [`AttrDef`] and typed accessors.
///
/// ```text
/// kiln_compiler::enum_attr! {
///     /// The predicate of `hl.cmp`.
///     pub enum CmpPredicate, CMP_PREDICATE = ("hl", "cmp", "comparison predicate") {
///         /// Equal.
///         Eq = "eq",
///         /// Less than.
///         Lt = "lt",
///     }
/// }
/// // `#hl.cmp<lt>`; CmpPredicate::of(attr) == Some(CmpPredicate::Lt)
/// ```
#[macro_export]
macro_rules! enum_attr {
    (
        $(#[doc = $doc:literal])*
        $vis:vis enum $ty:ident, $def:ident = ($dialect:literal, $name:literal, $summary:literal) {
            $($(#[doc = $cdoc:literal])* $case:ident = $spelling:literal),+ $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $ty {
            $($(#[doc = $cdoc])* $case),+
        }

        #[doc = concat!("The attribute kind of [`", stringify!($ty), "`]: `#", $dialect, ".", $name, "<...>`.")]
        $vis static $def: $crate::dialect_attrs::AttrDef = $crate::dialect_attrs::AttrDef {
            dialect: $dialect,
            name: $name,
            summary: $summary,
            syntax: $crate::dialect_attrs::ParamSyntax::Enum(&[$($spelling),+]),
            verify: None,
        };

        impl $ty {
            /// Every case, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$case),+];

            /// The case's spelling inside the brackets.
            pub fn keyword(self) -> &'static str {
                $def.cases()[self as usize]
            }

            /// The case spelled `keyword`.
            pub fn from_keyword(keyword: &str) -> Option<$ty> {
                Self::ALL.iter().copied().find(|c| c.keyword() == keyword)
            }

            /// The case held by `attr`, when it is an attribute of this kind.
            pub fn of(attr: $crate::Attribute<'_>) -> Option<$ty> {
                attr.enum_case(&$def).map(|i| Self::ALL[i])
            }

            /// The attribute of this case.
            pub fn attr<'c>(self, ctx: &$crate::Context<'c>) -> $crate::Attribute<'c> {
                ctx.enum_attr(&$def, self as usize)
            }
        }
    };
}
