//! Recording an op: its type checked with the `hl` verifier's checks, the flush rules asked
//! whether the open segment ends first, then its node (and constants for scalars) appended.

use std::borrow::Cow;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use kiln_bytecode::isa::DType;
use kiln_compiler::{Attribute, OpDef};
use kiln_dialects::hl::infer::InferInput;
use kiln_dialects::hl::interfaces::HlOp;
use kiln_dialects::hl::verify::check_types;
use kiln_dialects::hl::CONSTANT;
use rustc_hash::FxHasher;
use smallvec::SmallVec;

use super::{Inner, SlotState};
use crate::error::{EagerError, ErrorKind, Result};
use crate::node::{AttrValue, Node, OpKind, Operand, TensorType};
use crate::tensor::Arg;

fn hl_of(def: &'static OpDef) -> Result<&'static HlOp> {
    def.interface::<HlOp>().filter(|_| !std::ptr::eq(def, &CONSTANT)).ok_or_else(|| {
        EagerError::new(ErrorKind::DType, format!("'{}' is not an hl op the session records", def.name))
    })
}

/// Whether the message of a failed type check is about element types.
fn is_dtype_message(message: &str) -> bool {
    message.contains("element type") || message.contains("values, but got")
}

/// What a type check depends on: the op, the operand types, the attributes, the declared
/// result type.
pub(super) struct CheckKey {
    kind: OpKind,
    types: SmallVec<[TensorType; 3]>,
    attrs: SmallVec<[(&'static str, AttrValue); 2]>,
    declared: Option<TensorType>,
}

/// The operands' types as a type check sees them: a scalar is a rank-0 tensor of
/// `scalar_dtype`.
fn operand_types<'a>(args: &'a [Arg<'a>], scalar_dtype: DType) -> impl Iterator<Item = Cow<'a, TensorType>> {
    args.iter().map(move |a| match a {
        Arg::Tensor(t) => Cow::Borrowed(&t.ty),
        Arg::Scalar(_) => Cow::Owned(TensorType::new(scalar_dtype, &[])),
    })
}

impl CheckKey {
    /// The hash of the key of a check (computed from the borrowed parts, so that a check
    /// already made is found without building its key).
    fn hash_of(
        def: &'static OpDef,
        args: &[Arg<'_>],
        scalar_dtype: DType,
        attrs: &[(&'static str, AttrValue)],
        declared: Option<&TensorType>,
    ) -> u64 {
        let mut h = FxHasher::default();
        OpKind(def).hash(&mut h);
        for t in operand_types(args, scalar_dtype) {
            t.hash(&mut h);
        }
        attrs.hash(&mut h);
        declared.hash(&mut h);
        h.finish()
    }

    /// Whether this is the key of the check of `def` on these operands.
    fn matches(
        &self,
        def: &'static OpDef,
        args: &[Arg<'_>],
        scalar_dtype: DType,
        attrs: &[(&'static str, AttrValue)],
        declared: Option<&TensorType>,
    ) -> bool {
        self.kind == OpKind(def)
            && self.types.len() == args.len()
            && operand_types(args, scalar_dtype).zip(&self.types).all(|(a, b)| *a == *b)
            && self.attrs.as_slice() == attrs
            && self.declared.as_ref() == declared
    }
}

/// Checked signatures remembered at most (then forgotten all at once).
const CHECKED_LIMIT: usize = 4096;

impl Inner {
    pub(super) fn record(
        &mut self,
        me: &Rc<RefCell<Inner>>,
        def: &'static OpDef,
        args: &[Arg<'_>],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<TensorType>,
    ) -> Result<(u32, u32, TensorType)> {
        let hl = hl_of(def)?;
        // The element type scalars take.
        let mut scalar_dtype = None;
        let mut first_dtype = None;
        for a in args {
            if let Arg::Tensor(t) = a {
                self.check_handle(me, t)?;
                first_dtype = first_dtype.or(Some(t.ty.dtype));
                if scalar_dtype.is_none() && t.ty.dtype != DType::I1 {
                    scalar_dtype = Some(t.ty.dtype);
                }
            }
        }
        let scalar_dtype = scalar_dtype.or(first_dtype).unwrap_or(DType::F32);
        let ty = self.check(def, hl, args, scalar_dtype, attrs, declared.as_ref())?;
        let constants = args.iter().filter(|a| matches!(a, Arg::Scalar(_))).count();
        self.flush_before(def, hl, constants + 1)?;
        // Operands (after the flush: values of a flushed segment are on the host now).
        let mut operands: SmallVec<[Operand; 3]> = SmallVec::new();
        for a in args {
            let operand = match a {
                Arg::Tensor(tensor) => match *self.slot_state(tensor.slot, tensor.generation)? {
                    SlotState::Pending(n) => Operand::Node(n),
                    _ => Operand::Input(self.input(tensor.slot, &tensor.ty)),
                },
                Arg::Scalar(v) => {
                    let attrs = SmallVec::from_iter([("value", AttrValue::Splat(v.to_bits()))]);
                    let ty = TensorType::new(scalar_dtype, &[]);
                    Operand::Node(self.seg.push(Node {
                        kind: OpKind(&CONSTANT),
                        operands: SmallVec::new(),
                        attrs,
                        ty,
                    }))
                }
            };
            operands.push(operand);
        }
        let node =
            self.seg.push(Node { kind: OpKind(def), operands, attrs: SmallVec::from(attrs), ty: ty.clone() });
        self.stats.ops_recorded += constants as u64 + 1;
        self.close_after(def, hl);
        let (slot, generation) = self.alloc(SlotState::Pending(node));
        self.seg.results.push((slot, generation));
        Ok((slot, generation, ty))
    }

    /// The segment input index of host slot `slot` (pinned on first use).
    fn input(&mut self, slot: u32, ty: &TensorType) -> u32 {
        if let Some(i) = self.seg.inputs.iter().position(|&s| s == slot) {
            return i as u32;
        }
        self.retain(slot);
        self.seg.inputs.push(slot);
        self.seg.input_types.push(ty.clone());
        self.seg.inputs.len() as u32 - 1
    }

    /// The result type of `def` on `args` (scalars of `scalar_dtype`), checked as the
    /// verifier checks it (remembered: an op recorded again on the same types is not checked
    /// again).
    fn check(
        &mut self,
        def: &'static OpDef,
        hl: &'static HlOp,
        args: &[Arg<'_>],
        scalar_dtype: DType,
        attrs: &[(&'static str, AttrValue)],
        declared: Option<&TensorType>,
    ) -> Result<TensorType> {
        let hash = CheckKey::hash_of(def, args, scalar_dtype, attrs, declared);
        if let Some((key, ty)) = self.checked.get(&hash) {
            if key.matches(def, args, scalar_dtype, attrs, declared) {
                return Ok(ty.clone());
            }
        }
        let types: SmallVec<[TensorType; 3]> =
            operand_types(args, scalar_dtype).map(Cow::into_owned).collect();
        let checked = self.owner.with(|ctx| {
            let operands: SmallVec<[_; 3]> = types.iter().map(|t| t.to_type(ctx)).collect();
            let result = declared.map(|t| t.to_type(ctx));
            let elem_result = result.unwrap_or_else(|| ctx.tensor_type(&[], ctx.int_type(1)));
            let built: SmallVec<[(&str, Attribute<'_>); 2]> =
                attrs.iter().map(|(n, v)| (*n, v.to_attr(ctx, elem_result))).collect();
            let lookup = |n: &str| built.iter().find(|(k, _)| *k == n).map(|(_, a)| *a);
            check_types(ctx, hl, &InferInput { operands: &operands, result, attr: &lookup })
                .map_err(|m| (is_dtype_message(&m), m))
                .and_then(|t| TensorType::of(t).map_err(|e| (e.kind == ErrorKind::DType, e.message)))
                .and_then(|t| t.check_not_empty().map(|()| t).map_err(|e| (false, e.message)))
        });
        let ty = checked.map_err(|(dtype, m)| {
            EagerError::new(
                if dtype { ErrorKind::DType } else { ErrorKind::Shape },
                format!("'{}' op {m}", def.name),
            )
        })?;
        if self.checked.len() >= CHECKED_LIMIT {
            self.checked.clear();
        }
        let key =
            CheckKey { kind: OpKind(def), types, attrs: SmallVec::from(attrs), declared: declared.cloned() };
        self.checked.insert(hash, (key, ty.clone()));
        Ok(ty)
    }
}
