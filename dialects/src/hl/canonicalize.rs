//! Canonicalization patterns of `hl` (run by `hl-canonicalize` and by the generic
//! `canonicalize`). Every rewrite is exact under the interpreter's semantics:
//! - `x + 0 -> x` for integers; for floats only `x + (-0.0)` and `x - 0.0` (since
//!   `-0.0 + 0.0 = +0.0`);
//! - `x * 1 -> x`; `x * 0 -> 0` for integers only (floats: NaN, infinities and signed zeros);
//! - `neg(neg x) -> x`; `reshape(reshape x) -> reshape x`; `transpose(transpose x)` composes;
//! - identity `broadcast_to`, `reshape`, `transpose`, `cast` vanish;
//! - `cast(cast x)` becomes one cast when the first is lossless (every value of the source type
//!   is exact in the intermediate type).
//!
//! Constant folding lives in the ops' folders (`fold.rs`), not here.

use kiln_compiler::rewrite::{PatternSet, RewritePattern, Rewriter};
use kiln_compiler::{AttrKind, DenseData, FloatKind, OpDef, OpId, Type, TypeKind, ValueId};

use super::accessors::tensor_parts;
use super::builder::{splat, HlBuilder};
use super::{ADD, BROADCAST_TO, CAST, CONCAT, DROPOUT, MUL, NEG, NOT, RESHAPE, SUB, TRANSPOSE};

/// Adds the `hl` canonicalization patterns.
pub fn populate(patterns: &mut PatternSet) {
    patterns.add(AddZero(&ADD));
    patterns.add(AddZero(&SUB));
    patterns.add(MulOne);
    patterns.add(MulZero);
    patterns.add(Involution(&NEG));
    patterns.add(Involution(&NOT));
    patterns.add(ReshapeReshape);
    patterns.add(TransposeTranspose);
    for def in [&BROADCAST_TO, &RESHAPE, &CAST, &DROPOUT, &TRANSPOSE] {
        patterns.add(Identity(def));
    }
    patterns.add(CastCast);
    patterns.add(ConcatEmpty);
}

/// The element of a splat constant, exactly: integers as `i64` (an `f64` cannot hold every
/// `i64`), floats as `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Splat {
    /// An integer (or `i1`) element.
    Int(i64),
    /// A float element.
    Float(f64),
}

impl Splat {
    /// The element as an `f64` (rounded for integers beyond 2^53).
    pub fn to_f64(self) -> f64 {
        match self {
            Splat::Int(i) => i as f64,
            Splat::Float(f) => f,
        }
    }
}

/// The value of every element of `v`, when `v` is an `hl.constant` splat.
pub fn splat_element(ir: &kiln_compiler::Ir<'_>, v: ValueId) -> Option<Splat> {
    let op = ir.defining_op(v)?;
    if !ir.is(op, &crate::hl::CONSTANT) {
        return None;
    }
    let AttrKind::DenseElements { ty, data: DenseData::Raw { bytes, splat: true } } =
        *ir.attr(op, "value")?.kind()
    else {
        return None;
    };
    let (_, elem) = tensor_parts(ty)?;
    let b = |n: usize| bytes.get(..n);
    Some(match *elem.kind() {
        TypeKind::Float(FloatKind::F32) => {
            Splat::Float(f64::from(f32::from_le_bytes(b(4)?.try_into().ok()?)))
        }
        TypeKind::Float(FloatKind::F16) => {
            Splat::Float(half::f16::from_le_bytes(b(2)?.try_into().ok()?).to_f64())
        }
        TypeKind::Float(FloatKind::BF16) => {
            Splat::Float(half::bf16::from_le_bytes(b(2)?.try_into().ok()?).to_f64())
        }
        TypeKind::Integer { width: 1 | 8, .. } => {
            Splat::Int(i64::from(i8::from_le_bytes(b(1)?.try_into().ok()?)))
        }
        TypeKind::Integer { width: 32, .. } => {
            Splat::Int(i64::from(i32::from_le_bytes(b(4)?.try_into().ok()?)))
        }
        TypeKind::Integer { width: 64, .. } => Splat::Int(i64::from_le_bytes(b(8)?.try_into().ok()?)),
        _ => return None,
    })
}

/// [`splat_element`] as an `f64`.
pub fn splat_value(ir: &kiln_compiler::Ir<'_>, v: ValueId) -> Option<f64> {
    splat_element(ir, v).map(Splat::to_f64)
}

fn is_float(t: Type<'_>) -> bool {
    tensor_parts(t).is_some_and(|(_, e)| e.is_float())
}

