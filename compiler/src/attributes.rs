//! Builtin attributes (and locations, which are attributes in MLIR), interned in a
//! [`Context`](crate::Context) and compared by identity.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::affine::{AffineMap, IntegerSet};
use crate::types::Type;

/// An interned attribute: a pointer into the context's arena, compared by identity.
#[derive(Clone, Copy)]
pub struct Attribute<'c>(pub(crate) &'c AttrKind<'c>);

impl<'c> Attribute<'c> {
    /// What kind of attribute this is.
    pub fn kind(self) -> &'c AttrKind<'c> {
        self.0
    }

    /// The value of an integer (or bool) attribute.
    pub fn as_int(self) -> Option<i128> {
        match *self.0 {
            AttrKind::Integer { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The bytes of a string attribute.
    pub fn as_str(self) -> Option<&'c [u8]> {
        match *self.0 {
            AttrKind::String { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The type held by a type attribute.
    pub fn as_type(self) -> Option<Type<'c>> {
        match *self.0 {
            AttrKind::Type(t) => Some(t),
            _ => None,
        }
    }

    /// The elements of an array attribute.
    pub fn as_array(self) -> Option<&'c [Attribute<'c>]> {
        match *self.0 {
            AttrKind::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The entries of a dictionary attribute, sorted by name.
    pub fn as_dict(self) -> Option<&'c [NamedAttr<'c>]> {
        match *self.0 {
            AttrKind::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// Looks up `name` in a dictionary attribute.
    pub fn dict_get(self, name: &str) -> Option<Attribute<'c>> {
        self.as_dict()?.iter().find(|n| n.name == name).map(|n| n.value)
    }

    /// Whether this is a location attribute.
    pub fn is_location(self) -> bool {
        matches!(
            self.0,
            AttrKind::FileLineColLoc { .. }
                | AttrKind::NameLoc { .. }
                | AttrKind::CallSiteLoc { .. }
                | AttrKind::FusedLoc { .. }
                | AttrKind::UnknownLoc
        )
    }
}

impl PartialEq for Attribute<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}
impl Eq for Attribute<'_> {}
impl Hash for Attribute<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state)
    }
}
impl fmt::Debug for Attribute<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A `name = value` entry of a dictionary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NamedAttr<'c> {
    /// The entry's name.
    pub name: &'c str,
    /// The entry's value.
    pub value: Attribute<'c>,
}

/// The payload of a dense elements attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenseData<'c> {
    /// Integer, float or complex elements, little-endian, each element (each half of a complex
    /// element) in `ceil(bitwidth / 8)` bytes, as MLIR stores them. A splat holds one element.
    Raw {
        /// The element bytes.
        bytes: &'c [u8],
        /// Whether one element stands for all of them.
        splat: bool,
    },
    /// String elements (a splat holds one).
    Strings(&'c [&'c [u8]]),
}

