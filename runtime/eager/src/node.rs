//! What a segment records: plain data, no IR handles, so that it outlives the context
//! generation it was checked in and serves as the compile cache's key. A [`Node`] is one
//! recorded `hl` op: its definition, operands (segment inputs or earlier nodes), attributes
//! and result type; [`TensorType`] is a static shape with a VM element type.

use std::hash::{Hash, Hasher};

use kiln_bytecode::isa::DType;
use kiln_compiler::{AttrKind, Attribute, Context, FloatKind, OpDef, Type, TypeKind};
use kiln_dialects::hl::attrs::{CmpPredicate, GeluApproximation};
use kiln_dialects::hl::builder::splat;
use smallvec::SmallVec;

use crate::error::{EagerError, ErrorKind, Result};

/// A static tensor type the VM can hold.
#[derive(Debug)]
pub struct TensorType {
    /// Element type.
    pub dtype: DType,
    /// Dims (static).
    pub shape: SmallVec<[i64; 4]>,
}

impl TensorType {
    /// `dtype` elements in `shape`.
    pub fn new(dtype: DType, shape: &[i64]) -> TensorType {
        TensorType { dtype, shape: SmallVec::from_slice(shape) }
    }

    /// Number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().map(|&d| d as usize).product()
    }

    /// The IR type.
    pub fn to_type<'c>(&self, ctx: &Context<'c>) -> Type<'c> {
        ctx.tensor_type(&self.shape, elem_type(ctx, self.dtype))
    }

    /// The plain type of IR type `t` (a static ranked tensor of a VM element type).
    pub fn of(t: Type<'_>) -> Result<TensorType> {
        let TypeKind::RankedTensor { shape, elem, .. } = *t.kind() else {
            return Err(EagerError::new(
                ErrorKind::DType,
                format!("expected a ranked tensor, but got '{t}'"),
            ));
        };
        let dtype = match *elem.kind() {
            TypeKind::Float(FloatKind::F32) => DType::F32,
            TypeKind::Float(FloatKind::F16) => DType::F16,
            TypeKind::Float(FloatKind::BF16) => DType::BF16,
            TypeKind::Integer { width: 32, .. } => DType::I32,
            TypeKind::Integer { width: 8, .. } => DType::I8,
            TypeKind::Integer { width: 1, .. } => DType::I1,
            _ => {
                return Err(EagerError::new(
                    ErrorKind::DType,
                    format!("the eager session has no '{elem}' tensors (f32, f16, bf16, i32, i8, i1)"),
                ))
            }
        };
        if shape.iter().any(|&d| d < 0) {
            return Err(EagerError::new(ErrorKind::Shape, format!("'{t}' has a dynamic shape")));
        }
        Ok(TensorType::new(dtype, shape))
    }

    /// An error for a type with a zero dim (the back end does not tile empty tensors).
    pub fn check_not_empty(&self) -> Result<()> {
        if self.shape.contains(&0) {
            return Err(EagerError::new(
                ErrorKind::Shape,
                format!("zero-size tensors are not supported: '{self}'"),
            ));
        }
        Ok(())
    }

    /// The VM's spec of this type.
    pub fn spec(&self) -> kiln_bytecode::module::TensorSpec {
        kiln_bytecode::module::TensorSpec {
            dtype: self.dtype,
            shape: self.shape.iter().map(|&d| d as u64).collect(),
        }
    }
}

// Clone, equality and hash by hand: `SmallVec`'s own go through `extend`, `memcmp` and a
// byte-slice hash, which cost more than the one or two dims of a type (every op records,
// checks and hashes its types).
impl Clone for TensorType {
    fn clone(&self) -> TensorType {
        TensorType { dtype: self.dtype, shape: SmallVec::from_slice(&self.shape) }
    }
}

