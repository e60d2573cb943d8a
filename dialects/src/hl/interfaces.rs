//! The interfaces every `hl` op declares once, beside its `OpDef`: its fusion category, which
//! element types it accepts, how its result type follows from its operands and attributes, its
//! cost and its evaluation (the reference semantics the interpreter and the folder run).

use kiln_compiler::{Context, Ir, OpId, Type, TypeKind, ValueId, DYNAMIC};

use super::accessors::{bool_attr, checked_bytes, checked_numel};
use super::infer::{InferFn, InferInput, InferManyFn};
use super::interp::eval::{EvalFn, EvalInput, EvalManyFn};
use super::interp::{Result as EvalResult, Tensor};

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
    /// Moves data without arithmetic (reshape, transpose, slice, concat ...), as the
    /// [`Movement`] says.
    Layout(Movement),
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
            FusionCategory::Layout(_) => "layout",
            FusionCategory::Opaque => "opaque",
        }
    }
}

/// How a layout op moves data, which decides whether it can join a fused region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Movement {
    /// A view: the result aliases the operand's elements in order (reshape, expand_dims,
    /// squeeze), so it costs nothing inside a region.
    View,
    /// Permutes dims (transpose): fuses where the target can transpose in UB.
    Transpose,
    /// Copies a part or several operands (slice, concat): never fused.
    Copy,
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
    /// `i8`, `i32`, `i64`.
    Integer,
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
            DTypes::Integer => int,
        }
    }

    /// Description used in verifier messages.
    pub fn describe(self) -> &'static str {
        match self {
            DTypes::Any => "f16, bf16, f32, i1, i8, i32 or i64",
            DTypes::Float => "f16, bf16 or f32",
            DTypes::Numeric => "f16, bf16, f32, i8, i32 or i64",
            DTypes::Bool => "i1",
            DTypes::Integer => "i8, i32 or i64",
        }
    }
}

fn is_hl_float(k: kiln_compiler::FloatKind) -> bool {
    use kiln_compiler::FloatKind as F;
    matches!(k, F::F16 | F::BF16 | F::F32)
}

/// Floating-point operations per output element (or per input element for reductions),
/// used by the cost model.
#[derive(Clone, Copy, Debug)]
pub enum Flops {
    /// A fixed number per element.
    PerElement(u32),
    /// `2 * (result elements) * (contraction length)`, the length given by the op's function
    /// ([`matmul_contraction`], [`conv2d_contraction`]).
    Contraction(ContractionFn),
    /// Moves data only.
    None,
}

/// The contraction length of a matmul-like op: how many products sum into one result element.
pub type ContractionFn = fn(&Ir<'_>, OpId) -> u64;

/// The `hl` interface of an op: declared once in its `OpDef`'s `interfaces`.
#[derive(Debug)]
pub struct HlOp {
    /// Fusion category.
    pub category: FusionCategory,
    /// Allowed element types of the data operands.
    pub dtypes: DTypes,
    /// Result type inference.
    pub infer: Infer,
    /// Arithmetic cost.
    pub flops: Flops,
    /// Reference semantics: the results from the operand values and attributes.
    pub eval: Eval,
    /// The `npuvec` vector op that computes it on a tile, one to one, with the same operands
    /// (`hl.exp` -> `npuvec.exp`), for the elementwise ops that have one.
    pub vector: Option<&'static kiln_compiler::OpDef>,
}

/// How an op's result types follow from its operands and attributes: one function for an op
/// of one result, or one giving every result (`hl.split`).
#[derive(Clone, Copy, Debug)]
pub enum Infer {
    /// The type of the single result.
    One(InferFn),
    /// The types of every result.
    Many(InferManyFn),
}

impl Infer {
    /// The inferred type of every result.
    pub fn results<'c>(self, ctx: &Context<'c>, input: &InferInput<'_, 'c>) -> Result<Vec<Type<'c>>, String> {
        match self {
            Infer::One(f) => f(ctx, input).map(|t| vec![t]),
            Infer::Many(f) => f(ctx, input),
        }
    }
}

/// An op's evaluation: of its single result, or of every result (`hl.split`).
#[derive(Clone, Copy, Debug)]
pub enum Eval {
    /// The value of the single result.
    One(EvalFn),
    /// The values of every result.
    Many(EvalManyFn),
}