/// Replaces `op` by `v` when `v` already has the result type (and is not `op`'s own result).
fn forward(rw: &mut Rewriter<'_, '_>, op: OpId, v: ValueId) -> bool {
    let ir = rw.ir();
    ir.value_type(v) == ir.value_type(ir.results(op)[0]) && rw.replace_op(op, &[v])
}

/// `x + 0 -> x`, `x - 0 -> x` (rooted on `hl.add` or `hl.sub`).
struct AddZero(&'static OpDef);

impl RewritePattern for AddZero {
    fn root(&self) -> Option<&'static OpDef> {
        Some(self.0)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let is_add = std::ptr::eq(self.0, &ADD);
        let [a, b] = *rw.ir().operands(op) else { return false };
        let float = is_float(rw.ir().value_type(a));
        let neutral = |v: Option<f64>, negative_zero: bool| {
            v.is_some_and(|z| z == 0.0 && (!float || z.is_sign_negative() == negative_zero))
        };
        // x + (-0.0), x - (+0.0): exact for every float; x + 0, x - 0 for integers.
        if neutral(splat_value(rw.ir(), b), is_add) && forward(rw, op, a) {
            return true;
        }
        is_add && neutral(splat_value(rw.ir(), a), true) && forward(rw, op, b)
    }
}

/// `concat` without its operands of no elements (the one left, when only one is).
struct ConcatEmpty;

impl RewritePattern for ConcatEmpty {
    fn root(&self) -> Option<&'static OpDef> {
        Some(&CONCAT)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let ir = rw.ir();
        let empty = |v: &ValueId| tensor_parts(ir.value_type(*v)).is_some_and(|(s, _)| s.contains(&0));
        let kept: Vec<ValueId> = ir.operands(op).iter().copied().filter(|v| !empty(v)).collect();
        if kept.len() == ir.operands(op).len() || kept.is_empty() {
            return false;
        }
        if let [v] = kept[..] {
            return forward(rw, op, v);
        }
        rw.set_operands(op, &kept);
        true
    }
}

struct MulOne;

impl RewritePattern for MulOne {
    fn root(&self) -> Option<&'static OpDef> {
        Some(&MUL)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let [a, b] = *rw.ir().operands(op) else { return false };
        if splat_value(rw.ir(), b) == Some(1.0) && forward(rw, op, a) {
            return true;
        }
        splat_value(rw.ir(), a) == Some(1.0) && forward(rw, op, b)
    }
}

struct MulZero;

impl RewritePattern for MulZero {
    fn root(&self) -> Option<&'static OpDef> {
        Some(&MUL)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let ty = rw.ir().value_type(rw.ir().results(op)[0]);
        let static_shape = tensor_parts(ty).is_some_and(|(s, _)| !s.contains(&kiln_compiler::DYNAMIC));
        if is_float(ty) || !static_shape {
            return false;
        }
        let zero = rw.ir().operands(op).iter().any(|&v| splat_value(rw.ir(), v) == Some(0.0));
        let Some(attr) = zero.then(|| splat(rw.ctx, ty, 0.0)).flatten() else { return false };
        let mut b = HlBuilder::new(rw, op);
        let Ok(c) = b.create(&super::CONSTANT, &[], &[("value", attr)], Some(ty)) else { return false };
        rw.replace_op(op, &[c])
    }
}

/// `neg(neg x) -> x`, `not(not x) -> x` (rooted on `hl.neg` or `hl.not`).
struct Involution(&'static OpDef);

impl RewritePattern for Involution {
    fn root(&self) -> Option<&'static OpDef> {
        Some(self.0)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let inner = rw.ir().operands(op)[0];
        match rw.ir().defining_op(inner) {
            Some(d) if rw.ir().is(d, self.0) => {
                let x = rw.ir().operands(d)[0];
                forward(rw, op, x)
            }
            _ => false,
        }
    }
}

struct ReshapeReshape;

impl RewritePattern for ReshapeReshape {
    fn root(&self) -> Option<&'static OpDef> {
        Some(&RESHAPE)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let ir = rw.ir();
        let inner = ir.operands(op)[0];
        // Ties of the outer reshape name dims of the inner one's result, not of its operand.
        let Some(d) = ir
            .defining_op(inner)
            .filter(|&d| ir.is(d, &RESHAPE) && d != op && ir.attr(op, "source_dims").is_none())
        else {
            return false;
        };
        let x = ir.operands(d)[0];
        rw.set_operand(op, 0, x);
        true
    }
}

struct TransposeTranspose;