impl PartialEq for TensorType {
    fn eq(&self, other: &TensorType) -> bool {
        self.dtype == other.dtype
            && self.shape.len() == other.shape.len()
            && self.shape.iter().zip(&other.shape).all(|(a, b)| a == b)
    }
}

impl Eq for TensorType {}

impl Hash for TensorType {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.dtype.hash(state);
        state.write_usize(self.shape.len());
        for &d in &self.shape {
            state.write_i64(d);
        }
    }
}

impl std::fmt::Display for TensorType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("tensor<")?;
        for d in &self.shape {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>", self.dtype.name())
    }
}

/// The IR element type of `d`.
pub fn elem_type<'c>(ctx: &Context<'c>, d: DType) -> Type<'c> {
    match d {
        DType::F32 => ctx.float_type(FloatKind::F32),
        DType::F16 => ctx.float_type(FloatKind::F16),
        DType::BF16 => ctx.float_type(FloatKind::BF16),
        DType::I32 => ctx.int_type(32),
        DType::I8 => ctx.int_type(8),
        DType::I1 => ctx.int_type(1),
        DType::I64 => ctx.int_type(64),
    }
}

/// An `hl` op definition, compared and hashed by identity.
#[derive(Clone, Copy, Debug)]
pub struct OpKind(pub &'static OpDef);

impl PartialEq for OpKind {
    fn eq(&self, other: &OpKind) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for OpKind {}

impl Hash for OpKind {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state);
    }
}

/// An attribute value of a recorded op.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrValue {
    /// An `i64` integer (`axis`).
    Int(i64),
    /// An `i64` array (`axes`, `perm`, `starts`).
    Ints(SmallVec<[i64; 4]>),
    /// A bool (`keep_dims`, `transpose_a`).
    Bool(bool),
    /// An `f32` float, as its bits (`min`, `max` of `hl.clamp`).
    F32(u32),
    /// A `#hl.cmp<...>` predicate.
    Cmp(CmpPredicate),
    /// A `#hl.approx<...>` approximation.
    Gelu(GeluApproximation),
    /// The splat `value` of an `hl.constant` (f64 bits, converted to the result's element
    /// type).
    Splat(u64),
}

impl AttrValue {
    /// The IR attribute (`result`: the op's result type, for a splat).
    pub fn to_attr<'c>(&self, ctx: &Context<'c>, result: Type<'c>) -> Attribute<'c> {
        let i64t = ctx.int_type(64);
        match self {
            AttrValue::Int(v) => ctx.int_attr(i128::from(*v), i64t),
            AttrValue::Ints(vs) => {
                let items: Vec<Attribute<'c>> =
                    vs.iter().map(|&v| ctx.int_attr(i128::from(v), i64t)).collect();
                ctx.array_attr(&items)
            }
            AttrValue::Bool(b) => ctx.bool_attr(*b),
            AttrValue::F32(bits) => {
                ctx.attr(AttrKind::Float { bits: u128::from(*bits), ty: ctx.float_type(FloatKind::F32) })
            }
            AttrValue::Cmp(p) => p.attr(ctx),
            AttrValue::Gelu(g) => g.attr(ctx),
            AttrValue::Splat(bits) => {
                splat(ctx, result, f64::from_bits(*bits)).expect("constant result types are VM element types")
            }
        }
    }
}

/// An operand of a recorded op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// Segment input `n` (a host value read by the segment).
    Input(u32),
    /// The result of node `n` of the segment.
    Node(u32),
}

/// One recorded op.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// Its definition.
    pub kind: OpKind,
    /// Its operands.
    pub operands: SmallVec<[Operand; 3]>,
    /// Its attributes, in a fixed order (most ops have none: a boxed slice keeps the node
    /// small and allocates only when there are some).
    pub attrs: Box<[(&'static str, AttrValue)]>,
    /// Its result type.
    pub ty: TensorType,
    /// Whether the result type was declared (given, as `hl.cast`'s is), not derived.
    pub declared: bool,
}