impl Eval {
    /// The value of every result.
    pub fn results(self, input: &EvalInput<'_, '_>) -> EvalResult<Vec<Tensor>> {
        match self {
            Eval::One(f) => f(input).map(|t| vec![t]),
            Eval::Many(f) => f(input),
        }
    }
}

/// Estimated traffic and work of one op (each figure saturates at `u64::MAX`).
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

/// Number of elements of a static tensor type (dynamic dims count as 1), saturating at
/// `u64::MAX` when the dims multiply past it (see [`checked_numel`]; the fusion model keeps ops
/// of such types out of regions, so a saturated size never reaches a claim).
pub fn num_elements(t: Type<'_>) -> u64 {
    let dims: Vec<i64> = t.shape().unwrap_or(&[]).iter().map(|&d| if d == DYNAMIC { 1 } else { d }).collect();
    checked_numel(&dims).unwrap_or(u64::MAX)
}

/// Bytes of a tensor type (dynamic dims count as 1; `i1` as one byte), saturating at
/// `u64::MAX` like [`num_elements`].
pub fn num_bytes(t: Type<'_>) -> u64 {
    let width = t.element_type().and_then(|e| e.bit_width()).unwrap_or(8);
    num_elements(t).saturating_mul(u64::from(width.div_ceil(8)))
}

/// Whether every size computed from `t` is representable: its static dims multiply to a byte
/// count that fits in `u64` (dynamic dims count as 1).
pub fn size_representable(t: Type<'_>) -> bool {
    let dims: Vec<i64> = t.shape().unwrap_or(&[]).iter().map(|&d| if d == DYNAMIC { 1 } else { d }).collect();
    checked_bytes(&dims, 8).is_some()
}

/// The cost estimate of an `hl` op.
pub fn cost(ir: &Ir<'_>, op: OpId) -> Cost {
    let sum = |vs: &[ValueId]| vs.iter().fold(0u64, |n, &v| n.saturating_add(num_bytes(ir.value_type(v))));
    let (read, written) = (sum(ir.operands(op)), sum(ir.results(op)));
    let result_elements = || ir.results(op).first().map_or(0, |&v| num_elements(ir.value_type(v)));
    let flops = match hl_op(ir, op).map(|h| (h.flops, h.category)) {
        Some((Flops::PerElement(n), FusionCategory::Reduce)) => u64::from(n)
            .saturating_mul(ir.operands(op).first().map_or(0, |&v| num_elements(ir.value_type(v)))),
        Some((Flops::PerElement(n), _)) => u64::from(n).saturating_mul(result_elements()),
        Some((Flops::Contraction(length), _)) => {
            result_elements().saturating_mul(length(ir, op)).saturating_mul(2)
        }
        _ => 0,
    };
    Cost { bytes_read: read, bytes_written: written, flops }
}

/// The contraction length of `op` when its cost is a contraction (see [`Flops::Contraction`]).
pub fn contraction_length(ir: &Ir<'_>, op: OpId) -> Option<u64> {
    match hl_op(ir, op)?.flops {
        Flops::Contraction(length) => Some(length(ir, op)),
        _ => None,
    }
}

/// The static dims of operand `i` of `op` (empty when it has none).
fn operand_dims<'a>(ir: &'a Ir<'_>, op: OpId, i: usize) -> &'a [i64] {
    ir.operands(op).get(i).and_then(|&v| ir.value_type(v).shape()).unwrap_or(&[])
}

/// Matmul and batch_matmul: the last dim of the left operand (its second-to-last with
/// `transpose_a`); a dynamic dim counts as 1.
pub fn matmul_contraction(ir: &Ir<'_>, op: OpId) -> u64 {
    let a = operand_dims(ir, op, 0);
    let k =
        if bool_attr(ir.attr(op, "transpose_a")) { a.len().checked_sub(2) } else { a.len().checked_sub(1) };
    k.and_then(|i| a.get(i)).map_or(1, |&d| d.max(1) as u64)
}

/// Conv2d: `I * KH * KW` of the OIHW weights; dynamic dims count as 1.
pub fn conv2d_contraction(ir: &Ir<'_>, op: OpId) -> u64 {
    let dims: Vec<i64> = operand_dims(ir, op, 1).iter().skip(1).map(|&d| d.max(1)).collect();
    checked_numel(&dims).unwrap_or(u64::MAX)
}
