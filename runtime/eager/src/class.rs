//! Shape classes in the compile cache (`--dynamic_shape`, issue 41): a segment whose exact
//! key misses is looked up again by its *class key*, the same key with its row dims erased to
//! `?`, and a class compiled once serves every shape of the class; a new shape in a known class
//! costs a binding (its symbols, sizes and launch parameters computed from the input shapes),
//! not a compile.
//!
//! The class key ([`class_key`]) erases the dims that rows vary in: every dim greater than 1
//! at a leading (not last) axis of an input, and every dim of the same value wherever it
//! stands in the segment's types, except at the last axis of a tensor of rank 2 or more (the
//! row, which a row class keeps static). A dim of 1 stays: the broadcast pattern is part of the
//! class. Dtypes, ranks, structure, attributes and the other dims are kept, so a class key is
//! a function of the exact key and equal keys erase alike.
//!
//! Erasing is sound whatever it erases: a class compiles from the `hl` function of the class
//! key itself (`?` where a dim was erased), a program for every conforming shape, and each
//! exact shape is bound once ([`ClassModule::bind`]) before the session runs it; a shape whose
//! binding fails (a dim the class cannot take, an overflowing size) compiles exactly. The
//! rule only decides how often classes are shared or refused: the pipeline compiles a *row
//! class* (`?` dims only among the leading axes of each value) and refuses anything else; a
//! refused class key is remembered ([`ClassSlot::Refused`]), so its shapes go straight to the
//! exact path rather than retrying the pipeline per shape.
//!
//! The table is least recently used first out, at the cache's capacity.

use std::rc::Rc;

use kiln_bytecode::module::TensorSpec;
use kiln_bytecode::shape::ClassModule;
use kiln_compiler::types::DYNAMIC;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::cache::{fold, SegmentKey};
use crate::node::TensorType;

/// What the session knows about a class key.
#[derive(Clone, Debug)]
pub(crate) enum ClassSlot {
    /// Compiled: the program for every shape of the class.
    Compiled(Rc<ClassModule>),
    /// The pipeline refused it (not a row class): its shapes compile exactly.
    Refused,
}

/// The class key of exact key `key`: `None` when it erases nothing (a segment with no row
/// dims is its own class).
pub(crate) fn class_key(key: &SegmentKey) -> Option<SegmentKey> {
    let mut rows: SmallVec<[i64; 4]> = SmallVec::new();
    for t in &key.inputs {
        if let Some((_, leading)) = t.shape.split_last() {
            for &d in leading {
                if d > 1 && !rows.contains(&d) {
                    rows.push(d);
                }
            }
        }
    }
    if rows.is_empty() {
        return None;
    }
    let erase = |t: &TensorType| {
        let last = if t.shape.len() >= 2 { t.shape.len() - 1 } else { usize::MAX };
        let shape: SmallVec<[i64; 4]> = (t.shape.iter().enumerate())
            .map(|(i, &d)| if i != last && rows.contains(&d) { DYNAMIC } else { d })
            .collect();
        TensorType { dtype: t.dtype, shape }
    };
    let inputs: Vec<TensorType> = key.inputs.iter().map(erase).collect();
    let nodes: Vec<_> =
        key.nodes.iter().map(|n| crate::node::Node { ty: erase(&n.ty), ..n.clone() }).collect();
    let hash = fold(&nodes, &inputs);
    Some(SegmentKey::new(nodes, hash, inputs, key.outputs.clone(), Rc::clone(&key.fusion)))
}

/// The byte sizes of `program`'s temporaries for exact key `key`'s shapes; `None` when its
/// class does not take them (a binding error: a dim out of range, an overflowing size) or
/// gives outputs of other types than the segment's.
pub(crate) fn bind(program: &ClassModule, key: &SegmentKey) -> Option<Box<[u64]>> {
    let inputs: Vec<TensorSpec> = key.inputs.iter().map(TensorType::spec).collect();
    let bound = program.bind(&inputs).ok()?;
    let outputs = key.outputs.iter().map(|&o| key.nodes[o as usize].ty.spec());
    let same = bound.host.outputs.len() == key.outputs.len()
        && bound.host.outputs.iter().zip(outputs).all(|((spec, _), want)| *spec == want);
    same.then(|| bound.host.temps.into_boxed_slice())
}

/// The class keys met, and what became of each.
#[derive(Debug, Default)]
pub(crate) struct ClassTable {
    slots: FxHashMap<Rc<SegmentKey>, (ClassSlot, u64)>,
    tick: u64,
}

impl ClassTable {
    /// What became of class key `key`, marked most recently used.
    pub(crate) fn get(&mut self, key: &SegmentKey) -> Option<ClassSlot> {
        self.tick += 1;
        let tick = self.tick;
        self.slots.get_mut(key).map(|(slot, used)| {
            *used = tick;
            slot.clone()
        })
    }

