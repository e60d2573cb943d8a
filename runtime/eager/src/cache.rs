//! The compile cache: compiled segments keyed by their structure ([`SegmentKey`]: the
//! recorded nodes with their operand wiring, attributes and types, the input types, which
//! nodes are outputs, and the flags that change code), least recently used first out. A
//! lookup hashes a precomputed `u64` and compares the key's contents.

use std::hash::{Hash, Hasher};
use std::rc::Rc;

use kiln_bytecode::module::Module;
use rustc_hash::{FxHashMap, FxHasher};

use crate::flags::FusionKey;
use crate::node::{Node, TensorType};

/// What identifies a compiled segment (no text: a hashable struct). Its hash is computed
/// once, from the nodes' hash that the segment folds as it records them
/// ([`node_hash`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SegmentKey {
    hash: u64,
    pub(crate) nodes: Vec<Node>,
    pub(crate) inputs: Vec<TensorType>,
    pub(crate) outputs: Vec<u32>,
    pub(crate) fusion: Rc<FusionKey>,
}

/// `hash` (the hash of the nodes before `node`) with `node` folded in.
pub(crate) fn node_hash(hash: u64, node: &Node) -> u64 {
    let mut h = FxHasher::default();
    h.write_u64(hash);
    node.hash(&mut h);
    h.finish()
}

impl SegmentKey {
    /// The key of `nodes`, whose [`node_hash`] fold from 0 is `nodes_hash`.
    pub(crate) fn new(
        nodes: Vec<Node>,
        nodes_hash: u64,
        inputs: Vec<TensorType>,
        outputs: Vec<u32>,
        fusion: Rc<FusionKey>,
    ) -> SegmentKey {
        debug_assert_eq!(nodes_hash, nodes.iter().fold(0, node_hash), "the segment's hash follows its nodes");
        let mut h = FxHasher::default();
        h.write_u64(nodes_hash);
        inputs.hash(&mut h);
        outputs.hash(&mut h);
        fusion.hash(&mut h);
        SegmentKey { hash: h.finish(), nodes, inputs, outputs, fusion }
    }

    /// The nodes, input types and outputs, for the next segment to reuse.
    pub(crate) fn into_buffers(self) -> (Vec<Node>, Vec<TensorType>, Vec<u32>) {
        (self.nodes, self.inputs, self.outputs)
    }
}

impl Hash for SegmentKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
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
