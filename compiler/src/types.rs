//! Builtin types, interned in a [`Context`](crate::Context) and compared by identity.
//!
//! The set is MLIR's builtin type system: integers of any width and signedness, `index`, the
//! float formats, `complex`, `tuple`, `none`, function types, ranked and unranked tensors and
//! memrefs, vectors with scalable dims, the types registered dialects define
//! ([`TypeKind::Dialect`]), and opaque types of dialects that are not registered
//! (`!foo.bar<...>`), which are kept verbatim.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::attributes::Attribute;

/// The size of a dynamic (`?`) dimension, as MLIR's `ShapedType::kDynamic`.
pub const DYNAMIC: i64 = i64::MIN;

/// An interned type: a pointer into the context's arena, compared and hashed by identity.
#[derive(Clone, Copy)]
pub struct Type<'c>(pub(crate) &'c TypeKind<'c>);

impl<'c> Type<'c> {
    /// What kind of type this is.
    pub fn kind(self) -> &'c TypeKind<'c> {
        self.0
    }

    /// The element type of a shaped type (tensor, memref, vector), or of `complex`.
    pub fn element_type(self) -> Option<Type<'c>> {
        match *self.0 {
            TypeKind::RankedTensor { elem, .. }
            | TypeKind::UnrankedTensor { elem }
            | TypeKind::MemRef { elem, .. }
            | TypeKind::UnrankedMemRef { elem, .. }
            | TypeKind::Vector { elem, .. }
            | TypeKind::Complex(elem) => Some(elem),
            _ => None,
        }
    }

    /// The dims of a ranked shaped type (`DYNAMIC` for `?`).
    pub fn shape(self) -> Option<&'c [i64]> {
        match *self.0 {
            TypeKind::RankedTensor { shape, .. }
            | TypeKind::MemRef { shape, .. }
            | TypeKind::Vector { shape, .. } => Some(shape),
            _ => None,
        }
    }

    /// Whether this is an integer type of any width and signedness.
    pub fn is_integer(self) -> bool {
        matches!(self.0, TypeKind::Integer { .. })
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self.0, TypeKind::Float(_))
    }

    /// Bit width of integer, index (64) and float types.
    pub fn bit_width(self) -> Option<u32> {
        match *self.0 {
            TypeKind::Integer { width, .. } => Some(width),
            TypeKind::Index => Some(64),
            TypeKind::Float(f) => Some(f.bit_width()),
            _ => None,
        }
    }
}

impl PartialEq for Type<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Type<'_> {}
impl Hash for Type<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state)
    }
}
impl fmt::Debug for Type<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Signedness of an integer type: `i32` (signless), `si32`, `ui32`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Signedness {
    /// `iN`: the operation decides how to interpret the bits.
    Signless,
    /// `siN`.
    Signed,
    /// `uiN`.
    Unsigned,
}

/// The floating-point formats MLIR knows, by their type keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FloatKind {
    F4E2M1FN,
    F6E2M3FN,
    F6E3M2FN,
    F8E5M2,
    F8E4M3,
    F8E4M3FN,
    F8E5M2FNUZ,
    F8E4M3FNUZ,
    F8E4M3B11FNUZ,
    F8E3M4,
    F8E8M0FNU,
    BF16,
    F16,
    TF32,
    F32,
    F64,
    F80,
    F128,
}

impl FloatKind {
    /// Every float kind, for keyword lookup.
    pub const ALL: [FloatKind; 18] = [
        FloatKind::F4E2M1FN,
        FloatKind::F6E2M3FN,
        FloatKind::F6E3M2FN,
        FloatKind::F8E5M2,
        FloatKind::F8E4M3,
        FloatKind::F8E4M3FN,
        FloatKind::F8E5M2FNUZ,
        FloatKind::F8E4M3FNUZ,
        FloatKind::F8E4M3B11FNUZ,
        FloatKind::F8E3M4,
        FloatKind::F8E8M0FNU,
        FloatKind::BF16,
        FloatKind::F16,
        FloatKind::TF32,
        FloatKind::F32,
        FloatKind::F64,
        FloatKind::F80,
        FloatKind::F128,
    ];