    /// Records what became of class key `key`; keeps at most `capacity` keys.
    pub(crate) fn insert(&mut self, key: SegmentKey, slot: ClassSlot, capacity: usize) {
        self.tick += 1;
        self.slots.insert(Rc::new(key), (slot, self.tick));
        while self.slots.len() > capacity.max(1) {
            let Some(oldest) =
                self.slots.iter().min_by_key(|(_, (_, used))| *used).map(|(k, _)| Rc::clone(k))
            else {
                break;
            };
            self.slots.remove(&oldest);
        }
    }

    /// Class keys held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use kiln_bytecode::isa::DType;
    use kiln_dialects::hl::{ADD, EXP};
    use smallvec::smallvec;

    use super::*;
    use crate::flags::Flags;
    use crate::node::{Node, OpKind, Operand};

    fn key(x: &[i64], w: &[i64]) -> SegmentKey {
        let (x, w) = (TensorType::new(DType::F32, x), TensorType::new(DType::F32, w));
        let exp = Node {
            kind: OpKind(&EXP),
            operands: smallvec![Operand::Input(0)],
            attrs: Box::new([]),
            ty: x.clone(),
            declared: false,
        };
        let add = Node {
            kind: OpKind(&ADD),
            operands: smallvec![Operand::Node(0), Operand::Input(1)],
            ..exp.clone()
        };
        let (nodes, inputs) = (vec![exp, add], vec![x, w]);
        let hash = fold(&nodes, &inputs);
        SegmentKey::new(nodes, hash, inputs, vec![1], Rc::new(Flags::default().fusion_key()))
    }

    fn dims(t: &TensorType) -> Vec<i64> {
        t.shape.to_vec()
    }

    #[test]
    fn row_dims_erase_and_the_rest_stays() {
        let k = class_key(&key(&[5, 7, 64], &[64])).expect("rows erase");
        assert_eq!(dims(&k.inputs[0]), [DYNAMIC, DYNAMIC, 64]);
        assert_eq!(dims(&k.inputs[1]), [64], "a trailing weight stays");
        assert_eq!(dims(&k.nodes[1].ty), [DYNAMIC, DYNAMIC, 64]);
        // Every shape of the class erases to the same key, another broadcast pattern (a dim
        // of 1) or row length to another.
        assert_eq!(class_key(&key(&[9, 3, 64], &[64])), Some(k));
        let a = class_key(&key(&[9, 1, 64], &[64])).unwrap();
        assert_eq!(dims(&a.inputs[0]), [DYNAMIC, 1, 64]);
        assert_ne!(class_key(&key(&[9, 3, 64], &[64])), Some(a));
        assert_ne!(class_key(&key(&[9, 3, 32], &[32])), class_key(&key(&[9, 3, 64], &[64])));
        // Nothing to erase: the segment is its own class.
        assert_eq!(class_key(&key(&[1, 64], &[64])), None);
        assert_eq!(class_key(&key(&[64], &[64])), None);
    }

    #[test]
    fn a_row_dim_erases_wherever_its_value_stands_but_at_a_last_axis() {
        // 64 rows of 64: the rank-1 weight of 64 erases too (the class is then not a row class
        // and the pipeline refuses it, which only costs that shape the exact path).
        let k = class_key(&key(&[64, 64], &[64])).unwrap();
        assert_eq!(dims(&k.inputs[0]), [DYNAMIC, 64]);
        assert_eq!(dims(&k.inputs[1]), [DYNAMIC]);
    }

    #[test]
    fn a_program_binds_the_shapes_it_takes_and_no_others() {
        // A static program (the trivial class) of two (4, 8) inputs: its own shapes bind, with
        // its temporaries' sizes; other shapes do not, so the session would compile them
        // exactly.
        let target = kiln_targets::Target::load(kiln_targets::DEFAULT_TARGET).unwrap();
        let own = key(&[4, 8], &[4, 8]);
        let module = crate::direct::compile(&own, &target).expect("a plain elementwise segment");
        let temps = module.host.temps.clone();
        let program = ClassModule::from(module);
        assert_eq!(bind(&program, &own).as_deref(), Some(&temps[..]));
        assert_eq!(bind(&program, &key(&[5, 8], &[5, 8])), None);
        assert_eq!(bind(&program, &key(&[4, 8], &[1, 8])), None);
    }

    #[test]
    fn the_table_remembers_and_forgets_the_least_recently_used() {
        let mut table = ClassTable::default();
        let k = |n| class_key(&key(&[n, 8], &[8])).unwrap();
        let ks: Vec<SegmentKey> =
            [2, 3, 4].iter().map(|&r| class_key(&key(&[r, 8, 16], &[16])).unwrap()).collect();
        assert_eq!(ks[0], ks[1], "one class");
        table.insert(k(2), ClassSlot::Refused, 2);
        table.insert(class_key(&key(&[2, 8, 16], &[16])).unwrap(), ClassSlot::Refused, 2);
        assert!(matches!(table.get(&k(5)), Some(ClassSlot::Refused)), "any shape of the class");
        table.insert(class_key(&key(&[2, 4], &[2])).unwrap(), ClassSlot::Refused, 2);
        assert_eq!(table.len(), 2);
        assert!(table.get(&k(3)).is_some(), "used last, kept");
        assert!(table.get(&ks[2]).is_none(), "the least recently used went");
    }
}
