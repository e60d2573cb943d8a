//! Recording an op: its type checked with the `hl` verifier's checks, the flush rules asked
//! whether the open segment ends first, then its node (and constants for scalars) appended.

use std::cell::RefCell;
use std::rc::Rc;

use kiln_compiler::{Attribute, OpDef};
use kiln_dialects::hl::infer::InferInput;
use kiln_dialects::hl::interfaces::HlOp;
use kiln_dialects::hl::verify::check_types;
use kiln_dialects::hl::CONSTANT;
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
pub(super) type CheckKey =
    (OpKind, SmallVec<[TensorType; 3]>, SmallVec<[(&'static str, AttrValue); 2]>, Option<TensorType>);

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
        // Operand types, and the element type scalars take.
        let mut scalar_dtype = None;
        for a in args {
            if let Arg::Tensor(t) = a {
                self.check_handle(me, t)?;
                if scalar_dtype.is_none() && t.ty.dtype != kiln_bytecode::isa::DType::I1 {
                    scalar_dtype = Some(t.ty.dtype);
                }
            }
        }
        let scalar_dtype = scalar_dtype
            .or_else(|| {
                args.iter().find_map(|a| if let Arg::Tensor(t) = a { Some(t.ty.dtype) } else { None })
            })
            .unwrap_or(kiln_bytecode::isa::DType::F32);
        let types: SmallVec<[TensorType; 3]> = args
            .iter()
            .map(|a| match a {
                Arg::Tensor(t) => t.ty.clone(),
                Arg::Scalar(_) => TensorType::new(scalar_dtype, &[]),
            })
            .collect();
        let ty = self.check(def, hl, &types, attrs, declared.as_ref())?;
        let constants = args.iter().filter(|a| matches!(a, Arg::Scalar(_))).count();
        self.flush_before(def, hl, constants + 1)?;
        // Operands (after the flush: values of a flushed segment are on the host now).
        let mut operands: SmallVec<[Operand; 3]> = SmallVec::new();
        for (a, t) in args.iter().zip(&types) {
            let operand = match a {
                Arg::Tensor(tensor) => match self.slot_state(tensor.slot, tensor.generation)? {
                    SlotState::Pending(n) => Operand::Node(n),
                    _ => Operand::Input(self.input(tensor.slot, t)),
                },
                Arg::Scalar(v) => {
                    self.seg.nodes.push(Node {
                        kind: OpKind(&CONSTANT),
                        operands: SmallVec::new(),
                        attrs: SmallVec::from_iter([("value", AttrValue::Splat(v.to_bits()))]),
                        ty: t.clone(),
                    });
                    Operand::Node(self.seg.nodes.len() as u32 - 1)
                }
            };
            operands.push(operand);
        }
        self.seg.nodes.push(Node {
            kind: OpKind(def),
            operands,
            attrs: SmallVec::from(attrs),
            ty: ty.clone(),
        });
        self.stats.ops_recorded += constants as u64 + 1;
        self.close_after(def, hl);
        let node = self.seg.nodes.len() as u32 - 1;
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

    /// The result type of `def` on `types`, checked as the verifier checks it (remembered:
    /// an op recorded again on the same types is not checked again).
    fn check(
        &mut self,
        def: &'static OpDef,
        hl: &'static HlOp,
        types: &[TensorType],
        attrs: &[(&'static str, AttrValue)],
        declared: Option<&TensorType>,
    ) -> Result<TensorType> {
        let key: CheckKey = (OpKind(def), SmallVec::from(types), SmallVec::from(attrs), declared.cloned());
        if let Some(ty) = self.checked.get(&key) {
            return Ok(ty.clone());
        }
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
        self.checked.insert(key, ty.clone());
        Ok(ty)
    }
}