    /// The type keyword (`f16`, `bf16`, `f8E4M3FN`, ...).
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F4E2M1FN => "f4E2M1FN",
            FloatKind::F6E2M3FN => "f6E2M3FN",
            FloatKind::F6E3M2FN => "f6E3M2FN",
            FloatKind::F8E5M2 => "f8E5M2",
            FloatKind::F8E4M3 => "f8E4M3",
            FloatKind::F8E4M3FN => "f8E4M3FN",
            FloatKind::F8E5M2FNUZ => "f8E5M2FNUZ",
            FloatKind::F8E4M3FNUZ => "f8E4M3FNUZ",
            FloatKind::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            FloatKind::F8E3M4 => "f8E3M4",
            FloatKind::F8E8M0FNU => "f8E8M0FNU",
            FloatKind::BF16 => "bf16",
            FloatKind::F16 => "f16",
            FloatKind::TF32 => "tf32",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::F80 => "f80",
            FloatKind::F128 => "f128",
        }
    }

    /// The kind spelled by `keyword`, if any.
    pub fn from_keyword(keyword: &str) -> Option<FloatKind> {
        FloatKind::ALL.into_iter().find(|k| k.keyword() == keyword)
    }

    /// Storage width in bits (the width of the bit pattern MLIR stores).
    pub fn bit_width(self) -> u32 {
        match self {
            FloatKind::F4E2M1FN => 4,
            FloatKind::F6E2M3FN | FloatKind::F6E3M2FN => 6,
            FloatKind::F8E5M2
            | FloatKind::F8E4M3
            | FloatKind::F8E4M3FN
            | FloatKind::F8E5M2FNUZ
            | FloatKind::F8E4M3FNUZ
            | FloatKind::F8E4M3B11FNUZ
            | FloatKind::F8E3M4
            | FloatKind::F8E8M0FNU => 8,
            FloatKind::BF16 | FloatKind::F16 => 16,
            FloatKind::TF32 => 19,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
            FloatKind::F80 => 80,
            FloatKind::F128 => 128,
        }
    }
}

/// The structure of a type. Slices and strings live in the context's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind<'c> {
    /// `i32`, `si8`, `ui64`, `i1`.
    Integer {
        /// Width in bits.
        width: u32,
        /// Signless, signed or unsigned.
        signedness: Signedness,
    },
    /// `index`.
    Index,
    /// `f16`, `bf16`, `f32`, ...
    Float(FloatKind),
    /// `complex<f32>`.
    Complex(Type<'c>),
    /// `tuple<i32, f32>`.
    Tuple(&'c [Type<'c>]),
    /// `none`.
    None,
    /// `(i32, f32) -> i1`.
    Function {
        /// Argument types.
        inputs: &'c [Type<'c>],
        /// Result types.
        results: &'c [Type<'c>],
    },
    /// `tensor<4x?xf32, #enc>`.
    RankedTensor {
        /// Dims, [`DYNAMIC`] for `?`.
        shape: &'c [i64],
        /// Element type.
        elem: Type<'c>,
        /// Optional encoding attribute.
        encoding: Option<Attribute<'c>>,
    },
    /// `tensor<*xf32>`.
    UnrankedTensor {
        /// Element type.
        elem: Type<'c>,
    },
    /// `memref<4x?xf32, strided<[?, 1]>, 3>`.
    MemRef {
        /// Dims, [`DYNAMIC`] for `?`.
        shape: &'c [i64],
        /// Element type.
        elem: Type<'c>,
        /// Layout attribute (affine map or strided layout), when not the identity.
        layout: Option<Attribute<'c>>,
        /// Memory space attribute.
        memory_space: Option<Attribute<'c>>,
    },
    /// `memref<*xf32, 1>`.
    UnrankedMemRef {
        /// Element type.
        elem: Type<'c>,
        /// Memory space attribute.
        memory_space: Option<Attribute<'c>>,
    },
    /// `vector<[4]x8xf32>`.
    Vector {
        /// Dims.
        shape: &'c [i64],
        /// For each dim, whether it is scalable (`[4]`).
        scalable: &'c [bool],
        /// Element type.
        elem: Type<'c>,
    },
    /// A type kind that a registered dialect defines: `!test.pair<i32, f32>` (see
    /// [`dialect_attrs`](crate::dialect_attrs)).
    Dialect {
        /// The kind's declaration.
        def: &'static crate::dialect_attrs::TypeDef,
        /// Its parameters (a type parameter is a type attribute).
        params: &'c [Attribute<'c>],
    },
    /// A type of a dialect that is not registered, kept verbatim: `!foo.bar<1>` has
    /// dialect `foo` and body `bar<1>`; `!foo<"x">` has body `<"x">`.
    Opaque {
        /// The dialect namespace.
        dialect: &'c str,
        /// Everything after the namespace, as written.
        body: &'c str,
    },
}
