//! Following a script: eager programs repeat themselves (a training step, a loop body), so
//! the segment recorded after segment A is most often the one that followed A the last time.
//! Every cache entry remembers that successor ([`Entry::next`]), and a new segment starts
//! with it as its *script*. While every op recorded is the script's next node, the op is not
//! type-checked, hashed or appended: the segment's nodes are the script's first `matched`.
//! A flush of a segment that repeated its whole script with the same outputs and flags runs
//! the script's module without building a key or looking in the cache. The first op that
//! differs ends the script ([`Segment::materialize`](super::Segment)): the matched nodes are
//! copied out and recording goes on the usual way.
//!
//! Exact, not a guess: an op is the script's next node when it has the same definition,
//! attributes and declared result type, its scalars are the same constants (in the type
//! scalars take), and its operands are wired to the same nodes and to the same segment inputs,
//! each of the script's type. A node's result type is a function of exactly those (the op,
//! its operand types, attributes and declared type), and the nodes before it are the
//! script's, so it is the script node's type, as the check would find it; and a segment whose
//! nodes, input types, outputs and flags are the script's has the script's key.

use std::cell::RefCell;
use std::rc::Rc;

use kiln_bytecode::isa::DType;
use kiln_compiler::OpDef;
use kiln_dialects::hl::interfaces::HlOp;
use kiln_dialects::hl::CONSTANT;
use smallvec::SmallVec;

use super::{Inner, SlotState};
use crate::cache::Entry;
use crate::flags::FusionKey;
use crate::node::{AttrValue, OpKind, Operand, TensorType};
use crate::tensor::{Arg, Tensor};

/// An op found to be the script's next node.
struct Followed {
    /// Its node index (its scalar constants come just before it).
    node: u32,
    /// Slots it reads that become segment inputs, in order.
    new_inputs: SmallVec<[u32; 3]>,
}

impl Inner {
    /// Records `def` on `args` (live handles; `scalars`: the type scalars take and how many
    /// args are scalars) with `attrs` and `declared` as the script's next node, if it is that
    /// node ([`Inner::follows`]). Returns the result's slot and generation and the node
    /// (inlined: returned through memory, the triple stalled store forwarding).
    #[inline(always)]
    pub(super) fn follow(
        &mut self,
        def: &'static OpDef,
        hl: &HlOp,
        args: &[Arg<'_>],
        scalars: (DType, usize),
        attrs: &[(&'static str, AttrValue)],
        declared: Option<&TensorType>,
    ) -> Option<(u32, u32, u32)> {
        let f = self.follows(def, args, scalars, attrs, declared)?;
        self.close_after(def, hl);
        Some(self.advance(f))
    }

    /// Whether `def` on `args` (`scalars` as [`Inner::follow`]'s) with `attrs` and `declared`
    /// is the script's next node, with its scalar constants before it.
    fn follows(
        &self,
        def: &'static OpDef,
        args: &[Arg<'_>],
        (scalar, constants): (DType, usize),
        attrs: &[(&'static str, AttrValue)],
        declared: Option<&TensorType>,
    ) -> Option<Followed> {
        let script = self.seg.script.as_deref()?;
        let nodes = &script.key.nodes;
        let first = self.seg.matched as usize;
        let at = first + constants;
        let node = nodes.get(at)?;
        let same = node.kind == OpKind(def)
            && node.operands.len() == args.len()
            && *node.attrs == *attrs
            && node.declared == declared.is_some()
            && declared.is_none_or(|d| *d == node.ty);
        if !same {
            return None;
        }
        let mut constant = first;
        let mut new_inputs: SmallVec<[u32; 3]> = SmallVec::new();
        for (a, &wired) in args.iter().zip(&node.operands) {
            let operand = match *a {
                Arg::Scalar(v) => {
                    let c = &nodes[constant];
                    let same = c.kind == OpKind(&CONSTANT)
                        && c.ty.dtype == scalar
                        && c.ty.shape.is_empty()
                        && matches!(&*c.attrs, [("value", AttrValue::Splat(bits))] if *bits == v.to_bits());
                    if !same {
                        return None;
                    }
                    constant += 1;
                    Operand::Node(constant as u32 - 1)
                }
                Arg::Tensor(t) => match self.slots[t.slot as usize].state {
                    SlotState::Pending(n) => Operand::Node(n),
                    _ => {
                        let pinned = self.seg.inputs.len();
                        let i = match self.seg.inputs.iter().position(|&s| s == t.slot) {
                            Some(i) => i,
                            None => match new_inputs.iter().position(|&s| s == t.slot) {
                                Some(k) => pinned + k,
                                None => {
                                    let i = pinned + new_inputs.len();
                                    if *script.key.inputs.get(i)? != t.ty {
                                        return None;
                                    }
                                    new_inputs.push(t.slot);
                                    i
                                }
                            },
                        };
                        Operand::Input(i as u32)
                    }
                },
            };
            if operand != wired {
                return None;
            }
        }
        Some(Followed { node: at as u32, new_inputs })
    }

    /// Records the op `f` found by [`Inner::follows`]: pins its new inputs, moves the script
    /// on past it and makes its result pending. Returns the result's slot and generation and
    /// the node.
    #[inline(always)]
    fn advance(&mut self, f: Followed) -> (u32, u32, u32) {
        let seg = &mut self.seg;
        let script = seg.script.as_ref().expect("a followed op has a script");
        for &slot in &f.new_inputs {
            let s = &mut self.slots[slot as usize];
            debug_assert!(!matches!(s.state, SlotState::Pending(_)), "inputs are on the host");
            s.refs += 1;
            seg.input_types.push(script.key.inputs[seg.inputs.len()].clone());
            seg.inputs.push(slot);
        }
        self.stats.ops_recorded += u64::from(f.node + 1 - seg.matched);
        seg.matched = f.node + 1;
        let (slot, generation) = self.alloc(|| SlotState::Pending(f.node));
        self.seg.results.push((slot, generation));
        (slot, generation, f.node)
    }

    /// The handle of script node `node`, recorded in slot `slot` of generation `generation`
    /// (its type cloned where the handle is built: built apart and moved, the type was
    /// copied in wider loads than it was written in, which stalled store forwarding).
    #[inline(always)]
    pub(super) fn script_handle(
        &self,
        me: &Rc<RefCell<Inner>>,
        (slot, generation, node): (u32, u32, u32),
    ) -> Tensor {
        let script = self.seg.script.as_ref().expect("a followed op has a script");
        Tensor::new(Rc::downgrade(me), slot, generation, script.key.nodes[node as usize].ty.clone())
    }
}

/// Whether a segment that matched `matched` nodes of `script` (pinning `inputs` inputs), with
/// outputs `outputs`, under flags `fusion`, is the script's segment (then its module runs
/// it).
pub(super) fn repeated(
    script: &Entry,
    matched: u32,
    inputs: usize,
    outputs: &[u32],
    fusion: &Rc<FusionKey>,
) -> bool {
    let key = &script.key;
    let whole = matched as usize == key.nodes.len();
    debug_assert!(!whole || inputs == key.inputs.len(), "the script's nodes read its inputs");
    script.cached()
        && whole
        && key.outputs == outputs
        && (Rc::ptr_eq(&key.fusion, fusion) || key.fusion == *fusion)
}
