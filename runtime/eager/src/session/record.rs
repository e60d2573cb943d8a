//! Recording an op: the flush rules asked whether the open segment ends first; the op
//! matched against the segment's script ([`follow`](super::follow)), or its type checked with
//! the `hl` verifier's checks and its node (and constants for scalars) appended.

use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use kiln_bytecode::isa::DType;
use kiln_compiler::{Attribute, OpDef};
use kiln_dialects::hl::infer::InferInput;
use kiln_dialects::hl::interfaces::HlOp;
use kiln_dialects::hl::verify::check_types;
use kiln_dialects::hl::{CONSTANT, SELECT};
use rustc_hash::FxHasher;
use smallvec::SmallVec;

use super::{Inner, SlotState};
use crate::cache::signature_hash;
use crate::error::{EagerError, ErrorKind, Result};
use crate::node::{AttrValue, Node, OpKind, Operand, TensorType};
use crate::tensor::{Arg, Tensor};

/// The handle of a recorded result (slot, generation, type) in session `me`.
#[inline]
fn handle(me: &Rc<RefCell<Inner>>, (slot, generation, ty): (u32, u32, TensorType)) -> Tensor {
    Tensor::new(Rc::downgrade(me), slot, generation, ty)
}

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

/// An op about to be recorded, as its type check sees it.
struct Signature<'a> {
    def: &'static OpDef,
    args: &'a [Arg<'a>],
    /// The type of its scalar operands (rank 0).
    scalar: TensorType,
    attrs: &'a [(&'static str, AttrValue)],
    declared: Option<&'a TensorType>,
    /// Its [`signature_hash`].
    hash: u64,
}

impl Signature<'_> {
    /// The type of operand `a`.
    fn operand_type<'t>(&'t self, a: &'t Arg<'_>) -> &'t TensorType {
        match a {
            Arg::Tensor(t) => &t.ty,
            Arg::Scalar(_) => &self.scalar,
        }
    }
}

impl CheckKey {
    /// Whether this is the key of the check of `sig`.
    fn matches(&self, sig: &Signature<'_>) -> bool {
        self.kind == OpKind(sig.def)
            && self.types.len() == sig.args.len()
            && sig.args.iter().zip(&self.types).all(|(a, t)| sig.operand_type(a) == t)
            && (sig.attrs.is_empty() && self.attrs.is_empty() || self.attrs.as_slice() == sig.attrs)
            && self.declared.as_ref() == sig.declared
    }
}

/// The hash of a check's key: the op's signature hash and the declared result type.
fn check_hash(signature: u64, declared: Option<&TensorType>) -> u64 {
    let mut h = FxHasher::default();
    h.write_u64(signature);
    declared.hash(&mut h);
    h.finish()
}

/// Checked signatures remembered at most (then forgotten all at once).
const CHECKED_LIMIT: usize = 4096;

