//! The compile cache: compiled segments keyed by their structure ([`SegmentKey`]: the
//! recorded nodes with their operand wiring, attributes and types, the input types, which
//! nodes are outputs, and the flags that change code), least recently used first out. A
//! lookup hashes a precomputed `u64` and compares the key's contents.

use std::hash::{Hash, Hasher};
use std::rc::Rc;

use kiln_bytecode::module::Module;
use rustc_hash::{FxHashMap, FxHasher};

use crate::flags::FusionKey;
use crate::node::{AttrValue, Node, OpKind, Operand, TensorType};

/// What identifies a compiled segment (no text: a hashable struct). Its hash is computed
/// once, from the nodes' hash that the segment folds as it records them ([`fold_node`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SegmentKey {
    hash: u64,
    pub(crate) nodes: Vec<Node>,
    pub(crate) inputs: Vec<TensorType>,
    pub(crate) outputs: Vec<u32>,
    pub(crate) fusion: Rc<FusionKey>,
}

/// The hash of an op's signature: its definition, operand types and attributes (what its
/// type check depends on, but the declared result type).
pub(crate) fn signature_hash<'a>(
    kind: OpKind,
    operand_types: impl Iterator<Item = &'a TensorType>,
    attrs: &[(&'static str, AttrValue)],
) -> u64 {
    let mut h = FxHasher::default();
    kind.hash(&mut h);
    for t in operand_types {
        t.hash(&mut h);
    }
    if !attrs.is_empty() {
        attrs.hash(&mut h);
    }
    h.finish()
}

/// `hash` (the hash of the nodes before `node`) with `node` folded in; `signature`: its
/// [`signature_hash`]. A node's operand types follow from the key (input types, earlier
/// nodes' types), so equal keys fold to equal hashes.
pub(crate) fn fold_node(hash: u64, signature: u64, node: &Node) -> u64 {
    let mut h = FxHasher::default();
    h.write_u64(hash);
    h.write_u64(signature);
    for o in &node.operands {
        h.write_u64(match *o {
            Operand::Input(i) => u64::from(i),
            Operand::Node(n) => 1 << 32 | u64::from(n),
        });
    }
    node.ty.hash(&mut h);
    h.finish()
}

impl SegmentKey {
    /// The key of `nodes` whose [`fold_node`] fold from 0 is `nodes_hash`.
    pub(crate) fn new(
        nodes: Vec<Node>,
        nodes_hash: u64,
        inputs: Vec<TensorType>,
        outputs: Vec<u32>,
        fusion: Rc<FusionKey>,
    ) -> SegmentKey {
        debug_assert_eq!(nodes_hash, fold(&nodes, &inputs), "the segment's hash follows its nodes");
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

/// The [`fold_node`] fold of `nodes` (on inputs of types `inputs`) from 0, as the segment
/// computes it while recording.
pub(crate) fn fold(nodes: &[Node], inputs: &[TensorType]) -> u64 {
    nodes.iter().fold(0, |hash, node| {
        let types = node.operands.iter().map(|o| match *o {
            Operand::Input(i) => &inputs[i as usize],
            Operand::Node(n) => &nodes[n as usize].ty,
        });
        fold_node(hash, signature_hash(node.kind, types, &node.attrs), node)
    })
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
