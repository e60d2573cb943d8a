//! The compile cache: compiled segments keyed by their structure ([`SegmentKey`]: the
//! recorded nodes with their operand wiring, attributes and types, the input types, which
//! nodes are outputs, and the flags that change code), least recently used first out. A
//! lookup hashes a precomputed `u64` and compares the key's contents. Each entry also
//! remembers the segment flushed after it, the next segment's script (`session/follow.rs`).
//!
//! Keys are exact (concrete shapes); an entry's program is either compiled for its shape or
//! the program of its shape class ([`crate::class`]), bound once to the entry's shapes.

use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};
use std::rc::{Rc, Weak};

use kiln_bytecode::shape::ClassModule;
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;

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

impl Hash for SegmentKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
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

/// A compiled segment in the cache: its key and program, when it was last used, and the
/// segment that was flushed after it the last time it ran (what the session expects to
/// record next: see `session/follow.rs`).
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) key: SegmentKey,
    /// The program: a static module (the trivial class) or the program of the key's shape
    /// class, which binds the key's input shapes.
    pub(crate) module: Rc<ClassModule>,
    /// The byte sizes of the program's GM temporaries for the key's shapes.
    pub(crate) temps: Box<[u64]>,
    used: Cell<u64>,
    /// Whether the cache still holds it (a script may outlive its eviction).
    cached: Cell<bool>,
    next: RefCell<Weak<Entry>>,
}

impl Entry {
    /// Whether the cache still holds this entry.
    pub(crate) fn cached(&self) -> bool {
        self.cached.get()
    }

    /// The entry flushed after this one the last time (if the cache still holds it).
    pub(crate) fn next(&self) -> Option<Rc<Entry>> {
        self.next.borrow().upgrade().filter(|e| e.cached())
    }

    /// Records that `next` was flushed after this entry.
    pub(crate) fn set_next(&self, next: &Rc<Entry>) {
        *self.next.borrow_mut() = Rc::downgrade(next);
    }
}

/// An LRU map from keys to compiled modules (buckets by the key's hash).
#[derive(Debug, Default)]
pub(crate) struct Cache {
    entries: FxHashMap<u64, SmallVec<[Rc<Entry>; 1]>>,
    len: usize,
    tick: u64,
}

impl Cache {
    /// The entry of `key`, marked most recently used.
    pub(crate) fn get(&mut self, key: &SegmentKey) -> Option<Rc<Entry>> {
        let entry = self.entries.get(&key.hash)?.iter().find(|e| e.key == *key)?;
        let entry = Rc::clone(entry);
        self.touch(&entry);
        Some(entry)
    }

    /// Marks `entry` (held by the cache) most recently used.
    pub(crate) fn touch(&mut self, entry: &Entry) {
        self.tick += 1;
        entry.used.set(self.tick);
    }

    /// Inserts `module` (with temporaries of byte sizes `temps` for `key`'s shapes) under
    /// `key` (not yet held); evicts least recently used entries down to `capacity`. Returns
    /// the entry and how many were evicted.
    pub(crate) fn insert(
        &mut self,
        key: SegmentKey,
        (module, temps): (Rc<ClassModule>, Box<[u64]>),
        capacity: usize,
    ) -> (Rc<Entry>, u64) {
        self.tick += 1;
        let hash = key.hash;
        let entry = Rc::new(Entry {
            key,
            module,
            temps,
            used: Cell::new(self.tick),
            cached: Cell::new(true),
            next: RefCell::new(Weak::new()),
        });
        self.entries.entry(hash).or_default().push(Rc::clone(&entry));
        self.len += 1;
        (entry, self.shrink(capacity))
    }

    /// Drops `entry` from the cache (if it holds it).
    pub(crate) fn remove(&mut self, entry: &Rc<Entry>) {
        let Some(bucket) = self.entries.get_mut(&entry.key.hash) else { return };
        let Some(at) = bucket.iter().position(|e| Rc::ptr_eq(e, entry)) else { return };
        bucket.swap_remove(at).cached.set(false);
        if bucket.is_empty() {
            self.entries.remove(&entry.key.hash);
        }
        self.len -= 1;
    }

    /// Evicts least recently used entries down to `capacity`; returns how many.
    pub(crate) fn shrink(&mut self, capacity: usize) -> u64 {
        let mut evicted = 0;
        while self.len > capacity.max(1) {
            let Some((hash, at)) = self
                .entries
                .iter()
                .flat_map(|(&h, bucket)| bucket.iter().enumerate().map(move |(i, e)| (h, i, e.used.get())))
                .min_by_key(|&(_, _, used)| used)
                .map(|(h, i, _)| (h, i))
            else {
                break;
            };
            let bucket = self.entries.get_mut(&hash).expect("the bucket was just found");
            bucket.swap_remove(at).cached.set(false);
            if bucket.is_empty() {
                self.entries.remove(&hash);
            }
            self.len -= 1;
            evicted += 1;
        }
        evicted
    }

    /// Entries held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}
