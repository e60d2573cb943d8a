//! Type constraints of declared operands and results, with the descriptions MLIR's ODS gives
//! them (`'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'`).

use crate::types::{Signedness, Type, TypeKind};

/// What the type of a declared operand or result must be.
///
/// Most constraints look at one type; [`TypeConstraint::SameAs`] and
/// [`TypeConstraint::ElementTypeOf`] relate it to another named operand or result of the op
/// (MLIR's `AllTypesMatch` and `TypesMatchWith`), and are checked once the per-value
/// constraints hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeConstraint {
    /// Any type.
    Any,
    /// A ranked or unranked tensor.
    AnyTensor,
    /// A ranked tensor.
    AnyRankedTensor,
    /// A ranked memref.
    AnyMemRef,
    /// A ranked or unranked memref.
    AnyRankedOrUnrankedMemRef,
    /// `index`.
    Index,
    /// An integer of any width and signedness.
    AnyInteger,
    /// A signless integer of any width.
    SignlessInteger,
    /// A signless integer, `index`, or a vector or tensor of them.
    SignlessIntegerLike,
    /// A floating-point type.
    AnyFloat,
    /// `i1`.
    I1,
    /// `i1`, or a vector or tensor of `i1`.
    BoolLike,
    /// One of the listed constraints.
    AnyOf(&'static [TypeConstraint]),
    /// The same type as the named operand or result (its first value, for a group).
    SameAs(&'static str),
    /// The element type of the named shaped operand or result.
    ElementTypeOf(&'static str),
}

impl TypeConstraint {
    /// Whether `ty` satisfies the constraint on its own; relational constraints accept every
    /// type here (see [`TypeConstraint::related_to`]).
    pub fn accepts(self, ty: Type<'_>) -> bool {
        let signless =
            |t: Type<'_>| matches!(t.kind(), TypeKind::Integer { signedness: Signedness::Signless, .. });
        match self {
            TypeConstraint::Any | TypeConstraint::SameAs(_) | TypeConstraint::ElementTypeOf(_) => true,
            TypeConstraint::AnyTensor => {
                matches!(ty.kind(), TypeKind::RankedTensor { .. } | TypeKind::UnrankedTensor { .. })
            }
            TypeConstraint::AnyRankedTensor => matches!(ty.kind(), TypeKind::RankedTensor { .. }),
            TypeConstraint::AnyMemRef => matches!(ty.kind(), TypeKind::MemRef { .. }),
            TypeConstraint::AnyRankedOrUnrankedMemRef => {
                matches!(ty.kind(), TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. })
            }
            TypeConstraint::Index => matches!(ty.kind(), TypeKind::Index),
            TypeConstraint::AnyInteger => ty.is_integer(),
            TypeConstraint::SignlessInteger => signless(ty),
            TypeConstraint::SignlessIntegerLike => {
                let scalar = |t: Type<'_>| signless(t) || matches!(t.kind(), TypeKind::Index);
                match ty.kind() {
                    TypeKind::Vector { elem, .. }
                    | TypeKind::RankedTensor { elem, .. }
                    | TypeKind::UnrankedTensor { elem } => scalar(*elem),
                    _ => scalar(ty),
                }
            }
            TypeConstraint::AnyFloat => ty.is_float(),
            TypeConstraint::I1 => signless(ty) && ty.bit_width() == Some(1),
            TypeConstraint::BoolLike => match ty.kind() {
                TypeKind::Vector { elem, .. }
                | TypeKind::RankedTensor { elem, .. }
                | TypeKind::UnrankedTensor { elem } => TypeConstraint::I1.accepts(*elem),
                _ => TypeConstraint::I1.accepts(ty),
            },
            TypeConstraint::AnyOf(options) => options.iter().any(|c| c.accepts(ty)),
        }
    }

    /// The value a relational constraint refers to, by name.
    pub fn related_to(self) -> Option<&'static str> {
        match self {
            TypeConstraint::SameAs(name) | TypeConstraint::ElementTypeOf(name) => Some(name),
            _ => None,
        }
    }

    /// The MLIR-style description used in messages (`signless-integer-like`).
    pub fn describe(self) -> String {
        match self {
            TypeConstraint::Any | TypeConstraint::SameAs(_) | TypeConstraint::ElementTypeOf(_) => {
                "any type".into()
            }
            TypeConstraint::AnyTensor => "tensor of any type values".into(),
            TypeConstraint::AnyRankedTensor => "ranked tensor of any type values".into(),
            TypeConstraint::AnyMemRef => "memref of any type values".into(),
            TypeConstraint::AnyRankedOrUnrankedMemRef => {
                "ranked or unranked memref of any type values".into()
            }
            TypeConstraint::Index => "index".into(),
            TypeConstraint::AnyInteger => "integer".into(),
            TypeConstraint::SignlessInteger => "signless integer".into(),
            TypeConstraint::SignlessIntegerLike => "signless-integer-like".into(),
            TypeConstraint::AnyFloat => "floating-point".into(),
            TypeConstraint::I1 => "1-bit signless integer".into(),
            TypeConstraint::BoolLike => "bool-like".into(),
            TypeConstraint::AnyOf(options) => {
                options.iter().map(|c| c.describe()).collect::<Vec<_>>().join(" or ")
            }
        }
    }
}
