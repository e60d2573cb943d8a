//! What the analyses that replay a run share: the pipes that own a timeline or clock (every
//! pipe but `All`), the kind of a sync instruction, and the pending `set_flag` signals of one
//! core, per `(src, dst, event)` slot, first in first out.

use std::collections::{BTreeMap, VecDeque};

use kiln_bytecode::isa::{Inst, Pipe};
use kiln_bytecode::module::Module;

use crate::event::Event;

/// The pipes that run instructions (every pipe but `All`), in encoding order.
pub(crate) const LANES: usize = 7;

/// The lane of a pipe (`None` for `All`).
pub(crate) fn lane(p: Pipe) -> Option<usize> {
    match p {
        Pipe::All => None,
        p => Some(p as usize),
    }
}

/// The pipe of a lane.
pub(crate) fn lane_pipe(l: usize) -> Pipe {
    Pipe::ALL[l]
}

/// A flag slot: signalling pipe, waiting pipe, event id.
pub(crate) type Slot = (Pipe, Pipe, u8);

/// What an event does to the pipes' order.
pub(crate) enum Sync {
    /// `SetFlag` on its source pipe.
    Set(Slot),
    /// `WaitFlag` on its destination pipe.
    Wait(Slot),
    /// `Barrier(All)`.
    BarrierAll,
    /// Anything else (a one-pipe barrier orders nothing another pipe sees).
    None,
}

/// Classifies `e` by the instruction it executed: the event tells a set from a wait only
/// through the code (both carry the same `flag`), and the code is trusted only where it agrees
/// with the event's own `flag` / `barrier` fields.
pub(crate) fn sync_of(module: &Module, e: &Event) -> Sync {
    let inst = module.kernels.get(e.kernel as usize).and_then(|k| k.code.get(e.inst as usize));
    match (inst, e.flag, e.barrier) {
        (Some(Inst::SetFlag { src, dst, event }), Some(f), _) if f == (*src, *dst, *event) => Sync::Set(f),
        (Some(Inst::WaitFlag { src, dst, event }), Some(f), _) if f == (*src, *dst, *event) => Sync::Wait(f),
        (Some(Inst::Barrier { pipe: Pipe::All }), _, Some(Pipe::All)) => Sync::BarrierAll,
        _ => Sync::None,
    }
}

/// At most this many distinct pending sets are kept per slot; past it the newest set's value
/// replaces the last one's (a later set of one pipe dominates an earlier one), so memory stays
/// bounded when a kernel sets a flag in a loop and never waits for it.
const MAX_PENDING: usize = 64;

/// The pending sets of one core: per slot, a queue of (value at the set, sets it stands for).
#[derive(Clone, Debug)]
pub(crate) struct Flags<T> {
    slots: BTreeMap<Slot, VecDeque<(T, u64)>>,
}

impl<T: Clone> Flags<T> {
    /// No pending sets.
    pub fn new() -> Flags<T> {
        Flags { slots: BTreeMap::new() }
    }

    /// Records a set of `slot` carrying `value`.
    pub fn set(&mut self, slot: Slot, value: T) {
        let q = self.slots.entry(slot).or_default();
        let full = q.len() >= MAX_PENDING;
        match q.back_mut() {
            Some(back) if full => {
                back.0 = value;
                back.1 += 1;
            }
            _ => q.push_back((value, 1)),
        }
    }

    /// Consumes the oldest pending set of `slot`; `None` when nothing is pending.
    pub fn wait(&mut self, slot: Slot) -> Option<T> {
        let q = self.slots.get_mut(&slot)?;
        let front = q.front_mut()?;
        front.1 -= 1;
        let value = front.0.clone();
        if front.1 == 0 {
            q.pop_front();
        }
        Some(value)
    }

    /// The slots with pending sets and how many, in slot order.
    pub fn pending(&self) -> impl Iterator<Item = (Slot, u64)> + '_ {
        self.slots.iter().map(|(s, q)| (*s, q.iter().map(|e| e.1).sum::<u64>())).filter(|&(_, n)| n > 0)
    }
}