/// The structure of an attribute. Slices and strings live in the context's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AttrKind<'c> {
    /// `unit`: present or absent, no value.
    Unit,
    /// `42 : i32`, `true` (an `i1` integer), `7 : index`. Values are stored sign-extended.
    Integer {
        /// The value; bits above the type's width follow its sign.
        value: i128,
        /// The integer or index type.
        ty: Type<'c>,
    },
    /// An integer of a type wider than 128 bits whose value does not fit in an `i128`
    /// (`2^200 : i256`); values that fit are [`AttrKind::Integer`].
    WideInteger {
        /// `ceil(width / 64)` words of two's complement, little-endian; bits above the width
        /// follow the sign (zero for unsigned types).
        words: &'c [u64],
        /// The integer type.
        ty: Type<'c>,
    },
    /// `distinct[N]<attr>`: an attribute unique by identity, not by value. `id` is unique in
    /// the context (see [`Context::distinct_attr`](crate::Context::distinct_attr)); the printer
    /// renumbers ids from 0 in print order, as mlir-opt does.
    Distinct {
        /// The identity.
        id: u64,
        /// The payload (`unit` prints as `distinct[N]<>`).
        inner: Attribute<'c>,
    },
    /// `1.5 : f32`, stored as the bit pattern of the float type.
    Float {
        /// The IEEE (or other format) bits, zero-extended.
        bits: u128,
        /// The float type.
        ty: Type<'c>,
    },
    /// `"text"`, optionally typed (`"text" : i32`).
    String {
        /// The bytes, which need not be UTF-8.
        value: &'c [u8],
        /// The type, when one was given.
        ty: Option<Type<'c>>,
    },
    /// A type used as an attribute.
    Type(Type<'c>),
    /// `[a, b]`.
    Array(&'c [Attribute<'c>]),
    /// `{a = 1, b}`; entries sorted by name, as MLIR's `DictionaryAttr` keeps them.
    Dictionary(&'c [NamedAttr<'c>]),
    /// `@root::@nested::@leaf`.
    SymbolRef {
        /// The root symbol name.
        root: &'c [u8],
        /// The nested references.
        nested: &'c [&'c [u8]],
    },
    /// `dense<...> : tensor<...>`.
    DenseElements {
        /// The shaped type (tensor or vector).
        ty: Type<'c>,
        /// The elements.
        data: DenseData<'c>,
    },
    /// `dense_resource<handle> : tensor<...>`.
    DenseResource {
        /// The resource handle.
        handle: &'c str,
        /// The shaped type.
        ty: Type<'c>,
    },
    /// `array<i32: 1, 2>`: raw little-endian elements as in [`DenseData::Raw`].
    DenseArray {
        /// The element type.
        elem: Type<'c>,
        /// Number of elements.
        len: usize,
        /// The element bytes.
        bytes: &'c [u8],
    },
    /// `sparse<indices, values> : tensor<...>`.
    Sparse {
        /// The shaped type.
        ty: Type<'c>,
        /// A dense i64 attribute of coordinates.
        indices: Attribute<'c>,
        /// A dense attribute of values.
        values: Attribute<'c>,
    },
    /// `affine_map<(d0) -> (d0)>`.
    AffineMap(&'c AffineMap<'c>),
    /// `affine_set<(d0) : (d0 >= 0)>`.
    IntegerSet(&'c IntegerSet<'c>),
    /// `strided<[?, 1], offset: ?>`.
    StridedLayout {
        /// The offset ([`DYNAMIC`](crate::types::DYNAMIC) for `?`).
        offset: i64,
        /// The strides.
        strides: &'c [i64],
    },
    /// An attribute kind that a registered dialect defines: `#hl.cmp<lt>` (see
    /// [`dialect_attrs`](crate::dialect_attrs)).
    Dialect {
        /// The kind's declaration.
        def: &'static crate::dialect_attrs::AttrDef,
        /// Its parameters.
        params: &'c [Attribute<'c>],
    },
    /// An attribute of a dialect that is not registered, kept verbatim: `#foo.bar<1>` has
    /// dialect `foo` and body `bar<1>`.
    Opaque {
        /// The dialect namespace.
        dialect: &'c str,
        /// Everything after the namespace, as written.
        body: &'c str,
        /// The type after ` : ` (`#foo.bar : i32`), if one was written.
        ty: Option<Type<'c>>,
    },
    /// `loc("file.mlir":3:7)` (with an optional end: `loc("f":3:7 to 4:1)`).
    FileLineColLoc {
        /// The file name.
        file: &'c [u8],
        /// 1-based line.
        line: u32,
        /// 1-based column.
        col: u32,
        /// End line and column of a range.
        end: Option<(u32, u32)>,
    },
    /// `loc("name")` or `loc("name"(child))`.
    NameLoc {
        /// The name.
        name: &'c [u8],
        /// The child location, when not unknown.
        child: Option<Attribute<'c>>,
    },
    /// `loc(callsite(callee at caller))`.
    CallSiteLoc {
        /// The callee location.
        callee: Attribute<'c>,
        /// The caller location.
        caller: Attribute<'c>,
    },
    /// `loc(fused<metadata>[a, b])`.
    FusedLoc {
        /// The fused locations.
        locs: &'c [Attribute<'c>],
        /// Optional metadata.
        metadata: Option<Attribute<'c>>,
    },
    /// `loc(unknown)`.
    UnknownLoc,
}
