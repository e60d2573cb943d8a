//! The compile cache: compiled segments keyed by their structure ([`SegmentKey`]: the
//! recorded nodes with their operand wiring, attributes and types, the input types, which
//! nodes are outputs, and the flags that change code), least recently used first out.

use std::rc::Rc;

use kiln_bytecode::module::Module;
use rustc_hash::FxHashMap;

use crate::flags::FusionKey;
use crate::node::{Node, TensorType};

/// What identifies a compiled segment (no text: a hashable struct).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SegmentKey {
    pub(crate) nodes: Vec<Node>,
    pub(crate) inputs: Vec<TensorType>,
    pub(crate) outputs: Vec<u32>,
    pub(crate) fusion: FusionKey,
}

/// An LRU map from keys to compiled modules.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    entries: FxHashMap<SegmentKey, (Rc<Module>, u64)>,
    tick: u64,
}

impl Cache {
    /// The module of `key`, marked most recently used.
    pub(crate) fn get(&mut self, key: &SegmentKey) -> Option<Rc<Module>> {
        self.tick += 1;
        let tick = self.tick;
        self.entries.get_mut(key).map(|(m, used)| {
            *used = tick;
            Rc::clone(m)
        })
    }

    /// Inserts `module` under `key`; evicts least recently used entries down to `capacity`.
    /// Returns how many were evicted.
    pub(crate) fn insert(&mut self, key: SegmentKey, module: Rc<Module>, capacity: usize) -> u64 {
        self.tick += 1;
        self.entries.insert(key, (module, self.tick));
        self.shrink(capacity)
    }

    /// Evicts least recently used entries down to `capacity`; returns how many.
    pub(crate) fn shrink(&mut self, capacity: usize) -> u64 {
        let mut evicted = 0;
        while self.entries.len() > capacity.max(1) {
            let Some(oldest) = self.entries.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| k.clone())
            else {
                break;
            };
            self.entries.remove(&oldest);
            evicted += 1;
        }
        evicted
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}
