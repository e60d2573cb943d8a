//! The interfaces every `hl` op declares once, beside its `OpDef`: its fusion category, which
//! element types it accepts, how its result type follows from its operands and attributes, and
//! its cost.

use kiln_compiler::{Ir, OpId, Type, TypeKind, DYNAMIC};

use super::accessors::bool_attr;

use super::infer::InferFn;

/// How an op takes part in fusion (see `kiln-fuse`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FusionCategory {
    /// Elementwise on (broadcast) operands: fuses with neighbours freely.
    Elementwise,
    /// Materializes a broadcast.
    Broadcast,
    /// Reduces over axes: fuses forward (its producers join it).
    Reduce,
    /// Matrix unit work (matmul, conv): joins epilogues as a `mix` region.
    Cube,
    /// Moves data without arithmetic (reshape, transpose, slice, concat ...).
    Layout,
    /// Never fused (composites before decomposition, constants).
    Opaque,
}

impl FusionCategory {
    /// The lowercase name used in remarks and reports.
    pub fn name(self) -> &'static str {
        match self {
            FusionCategory::Elementwise => "elementwise",
            FusionCategory::Broadcast => "broadcast",
            FusionCategory::Reduce => "reduce",
            FusionCategory::Cube => "cube",
            FusionCategory::Layout => "layout",
            FusionCategory::Opaque => "opaque",
        }
    }
}

/// Which element types an op's (data) operands may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DTypes {
    /// Any `hl` element type.
    Any,
    /// `f16`, `bf16`, `f32`.
    Float,
    /// Floats and integers other than `i1`.
    Numeric,
    /// `i1` only.
    Bool,
}

impl DTypes {
    /// Whether element type `t` is allowed.
    pub fn accepts(self, t: Type<'_>) -> bool {
        let float = matches!(t.kind(), TypeKind::Float(k) if is_hl_float(*k));
        let int = matches!(
            t.kind(),
            TypeKind::Integer { width: 8 | 32 | 64, signedness: kiln_compiler::Signedness::Signless }
        );
        let bool_ = matches!(
            t.kind(),
            TypeKind::Integer { width: 1, signedness: kiln_compiler::Signedness::Signless }
        );
        match self {
            DTypes::Any => float || int || bool_,
            DTypes::Float => float,
            DTypes::Numeric => float || int,
            DTypes::Bool => bool_,
        }
    }

    /// Description used in verifier messages.
    pub fn describe(self) -> &'static str {
        match self {
            DTypes::Any => "f16, bf16, f32, i1, i8, i32 or i64",
            DTypes::Float => "f16, bf16 or f32",
            DTypes::Numeric => "f16, bf16, f32, i8, i32 or i64",
            DTypes::Bool => "i1",
        }
    }
}

fn is_hl_float(k: kiln_compiler::FloatKind) -> bool {
    use kiln_compiler::FloatKind as F;
    matches!(k, F::F16 | F::BF16 | F::F32)
}

/// Floating-point operations per output element (or per input element for reductions),
/// used by the cost model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flops {
    /// A fixed number per element.
    PerElement(u32),
    /// Computed by the op's shape: matmul `2*M*N*K`, conv `2*N*O*H*W*(C/g)*KH*KW`.
    Contraction,
    /// Moves data only.
    None,
}

/// The `hl` interface of an op: declared once in its `OpDef`'s `interfaces`.
#[derive(Debug)]
pub struct HlOp {
    /// Fusion category.
    pub category: FusionCategory,
    /// Allowed element types of the data operands.
    pub dtypes: DTypes,
    /// Result type inference.
    pub infer: InferFn,
    /// Arithmetic cost.
    pub flops: Flops,
}

/// Estimated traffic and work of one op.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Bytes read from memory (all operands once).
    pub bytes_read: u64,
    /// Bytes written (all results once).
    pub bytes_written: u64,
    /// Floating-point operations.
    pub flops: u64,
}

/// The `hl` interface of `op`, if it is an `hl` op.
pub fn hl_op(ir: &Ir<'_>, op: OpId) -> Option<&'static HlOp> {
    ir.op(op).def?.interface::<HlOp>()
}

/// Number of elements of a static tensor type (dynamic dims count as 1).
pub fn num_elements(t: Type<'_>) -> u64 {
    t.shape().map_or(1, |s| s.iter().map(|&d| if d == DYNAMIC { 1 } else { d.max(0) as u64 }).product())
}

/// Bytes of a tensor type (dynamic dims count as 1; `i1` as one byte).
pub fn num_bytes(t: Type<'_>) -> u64 {
    let width = t.element_type().and_then(|e| e.bit_width()).unwrap_or(8);
    num_elements(t) * u64::from(width.div_ceil(8))
}

/// The cost estimate of an `hl` op.
pub fn cost(ir: &Ir<'_>, op: OpId) -> Cost {
    let read = ir.operands(op).iter().map(|&v| num_bytes(ir.value_type(v))).sum();
    let written = ir.results(op).iter().map(|&v| num_bytes(ir.value_type(v))).sum();
    let flops = match hl_op(ir, op).map(|h| (h.flops, h.category)) {
        Some((Flops::PerElement(n), FusionCategory::Reduce)) => {
            u64::from(n) * ir.operands(op).first().map_or(0, |&v| num_elements(ir.value_type(v)))
        }
        Some((Flops::PerElement(n), _)) => {
            u64::from(n) * ir.results(op).first().map_or(0, |&v| num_elements(ir.value_type(v)))
        }
        Some((Flops::Contraction, _)) => contraction_flops(ir, op),
        _ => 0,
    };
    Cost { bytes_read: read, bytes_written: written, flops }
}

/// `2 * (result elements) * (reduction length)` for matmul-like and conv ops.
fn contraction_flops(ir: &Ir<'_>, op: OpId) -> u64 {
    let out = ir.results(op).first().map_or(0, |&v| num_elements(ir.value_type(v)));
    let dims = |i: usize| ir.operands(op).get(i).and_then(|&v| ir.value_type(v).shape()).unwrap_or(&[]);
    let k = match ir.op(op).name {
        "hl.conv2d" => {
            // weights OIHW: reduction over I*KH*KW.
            dims(1).iter().skip(1).map(|&d| d.max(1) as u64).product()
        }
        _ => {
            let a = dims(0);
            let transpose_a = bool_attr(ir.attr(op, "transpose_a"));
            let k = if transpose_a { a.len().checked_sub(2) } else { a.len().checked_sub(1) };
            k.and_then(|i| a.get(i)).map_or(1, |&d| d.max(1) as u64)
        }
    };
    2 * out * k
}