impl RewritePattern for TransposeTranspose {
    fn root(&self) -> Option<&'static OpDef> {
        Some(&TRANSPOSE)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let ir = rw.ir();
        let inner = ir.operands(op)[0];
        let Some(d) = ir.defining_op(inner).filter(|&d| ir.is(d, &TRANSPOSE)) else {
            return false;
        };
        let perm = |o: OpId| super::accessors::int_list(ir.attr(o, "perm")).ok();
        let (Some(outer), Some(first)) = (perm(op), perm(d)) else { return false };
        let Some(composed) =
            outer.iter().map(|&i| first.get(i as usize).copied()).collect::<Option<Vec<i64>>>()
        else {
            return false;
        };
        let x = ir.operands(d)[0];
        let result = ir.value_type(ir.results(op)[0]);
        if d == op {
            return false;
        }
        let mut b = HlBuilder::new(rw, op);
        let perm_attr = b.ints(&composed);
        let Ok(v) = b.create(&TRANSPOSE, &[x], &[("perm", perm_attr)], Some(result)) else {
            return false;
        };
        rw.replace_op(op, &[v])
    }
}

/// Ops that do nothing when the result type equals the operand type (`hl.transpose` only with
/// the identity permutation); one instance per op.
struct Identity(&'static OpDef);

impl RewritePattern for Identity {
    fn root(&self) -> Option<&'static OpDef> {
        Some(self.0)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let ir = rw.ir();
        let identity = if std::ptr::eq(self.0, &TRANSPOSE) {
            super::accessors::int_list(ir.attr(op, "perm"))
                .is_ok_and(|p| p.iter().enumerate().all(|(i, &d)| d == i as i64))
        } else {
            !std::ptr::eq(self.0, &RESHAPE) || reshape_keeps_dims(ir, op)
        };
        identity && forward(rw, op, ir.operands(op)[0])
    }
}

/// Whether a reshape to its operand's own type keeps every dim at run time too: each `?` result
/// dim is tied to the same operand dim, but for at most one untied `?` (solved from the count).
fn reshape_keeps_dims(ir: &kiln_compiler::Ir<'_>, op: OpId) -> bool {
    let ty = ir.value_type(ir.results(op)[0]);
    let (Some((shape, _)), Ok(sources)) =
        (tensor_parts(ty), super::accessors::int_list(ir.attr(op, "source_dims")))
    else {
        return false;
    };
    let tie = |i: usize| sources.get(i).copied().unwrap_or(-1);
    let dynamic = (0..shape.len()).filter(|&i| shape[i] == kiln_compiler::DYNAMIC);
    let untied = dynamic.clone().filter(|&i| tie(i) == -1).count();
    untied <= 1 && { dynamic }.all(|i| tie(i) == -1 || tie(i) == i as i64)
}

/// Whether every value of element type `from` is exactly representable in `to`.
fn lossless(from: Type<'_>, to: Type<'_>) -> bool {
    use FloatKind::*;
    let mantissa = |t: Type<'_>| match *t.kind() {
        TypeKind::Float(F16) => Some(11),
        TypeKind::Float(BF16) => Some(8),
        TypeKind::Float(F32) => Some(24),
        _ => None,
    };
    match (from.kind(), to.kind()) {
        _ if from == to => true,
        (TypeKind::Float(a), TypeKind::Float(b)) => matches!((a, b), (F16 | BF16, F32)),
        (TypeKind::Integer { width: a, .. }, TypeKind::Integer { width: b, .. }) => *a == 1 || a < b,
        (TypeKind::Integer { width: a, .. }, TypeKind::Float(_)) => {
            *a == 1 || mantissa(to).is_some_and(|m| *a as i32 <= m + 1)
        }
        _ => false,
    }
}

struct CastCast;

impl RewritePattern for CastCast {
    fn root(&self) -> Option<&'static OpDef> {
        Some(&CAST)
    }

    fn match_and_rewrite<'c>(&self, rw: &mut Rewriter<'_, 'c>, op: OpId) -> bool {
        let ir = rw.ir();
        let mid = ir.operands(op)[0];
        let Some(d) = ir.defining_op(mid).filter(|&d| ir.is(d, &CAST) && d != op) else {
            return false;
        };
        let x = ir.operands(d)[0];
        let elem = |v: ValueId| tensor_parts(ir.value_type(v)).map(|(_, e)| e);
        let (Some(src), Some(via)) = (elem(x), elem(mid)) else { return false };
        if !lossless(src, via) {
            return false;
        }
        rw.set_operand(op, 0, x);
        true
    }
}