impl Inner {
    /// Records `def` on `args` in session `me` (see [`Session::record`](crate::Session::record));
    /// returns the result's handle, built here so that the record path moves it once.
    pub(super) fn record(
        &mut self,
        me: &Rc<RefCell<Inner>>,
        def: &'static OpDef,
        args: &[Arg<'_>],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<TensorType>,
    ) -> Result<Tensor> {
        let hl = hl_of(def)?;
        // The element type scalars take: that of the first tensor operand that is not `i1`,
        // else of the first tensor operand, else `f32`. A select's condition is no value
        // operand: `select(cond, 1.0, 0.0)` gives `f32`, not `i1`.
        let mut scalar_dtype = None;
        let mut first_dtype = None;
        let condition = std::ptr::eq(def, &SELECT);
        for (i, a) in args.iter().enumerate() {
            if let Arg::Tensor(t) = a {
                self.check_handle(me, t)?;
                if condition && i == 0 {
                    continue;
                }
                first_dtype = first_dtype.or(Some(t.ty.dtype));
                if scalar_dtype.is_none() && t.ty.dtype != DType::I1 {
                    scalar_dtype = Some(t.ty.dtype);
                }
            }
        }
        let scalar_dtype = scalar_dtype.or(first_dtype).unwrap_or(DType::F32);
        let constants = args.iter().filter(|a| matches!(a, Arg::Scalar(_))).count();
        let flush = self.flush_reason(def, hl, constants + 1);
        if flush.is_none() {
            if let Some(recorded) =
                self.follow(def, hl, args, (scalar_dtype, constants), attrs, declared.as_ref())
            {
                return Ok(self.script_handle(me, recorded));
            }
        }
        let mut sig = Signature {
            def,
            args,
            scalar: TensorType::new(scalar_dtype, &[]),
            attrs,
            declared: declared.as_ref(),
            hash: 0,
        };
        sig.hash = signature_hash(OpKind(def), args.iter().map(|a| sig.operand_type(a)), attrs);
        let ty = self.check(hl, &sig)?;
        if let Some(reason) = flush {
            // A segment that fails gives its error to its values (and so to this op, if it
            // reads one of them, below), not to this op as such: the op may have nothing to
            // do with it.
            let _ = self.flush(reason);
            for a in args {
                if let Arg::Tensor(t) = a {
                    self.slot_state(t.slot, t.generation)?;
                }
            }
            // The segment it starts may follow a script.
            if let Some(recorded) =
                self.follow(def, hl, args, (scalar_dtype, constants), attrs, declared.as_ref())
            {
                return Ok(self.script_handle(me, recorded));
            }
        }
        self.seg.materialize();
        // Operands (after the flush: values of a flushed segment are on the host now).
        let mut operands: SmallVec<[Operand; 3]> = SmallVec::new();
        for a in args {
            let operand = match a {
                Arg::Tensor(tensor) => match self.slots[tensor.slot as usize].state {
                    SlotState::Pending(n) => Operand::Node(n),
                    _ => Operand::Input(self.input(tensor.slot, &tensor.ty)),
                },
                Arg::Scalar(v) => {
                    let attrs = Box::new([("value", AttrValue::Splat(v.to_bits()))]);
                    let kind = OpKind(&CONSTANT);
                    let signature = signature_hash(kind, std::iter::empty(), &*attrs);
                    let node = Node {
                        kind,
                        operands: SmallVec::new(),
                        attrs,
                        ty: sig.scalar.clone(),
                        declared: false,
                    };
                    Operand::Node(self.seg.push(node, signature))
                }
            };
            operands.push(operand);
        }
        let node = Node {
            kind: OpKind(def),
            operands,
            attrs: Box::from(attrs),
            ty: ty.clone(),
            declared: declared.is_some(),
        };
        let node = self.seg.push(node, sig.hash);
        self.stats.ops_recorded += constants as u64 + 1;
        self.close_after(def, hl);
        let (slot, generation) = self.alloc(|| SlotState::Pending(node));
        self.seg.results.push((slot, generation));
        Ok(handle(me, (slot, generation, ty)))
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

    /// The result type of the op `sig`, checked as the verifier checks it (remembered: an op
    /// recorded again on the same types is not checked again).
    fn check(&mut self, hl: &'static HlOp, sig: &Signature<'_>) -> Result<TensorType> {
        let (def, attrs, declared) = (sig.def, sig.attrs, sig.declared);
        let hash = check_hash(sig.hash, declared);
        if let Some((key, ty)) = self.checked.get(&hash) {
            if key.matches(sig) {
                return Ok(ty.clone());
            }
        }
        let types: SmallVec<[TensorType; 3]> = sig.args.iter().map(|a| sig.operand_type(a).clone()).collect();
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
        super::limits::check(def, &types, &ty, self.max_bytes)?;
        if self.checked.len() >= CHECKED_LIMIT {
            self.checked.clear();
        }
        let key =
            CheckKey { kind: OpKind(def), types, attrs: SmallVec::from(attrs), declared: declared.cloned() };
        self.checked.insert(hash, (key, ty.clone()));
        Ok(ty)
    }
}
